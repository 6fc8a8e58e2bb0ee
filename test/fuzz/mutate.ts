import { drawTextCount, drawU32Count } from './counts.ts';
import { packMszip } from './mszip-pack.ts';
import type { Rng } from './rng.ts';
import type { Shape } from './structure.ts';

/**
 * Structure-aware mutations of one model file. Every mutation is computed from the file's Shape
 * (structure.ts) and a case's Rng only, so a mutant is reproducible from (file, seed, case index).
 *
 * A mutation is a list of splices against the original bytes (applied non-overlapping, in offset order),
 * or for compressed .x a whole new file (the decompressed stream mutated, then re-packed into MSZIP blocks
 * so the damage gets past the decompressor). Labels name what was done and where, e.g.
 * `count@1234=2147483647` or `inner:nest-frame@5678x100000/b32768`, for failure reports.
 */

export interface Edit {
  readonly at: number;
  readonly del: number;
  readonly ins: Uint8Array;
}

export type Mutation = { readonly label: string; readonly edits: readonly Edit[] } | { readonly label: string; readonly bytes: Uint8Array };

export interface Mutant {
  readonly bytes: Uint8Array;
  /** The name given to the loader: the corpus name, occasionally with another extension. */
  readonly fileName: string;
  readonly label: string;
}

type Mutator = (s: Shape, r: Rng) => Mutation | null;

/** Largest mutant produced; bigger ones are re-rolled (keeps every case's time comparable). */
const MAX_MUTANT_BYTES = 24 * 1024 * 1024;

const ascii = (s: string): Uint8Array => {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
};

function repeat(unit: Uint8Array, times: number): Uint8Array {
  const out = new Uint8Array(unit.length * times);
  for (let i = 0; i < times; i++) out.set(unit, i * unit.length);
  return out;
}

/** The parts one after another in a new array. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function u16(v: number): Uint8Array {
  return new Uint8Array([v & 0xff, (v >>> 8) & 0xff]);
}

function u32(v: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, v >>> 0, true);
  return out;
}

/** Span k of a flattened span list as [start, end], or null when the list is empty. */
function pickSpan(spans: Int32Array, r: Rng): [number, number] | null {
  const n = spans.length >> 1;
  if (n === 0) return null;
  const k = r.int(n);
  return [spans[2 * k]!, spans[2 * k + 1]!];
}

const replace = (at: number, del: number, ins: Uint8Array): Edit => ({ at, del, ins });

/** The splices applied to `base`: sorted by offset, any that overlap an earlier one dropped. */
export function applyEdits(base: Uint8Array, edits: readonly Edit[]): Uint8Array {
  const sorted = [...edits].sort((a, b) => a.at - b.at);
  const kept: Edit[] = [];
  let end = 0;
  for (const e of sorted) {
    const at = Math.max(0, Math.min(base.length, e.at));
    const del = Math.max(0, Math.min(base.length - at, e.del));
    if (kept.length > 0 && at < end) continue;
    kept.push({ at, del, ins: e.ins });
    end = at + del;
  }
  let size = base.length;
  for (const e of kept) size += e.ins.length - e.del;
  const out = new Uint8Array(size);
  let src = 0;
  let o = 0;
  for (const e of kept) {
    out.set(base.subarray(src, e.at), o);
    o += e.at - src;
    out.set(e.ins, o);
    o += e.ins.length;
    src = e.at + e.del;
  }
  out.set(base.subarray(src), o);
  return out;
}

// ---------------------------------------------------------------- generic byte mutations

const bitflip: Mutator = (s, r) => {
  const n = s.bytes.length;
  if (n === 0) return null;
  const edits: Edit[] = [];
  const k = r.skewed(16);
  for (let i = 0; i < k; i++) {
    const at = r.int(n);
    edits.push(replace(at, 1, new Uint8Array([s.bytes[at]! ^ (1 << r.int(8))])));
  }
  return { label: `bitflip x${k}@${edits[0]!.at}`, edits };
};

