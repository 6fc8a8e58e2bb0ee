import { MeshoptEncoder, MeshoptSimplifier } from 'meshoptimizer';
import type { SkinnedMesh, Subset } from './types.ts';
import { LOD_RATIOS } from './lod-ratios.ts';

/**
 * Generated detail levels for a model without authored ones (crowd distance LOD, docs/crowds.md): meshoptimizer's
 * simplifier removes triangles and vertices, never moves or adds one, so a level is only a new index list (and
 * subset ranges) per mesh over the original vertices: same positions, skin weights and bones, valid by
 * construction. No WebGL, no DOM: runs in Node (tests, measurements) and in src/app/lod-worker.ts.
 *
 * Contract
 * - Levels at about LOD_RATIOS of the triangles, each simplified from the original (so each error is measured
 *   against the top level; simplifying level k + 1 from level k would add the steps' errors up). A mesh is never taken under MIN_TRIANGLES (a mesh smaller
 *   than that keeps its triangles), and a level that keeps more than KEEP_SHARE of the previous level's triangles
 *   is dropped with every lighter one: a model the simplifier cannot reduce keeps fewer levels.
 * - Each subset (material) is simplified on its own and the vertices two subsets share are locked, so material
 *   borders stay closed. Attribute-aware: normals (weight NORMAL_WEIGHT) and UVs (UV_WEIGHT) join the positions
 *   in the error metric, so UV seams and creases hold; so do vertex colours (COLOUR_WEIGHT per channel) where the
 *   mesh has them. A mesh whose every vertex sits on an attribute seam (an
 *   unindexed, flat-shaded mesh: the Fox) cannot be reduced that way: when a subset keeps more than KEEP_SHARE
 *   of its triangles it is simplified again with the Permissive flag (collapses across seams allowed). Skin-weight borders: not locked (locking every vertex
 *   whose dominant bone differs from a neighbour's freezes most of a many-bone mesh); the dominant bone's
 *   weight joins the metric instead (SKIN_WEIGHT), so a collapse across a weight gradient costs error.
 * - `error`: the simplifier's error (relative, attributes included, so an upper bound of the positional one)
 *   times getScale of the mesh's positions, in model units (bind space), the largest over the meshes, and never
 *   less than the heavier level's (the metric is not monotone in the triangle count; a lighter level is taken as
 *   at least as coarse).
 * - Each simplified subset's triangles are put in post-transform vertex cache order (meshoptimizer's
 *   optimizeVertexCache, through MeshoptEncoder.reorderMesh, whose vertex renumbering is undone: the level keeps
 *   the original vertex ids), so an instanced draw of a level runs its vertex stage fewer times per triangle.
 * - Allocates (one-time work).
 */

export { LOD_RATIOS } from './lod-ratios.ts';
/** Fewest triangles a mesh is simplified to. */
export const MIN_TRIANGLES = 150;
/** A level keeping more than this share of the previous level's triangles is not worth a level. */
export const KEEP_SHARE = 0.8;
/** Attribute weights in the simplifier's metric (the positions count 1 over the mesh's scale). */
export const NORMAL_WEIGHT = 0.25;
export const UV_WEIGHT = 0.5;
export const SKIN_WEIGHT = 0.1;
/** Weight of each vertex-colour channel (linear RGBA) in the metric, for a mesh that has vertex colours. */
export const COLOUR_WEIGHT = 0.5;

/** What the simplifier reads of a mesh. */
export type LodMeshInput = Pick<SkinnedMesh, 'vertexCount' | 'positions' | 'normals' | 'uvs' | 'colors' | 'weights' | 'indices' | 'subsets'>;

/** One generated level: per mesh its indices and subsets (in triangles, as Subset; same materials; empty subsets dropped). */
export interface GeneratedLevel {
  readonly indices: Uint32Array[];
  readonly subsets: Subset[][];
  /** Triangles of all meshes. */
  readonly triangles: number;
  /** Largest simplification error over the meshes, model units. */
  readonly error: number;
}

/** The generated levels of `meshes` (lighter and lighter, the model itself not included); [] when nothing reduces. */
export async function generateLevels(meshes: readonly LodMeshInput[]): Promise<GeneratedLevel[]> {
  await Promise.all([MeshoptSimplifier.ready, MeshoptEncoder.ready]);
  const prepared = meshes.map(prepare);
  const total = meshes.reduce((n, m) => n + m.indices.length / 3, 0);
  const out: GeneratedLevel[] = [];
  let prevTriangles = total;
  for (const ratio of LOD_RATIOS) {
    const indices: Uint32Array[] = [];
    const subsets: Subset[][] = [];
    const errors: number[] = [];
    let triangles = 0;
    meshes.forEach((m, i) => {
      const meshTris = m.indices.length / 3;
      const target = Math.max(MIN_TRIANGLES, Math.round(meshTris * ratio));
      const r = simplifyMesh(prepared[i]!, m.indices, m.subsets, target);
      indices.push(r.indices);
      subsets.push(r.subsets);
      errors.push(r.error * prepared[i]!.scale);
      triangles += r.indices.length / 3;
    });
    if (triangles > prevTriangles * KEEP_SHARE) break;
    out.push({ indices, subsets, triangles, error: Math.max(out.at(-1)?.error ?? 0, ...errors) });
    prevTriangles = triangles;
  }
  return out;
}

