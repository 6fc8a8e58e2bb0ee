import { COUNT_BOUNDARIES, drawCount } from './counts.ts';
import type { GltfSeed } from './gltf-seeds.ts';
import type { Mutant } from './mutate.ts';
import type { Rng } from './rng.ts';

/**
 * Structure-aware mutations of a glTF seed, a pure function of (seed, Rng) like every fuzz mutation.
 * JSON level (on a copy of the parsed JSON, re-serialised, and re-wrapped in a GLB with the seed's BIN
 * chunk): numbers, indices, counts, offsets and strides changed; keys deleted or duplicated (in the text);
 * values of the wrong type; subtrees copied elsewhere; node cycles and second parents; extensions required,
 * Draco / meshopt extension objects grafted on; arrays blown up; deep nesting. Binary level (on the file's
 * bytes): GLB header and chunk fields, bytes and NaN/huge values in the BIN chunk, bit flips, truncation at
 * structural points. Labels name the mutation and where, e.g. `json:index@/accessors/3/bufferView=-1`.
 */

type Json = Record<string, unknown> | unknown[];
type Path = readonly (string | number)[];

const INDEX_KEYS = new Set([
  'bufferView', 'buffer', 'accessor', 'node', 'mesh', 'skin', 'camera', 'material', 'sampler', 'source', 'index', 'input', 'output',
  'indices', 'skeleton', 'inverseBindMatrices', 'scene', 'POSITION', 'NORMAL', 'TANGENT', 'TEXCOORD_0', 'JOINTS_0', 'WEIGHTS_0', 'texCoord',
]);
const SIZE_KEYS = new Set(['count', 'byteOffset', 'byteLength', 'byteStride', 'componentType', 'mode']);
const EXTENSIONS = ['KHR_draco_mesh_compression', 'EXT_meshopt_compression', 'KHR_mesh_quantization', 'KHR_texture_basisu', 'KHR_materials_variants', 'EXT_unknown_thing'];

const ptr = (p: Path): string => `/${p.join('/')}`;

function at(root: unknown, p: Path): unknown {
  let v = root;
  for (const k of p) v = (v as Record<string | number, unknown>)?.[k];
  return v;
}

function set(root: unknown, p: Path, value: unknown): void {
  const parent = at(root, p.slice(0, -1)) as Record<string | number, unknown>;
  if (parent && typeof parent === 'object') parent[p[p.length - 1]!] = value;
}

function strange(r: Rng, orig: number): unknown {
  const pick = r.int(8);
  if (pick < 4) return r.chance(0.5) ? drawCount(r, orig) : r.pick(COUNT_BOUNDARIES);
  return r.pick([-1, -2147483648, 0.5, 1e308, -1e308, 2 ** 53 + 2, orig + 1, orig - 1, 1e-300, 4294967296]);
}

function otherType(r: Rng): unknown {
  return r.pick<unknown>(['x', '', [], [1, 2], {}, { a: 1 }, null, true, false, 3, -7.5]);
}

type JsonMutator = (json: Json, s: GltfSeed, r: Rng) => string | null;

const number: JsonMutator = (json, s, r) => {
  const nums = s.paths.filter((p) => typeof at(json, p) === 'number');
  if (nums.length === 0) return null;
  const p = r.pick(nums);
  const v = strange(r, at(json, p) as number);
  set(json, p, v);
  return `number@${ptr(p)}=${String(v)}`;
};

const index: JsonMutator = (json, s, r) => {
  const list = s.paths.filter((p) => INDEX_KEYS.has(String(p[p.length - 1])) || p[p.length - 2] === 'children' || p[p.length - 2] === 'joints');
  if (list.length === 0) return null;
  const p = r.pick(list);
  const v = r.pick([-1, 0, 1, 2, 3, 7, 255, 65535, 2 ** 31, (at(json, p) as number) + 1, 1.5]);
  set(json, p, v);
  return `index@${ptr(p)}=${v}`;
};

const size: JsonMutator = (json, s, r) => {
  const list = s.paths.filter((p) => SIZE_KEYS.has(String(p[p.length - 1])));
  if (list.length === 0) return null;
  const p = r.pick(list);
  const v = strange(r, Number(at(json, p)) || 0);
  set(json, p, v);
  return `size@${ptr(p)}=${String(v)}`;
};

const remove: JsonMutator = (json, s, r) => {
  const p = r.pick(s.paths);
  const parent = at(json, p.slice(0, -1));
  const key = p[p.length - 1]!;
  if (Array.isArray(parent)) parent.splice(key as number, 1);
  else if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[key as string];
  else return null;
  return `delete@${ptr(p)}`;
};

const wrongType: JsonMutator = (json, s, r) => {
  const p = r.pick(s.paths);
  const v = otherType(r);
  set(json, p, v);
  return `type@${ptr(p)}=${JSON.stringify(v)}`;
};