const INTERESTING_BYTES = [0x00, 0xff, 0x7f, 0x80, 0x7b, 0x7d, 0x3b, 0x2c, 0x22, 0x3c, 0x3e, 0x0a, 0x20, 0x2d, 0x2e, 0x30, 0x39];
const TEXT_ALPHABET = ascii('{};,"<>0123456789.-+eE #/\n\t:*abcXYZ');

const byteRun: Mutator = (s, r) => {
  const n = s.bytes.length;
  if (n === 0) return null;
  const at = r.int(n);
  const len = Math.min(n - at, r.skewed(64));
  const run = new Uint8Array(len);
  const style = r.int(3);
  const fill = r.pick(INTERESTING_BYTES);
  for (let i = 0; i < len; i++) run[i] = style === 0 ? r.int(256) : style === 1 ? fill : TEXT_ALPHABET[r.int(TEXT_ALPHABET.length)]!;
  return { label: `byterun${style}@${at}x${len}`, edits: [replace(at, len, run)] };
};

const insertBytes: Mutator = (s, r) => {
  const at = r.int(s.bytes.length + 1);
  const len = r.skewed(64);
  const ins = new Uint8Array(len);
  for (let i = 0; i < len; i++) ins[i] = r.chance(0.5) ? r.int(256) : TEXT_ALPHABET[r.int(TEXT_ALPHABET.length)]!;
  return { label: `insert@${at}x${len}`, edits: [replace(at, 0, ins)] };
};

const deleteRange: Mutator = (s, r) => {
  const n = s.bytes.length;
  if (n === 0) return null;
  const at = r.int(n);
  const len = Math.min(n - at, r.skewed(Math.max(1, n >> 3)));
  return { label: `delete@${at}x${len}`, edits: [replace(at, len, new Uint8Array(0))] };
};

const truncate: Mutator = (s, r) => {
  const n = s.cuts.length;
  const at = n > 0 && r.chance(0.95) ? s.cuts[r.int(n)]! : r.int(s.bytes.length + 1);
  return { label: `truncate@${at}`, edits: [replace(at, s.bytes.length - at, new Uint8Array(0))] };
};

/** Truncation at structural point `k` of `of` evenly spread ones (the deterministic sweep). */
export function truncationAt(s: Shape, k: number, of: number): Mutation {
  const n = s.cuts.length;
  const at = n === 0 ? Math.floor((k * s.bytes.length) / Math.max(1, of)) : s.cuts[Math.min(n - 1, Math.floor((k * n) / Math.max(1, of)))]!;
  return { label: `truncate@${at}`, edits: [replace(at, s.bytes.length - at, new Uint8Array(0))] };
}

const header: Mutator = (s, r) => {
  if (s.bytes.length < 16) return null;
  const field = r.int(3);
  const at = 4 + field * 4;
  const choices = [
    ['0302', '0303', '0100', '9999', 'abcd', '\0\0\0\0'],
    ['txt ', 'bin ', 'tzip', 'bzip', 'TXT ', 'zip '],
    ['0032', '0064', '0016', '0000', '64  '],
  ][field]!;
  const value = r.pick(choices);
  return { label: `header${field}=${value.trim()}`, edits: [replace(at, 4, ascii(value))] };
};

/** Files that are not models at all (empty.x): give them a header and some body. */
const headerInsert: Mutator = (_s, r) => {
  const head = r.pick(['xof 0303txt 0032', 'xof 0303bin 0032', 'xof 0303bzip0032', 'xof 0302tzip0064', '***m3d-File-Header***\n', 'xof ']);
  const body = r.pick(['', 'Frame {', 'Mesh { 3; 0;0;0;, 1;1;1;, 2;2;2;; 1; 3;0,1,2;; }', '\u0001\u0000', '#Vertices 1\n']);
  return { label: `prefix=${head.trim()}`, edits: [replace(0, 0, ascii(head + body))] };
};

