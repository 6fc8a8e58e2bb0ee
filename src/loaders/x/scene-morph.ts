import { mat3, type mat4 } from 'gl-matrix';
import { LoadError } from '../../model/errors.ts';
import { mirrorVec3 } from '../../model/handedness.ts';
import type { MorphDeltas, MorphKind, MorphTrack, SkinnedMesh } from '../../model/types.ts';
import { MAX_MORPH_SLOTS } from '../limits.ts';
import { quoted } from '../../model/message.ts';
import { NumberCursor, objectError, type XContext } from './scene-read.ts';
import type { XObject } from './xnode.ts';

/**
 * skinlab's morph-target templates for .x (docs/m3d-morph-extension.md). Custom templates with their own
 * GUIDs, as the format allows; readers that do not know them skip them (D3DX and skinlab before them did).
 *
 *   template SkinlabMorphTarget {            // child of Mesh: one target's effect on that mesh
 *     <203C588C-89A9-4B9F-A3B3-D75FE83ABEAD>
 *     STRING name;                           // unique per mesh; meshes sharing a name share the target
 *     DWORD kind;                            // 0 modifier (one feature: blink), 1 emotion (a whole face)
 *     DWORD nVertices;
 *     array DWORD vertexIndices[nVertices];  // into the Mesh's vertices (positions), strictly ascending
 *     array Vector positionDeltas[nVertices];
 *     array Vector normalDeltas[nVertices];  // target normal − neutral normal
 *   }
 *   template SkinlabMorphTrack {             // child of AnimationSet: a target's weight over the set's time
 *     <D880B797-60E9-469B-A579-9B2ADC38EC26>
 *     STRING targetName;                     // a SkinlabMorphTarget name of any mesh of the file
 *     DWORD nKeys;
 *     array TimedFloatKeys keys[nKeys];      // time in the set's ticks (as AnimationKey), one value: the weight
 *   }
 *
 * Deltas are in the Mesh's own (file, left-handed) space, like its vertices: skinlab mirrors them in Z and,
 * for a rigid mesh, carries them through its frame's rest matrix exactly as the vertices. A position delta
 * applies to every output vertex split from that position (vertices split per (position, normal) pair),
 * the normal delta likewise (the neutral normal of each split copy plus the delta).
 */

export const MORPH_TARGET_TEMPLATE = 'SkinlabMorphTarget';
export const MORPH_TRACK_TEMPLATE = 'SkinlabMorphTrack';
export const MORPH_TARGET_GUID = '203C588C-89A9-4B9F-A3B3-D75FE83ABEAD';
export const MORPH_TRACK_GUID = 'D880B797-60E9-469B-A579-9B2ADC38EC26';

const KINDS: readonly MorphKind[] = ['modifier', 'emotion'];

/** One SkinlabMorphTarget as read, per file position, in the file's space. */
export interface FileMorph {
  readonly obj: XObject;
  readonly name: string;
  readonly kind: MorphKind;
  /** File position indices, strictly ascending. */
  readonly positions: Uint32Array;
  readonly positionDeltas: Float64Array;
  readonly normalDeltas: Float64Array;
}

/** A target's deltas on one built mesh, by name (merged into Scene.morphTargets by `mergeMorphs`). */
export interface NamedMorph {
  readonly obj: XObject;
  readonly name: string;
  readonly kind: MorphKind;
  readonly deltas: MorphDeltas;
}

/** Reads and checks one SkinlabMorphTarget of a Mesh with `nPos` positions. */
export function readMorphTarget(ctx: XContext, obj: XObject, nPos: number): FileMorph {
  const name = obj.strings[0];
  if (name === undefined || name === '') throw objectError(ctx, obj, 'has no target name string');
  const c = new NumberCursor(ctx, obj);
  const kind = c.index(`the kind of morph target ${quoted(name)} (0 modifier, 1 emotion)`, KINDS.length);
  const n = c.count(`moved vertices of morph target ${quoted(name)}`, 7);
  const positions = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const p = c.next(`vertex index ${i} of morph target ${quoted(name)}`);
    if (!Number.isInteger(p) || p < 0 || p >= nPos) c.fail(`morph target ${quoted(name)}: vertex index ${p} (entry ${i}) is out of range; the mesh has ${nPos} vertices`);
    if (i > 0 && p <= positions[i - 1]!) c.fail(`morph target ${quoted(name)}: vertex index ${p} (entry ${i}) after ${positions[i - 1]}; indices must be strictly ascending`);
    positions[i] = p;
  }
  const positionDeltas = new Float64Array(n * 3);
  const normalDeltas = new Float64Array(n * 3);
  c.read(positionDeltas, 0, n * 3, `the position deltas of morph target ${quoted(name)}`);
  c.read(normalDeltas, 0, n * 3, `the normal deltas of morph target ${quoted(name)}`);
  for (const [what, a] of [['position', positionDeltas], ['normal', normalDeltas]] as const) {
    for (let i = 0; i < a.length; i++) {
      if (!Number.isFinite(a[i]!)) c.fail(`morph target ${quoted(name)}: ${what} delta of vertex ${positions[Math.floor(i / 3)]} is ${a[i]}, not a finite number`);
    }
  }
  if (c.left > 0) ctx.warnings.push(`morph target ${quoted(name)}: ${c.left} numbers after its normal deltas ignored`);
  return { obj, name, kind: KINDS[kind]!, positions, positionDeltas, normalDeltas };
}

