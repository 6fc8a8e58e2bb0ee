import { LoadError } from '../../model/errors.ts';
import { mirrorVec3 } from '../../model/handedness.ts';
import type { Clip, MorphDeltas, MorphKind, MorphTrack } from '../../model/types.ts';
import { MAX_MORPH_SLOTS } from '../limits.ts';
import { quoted } from '../../model/message.ts';
import type { TextScanner } from '../text/scanner.ts';

/**
 * The skinlab extension sections of .m3d (docs/m3d-morph-extension.md; layout in parse-m3d.ts's header):
 * ***Meshes*** (several meshes over the file's one vertex and triangle list), ***MorphTargets*** (sparse
 * deltas per file vertex, mirrored into skinlab's frame) and ***MorphTracks*** (a target's weight over a
 * clip's time, attached to the clips they name). Reads only from the scanner; errors are LoadErrors.
 */

/** Smallest text a record can take, used to refuse counts the file cannot hold before allocating. */
/** `Mesh a VertexStart: 0 VertexCount: 0 FaceStart: 0 FaceCount: 0` */
const MIN_CHARS_MESH = 50;
/** `MorphTarget a Kind: emotion #Vertices: 0 { }` */
const MIN_CHARS_TARGET = 40;
/** `Vertex: 0 dPos: 0 0 0 dNrm: 0 0 0` */
const MIN_CHARS_DELTA = 30;
/** `MorphTrack a b #Keyframes: 0 { }` */
const MIN_CHARS_TRACK = 30;
/** `Time: 0 Weight: 0` */
const MIN_CHARS_WEIGHT = 15;
const MORPH_KINDS: readonly MorphKind[] = ['emotion', 'modifier'];

/** A mesh of the skinlab `Meshes` chunk: its part of the file's vertex and triangle lists. */
export interface MeshRange {
  readonly name: string;
  readonly vertexStart: number;
  readonly vertexCount: number;
  readonly faceStart: number;
  readonly faceCount: number;
  /** Line of its `Mesh` record, for errors found while splitting. */
  readonly line: number;
}

export function readMeshTable(s: TextScanner, vertexCount: number, triangleCount: number): MeshRange[] {
  s.next();
  s.expect('#Meshes');
  const n = s.int('mesh count', 1, 65535);
  s.checkCount(n, MIN_CHARS_MESH, 'mesh');
  const out: MeshRange[] = [];
  let vertexEnd = 0;
  let faceEnd = 0;
  for (let i = 0; i < n; i++) {
    s.expect('Mesh');
    const line = s.tokenLine;
    const name = s.next(`the name of mesh ${i}`);
    s.expect('VertexStart:');
    const vertexStart = s.int(`VertexStart of mesh ${quoted(name)}`, 0, vertexCount);
    s.expect('VertexCount:');
    const count = s.int(`VertexCount of mesh ${quoted(name)}`, 0, vertexCount - vertexStart);
    s.expect('FaceStart:');
    const faceStart = s.int(`FaceStart of mesh ${quoted(name)}`, 0, triangleCount);
    s.expect('FaceCount:');
    const faceCount = s.int(`FaceCount of mesh ${quoted(name)}`, 0, triangleCount - faceStart);
    if (vertexStart !== vertexEnd || faceStart !== faceEnd) {
      s.error(`mesh ${quoted(name)} starts at vertex ${vertexStart}, triangle ${faceStart}; the meshes must follow each other from vertex ${vertexEnd}, triangle ${faceEnd}`, line);
    }
    vertexEnd += count;
    faceEnd += faceCount;
    out.push({ name, vertexStart, vertexCount: count, faceStart, faceCount, line });
  }
  if (vertexEnd !== vertexCount || faceEnd !== triangleCount) {
    s.error(`the meshes cover ${vertexEnd} vertices and ${faceEnd} triangles; the file has ${vertexCount} and ${triangleCount}`);
  }
  return out;
}