// ---------------------------------------------------------------- text (.x text and .m3d)

const textCount: Mutator = (s, r) => {
  const span = pickSpan(s.counts.length > 0 && r.chance(0.85) ? s.counts : s.numbers, r);
  if (span === null) return null;
  const orig = Number(String.fromCharCode(...s.bytes.subarray(span[0], span[1])));
  const value = drawTextCount(r, orig);
  return { label: `count@${span[0]}=${value}`, edits: [replace(span[0], span[1] - span[0], ascii(value))] };
};

const HUGE_NUMBERS = ['1e308', '-1e308', '1e999', '-1e999', '3.402823e38', '3.5e38', '1e-320', '123456789012345678901234567890', '0.0', '-0', '1e+', '.', '-', '1.2.3', '00000000000000000000001'];
const NON_FINITE = ['NaN', 'nan', '-nan', 'inf', '-inf', 'Infinity', '1.#QNAN', '-1.#IND00', '1.#INF', '-1.#INF00', '1.#SNAN', '-nan(ind)', '1.#'];

function textNumber(values: readonly string[], tag: string): Mutator {
  return (s, r) => {
    const edits: Edit[] = [];
    const k = r.chance(0.8) ? 1 : r.skewed(64);
    let first = -1;
    for (let i = 0; i < k; i++) {
      const span = pickSpan(s.numbers, r);
      if (span === null) return null;
      if (first < 0) first = span[0];
      edits.push(replace(span[0], span[1] - span[0], ascii(r.pick(values))));
    }
    return { label: `${tag} x${k}@${first}`, edits };
  };
}

/** Two tokens exchanged: neighbours half the time (a count and its list), anywhere otherwise. */
const swapTokens: Mutator = (s, r) => {
  const n = s.tokens.length >> 1;
  if (n < 2) return null;
  const i = r.int(n);
  const j = r.chance(0.5) ? Math.min(n - 1, i + r.range(1, 8)) : r.int(n);
  if (i === j) return null;
  const a = [s.tokens[2 * i]!, s.tokens[2 * i + 1]!] as const;
  const b = [s.tokens[2 * j]!, s.tokens[2 * j + 1]!] as const;
  const ta = s.bytes.slice(a[0], a[1]);
  const tb = s.bytes.slice(b[0], b[1]);
  return { label: `swap@${a[0]},${b[0]}`, edits: [replace(a[0], a[1] - a[0], tb), replace(b[0], b[1] - b[0], ta)] };
};

const tokenDelete: Mutator = (s, r) => {
  const span = pickSpan(s.tokens, r);
  if (span === null) return null;
  return { label: `deltoken@${span[0]}`, edits: [replace(span[0], span[1] - span[0], new Uint8Array(0))] };
};

const tokenDup: Mutator = (s, r) => {
  const span = pickSpan(s.tokens, r);
  if (span === null) return null;
  const text = s.bytes.slice(span[0], span[1]);
  const sep = s.kind === 'x-binary' ? new Uint8Array(0) : ascii(' ');
  return { label: `duptoken@${span[0]}`, edits: [replace(span[1], 0, concat(sep, text))] };
};

/** A run of up to 64 tokens repeated up to 50,000 times (at most ~2 MiB): many objects, many frames. */
const repeatSpan: Mutator = (s, r) => {
  const n = s.tokens.length >> 1;
  if (n === 0) return null;
  const i = r.int(n);
  const j = Math.min(n - 1, i + r.skewed(64) - 1);
  const start = s.tokens[2 * i]!;
  const end = s.tokens[2 * j + 1]!;
  const unit = s.bytes.slice(start, end);
  if (unit.length === 0) return null;
  const most = Math.max(2, Math.min(50000, Math.floor((2 << 20) / unit.length)));
  const times = r.pick([2, 10, 1000, most]);
  const sep = s.kind === 'x-binary' ? unit : concat(unit, ascii('\n'));
  return { label: `repeat@${start}x${unit.length}*${times}`, edits: [replace(end, 0, repeat(sep, Math.min(times, most)))] };
};

