import { MAX_INFLUENCES, type SkinnedMesh } from '../model/types.ts';
import { clampInfluences, truncateInfluences } from './influences.ts';

/**
 * Bone-combination partitioning at load (D3DX ConvertToBlendedMesh / ConvertToIndexedBlendedMesh, seed
 * 004): the mesh's triangles are split into groups whose triangles together use at most `limit` bones, so
 * each group draws with one set of `limit` matrices. Vertices used by several groups are duplicated, one
 * copy per group, and their joints are rewritten as group-local slots.
 *
 * Contract
 * - Influences are truncated first (truncateInfluences, `influences` 1..4).
 * - Every triangle lands in exactly one group; a group's `bones` has at most `limit` entries (mesh palette
 *   slots). Triangles keep their order within a group; runs split them by material.
 * - A triangle whose vertices together need more than `limit` bones cannot be drawn with `limit` matrices.
 *   With `approximate` it keeps its `limit` heaviest bones (each vertex's own heaviest bone first) and its
 *   vertices get private copies with the other weights dropped and the rest rescaled (D3DX's
 *   approximation for non-indexed blending); those copies are flagged in `approximated`. Without it the
 *   call throws: the caller sizes `limit` from maxFaceBones().
 * - Output vertex v comes from mesh vertex sourceVertex[v]; localJoints/weights hold MAX_INFLUENCES
 *   entries per vertex, descending weight, weights summing to 1, unused entries weight 0 and joint = entry 0.
 * - indices index the partition's vertices (not group-relative); group g's vertices are the contiguous
 *   range [vertexStart, vertexStart + vertexCount).
 */
export interface MaterialRun {
  readonly material: number;
  /** Offset into `indices` (in indices, not triangles). */
  readonly first: number;
  /** Index count (3 per triangle). */
  readonly count: number;
}

export interface BoneGroup {
  /** Group slot → mesh palette slot. */
  readonly bones: Uint16Array;
  readonly vertexStart: number;
  readonly vertexCount: number;
  readonly triangleCount: number;
  readonly runs: readonly MaterialRun[];
}

export interface Partition {
  readonly limit: number;
  readonly groups: readonly BoneGroup[];
  readonly vertexCount: number;
  readonly sourceVertex: Uint32Array;
  readonly localJoints: Uint8Array;
  readonly weights: Float32Array;
  readonly indices: Uint32Array;
  /** 1 where the vertex is a copy whose weights were reduced to fit its triangle's group. */
  readonly approximated: Uint8Array;
  readonly approximatedTriangles: number;
  /** vertexCount minus the number of distinct mesh vertices used. */
  readonly duplicatedVertices: number;
}

/**
 * Distinct bones of triangle t, written to out; returns the count. Each vertex gives its leading joints of positive
 * weight among the first `used`, or its first joint alone when that one's weight is not positive: truncateInfluences'
 * rule, so the mesh's own arrays with `used` influences give what their truncated copy gives (whose weights are
 * already positive where kept and 0 after).
 */
function triangleBones(indices: Uint32Array, t: number, joints: Uint16Array, weights: Float32Array, out: Int32Array, used = MAX_INFLUENCES): number {
  let n = 0;
  for (let c = 0; c < 3; c++) {
    const o = indices[t * 3 + c]! * MAX_INFLUENCES;
    for (let k = 0; k < used; k++) {
      if (k > 0 && !(weights[o + k]! > 0)) break;
      const b = joints[o + k]!;
      let seen = false;
      for (let i = 0; i < n; i++) if (out[i] === b) seen = true;
      if (!seen) out[n++] = b;
      if (k === 0 && !(weights[o]! > 0)) break;
    }
  }
  return n;
}

/**
 * Largest number of distinct bones any triangle needs with `influences` kept: the smallest workable palette.
 * Reads the mesh's own arrays (triangleBones with `influences` used) rather than a truncated copy of them.
 */
export function maxFaceBones(mesh: SkinnedMesh, influences: number): number {
  const used = clampInfluences(influences);
  const bones = new Int32Array(3 * MAX_INFLUENCES);
  const triangles = Math.floor(mesh.indices.length / 3);
  let most = 1;
  for (let t = 0; t < triangles; t++) most = Math.max(most, triangleBones(mesh.indices, t, mesh.joints, mesh.weights, bones, used));
  return most;
}

/** Per triangle: the bones it keeps after approximation, each vertex's heaviest bone first, then by summed weight. */
function reduceTriangle(indices: Uint32Array, t: number, joints: Uint16Array, weights: Float32Array, limit: number, bones: Int32Array, n: number): number {
  const sums = new Float64Array(n);
  for (let c = 0; c < 3; c++) {
    const o = indices[t * 3 + c]! * MAX_INFLUENCES;
    for (let k = 0; k < MAX_INFLUENCES; k++) {
      const w = weights[o + k]!;
      if (!(w > 0)) break;
      sums[bones.indexOf(joints[o + k]!)]! += w;
    }
  }
  const keep: number[] = [];
  for (let c = 0; c < 3; c++) {
    const b = joints[indices[t * 3 + c]! * MAX_INFLUENCES]!;
    if (!keep.includes(b)) keep.push(b);
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => sums[b]! - sums[a]!);
  for (const i of order) {
    if (keep.length >= limit) break;
    if (!keep.includes(bones[i]!)) keep.push(bones[i]!);
  }
  for (let i = 0; i < keep.length; i++) bones[i] = keep[i]!;
  return keep.length;
}

