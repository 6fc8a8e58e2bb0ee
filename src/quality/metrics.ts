import { ringAreas, signedVolume, type MeshTopology } from './topology.ts';

/**
 * The per-pose halves of the artifact metrics: pure jobs over a mesh's welded topology (topology.ts) and its
 * posed positions. The caller owns every buffer; nothing here allocates, so a page can run them every few
 * frames. Units: volumes in model units³, areas in model units², distances in model units.
 *
 * - posedVolume: the signed volume of the posed triangles (divergence theorem).
 * - logAreaRatios: per welded vertex, log₂(posed one-ring area / rest one-ring area); NaN where the rest area
 *   is zero (skipped by every statistic). 0 = unchanged, −1 = halved, +1 = doubled.
 * - selectKth / percentile: order statistics on a scratch array (reordered in place; Hoare quickselect).
 *   percentile(p) is the nearest-rank value: the ⌈p·n⌉-th smallest (1-based), so p95 of 20 values is the 19th.
 * - Results that are doubles are written into a caller's Float64Array rather than returned, and selectKth
 *   leaves its answer at a[k]: V8 boxes a double returned from a call it does not inline (16 bytes a call).
 */

/** Signed volume of `positions` over the topology's triangles (allocates a boxed double: report paths only). */
export function posedVolume(topology: MeshTopology, positions: Float32Array): number {
  return signedVolume(positions, topology.triangles);
}

/** posedVolume into out[index]; no allocation. */
export function posedVolumeInto(topology: MeshTopology, positions: Float32Array, out: Float64Array, index: number): void {
  const triangles = topology.triangles;
  let sum = 0;
  for (let i = 0; i < triangles.length; i += 3) {
    const a = triangles[i]! * 3, b = triangles[i + 1]! * 3, c = triangles[i + 2]! * 3;
    const ax = positions[a]!, ay = positions[a + 1]!, az = positions[a + 2]!;
    const bx = positions[b]!, by = positions[b + 1]!, bz = positions[b + 2]!;
    const cx = positions[c]!, cy = positions[c + 1]!, cz = positions[c + 2]!;
    sum += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
  }
  out[index] = sum / 6;
}

/**
 * Writes log₂(posed / rest) one-ring area per welded vertex into outLog (weldedCount floats; NaN where the
 * rest area is zero). `restRing`: the rest shape's one-ring areas (ringAreas of it); `ringScratch`:
 * weldedCount float64s, overwritten.
 */
export function logAreaRatios(topology: MeshTopology, positions: Float32Array, restRing: Float64Array, ringScratch: Float64Array, outLog: Float32Array): void {
  ringAreas(positions, topology.triangles, topology.weld, ringScratch);
  const rest = restRing;
  for (let w = 0; w < topology.weldedCount; w++) {
    const r = rest[w]!;
    // Two stores, not one of a conditional: a phi of log2's double and the NaN constant is boxed per vertex.
    if (r > 0) outLog[w] = Math.log2(ringScratch[w]! / r);
    else outLog[w] = NaN;
  }
}

/** Reorders a[0..n) so that a[k] is the k-th smallest (0-based), none before it larger, none after it smaller. n ≥ 1, 0 ≤ k < n. */
export function selectKth(a: Float32Array, n: number, k: number): void {
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
}

/** The 0-based index of the nearest-rank percentile p (0..1) of n values (0 when n is 0). */
export function percentileIndex(n: number, p: number): number {
  return n <= 0 ? 0 : Math.min(n, Math.max(1, Math.ceil(p * n))) - 1;
}

/** Nearest-rank percentile p (0..1) of a[0..n), reordering a[0..n); 0 when n is 0. Report paths (returns a double). */
export function percentile(a: Float32Array, n: number, p: number): number {
  if (n <= 0) return 0;
  const k = percentileIndex(n, p);
  selectKth(a, n, k);
  return a[k]!;
}

/**
 * Writes |a[v] − b[v]| (Euclidean, per vertex) into out starting at `at`; returns the next free index. a and
 * b: 3 floats per vertex, the same vertex count.
 */
export function vertexDistances(a: Float32Array, b: Float32Array, out: Float32Array, at: number): number {
  const count = Math.min(a.length, b.length) / 3;
  for (let v = 0; v < count; v++) {
    const dx = a[v * 3]! - b[v * 3]!, dy = a[v * 3 + 1]! - b[v * 3 + 1]!, dz = a[v * 3 + 2]! - b[v * 3 + 2]!;
    out[at + v] = Math.sqrt(dx * dx + dy * dy + dz * dz);
  }
  return at + count;
}