function lineBounds(bytes: Uint8Array, at: number): [number, number] {
  let a = at;
  while (a > 0 && bytes[a - 1] !== 10) a--;
  let b = at;
  while (b < bytes.length && bytes[b] !== 10) b++;
  return [a, Math.min(bytes.length, b + 1)];
}

const lineDelete: Mutator = (s, r) => {
  if (s.bytes.length === 0) return null;
  const [a, b] = lineBounds(s.bytes, r.int(s.bytes.length));
  return { label: `delline@${a}`, edits: [replace(a, b - a, new Uint8Array(0))] };
};

const lineDup: Mutator = (s, r) => {
  if (s.bytes.length === 0) return null;
  const [a, b] = lineBounds(s.bytes, r.int(s.bytes.length));
  const times = r.pick([1, 1, 2, 100]);
  return { label: `dupline@${a}*${times}`, edits: [replace(b, 0, repeat(s.bytes.slice(a, b), times))] };
};

const X_WORDS = ['Frame', 'Mesh', 'MeshNormals', 'MeshTextureCoords', 'MeshMaterialList', 'Material', 'SkinWeights', 'XSkinMeshHeader',
  'FrameTransformMatrix', 'AnimationSet', 'Animation', 'AnimationKey', 'AnimTicksPerSecond', 'DeclData', 'FVFData', 'TextureFilename',
  'EffectInstance', 'EffectParamString', 'SkinlabMorphTarget', 'SkinlabMorphTrack', 'template', 'Header', '{', '}', ';', ';;', '"', '<', '>'];
const M3D_WORDS = ['***************m3d-File-Header***************', '***************Materials*********************', '***************SubsetTable*******************',
  '***************Vertices**********************', '***************Triangles*********************', '***************BoneOffsets*******************',
  '***************BoneHierarchy*****************', '***************AnimationClips****************', '***Meshes***', '***MorphTargets***', '***MorphTracks***',
  '#Materials', '#Vertices', '#Triangles', '#Bones', '#AnimationClips', '#Keyframes:', 'Position:', 'Tangent:', 'Normal:', 'Tex-Coords:',
  'BlendWeights:', 'BlendIndices:', 'BoneOffset0', 'ParentIndexOfBone0:', 'AnimationClip', 'Bone0', 'Time:', 'Pos:', 'Scale:', 'Quat:',
  'SubsetID:', 'Diffuse:', 'Name:', '{', '}', 'Mesh', 'MorphTarget', 'MorphTrack', 'Kind:', 'Vertex:', 'dPos:', 'Weight:',
  '***ClipMarkers***', '#ClipMarkers', 'Clip', '#Markers:', '***BoneNames***', '#BoneNames', 'Bone0:', 'Bone1:'];

/** A token replaced by a keyword of the format (another template, another section, a stray brace). */
const keyword: Mutator = (s, r) => {
  const span = pickSpan(s.tokens, r);
  if (span === null) return null;
  const word = r.pick(s.kind === 'm3d' ? M3D_WORDS : X_WORDS);
  return { label: `keyword@${span[0]}=${word.slice(0, 20)}`, edits: [replace(span[0], span[1] - span[0], ascii(word))] };
};

const DEPTHS = [300, 5000, 100000];