export function partitionMesh(mesh: SkinnedMesh, influences: number, limit: number, approximate = false): Partition {
  if (!(limit >= 1)) throw new RangeError(`partitionMesh: limit ${limit} < 1`);
  const { joints, weights } = truncateInfluences(mesh, influences);
  const indices = mesh.indices;
  const triangles = indices.length / 3;
  const boneCount = Math.max(1, mesh.bones.length);
  const scratch = new Int32Array(3 * MAX_INFLUENCES);

  // First fit: each triangle joins the first group whose bone set, grown by the triangle's bones, stays within limit.
  const groupOf = new Int32Array(triangles);
  const reduced = new Map<number, Int32Array>();
  const members: Uint8Array[] = [];
  const sizes: number[] = [];
  const groupBones: number[][] = [];
  for (let t = 0; t < triangles; t++) {
    let n = triangleBones(indices, t, joints, weights, scratch);
    if (n > limit) {
      if (!approximate) throw new RangeError(`partitionMesh: triangle ${t} needs ${n} bones, more than the limit ${limit}`);
      n = reduceTriangle(indices, t, joints, weights, limit, scratch, n);
      reduced.set(t, scratch.slice(0, n));
    }
    let g = 0;
    for (; g < members.length; g++) {
      const m = members[g]!;
      let extra = 0;
      for (let i = 0; i < n; i++) if (m[scratch[i]!] === 0) extra++;
      if (sizes[g]! + extra <= limit) break;
    }
    if (g === members.length) {
      members.push(new Uint8Array(boneCount));
      sizes.push(0);
      groupBones.push([]);
    }
    const m = members[g]!;
    for (let i = 0; i < n; i++) {
      const b = scratch[i]!;
      if (m[b] === 0) {
        m[b] = 1;
        sizes[g]!++;
        groupBones[g]!.push(b);
      }
    }
    groupOf[t] = g;
  }

  // Emit groups: vertices (one copy per group, private copies for reduced triangles), indices, runs.
  const tris: number[][] = groupBones.map(() => []);
  for (let t = 0; t < triangles; t++) tris[groupOf[t]!]!.push(t);
  const materialOf = new Int32Array(triangles);
  for (const s of mesh.subsets) materialOf.fill(s.material, s.start, s.start + s.count);

  const srcList: number[] = [];
  const jointList: number[] = [];
  const weightList: number[] = [];
  const approxList: number[] = [];
  const outIndices = new Uint32Array(indices.length);
  const groups: BoneGroup[] = [];
  const local = new Int32Array(boneCount);
  const vertexSlot = new Int32Array(mesh.vertexCount);
  let written = 0;
  for (let g = 0; g < groupBones.length; g++) {
    const bones = groupBones[g]!;
    local.fill(-1);
    bones.forEach((b, i) => (local[b] = i));
    vertexSlot.fill(-1);
    const vertexStart = srcList.length;
    const runs: MaterialRun[] = [];
    const list = tris[g]!.slice().sort((a, b) => materialOf[a]! - materialOf[b]! || a - b);
    for (const t of list) {
      const material = materialOf[t]!;
      const last = runs[runs.length - 1];
      if (last && last.material === material) (last as { count: number }).count += 3;
      else runs.push({ material, first: written, count: 3 });
      const keep = reduced.get(t);
      for (let c = 0; c < 3; c++) {
        const v = indices[t * 3 + c]!;
        const o = v * MAX_INFLUENCES;
        if (!keep && vertexSlot[v]! >= 0) {
          outIndices[written++] = vertexSlot[v]!;
          continue;
        }
        const out = srcList.length;
        srcList.push(v);
        // Kept influences in descending order (the source order), rescaled.
        const js: number[] = [];
        const ws: number[] = [];
        for (let k = 0; k < MAX_INFLUENCES; k++) {
          const w = weights[o + k]!;
          if (k > 0 && !(w > 0)) break;
          const b = joints[o + k]!;
          if (keep && !keep.includes(b)) continue;
          js.push(local[b]!);
          ws.push(w);
        }
        const sum = ws.reduce((a, b) => a + b, 0);
        for (let k = 0; k < MAX_INFLUENCES; k++) {
          jointList.push(k < js.length ? js[k]! : js[0]!);
          weightList.push(k < ws.length ? ws[k]! / sum : 0);
        }
        approxList.push(keep ? 1 : 0);
        if (!keep) vertexSlot[v] = out;
        outIndices[written++] = out;
      }
    }
    groups.push({
      bones: Uint16Array.from(bones),
      vertexStart,
      vertexCount: srcList.length - vertexStart,
      triangleCount: list.length,
      runs,
    });
  }
  const sourceVertex = Uint32Array.from(srcList);
  const distinct = new Uint8Array(mesh.vertexCount);
  let unique = 0;
  for (const v of sourceVertex) if (distinct[v] === 0) {
    distinct[v] = 1;
    unique++;
  }
  return {
    limit,
    groups,
    vertexCount: sourceVertex.length,
    sourceVertex,
    localJoints: Uint8Array.from(jointList),
    weights: Float32Array.from(weightList),
    indices: outIndices,
    approximated: Uint8Array.from(approxList),
    approximatedTriangles: reduced.size,
    duplicatedVertices: sourceVertex.length - unique,
  };
}
