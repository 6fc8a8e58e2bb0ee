import type { HostileInput } from './hostile.ts';

/**
 * Hand-built hostile glTF inputs that mutating the seeds cannot reach: nesting far past the JSON bound,
 * hierarchies and fan-outs of tens of thousands, counts that promise gigabytes, mesh × morph-target
 * products, a GLB chunk claiming 4 GiB, a multi-MiB data: URI. Each is a few MiB at most and must load or
 * fail with a LoadError in time and memory, like any mutant. Synthetic: no corpus content.
 */

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** One triangle: POSITION (accessor 0, 3 × VEC3) and indices (accessor 1), in one data: URI buffer. */
function triangle(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const f = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const bytes = new Uint8Array(44);
  bytes.set(new Uint8Array(f.buffer));
  bytes.set(new Uint8Array(new Uint16Array([0, 1, 2, 0]).buffer), 36);
  const uri = `data:application/octet-stream;base64,${btoa(String.fromCharCode(...bytes))}`;
  return {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5123, count: 3, type: 'SCALAR' },
    ],
    bufferViews: [{ buffer: 0, byteLength: 36 }, { buffer: 0, byteOffset: 36, byteLength: 6 }],
    buffers: [{ byteLength: 44, uri }],
    ...extra,
  };
}

const doc = (json: unknown): Uint8Array => enc(JSON.stringify(json));
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

function glbClaiming(chunkLength: number): Uint8Array {
  const json = enc(JSON.stringify({ asset: { version: '2.0' } }).padEnd(28, ' '));
  const out = new Uint8Array(12 + 8 + json.length + 8 + 16);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, out.length, true);
  dv.setUint32(12, json.length, true);
  dv.setUint32(16, 0x4e4f534a, true);
  out.set(json, 20);
  dv.setUint32(20 + json.length, chunkLength, true);
  dv.setUint32(24 + json.length, 0x004e4942, true);
  return out;
}

export const GLTF_HOSTILE: readonly HostileInput[] = [
  { name: 'gltf-nest-100000.gltf', bytes: (k = 1) => enc(`{"asset":{"version":"2.0"},"extras":${'['.repeat(100000 * k)}${']'.repeat(100000 * k)}}`) },
  {
    name: 'gltf-node-chain-50000.gltf',
    bytes: (k = 1) => {
      const n = 50000 * k;
      const t = triangle();
      t['nodes'] = range(n).map((i) => (i + 1 < n ? { children: [i + 1] } : { mesh: 0 }));
      return doc(t);
    },
  },
  {
    name: 'gltf-fanout-50000-children.gltf',
    bytes: (k = 1) => {
      const n = 50000 * k;
      const t = triangle();
      t['nodes'] = [{ children: range(n).map((i) => i + 1) }, ...range(n).map(() => ({ mesh: 0 }))];
      return doc(t);
    },
  },
  {
    name: 'gltf-count-2e9-no-view.gltf',
    bytes: () => {
      const t = triangle();
      (t['accessors'] as unknown[]).push({ componentType: 5126, count: 2 ** 31 - 1, type: 'MAT4' });
      (t['meshes'] as { primitives: { targets?: unknown[] }[] }[])[0]!.primitives[0]!.targets = [{ POSITION: 2 }];
      return doc(t);
    },
  },
  {
    name: 'gltf-sparse-count-huge.gltf',
    bytes: () => {
      const t = triangle();
      (t['accessors'] as unknown[]).push({ componentType: 5126, count: 2 ** 30, type: 'VEC3', sparse: { count: 2 ** 30, indices: { bufferView: 1, componentType: 5125 }, values: { bufferView: 0 } } });
      (t['meshes'] as { primitives: { targets?: unknown[] }[] }[])[0]!.primitives[0]!.targets = [{ POSITION: 2 }];
      return doc(t);
    },
  },
  {
    name: 'gltf-meshes-x-targets-400x400.gltf',
    bytes: (k = 1) => {
      const n = 400 * k;
      const t = triangle();
      const prim = { attributes: { POSITION: 0 }, indices: 1, targets: range(n).map(() => ({ POSITION: 0 })) };
      t['meshes'] = range(n).map(() => ({ primitives: [prim] }));
      t['nodes'] = [{ children: range(n).map((i) => i + 1) }, ...range(n).map((i) => ({ mesh: i }))];
      return doc(t);
    },
  },
  {
    name: 'gltf-channels-100000.gltf',
    bytes: (k = 1) => {
      const t = triangle();
      const times = new Float32Array([0, 1]);
      const rot = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1]);
      const bytes = new Uint8Array(40);
      bytes.set(new Uint8Array(times.buffer));
      bytes.set(new Uint8Array(rot.buffer), 8);
      (t['buffers'] as unknown[]).push({ byteLength: 40, uri: `data:application/octet-stream;base64,${btoa(String.fromCharCode(...bytes))}` });
      (t['bufferViews'] as unknown[]).push({ buffer: 1, byteLength: 8 }, { buffer: 1, byteOffset: 8, byteLength: 32 });
      (t['accessors'] as unknown[]).push({ bufferView: 2, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] }, { bufferView: 3, componentType: 5126, count: 2, type: 'VEC4' });
      t['animations'] = [{ samplers: [{ input: 2, output: 3 }], channels: range(100000 * k).map(() => ({ sampler: 0, target: { node: 0, path: 'rotation' } })) }];
      return doc(t);
    },
  },
  {
    name: 'gltf-skin-20000-joints.gltf',
    bytes: (k = 1) => {
      const n = 20000 * k;
      const t = triangle();
      t['nodes'] = [{ mesh: 0, skin: 0, children: range(n).map((i) => i + 1) }, ...range(n).map(() => ({}))];
      t['skins'] = [{ joints: range(n).map((i) => i + 1) }];
      return doc(t);
    },
  },
  { name: 'glb-bin-chunk-4GiB.glb', bytes: () => glbClaiming(0xfffffff0) },
  {
    name: 'gltf-data-uri-4MiB.gltf',
    bytes: (k = 1) => {
      const t = triangle();
      (t['buffers'] as unknown[]).push({ byteLength: 2 ** 31, uri: `data:application/octet-stream;base64,${'A'.repeat(4 << 20) .repeat(k)}` });
      return doc(t);
    },
  },
  {
    name: 'gltf-buffers-10000.gltf',
    bytes: (k = 1) => {
      const t = triangle();
      const b = (t['buffers'] as unknown[])[0];
      t['buffers'] = range(10000 * k).map(() => b);
      return doc(t);
    },
  },
];
