/**
 * Optimized centres of rotation (Le & Hodgins, "Real-time Skeletal Skinning with Optimized Centers of
 * Rotation", SIGGRAPH 2016): the precompute of the `cor` technique. Pure: no DOM, no WebGL (runs in Node,
 * in a worker or on the page's thread).
 *
 * Contract
 * - Weights: the mesh's stored weights (up to MAX_INFLUENCES per vertex, model/types.ts), as stored (they sum
 *   to 1), as a sparse vector over the mesh's palette slots; two influences of one vertex naming the same slot are
 *   added together. A vertex with no positive weight counts as weight 1 on its joints[0] (skinMesh's rule).
 * - Similarity of two weight vectors (the paper's, σ = COR_SIGMA = 0.1):
 *     s(wp, wt) = Σ_{j≠k} wpj · wpk · wtj · wtk · exp(−(wpj · wtk − wpk · wtj)² / σ²)
 *   over ordered pairs of bones j ≠ k (every unordered pair counted twice, as the paper writes it).
 * - Triangle t: weights = mean of its 3 vertices' weight vectors, area a_t and centroid c_t in bind space.
 * - Centre of vertex i (the paper's integral over the surface, discretised over the bind-pose triangles):
 *     p*_i = Σ_t s(w_i, w_t) · a_t · c_t / Σ_t s(w_i, w_t) · a_t
 * - A vertex with fewer than two bones needs no centre: p' = R·(p − c) + LBS(c) equals linear blending of its
 *   one bone whatever c is (for a bone without shear). Its own bind position is stored, so even a sheared bone
 *   gives exactly linear blending there.
 * - No similar triangle (denominator 0: no triangle of non-zero area shares two bones with the vertex, which never
 *   happens to a vertex of such a triangle; the exp factor is ≥ e⁻¹⁰⁰ > 0): the vertex's own bind position (the
 *   technique then equals linear blending at that vertex).
 * - Output: 3 floats per vertex, bind space (a new Float32Array). Morph targets do not move a centre: it is
 *   computed once from the neutral mesh.
 *
 * Cost. The plain sum is O(V·T). s(w_i, w_t) > 0 needs two bones j ≠ k with all four weights positive, so only
 * triangles that share a bone pair with the vertex contribute. The sum splits over those pairs: with
 * term_jk = 2 · wpj · wpk · wtj · wtk · exp(...) for j < k, s = Σ_{j<k} term_jk, and
 *   Σ_t s · a_t · c_t = Σ_{pairs jk of i} Σ_{t in list(jk)} term_jk · a_t · c_t.
 * So triangles are indexed by the bone pairs they carry (list(jk): every triangle whose mean weights have
 * both j and k), and each vertex walks the lists of its own pairs (≤ 6): every (triangle, pair) term is added
 * exactly once per vertex, each list entry holding what the term needs contiguously (wtj, wtk, a, a·c).
 * Vertices with identical weight vectors (the copies a seam or a UV split makes) share one result.
 */

import { MAX_INFLUENCES, type SkinnedMesh } from '../model/types.ts';

/** The paper's σ: how fast similarity falls off with the difference of the weight ratios. */
export const COR_SIGMA = 0.1;
const INV_SIGMA2 = 1 / (COR_SIGMA * COR_SIGMA);

/** Floats per pair-list entry: wtj, wtk, area, area·cx, area·cy, area·cz. */
const ENTRY = 6;

/** Sparse weights of every vertex: up to MAX_INFLUENCES (slot, weight) pairs, slots ascending, duplicates merged. */
interface SparseWeights {
  readonly slots: Int32Array;
  readonly weights: Float64Array;
  readonly counts: Uint8Array;
}