const copy: JsonMutator = (json, s, r) => {
  const from = r.pick(s.paths);
  const to = r.pick(s.paths);
  set(json, to, structuredClone(at(json, from)));
  return `copy@${ptr(from)}->${ptr(to)}`;
};

const nodeLinks: JsonMutator = (json, _s, r) => {
  const nodes = (json as Record<string, unknown>)['nodes'];
  if (!Array.isArray(nodes) || nodes.length === 0) return null;
  const a = r.int(nodes.length);
  const b = r.int(nodes.length);
  const n = nodes[a] as Record<string, unknown>;
  if (!n || typeof n !== 'object') return null;
  const children = Array.isArray(n['children']) ? (n['children'] as unknown[]) : (n['children'] = []);
  (children as unknown[]).push(b);
  return `child@/nodes/${a}+${b}`;
};

const extension: JsonMutator = (json, s, r) => {
  const root = json as Record<string, unknown>;
  const name = r.pick(EXTENSIONS);
  const which = r.int(3);
  if (which === 0) {
    root['extensionsRequired'] = [...((root['extensionsRequired'] as unknown[]) ?? []), name];
    root['extensionsUsed'] = [...((root['extensionsUsed'] as unknown[]) ?? []), name];
    return `require:${name}`;
  }
  const views = Array.isArray(root['bufferViews']) ? root['bufferViews'].length : 1;
  if (which === 1) {
    const prims = s.paths.filter((p) => p[0] === 'meshes' && p[2] === 'primitives' && p.length === 4);
    if (prims.length === 0) return null;
    const p = r.pick(prims);
    const attrs = { POSITION: r.int(4), JOINTS_0: r.int(6), WEIGHTS_0: r.int(6) };
    set(json, [...p, 'extensions'], { KHR_draco_mesh_compression: { bufferView: r.int(views + 1), attributes: attrs } });
    root['extensionsUsed'] = ['KHR_draco_mesh_compression'];
    return `draco@${ptr(p)}`;
  }
  const vs = s.paths.filter((p) => p[0] === 'bufferViews' && p.length === 2);
  if (vs.length === 0) return null;
  const p = r.pick(vs);
  const m = { buffer: 0, byteOffset: strange(r, 0), byteLength: strange(r, 64), byteStride: r.pick([2, 4, 8, 12, 256]), count: strange(r, 8), mode: r.pick(['ATTRIBUTES', 'TRIANGLES', 'INDICES', 'X']), filter: r.pick([undefined, 'OCTAHEDRAL', 'QUATERNION', 'EXPONENTIAL']) };
  set(json, [...p, 'extensions'], { EXT_meshopt_compression: m });
  root['extensionsUsed'] = ['EXT_meshopt_compression'];
  return `meshopt@${ptr(p)}`;
};

const blowUp: JsonMutator = (json, s, r) => {
  const arrays = s.paths.filter((p) => Array.isArray(at(json, p)) && (at(json, p) as unknown[]).length > 0);
  if (arrays.length === 0) return null;
  const p = r.pick(arrays);
  const a = at(json, p) as unknown[];
  const n = r.pick([100, 1000, 20000]);
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) out[i] = a[i % a.length];
  set(json, p, out);
  return `repeat@${ptr(p)}x${n}`;
};

/** Stands for deep nesting in the JSON until it is serialised (JSON.stringify itself recurses). */
const NEST = '@@nest@@';

const nest: JsonMutator = (json, _s, r) => {
  const depth = r.pick([100, 127, 129, 1000, 50000]);
  (json as Record<string, unknown>)['extras'] = `${NEST}${depth}`;
  return `nest x${depth}`;
};

function serialise(json: Json): string {
  return JSON.stringify(json).replace(new RegExp(`"${NEST}(\\d+)"`), (_m, d: string) => `${'['.repeat(Number(d))}1${']'.repeat(Number(d))}`);
}

const JSON_MUTATORS: readonly [JsonMutator, number][] = [
  [number, 4], [index, 6], [size, 5], [remove, 3], [wrongType, 3], [copy, 2], [nodeLinks, 2], [extension, 2], [blowUp, 1], [nest, 1],
];

function glb(json: Uint8Array, bin: Uint8Array | null): Uint8Array {
  const jl = (json.length + 3) & ~3;
  const bl = bin ? (bin.length + 3) & ~3 : 0;
  const total = 12 + 8 + jl + (bin ? 8 + bl : 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, jl, true);
  dv.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jl);
  out.set(json, 20);
  if (bin) {
    dv.setUint32(20 + jl, bl, true);
    dv.setUint32(24 + jl, 0x004e4942, true);
    out.set(bin, 28 + jl);
  }
  return out;
}