/** Deep nesting inserted at a structural point: frames, references, template declarations, m3d braces. */
const textNest: Mutator = (s, r) => {
  if (s.cuts.length === 0) return null;
  const at = s.cuts[r.int(s.cuts.length)]!;
  const depth = r.pick(DEPTHS);
  const style = s.kind === 'm3d' ? r.pick(['brace-m3d', 'clip-m3d']) : r.pick(['frame', 'frame-open', 'ref', 'template', 'mesh', 'anim']);
  const open: Record<string, string> = {
    'brace-m3d': '{ ',
    'clip-m3d': 'AnimationClip a { ',
    frame: 'Frame n{',
    'frame-open': 'Frame n{',
    ref: '{ ',
    template: 'template T { ',
    mesh: 'Mesh m{ 0;0; ',
    anim: 'AnimationSet { Animation { ',
  };
  const closed = style === 'frame' || style === 'template' || style === 'mesh' || style === 'anim' || style === 'brace-m3d';
  const ins = concat(repeat(ascii(open[style]!), depth), closed ? repeat(ascii('}'), depth * (style === 'anim' ? 2 : 1)) : new Uint8Array(0));
  return { label: `nest-${style}@${at}x${depth}`, edits: [replace(at, 0, ins)] };
};

// ---------------------------------------------------------------- binary .x

const binaryCount: Mutator = (s, r) => {
  const span = pickSpan(s.counts, r);
  if (span === null) return null;
  const orig = new DataView(s.bytes.buffer, s.bytes.byteOffset).getUint32(span[0], true);
  const value = drawU32Count(r, orig);
  return { label: `count@${span[0]}=${value}`, edits: [replace(span[0], 4, u32(value))] };
};

/** An element of an INTEGER_LIST (indices, counts inside lists, DWORD-encoded floats). */
const binaryInt: Mutator = (s, r) => {
  const span = pickSpan(s.intLists, r);
  if (span === null || span[1] - span[0] < 4) return null;
  const at = span[0] + 4 * r.int((span[1] - span[0]) >> 2);
  const value = drawU32Count(r, new DataView(s.bytes.buffer, s.bytes.byteOffset).getUint32(at, true));
  return { label: `int@${at}=${value}`, edits: [replace(at, 4, u32(value))] };
};

const FLOAT32_BITS = [0x7fc00000, 0xffffffff, 0x7f800000, 0xff800000, 0x7f7fffff, 0x00000001, 0x80000000, 0x4f000000];
const FLOAT64_VALUES = [NaN, Infinity, -Infinity, 1.7976931348623157e308, 5e-324, -0, 1e300, 4294967296];

const binaryFloat: Mutator = (s, r) => {
  const fb = s.floatBytes;
  const span = pickSpan(s.floatLists, r);
  if (span === null || span[1] - span[0] < fb) return null;
  const k = r.chance(0.8) ? 1 : r.skewed(64);
  const edits: Edit[] = [];
  for (let i = 0; i < k; i++) {
    const at = span[0] + fb * r.int((span[1] - span[0]) / fb);
    const out = new Uint8Array(fb);
    const view = new DataView(out.buffer);
    if (fb === 4) view.setUint32(0, r.pick(FLOAT32_BITS), true);
    else view.setFloat64(0, r.pick(FLOAT64_VALUES), true);
    edits.push(replace(at, fb, out));
  }
  return { label: `float x${k}@${edits[0]!.at}`, edits };
};

/** A token's 16-bit type word replaced (another known token, or an unknown one). */
const tokenType: Mutator = (s, r) => {
  const span = pickSpan(s.tokens, r);
  if (span === null) return null;
  const t = r.chance(0.7) ? r.pick([1, 2, 3, 5, 6, 7, 10, 11, 19, 20, 31, 40, 52, 0]) : r.int(65536);
  return { label: `token@${span[0]}=${t}`, edits: [replace(span[0], 2, u16(t))] };
};

function binaryName(name: string): Uint8Array {
  return concat(u16(1), u32(name.length), ascii(name));
}

const binaryNest: Mutator = (s, r) => {
  if (s.cuts.length === 0) return null;
  const at = s.cuts[r.int(s.cuts.length)]!;
  const depth = r.pick(DEPTHS);
  const closed = r.chance(0.5);
  const unit = concat(binaryName('Frame'), binaryName('n'), u16(10));
  const ins = concat(repeat(unit, depth), closed ? repeat(u16(11), depth) : new Uint8Array(0));
  return { label: `nest-bin${closed ? '' : '-open'}@${at}x${depth}`, edits: [replace(at, 0, ins)] };
};