/** The mesh's stored weights as sparse vectors (ascending slots; a vertex with no positive weight: joints[0] at 1). */
function sparseVertexWeights(mesh: SkinnedMesh): SparseWeights {
  const n = mesh.vertexCount;
  const slots = new Int32Array(n * MAX_INFLUENCES);
  const weights = new Float64Array(n * MAX_INFLUENCES);
  const counts = new Uint8Array(n);
  for (let v = 0; v < n; v++) {
    const o = v * MAX_INFLUENCES;
    let c = 0;
    for (let k = 0; k < MAX_INFLUENCES; k++) {
      const w = mesh.weights[o + k]!;
      if (!(w > 0)) continue;
      const j = mesh.joints[o + k]!;
      // Insert j keeping slots ascending, merging a repeated slot.
      let at = 0;
      while (at < c && slots[o + at]! < j) at++;
      if (at < c && slots[o + at] === j) {
        weights[o + at]! += w;
        continue;
      }
      for (let m = c; m > at; m--) {
        slots[o + m] = slots[o + m - 1]!;
        weights[o + m] = weights[o + m - 1]!;
      }
      slots[o + at] = j;
      weights[o + at] = w;
      c++;
    }
    if (c === 0) {
      slots[o] = mesh.joints[o]!;
      weights[o] = 1;
      c = 1;
    }
    counts[v] = c;
  }
  return { slots, weights, counts };
}

/** Area and centroid of triangle t (bind space) into out[0..3]: area, cx, cy, cz. */
function triangleAreaCentroid(mesh: SkinnedMesh, t: number, out: Float64Array): void {
  const p = mesh.positions;
  const a = mesh.indices[t * 3]! * 3, b = mesh.indices[t * 3 + 1]! * 3, c = mesh.indices[t * 3 + 2]! * 3;
  const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
  const vx = p[c]! - p[a]!, vy = p[c + 1]! - p[a + 1]!, vz = p[c + 2]! - p[a + 2]!;
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  out[0] = 0.5 * Math.sqrt(cx * cx + cy * cy + cz * cz);
  out[1] = (p[a]! + p[b]! + p[c]!) / 3;
  out[2] = (p[a + 1]! + p[b + 1]! + p[c + 1]!) / 3;
  out[3] = (p[a + 2]! + p[b + 2]! + p[c + 2]!) / 3;
}

/**
 * The triangle's mean weights (3 vertices × up to 4 bones: ≤ 12 entries) into slots/weights, ascending slots;
 * returns the entry count.
 */
function triangleWeights(sw: SparseWeights, mesh: SkinnedMesh, t: number, slots: Int32Array, weights: Float64Array): number {
  let n = 0;
  for (let c = 0; c < 3; c++) {
    const v = mesh.indices[t * 3 + c]!;
    const o = v * MAX_INFLUENCES;
    for (let k = 0; k < sw.counts[v]!; k++) {
      const j = sw.slots[o + k]!;
      const w = sw.weights[o + k]! / 3;
      let at = 0;
      while (at < n && slots[at]! < j) at++;
      if (at < n && slots[at] === j) {
        weights[at]! += w;
        continue;
      }
      for (let m = n; m > at; m--) {
        slots[m] = slots[m - 1]!;
        weights[m] = weights[m - 1]!;
      }
      slots[at] = j;
      weights[at] = w;
      n++;
    }
  }
  return n;
}

/** Triangles indexed by bone pair (j < k): CSR over pair ids, ENTRY floats per (pair, triangle). */
interface PairIndex {
  /** Pair key j · slotCount + k → pair id. */
  readonly ids: Map<number, number>;
  /** Entries of pair id p: [start[p], start[p + 1]). */
  readonly start: Int32Array;
  readonly entries: Float64Array;
}