interface Prepared {
  readonly positions: Float32Array;
  readonly attributes: Float32Array;
  readonly weights: number[];
  readonly stride: number;
  readonly lock: Uint8Array;
  readonly scale: number;
}

/** The attribute stream (normal, uv, dominant weight[, colour]), the subset-border locks and the scale of one mesh. */
function prepare(m: LodMeshInput): Prepared {
  const n = m.vertexCount;
  const colors = m.colors ?? null;
  const stride = colors ? 10 : 6;
  const attributes = new Float32Array(n * stride);
  for (let v = 0; v < n; v++) {
    const o = v * stride;
    attributes[o] = m.normals[v * 3]!;
    attributes[o + 1] = m.normals[v * 3 + 1]!;
    attributes[o + 2] = m.normals[v * 3 + 2]!;
    attributes[o + 3] = m.uvs ? m.uvs[v * 2]! : 0;
    attributes[o + 4] = m.uvs ? m.uvs[v * 2 + 1]! : 0;
    attributes[o + 5] = m.weights[v * 4]!;
    if (colors) for (let k = 0; k < 4; k++) attributes[o + 6 + k] = colors[v * 4 + k]!;
  }
  const owner = new Int32Array(n).fill(-1);
  const lock = new Uint8Array(n);
  m.subsets.forEach((s, k) => {
    for (let j = s.start * 3; j < (s.start + s.count) * 3; j++) {
      const v = m.indices[j]!;
      if (owner[v] === -1) owner[v] = k;
      else if (owner[v] !== k) lock[v] = 1;
    }
  });
  const weights = [NORMAL_WEIGHT, NORMAL_WEIGHT, NORMAL_WEIGHT, UV_WEIGHT, UV_WEIGHT, SKIN_WEIGHT];
  if (colors) weights.push(COLOUR_WEIGHT, COLOUR_WEIGHT, COLOUR_WEIGHT, COLOUR_WEIGHT);
  return { positions: m.positions, attributes, weights, stride, lock, scale: MeshoptSimplifier.getScale(m.positions, 3) };
}

function simplifyPart(p: Prepared, part: Uint32Array, want: number, permissive: boolean): [Uint32Array, number] {
  return MeshoptSimplifier.simplifyWithAttributes(part, p.positions, 3, p.attributes, p.stride, p.weights, p.lock, want, 1, permissive ? ['Permissive'] : []);
}

/** `indices` (ranges `subsets`) simplified towards `target` triangles, each subset in proportion; the largest relative error. */
function simplifyMesh(p: Prepared, indices: Uint32Array, subsets: readonly Subset[], target: number): { indices: Uint32Array; subsets: Subset[]; error: number } {
  const tris = indices.length / 3;
  if (target >= tris) return { indices, subsets: [...subsets], error: 0 };
  const parts: Uint32Array[] = [];
  const out: Subset[] = [];
  let error = 0;
  let start = 0;
  for (const s of subsets) {
    const part = indices.subarray(s.start * 3, (s.start + s.count) * 3);
    const want = Math.max(1, Math.round(s.count * (target / tris))) * 3;
    let [kept, e] = want >= part.length ? [part, 0] : simplifyPart(p, part, want, false);
    if (want < part.length && kept.length > part.length * KEEP_SHARE) [kept, e] = simplifyPart(p, part, want, true);
    error = Math.max(error, e);
    if (kept.length === 0) continue;
    parts.push(kept === part ? kept : cacheOrder(kept));
    out.push({ material: s.material, start, count: kept.length / 3 });
    start += kept.length / 3;
  }
  const joined = new Uint32Array(start * 3);
  let o = 0;
  for (const part of parts) {
    joined.set(part, o);
    o += part.length;
  }
  return { indices: joined, subsets: out, error };
}

/** `part`'s triangles in vertex cache order, over the same vertex ids (a new array). */
function cacheOrder(part: Uint32Array): Uint32Array {
  const out = part.slice();
  const [remap] = MeshoptEncoder.reorderMesh(out, true, false);
  const original = new Uint32Array(remap.length);
  for (let v = 0; v < remap.length; v++) if (remap[v]! !== 0xffffffff) original[remap[v]!] = v;
  for (let i = 0; i < out.length; i++) out[i] = original[out[i]!]!;
  return out;
}