/** JSON text with one object's key written twice (a different value first); JSON.parse keeps the last. */
function withDuplicateKey(json: Json, s: GltfSeed, r: Rng): [string, string] | null {
  const objs = s.paths.filter((p) => { const v = at(json, p); return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > 0; });
  if (objs.length === 0) return null;
  const p = r.pick(objs);
  const o = at(json, p) as Record<string, unknown>;
  const key = r.pick(Object.keys(o));
  const marker = '\u0001dup\u0001';
  set(json, p, marker);
  const text = JSON.stringify(json).replace(JSON.stringify(marker), `{${JSON.stringify(key)}:${JSON.stringify(otherType(r))},${JSON.stringify(o).slice(1)}`);
  return [text, `dupkey@${ptr(p)}/${key}`];
}

function jsonMutant(s: GltfSeed, r: Rng): { bytes: Uint8Array; label: string } | null {
  const json = structuredClone(s.json) as Json;
  let text: string | null = null;
  let label: string;
  if (r.chance(0.08)) {
    const d = withDuplicateKey(json, s, r);
    if (!d) return null;
    [text, label] = d;
  } else {
    const labels: string[] = [];
    const k = r.skewed(3);
    for (let i = 0; i < k; i++) {
      const m = JSON_MUTATORS[r.weighted(JSON_MUTATORS.map((x) => x[1]))]![0];
      const l = m(json, s, r);
      if (l) labels.push(l);
    }
    if (labels.length === 0) return null;
    label = labels.join('+');
  }
  const bytes = new TextEncoder().encode(text ?? serialise(json));
  return { bytes: s.format === 'glb' ? glb(bytes, s.bin) : bytes, label: `json:${label}` };
}

function binaryMutant(s: GltfSeed, r: Rng): { bytes: Uint8Array; label: string } | null {
  const b = s.bytes.slice();
  const dv = new DataView(b.buffer);
  const kind = r.int(s.format === 'glb' ? 5 : 2);
  if (kind === 0) {
    const n = r.skewed(16);
    for (let i = 0; i < n; i++) b[r.int(b.length)]! ^= 1 << r.int(8);
    return { bytes: b, label: `bitflip x${n}` };
  }
  if (kind === 1) {
    const at = s.cuts[r.int(s.cuts.length)] ?? r.int(b.length);
    return { bytes: b.subarray(0, at), label: `truncate@${at}` };
  }
  if (kind === 2) {
    const field = r.pick([4, 8]);
    const v = r.pick(COUNT_BOUNDARIES);
    dv.setUint32(field, v, true);
    return { bytes: b, label: `glb-header@${field}=${v}` };
  }
  if (kind === 3) {
    const h = r.pick(s.chunkHeaders);
    const field = r.chance(0.7) ? 0 : 4;
    const v = field === 0 ? r.pick([...COUNT_BOUNDARIES, dv.getUint32(h, true) + r.pick([-4, -1, 1, 4])]) : r.pick([0x4e4f534a, 0x004e4942, 0, 0x12345678]);
    dv.setUint32(h + field, v >>> 0, true);
    return { bytes: b, label: `chunk@${h + field}=${v >>> 0}` };
  }
  if (s.binAt < 0 || !s.bin) return null;
  const n = r.skewed(8);
  const where: number[] = [];
  for (let i = 0; i < n; i++) {
    const at = s.binAt + (r.int(s.bin.length >> 2) << 2);
    const v = r.pick([NaN, Infinity, -Infinity, 3.4e38, -1]);
    if (r.chance(0.5)) dv.setFloat32(at, v, true);
    else dv.setUint32(at, r.pick([0xffffffff, 0xffff, 0xff, 0x7fffffff, 0x00ff00ff]), true);
    where.push(at);
  }
  return { bytes: b, label: `bin x${n}@${where[0]}` };
}

/** Case mutant of a glTF seed: JSON-level two times in three, otherwise binary. */
export function mutateGltf(s: GltfSeed, fileName: string, r: Rng): Mutant {
  for (let attempt = 0; attempt < 16; attempt++) {
    const m = r.chance(0.67) ? jsonMutant(s, r) : binaryMutant(s, r);
    if (m && m.bytes.length <= 24 << 20) return { bytes: m.bytes, fileName, label: m.label };
  }
  return { bytes: s.bytes, fileName, label: 'unchanged' };
}

/** The sweep's mutant: truncation point k of `of`, evenly spread over the seed's structural points. */
export function truncatedGltf(s: GltfSeed, fileName: string, k: number, of: number): Mutant {
  const n = s.cuts.length;
  const at = n === 0 ? 0 : s.cuts[Math.min(n - 1, Math.floor(((k + 0.5) * n) / of))]!;
  return { bytes: s.bytes.subarray(0, at), fileName, label: `truncate@${at}` };
}