function buildPairIndex(mesh: SkinnedMesh, sw: SparseWeights, slotCount: number): PairIndex {
  const triangles = mesh.indices.length / 3;
  const tSlots = new Int32Array(3 * MAX_INFLUENCES);
  const tWeights = new Float64Array(3 * MAX_INFLUENCES);
  const ids = new Map<number, number>();
  // Pass 1: count entries per pair.
  const counts: number[] = [];
  for (let t = 0; t < triangles; t++) {
    const n = triangleWeights(sw, mesh, t, tSlots, tWeights);
    for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        const key = tSlots[a]! * slotCount + tSlots[b]!;
        let id = ids.get(key);
        if (id === undefined) {
          id = counts.length;
          ids.set(key, id);
          counts.push(0);
        }
        counts[id]!++;
      }
    }
  }
  const start = new Int32Array(counts.length + 1);
  for (let p = 0; p < counts.length; p++) start[p + 1] = start[p]! + counts[p]!;
  const entries = new Float64Array(start[counts.length]! * ENTRY);
  const fill = start.slice(0, counts.length);
  const ac = new Float64Array(4);
  // Pass 2: write the entries.
  for (let t = 0; t < triangles; t++) {
    const n = triangleWeights(sw, mesh, t, tSlots, tWeights);
    if (n < 2) continue;
    triangleAreaCentroid(mesh, t, ac);
    const area = ac[0]!;
    for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        const id = ids.get(tSlots[a]! * slotCount + tSlots[b]!)!;
        const e = fill[id]!++ * ENTRY;
        entries[e] = tWeights[a]!;
        entries[e + 1] = tWeights[b]!;
        entries[e + 2] = area;
        entries[e + 3] = area * ac[1]!;
        entries[e + 4] = area * ac[2]!;
        entries[e + 5] = area * ac[3]!;
      }
    }
  }
  return { ids, start, entries };
}

/** Exact key of a vertex's sparse weights (slots and float64 bits), for sharing results between identical vectors. */
function weightKey(sw: SparseWeights, v: number, bits: Float64Array, words: Uint32Array): string {
  const o = v * MAX_INFLUENCES;
  let key = '';
  for (let k = 0; k < sw.counts[v]!; k++) {
    bits[0] = sw.weights[o + k]!;
    key += `${sw.slots[o + k]}:${words[0]}:${words[1]},`;
  }
  return key;
}

/**
 * One centre of rotation per vertex (3 floats, bind space), see the contract above. `onProgress` is called
 * with the fraction done (0..1) now and then (about 64 times, by the pair terms summed) and with 1 at the end.
 *
 * Order of work: pair by pair (every vertex weight vector carrying the pair sums that pair's triangle list
 * while the list is in cache), each distinct weight vector once, then every vertex reads its vector's sums.
 */