/**
 * The output vertices split from each file position of one built mesh, shared by all its targets so each
 * target costs time in proportion to the vertices it moves, not to the mesh (a mesh may carry thousands of
 * targets). Vertices of position p are `list[start[p] .. start[p + 1])`, ascending; `entry` is scratch
 * (-1 everywhere between calls of morphToVertices).
 */
export interface PositionSplit {
  readonly vertexPos: readonly number[];
  readonly start: Uint32Array;
  readonly list: Uint32Array;
  readonly entry: Int32Array;
}

/** `vertexPos[v]` is the file position (< nPos) output vertex v was split from. */
export function splitPositions(nPos: number, vertexPos: readonly number[]): PositionSplit {
  const start = new Uint32Array(nPos + 1);
  for (const p of vertexPos) start[p + 1]!++;
  for (let p = 0; p < nPos; p++) start[p + 1]! += start[p]!;
  const fill = start.slice(0, nPos);
  const list = new Uint32Array(vertexPos.length);
  for (let v = 0; v < vertexPos.length; v++) list[fill[vertexPos[v]!]!++] = v;
  return { vertexPos, start, list, entry: new Int32Array(nPos).fill(-1) };
}

/**
 * A file target → deltas on the built mesh's vertices (ascending, as MorphDeltas requires); deltas are
 * mirrored into skinlab's frame. For a rigid mesh, `rigid` is its frame's rest model matrix and
 * `neutralNormals` the mirrored normals before that matrix was applied: position deltas take its linear
 * part, normal deltas become normalize(N·(n0 + dn)) − normalize(N·n0) with N its normal matrix, so the
 * morphed normal is exactly what transforming the morphed file normal would give.
 */
export function morphToVertices(morph: FileMorph, split: PositionSplit, rigid: mat4 | null, neutralNormals: Float32Array | null): MorphDeltas {
  const { entry, start, list, vertexPos } = split;
  let count = 0;
  for (let i = 0; i < morph.positions.length; i++) {
    const p = morph.positions[i]!;
    entry[p] = i;
    count += start[p + 1]! - start[p]!;
  }
  const vertices = new Uint32Array(count);
  let k = 0;
  for (const p of morph.positions) for (let j = start[p]!; j < start[p + 1]!; j++) vertices[k++] = list[j]!;
  vertices.sort();
  const positions = new Float32Array(count * 3);
  const normals = new Float32Array(count * 3);
  const nm = mat3.create();
  if (rigid && !mat3.normalFromMat4(nm, rigid)) mat3.identity(nm);
  for (k = 0; k < count; k++) {
    const v = vertices[k]!;
    const i = entry[vertexPos[v]!]!;
    for (let c = 0; c < 3; c++) {
      positions[k * 3 + c] = morph.positionDeltas[i * 3 + c]!;
      normals[k * 3 + c] = morph.normalDeltas[i * 3 + c]!;
    }
    mirrorVec3(positions, k * 3);
    mirrorVec3(normals, k * 3);
    if (rigid) {
      const m = rigid;
      const x = positions[k * 3]!, y = positions[k * 3 + 1]!, z = positions[k * 3 + 2]!;
      positions[k * 3] = m[0]! * x + m[4]! * y + m[8]! * z;
      positions[k * 3 + 1] = m[1]! * x + m[5]! * y + m[9]! * z;
      positions[k * 3 + 2] = m[2]! * x + m[6]! * y + m[10]! * z;
      const n0 = [neutralNormals![v * 3]!, neutralNormals![v * 3 + 1]!, neutralNormals![v * 3 + 2]!];
      const n1 = [n0[0]! + normals[k * 3]!, n0[1]! + normals[k * 3 + 1]!, n0[2]! + normals[k * 3 + 2]!];
      const a = transformNormal(nm, n0);
      const b = transformNormal(nm, n1);
      for (let c = 0; c < 3; c++) normals[k * 3 + c] = b[c]! - a[c]!;
    }
  }
  for (const p of morph.positions) entry[p] = -1;
  return { vertices, positions, normals };
}

function transformNormal(nm: mat3, n: readonly number[]): number[] {
  const x = nm[0]! * n[0]! + nm[3]! * n[1]! + nm[6]! * n[2]!;
  const y = nm[1]! * n[0]! + nm[4]! * n[1]! + nm[7]! * n[2]!;
  const z = nm[2]! * n[0]! + nm[5]! * n[1]! + nm[8]! * n[2]!;
  const len = Math.hypot(x, y, z);
  return len > 0 ? [x / len, y / len, z / len] : [0, 0, 0];
}

