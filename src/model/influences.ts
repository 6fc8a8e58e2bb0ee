import { MAX_INFLUENCES } from './types.ts';

/**
 * Per-vertex bone influences: the layout SkinnedMesh.joints / .weights promise (MAX_INFLUENCES pairs per
 * vertex, descending weight, summing to 1, unused slots weight 0 index 0), made true in place.
 */

/** Tolerance on |Σ weights − 1| below which a vertex counts as normalised. */
export const WEIGHT_SUM_TOLERANCE = 1e-3;

/**
 * Sorts each vertex's MAX_INFLUENCES (joint, weight) pairs by descending weight, zeroes negative or
 * non-finite weights, and rescales to sum 1. A vertex whose weights are all zero gets weight 1 on its
 * first joint (slot 0 of the palette when that joint is not below `slotCount`). Returns the largest
 * influence count, how many vertices needed rescaling and how many had no positive weight.
 */
export function normaliseInfluences(
  joints: Uint16Array,
  weights: Float32Array,
  vertexCount: number,
  slotCount = 0xffff,
): { maxInfluences: number; rescaled: number; empty: number } {
  let maxInfluences = 0;
  let rescaled = 0;
  let empty = 0;
  const j = [0, 0, 0, 0];
  const w = [0, 0, 0, 0];
  for (let v = 0; v < vertexCount; v++) {
    const o = v * MAX_INFLUENCES;
    let sum = 0;
    for (let k = 0; k < MAX_INFLUENCES; k++) {
      const wk = weights[o + k]!;
      w[k] = Number.isFinite(wk) && wk > 0 ? wk : 0;
      j[k] = joints[o + k]!;
      sum += w[k]!;
    }
    if (sum <= 0) {
      empty++;
      w[0] = 1;
      w[1] = w[2] = w[3] = 0;
      if (j[0]! >= slotCount) j[0] = 0;
      sum = 1;
    } else if (Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
      rescaled++;
    }
    // Insertion sort of 4 pairs, descending by weight.
    for (let a = 1; a < MAX_INFLUENCES; a++) {
      const wa = w[a]!;
      const ja = j[a]!;
      let b = a - 1;
      while (b >= 0 && w[b]! < wa) {
        w[b + 1] = w[b]!;
        j[b + 1] = j[b]!;
        b--;
      }
      w[b + 1] = wa;
      j[b + 1] = ja;
    }
    let count = 0;
    for (let k = 0; k < MAX_INFLUENCES; k++) {
      const wk = w[k]! / sum;
      weights[o + k] = wk;
      joints[o + k] = wk > 0 ? j[k]! : 0;
      if (wk > 0) count++;
    }
    if (count > maxInfluences) maxInfluences = count;
  }
  return { maxInfluences, rescaled, empty };
}