export function computeCorCentres(mesh: SkinnedMesh, onProgress?: (fraction: number) => void): Float32Array {
  const n = mesh.vertexCount;
  const out = new Float32Array(n * 3);
  const pos = mesh.positions;
  const sw = sparseVertexWeights(mesh);
  let slotCount = 1;
  for (let i = 0; i < mesh.joints.length; i++) slotCount = Math.max(slotCount, mesh.joints[i]! + 1);
  const { ids, start, entries } = buildPairIndex(mesh, sw, slotCount);
  const pairs = start.length - 1;
  // Distinct weight vectors of the blended vertices (2+ bones): vertex → vector, vector → its first vertex.
  const vectorOf = new Int32Array(n).fill(-1);
  const firstVertex: number[] = [];
  const seen = new Map<string, number>();
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  for (let v = 0; v < n; v++) {
    if (sw.counts[v]! < 2) continue;
    const key = weightKey(sw, v, bits, words);
    let u = seen.get(key);
    if (u === undefined) {
      u = firstVertex.length;
      seen.set(key, u);
      firstVertex.push(v);
    }
    vectorOf[v] = u;
  }
  // Jobs: (vector, its weights on the pair) grouped by pair (CSR).
  const jobStart = new Int32Array(pairs + 1);
  const pairOf = (v: number, a: number, b: number): number => {
    const o = v * MAX_INFLUENCES;
    return ids.get(sw.slots[o + a]! * slotCount + sw.slots[o + b]!) ?? -1;
  };
  for (const v of firstVertex) {
    const c = sw.counts[v]!;
    for (let a = 0; a < c; a++) for (let b = a + 1; b < c; b++) {
      const id = pairOf(v, a, b);
      if (id >= 0) jobStart[id + 1]!++;
    }
  }
  let work = 0;
  for (let p = 0; p < pairs; p++) {
    work += jobStart[p + 1]! * (start[p + 1]! - start[p]!);
    jobStart[p + 1]! += jobStart[p]!;
  }
  const jobVector = new Int32Array(jobStart[pairs]!);
  const jobWeights = new Float64Array(jobStart[pairs]! * 2);
  const fill = jobStart.slice(0, pairs);
  for (let u = 0; u < firstVertex.length; u++) {
    const v = firstVertex[u]!;
    const o = v * MAX_INFLUENCES;
    const c = sw.counts[v]!;
    for (let a = 0; a < c; a++) for (let b = a + 1; b < c; b++) {
      const id = pairOf(v, a, b);
      if (id < 0) continue;
      const j = fill[id]!++;
      jobVector[j] = u;
      jobWeights[j * 2] = sw.weights[o + a]!;
      jobWeights[j * 2 + 1] = sw.weights[o + b]!;
    }
  }
  // Σ s·a (den) and Σ s·a·c per vector.
  const sums = new Float64Array(firstVertex.length * 4);
  const step = work / 64;
  let done = 0;
  let next = step;
  for (let p = 0; p < pairs; p++) {
    const e0 = start[p]! * ENTRY;
    const e1 = start[p + 1]! * ENTRY;
    for (let j = jobStart[p]!; j < jobStart[p + 1]!; j++) {
      const wj = jobWeights[j * 2]!;
      const wk = jobWeights[j * 2 + 1]!;
      const wjk = 2 * wj * wk;
      let den = 0, nx = 0, ny = 0, nz = 0;
      for (let e = e0; e < e1; e += ENTRY) {
        const tj = entries[e]!;
        const tk = entries[e + 1]!;
        const d = wj * tk - wk * tj;
        const s = wjk * tj * tk * Math.exp(-d * d * INV_SIGMA2);
        den += s * entries[e + 2]!;
        nx += s * entries[e + 3]!;
        ny += s * entries[e + 4]!;
        nz += s * entries[e + 5]!;
      }
      const u = jobVector[j]! * 4;
      sums[u]! += den;
      sums[u + 1]! += nx;
      sums[u + 2]! += ny;
      sums[u + 3]! += nz;
    }
    done += (jobStart[p + 1]! - jobStart[p]!) * (start[p + 1]! - start[p]!);
    if (onProgress && done >= next) {
      onProgress(done / work);
      next = done + step;
    }
  }
  for (let v = 0; v < n; v++) {
    const u = vectorOf[v]!;
    const den = u >= 0 ? sums[u * 4]! : 0;
    if (den > 0) {
      out[v * 3] = sums[u * 4 + 1]! / den;
      out[v * 3 + 1] = sums[u * 4 + 2]! / den;
      out[v * 3 + 2] = sums[u * 4 + 3]! / den;
    } else {
      // One bone, or no similar triangle: the vertex's own position.
      out[v * 3] = pos[v * 3]!;
      out[v * 3 + 1] = pos[v * 3 + 1]!;
      out[v * 3 + 2] = pos[v * 3 + 2]!;
    }
  }
  onProgress?.(1);
  return out;
}

/** The session's centres, per mesh object (a reloaded model is a new mesh and computes again). */
const cache = new WeakMap<SkinnedMesh, Float32Array>();

/** The mesh's centres: from the session cache, else computed now (synchronously) and cached. */
export function corCentres(mesh: SkinnedMesh): Float32Array {
  let c = cache.get(mesh);
  if (!c) {
    c = computeCorCentres(mesh);
    cache.set(mesh, c);
  }
  return c;
}

/** Stores centres computed elsewhere (a worker) for `mesh`: 3 floats per vertex, as computeCorCentres returns. */
export function setCorCentres(mesh: SkinnedMesh, centres: Float32Array): void {
  if (centres.length !== mesh.vertexCount * 3) throw new Error(`setCorCentres: ${centres.length} floats for ${mesh.vertexCount} vertices (3 per vertex expected)`);
  cache.set(mesh, centres);
}

/** True when the session already holds the mesh's centres (no compute on the next corCentres). */
export function hasCorCentres(mesh: SkinnedMesh): boolean {
  return cache.has(mesh);
}