/**
 * Targets of every mesh merged by name, in order of first appearance: Scene.morphTargets, morphKinds and
 * each mesh's `morphs` (indexed like the targets; absent on a mesh no target moves a vertex of). Refuses
 * (LoadError) more than MAX_MORPH_SLOTS (mesh, target) slots. A kind that differs
 * between meshes keeps the first with a warning.
 */
export function mergeMorphs(
  ctx: XContext,
  built: readonly { mesh: SkinnedMesh; morphs: readonly NamedMorph[] }[],
): { meshes: SkinnedMesh[]; names: string[]; kinds: MorphKind[] } {
  const index = new Map<string, number>();
  const names: string[] = [];
  const kinds: MorphKind[] = [];
  for (const { mesh, morphs } of built) {
    for (const m of morphs) {
      const known = index.get(m.name);
      if (known === undefined) {
        index.set(m.name, names.length);
        names.push(m.name);
        kinds.push(m.kind);
      } else if (kinds[known] !== m.kind) {
        ctx.warnings.push(`morph target ${quoted(m.name)} is a ${kinds[known]} in one mesh and a ${m.kind} in mesh ${quoted(mesh.name)}; kept ${kinds[known]}`);
      }
    }
  }
  const moving = built.filter(({ morphs }) => morphs.some((m) => m.deltas.vertices.length > 0));
  if (moving.length * names.length > MAX_MORPH_SLOTS) {
    throw new LoadError(
      `${ctx.fileName}: ${moving.length} meshes with morph targets × ${names.length} targets is ${moving.length * names.length} morph slots, ` +
        `more than the ${MAX_MORPH_SLOTS} skinlab holds`,
    );
  }
  // Unmoved slots share one empty set of deltas: a file may name many targets that each move few meshes.
  const empty: MorphDeltas = { vertices: new Uint32Array(0), positions: new Float32Array(0), normals: new Float32Array(0) };
  const meshes = built.map(({ mesh, morphs }) => {
    if (!morphs.some((m) => m.deltas.vertices.length > 0)) return mesh;
    const list: MorphDeltas[] = new Array<MorphDeltas>(names.length).fill(empty);
    for (const m of morphs) list[index.get(m.name)!] = m.deltas;
    return { ...mesh, morphs: list };
  });
  return { meshes, names, kinds };
}

/** One key list of a SkinlabMorphTrack in ticks, checked; `target` resolved against the file's targets. */
export interface FileMorphTrack {
  readonly obj: XObject;
  readonly target: number;
  readonly ticks: Float64Array;
  readonly values: Float32Array;
}

export function readMorphTrack(ctx: XContext, obj: XObject, targets: ReadonlyMap<string, number>): FileMorphTrack {
  const name = obj.strings[0];
  if (name === undefined || name === '') throw objectError(ctx, obj, 'has no target name string');
  const target = targets.get(name);
  if (target === undefined) {
    const known = [...targets.keys()].slice(0, 8).map((t) => `${quoted(t)}`).join(', ');
    throw objectError(ctx, obj, `names morph target ${quoted(name)}, which no mesh of the file defines (${known || 'the file has none'})`);
  }
  const c = new NumberCursor(ctx, obj);
  const n = c.count(`keys of morph track ${quoted(name)}`, 3);
  const ticks = new Float64Array(n);
  const values = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    const t = c.next(`time of key ${k}`);
    if (!Number.isFinite(t)) c.fail(`morph track ${quoted(name)}: key ${k} has time ${t}`);
    if (k > 0 && t < ticks[k - 1]!) c.fail(`morph track ${quoted(name)}: key times go backwards (${t} after ${ticks[k - 1]})`);
    ticks[k] = t;
    const count = c.next(`value count of key ${k}`);
    if (count !== 1) c.fail(`morph track ${quoted(name)}: key ${k} has ${count} values; a weight is 1`);
    const w = c.next(`weight of key ${k}`);
    if (!Number.isFinite(w)) c.fail(`morph track ${quoted(name)}: key ${k} has weight ${w}, not a finite number`);
    values[k] = w;
  }
  return { obj, target, ticks, values };
}

/** Tracks of one set → MorphTracks in seconds (shifted by `shift` seconds like the set's other keys). */
export function toMorphTracks(ctx: XContext, clipName: string, tracks: readonly FileMorphTrack[], ticksPerSecond: number, shift: number): MorphTrack[] {
  const out: MorphTrack[] = [];
  const seen = new Set<number>();
  for (const t of tracks) {
    if (seen.has(t.target)) throw objectError(ctx, t.obj, `clip ${quoted(clipName)} already has a morph track for ${quoted(t.obj.strings[0])}`);
    seen.add(t.target);
    const times = new Float32Array(t.ticks.length);
    for (let k = 0; k < times.length; k++) times[k] = t.ticks[k]! / ticksPerSecond - shift;
    out.push({ target: t.target, times, values: t.values });
  }
  return out;
}