/** One morph target as the file gives it: file vertex indices, deltas already mirrored into skinlab's frame. */
export class RawTarget {
  constructor(
    readonly name: string,
    readonly kind: MorphKind,
    readonly vertices: Uint32Array,
    readonly positions: Float32Array,
    readonly normals: Float32Array,
  ) {}

  /** The deltas that fall on file vertices [v0, v1), re-indexed from v0; `empty` when there are none. */
  deltasIn(v0: number, v1: number, empty: MorphDeltas): MorphDeltas {
    const all = this.vertices;
    const a = lowerBound(all, v0);
    const b = lowerBound(all, v1);
    if (a === b) return empty;
    const vertices = new Uint32Array(b - a);
    for (let i = a; i < b; i++) vertices[i - a] = all[i]! - v0;
    return { vertices, positions: this.positions.slice(a * 3, b * 3), normals: this.normals.slice(a * 3, b * 3) };
  }
}

/** First index of the ascending `a` whose value is >= v (a.length when none is). */
function lowerBound(a: Uint32Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Which meshes any target moves (vertices of [vertexStart, vertexStart + vertexCount)), found in one pass
 * over the targets' vertices; refuses (LoadError) more than MAX_MORPH_SLOTS (mesh, target) slots, since
 * every moved mesh holds one MorphDeltas per target.
 */
export function movedMeshes(fileName: string, ranges: readonly MeshRange[], targets: readonly RawTarget[], vertexCount: number): boolean[] {
  const moved = new Uint8Array(vertexCount);
  for (const t of targets) for (const v of t.vertices) moved[v] = 1;
  const before = new Uint32Array(vertexCount + 1);
  for (let v = 0; v < vertexCount; v++) before[v + 1] = before[v]! + moved[v]!;
  const out = ranges.map((r) => before[r.vertexStart + r.vertexCount]! > before[r.vertexStart]!);
  const slots = out.filter(Boolean).length * targets.length;
  if (slots > MAX_MORPH_SLOTS) {
    throw new LoadError(`${fileName}: ${out.filter(Boolean).length} meshes moved by ${targets.length} morph targets make ${slots} morph slots, more than the ${MAX_MORPH_SLOTS} skinlab holds`);
  }
  return out;
}

export function readMorphTargets(s: TextScanner, vertexCount: number): RawTarget[] {
  s.next();
  s.expect('#MorphTargets');
  const n = s.int('morph target count', 0, 65535);
  s.checkCount(n, MIN_CHARS_TARGET, 'morph target');
  const out: RawTarget[] = [];
  const seen = new Set<string>();
  for (let t = 0; t < n; t++) {
    s.expect('MorphTarget');
    const name = s.next(`the name of morph target ${t}`);
    if (seen.has(name)) s.error(`morph target ${quoted(name)} is defined twice`);
    seen.add(name);
    s.expect('Kind:');
    const kind = s.next(`the kind of morph target ${quoted(name)}`);
    if (!(MORPH_KINDS as readonly string[]).includes(kind)) s.error(`morph target ${quoted(name)} has kind ${quoted(kind)}; expected 'emotion' or 'modifier'`);
    s.expect('#Vertices:');
    const count = s.int(`vertex count of morph target ${quoted(name)}`, 0, vertexCount);
    s.checkCount(count, MIN_CHARS_DELTA, `moved vertex (morph target ${quoted(name)})`);
    s.expect('{');
    const vertices = new Uint32Array(count);
    const positions = new Float32Array(count * 3);
    const normals = new Float32Array(count * 3);
    // What each value is, said only on an error (one function per target, not a string per value).
    let v = 0;
    const vertexIndex = (): string => `vertex index (morph target ${quoted(name)})`;
    const positionDelta = (): string => `position delta of vertex ${v} (morph target ${quoted(name)})`;
    const normalDelta = (): string => `normal delta of vertex ${v} (morph target ${quoted(name)})`;
    for (let i = 0; i < count; i++) {
      s.expect('Vertex:');
      v = s.int(vertexIndex, 0, vertexCount - 1);
      if (i > 0 && v <= vertices[i - 1]!) s.error(`morph target ${quoted(name)}: vertex ${v} after vertex ${vertices[i - 1]}; indices must be strictly ascending`);
      vertices[i] = v;
      s.expect('dPos:');
      for (let k = 0; k < 3; k++) positions[i * 3 + k] = s.number(positionDelta);
      s.expect('dNrm:');
      for (let k = 0; k < 3; k++) normals[i * 3 + k] = s.number(normalDelta);
      mirrorVec3(positions, i * 3);
      mirrorVec3(normals, i * 3);
    }
    s.expect('}');
    out.push(new RawTarget(name, kind as MorphKind, vertices, positions, normals));
  }
  return out;
}

/** Reads the MorphTracks chunk into `clips` (replacing each driven clip by one with its morph tracks). */
export function readMorphTracks(s: TextScanner, targets: readonly RawTarget[], clips: Clip[]): void {
  s.next();
  s.expect('#MorphTracks');
  const n = s.int('morph track count', 0, 1 << 24);
  s.checkCount(n, MIN_CHARS_TRACK, 'morph track');
  const targetIndex = new Map(targets.map((t, i) => [t.name, i]));
  // Lookups by name and a set of (clip, target) pairs keep this linear in the number of tracks.
  const clipIndex = new Map<string, number>();
  const sharedNames = new Set<string>();
  clips.forEach((clip, c) => (clipIndex.has(clip.name) ? sharedNames.add(clip.name) : clipIndex.set(clip.name, c)));
  const pairs = new Set<number>();
  const tracks = clips.map((): MorphTrack[] => []);
  for (let i = 0; i < n; i++) {
    s.expect('MorphTrack');
    const clipName = s.next(`the clip of morph track ${i}`);
    const clipLine = s.tokenLine;
    const c = clipIndex.get(clipName);
    if (c === undefined) s.error(`morph track ${i} names clip ${quoted(clipName)}, which the file does not have`);
    if (sharedNames.has(clipName)) s.error(`morph track ${i} names clip ${quoted(clipName)}, but several clips have that name`, clipLine);
    const targetName = s.next(`the morph target of morph track ${i}`);
    const target = targetIndex.get(targetName);
    if (target === undefined) s.error(`morph track ${i} (clip ${quoted(clipName)}) names morph target ${quoted(targetName)}, which the MorphTargets chunk does not define`);
    // Clips and targets are both at most 65535.
    const pair = c * 65536 + target;
    if (pairs.has(pair)) s.error(`clip ${quoted(clipName)} has two morph tracks for ${quoted(targetName)}`);
    pairs.add(pair);
    s.expect('#Keyframes:');
    const count = s.int(`keyframe count of morph track ${quoted(targetName)} in clip ${quoted(clipName)}`, 0, 1 << 24);
    s.checkCount(count, MIN_CHARS_WEIGHT, `keyframe (morph track ${quoted(targetName)}, clip ${quoted(clipName)})`);
    s.expect('{');
    const times = new Float32Array(count);
    const values = new Float32Array(count);
    const keyTime = (): string => `key time (morph track ${quoted(targetName)}, clip ${quoted(clipName)})`;
    const keyWeight = (): string => `key weight (morph track ${quoted(targetName)}, clip ${quoted(clipName)})`;
    for (let k = 0; k < count; k++) {
      s.expect('Time:');
      const t = s.number(keyTime);
      times[k] = t;
      s.expect('Weight:');
      values[k] = s.number(keyWeight);
    }
    s.expect('}');
    tracks[c]!.push({ target, times, values });
  }
  clips.forEach((clip, c) => {
    const list = tracks[c]!;
    if (list.length === 0) return;
    let duration = clip.duration;
    for (const t of list) if (t.times.length > 0) duration = Math.max(duration, t.times[t.times.length - 1]!);
    clips[c] = { ...clip, duration, morphTracks: list };
  });
}