// ---------------------------------------------------------------- MSZIP container

function blockAt(s: Shape, r: Rng): { at: number; packed: number } | null {
  if (s.blocks.length === 0) return null;
  const at = s.blocks[r.int(s.blocks.length)]!;
  return { at, packed: s.bytes[at + 2]! | (s.bytes[at + 3]! << 8) };
}

const blockFlip: Mutator = (s, r) => {
  const b = blockAt(s, r);
  if (b === null || b.packed <= 2) return null;
  const k = r.skewed(8);
  const edits: Edit[] = [];
  for (let i = 0; i < k; i++) {
    const at = b.at + 6 + r.int(b.packed - 2);
    edits.push(replace(at, 1, new Uint8Array([r.chance(0.5) ? s.bytes[at]! ^ (1 << r.int(8)) : r.int(256)])));
  }
  return { label: `blockflip x${k}@${b.at}`, edits };
};

const blockField: Mutator = (s, r) => {
  const b = blockAt(s, r);
  if (b === null) return null;
  const packedField = r.chance(0.5);
  const orig = packedField ? b.packed : s.bytes[b.at]! | (s.bytes[b.at + 1]! << 8);
  const value = r.pick([0, 1, 2, orig - 1, orig + 1, 65535, orig >> 1, 32768]) & 0xffff;
  return { label: `block${packedField ? 'packed' : 'raw'}@${b.at}=${value}`, edits: [replace(b.at + (packedField ? 2 : 0), 2, u16(value))] };
};

const blockSignature: Mutator = (s, r) => {
  const b = blockAt(s, r);
  if (b === null) return null;
  const sig = r.pick(['KC', 'CJ', '\0\0', 'ck', 'C']);
  return { label: `blockck@${b.at}=${sig}`, edits: [replace(b.at + 4, sig.length, ascii(sig))] };
};

const totalSize: Mutator = (s, r) => {
  if (s.bytes.length < 20) return null;
  const orig = new DataView(s.bytes.buffer, s.bytes.byteOffset).getUint32(16, true);
  const value = r.pick([0, 15, 16, 17, orig - 1, orig + 1, orig * 2, 0xffffffff, 512 * 1024 * 1024 + 1, 0x7fffffff]) >>> 0;
  return { label: `total=${value}`, edits: [replace(16, 4, u32(value))] };
};

/** A whole block dropped, doubled or moved: sizes still agree, the stream does not. */
const blockShuffle: Mutator = (s, r) => {
  const b = blockAt(s, r);
  if (b === null) return null;
  const whole = s.bytes.slice(b.at, b.at + 4 + b.packed);
  const style = r.int(3);
  if (style === 0) return { label: `blockdrop@${b.at}`, edits: [replace(b.at, whole.length, new Uint8Array(0))] };
  if (style === 1) return { label: `blockdup@${b.at}`, edits: [replace(b.at + whole.length, 0, whole)] };
  return { label: `blockmove@${b.at}`, edits: [replace(b.at, whole.length, new Uint8Array(0)), replace(20, 0, whole)] };
};

/** The decompressed stream mutated by the text or binary mutators, then re-packed. */
const inner: Mutator = (s, r) => {
  if (s.inner === null) return null;
  const m = pickMutation(s.inner, r);
  if (m === null) return null;
  const stream = 'bytes' in m ? m.bytes : applyEdits(s.inner.bytes, m.edits);
  if (stream.length < 16 || stream.length > MAX_MUTANT_BYTES) return null;
  const block = r.pick([32768, 32768, 65000, 4096, r.range(1, 65000)]);
  return { label: `inner:${m.label}/b${block}`, bytes: packMszip(stream, block) };
};

// ---------------------------------------------------------------- choice

type Table = readonly (readonly [Mutator, number])[];

const COMMON_TEXT: Table = [
  [bitflip, 6], [byteRun, 5], [insertBytes, 2], [deleteRange, 3], [truncate, 8], [textCount, 12],
  [textNumber(HUGE_NUMBERS, 'huge'), 5], [textNumber(NON_FINITE, 'nonfinite'), 5], [swapTokens, 6], [tokenDelete, 4],
  [tokenDup, 3], [lineDelete, 3], [lineDup, 3], [textNest, 4], [repeatSpan, 4], [keyword, 4],
];

const TABLES: Record<Shape['kind'], Table> = {
  'x-text': [...COMMON_TEXT, [header, 3]],
  m3d: COMMON_TEXT,
  'x-binary': [
    [bitflip, 6], [byteRun, 5], [insertBytes, 2], [deleteRange, 3], [truncate, 8], [binaryCount, 12], [binaryInt, 6],
    [binaryFloat, 8], [swapTokens, 6], [tokenDelete, 4], [tokenDup, 3], [tokenType, 4], [binaryNest, 4], [repeatSpan, 4], [header, 3],
  ],
  'x-tzip': [[bitflip, 3], [byteRun, 2], [truncate, 6], [blockFlip, 6], [blockField, 6], [blockSignature, 3], [totalSize, 4], [blockShuffle, 3], [header, 2], [inner, 30]],
  'x-bzip': [[bitflip, 3], [byteRun, 2], [truncate, 6], [blockFlip, 6], [blockField, 6], [blockSignature, 3], [totalSize, 4], [blockShuffle, 3], [header, 2], [inner, 30]],
  raw: [[insertBytes, 5], [headerInsert, 5], [bitflip, 1]],
};

/** One mutation for the shape's kind (null when the chosen one does not apply, e.g. no numbers). */
export function pickMutation(s: Shape, r: Rng): Mutation | null {
  const table = TABLES[s.kind];
  const i = r.weighted(table.map((t) => t[1]));
  return table[i]![0](s, r);
}

const EXTENSIONS = ['.x', '.X', '.m3d', '.txt', ''];

/**
 * Mutant number `r` draws of `fileName` (shape `s`): one mutation, a second one stacked a quarter of the
 * time, and now and then another file extension. Never larger than MAX_MUTANT_BYTES.
 */
export function mutate(s: Shape, fileName: string, r: Rng): Mutant {
  for (let attempt = 0; attempt < 16; attempt++) {
    const first = pickMutation(s, r);
    if (first === null) continue;
    let label = first.label;
    let bytes: Uint8Array;
    if ('bytes' in first) bytes = first.bytes;
    else {
      const edits = [...first.edits];
      if (r.chance(0.25)) {
        const second = pickMutation(s, r);
        if (second !== null && 'edits' in second) {
          edits.push(...second.edits);
          label += `+${second.label}`;
        }
      }
      bytes = applyEdits(s.bytes, edits);
    }
    if (bytes.length > MAX_MUTANT_BYTES) continue;
    let name = fileName;
    if (r.chance(0.03)) {
      const dot = fileName.lastIndexOf('.');
      name = (dot > 0 ? fileName.slice(0, dot) : fileName) + r.pick(EXTENSIONS);
      label += ` as ${name}`;
    }
    return { bytes, fileName: name, label };
  }
  return { bytes: s.bytes, fileName, label: 'unchanged' };
}

/** The sweep's mutant: truncation point k of `of` (for compressed files, odd k cut the re-packed stream). */
export function truncated(s: Shape, fileName: string, k: number, of: number): Mutant {
  if (s.inner !== null && k % 2 === 1) {
    const m = truncationAt(s.inner, k, of);
    const stream = applyEdits(s.inner.bytes, 'edits' in m ? m.edits : []);
    if (stream.length >= 16) return { bytes: packMszip(stream, 32768), fileName, label: `inner:${m.label}/b32768` };
  }
  const m = truncationAt(s, k, of);
  return { bytes: applyEdits(s.bytes, 'edits' in m ? m.edits : []), fileName, label: m.label };
}
