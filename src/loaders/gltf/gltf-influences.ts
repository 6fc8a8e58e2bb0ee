import { LoadError } from '../../model/errors.ts';
import { normaliseInfluences, WEIGHT_SUM_TOLERANCE } from '../../model/influences.ts';
import { MAX_INFLUENCES } from '../../model/types.ts';

/**
 * A primitive's JOINTS_n / WEIGHTS_n sets → MAX_INFLUENCES (joint, weight) pairs per vertex, as gltf-skin.ts's
 * contract says: the 4 largest positive weights kept (`overflow` counts the vertices that had more), renormalised
 * and sorted descending (src/model/influences.ts). A joint number ≥ `jointCount` under a positive weight is a
 * LoadError naming `where` and the vertex. The sets are only read; the result's arrays are new.
 */

/** A primitive's influences as the Scene takes them (gltf-skin.ts readInfluences). */
export interface Influences {
  readonly joints: Uint16Array;
  readonly weights: Float32Array;
  readonly maxInfluences: number;
  /** Vertices that had more than MAX_INFLUENCES non-zero weights. */
  readonly overflow: number;
  /** Vertices whose weights did not sum to 1 (rescaled), and vertices without any weight (given slot 0). */
  readonly rescaled: number;
  readonly empty: number;
  /**
   * The arrays are as validateScene's weight check would leave them (each vertex sorted, summing to 1 within
   * WEIGHT_SUM_TOLERANCE, unused slots (joint 0, weight 0), joints below the palette size, maxInfluences exact),
   * so that check may skip them.
   */
  readonly tidy: boolean;
}

/** One JOINTS_n / WEIGHTS_n pair: 4 values per vertex each. */
export interface InfluenceSet {
  readonly j: Uint32Array | Uint16Array | Uint8Array;
  readonly w: Float32Array;
}

/** Any number of sets: positive weights gathered in file order, the 4 largest kept, then normaliseInfluences. */
export function mergeInfluenceSets(sets: readonly InfluenceSet[], vertexCount: number, jointCount: number, where: string): Influences {
  const joints = new Uint16Array(vertexCount * MAX_INFLUENCES);
  const weights = new Float32Array(vertexCount * MAX_INFLUENCES);
  let overflow = 0;
  const setCount = sets.length;
  for (let v = 0; v < vertexCount; v++) {
    const o = v * MAX_INFLUENCES;
    let nonZero = 0;
    for (let s = 0; s < setCount; s++) {
      const { j, w } = sets[s]!;
      for (let k = 0; k < 4; k++) {
        const wk = w[v * 4 + k]!;
        if (!(wk > 0)) continue;
        const jk = j[v * 4 + k]!;
        if (jk >= jointCount) {
          throw new LoadError(`${where}: vertex ${v} is weighted to joint ${jk}, but the skin has ${jointCount} joints`);
        }
        nonZero++;
        // Keep the 4 largest: replace the smallest kept weight when this one is larger.
        if (nonZero <= MAX_INFLUENCES) {
          joints[o + nonZero - 1] = jk;
          weights[o + nonZero - 1] = wk;
        } else {
          let min = 0;
          for (let m = 1; m < MAX_INFLUENCES; m++) if (weights[o + m]! < weights[o + min]!) min = m;
          if (wk > weights[o + min]!) {
            joints[o + min] = jk;
            weights[o + min] = wk;
          }
        }
      }
    }
    if (nonZero > MAX_INFLUENCES) overflow++;
  }
  const { maxInfluences, rescaled, empty } = normaliseInfluences(joints, weights, vertexCount, jointCount);
  return { joints, weights, maxInfluences, overflow, rescaled, empty, tidy: false };
}

/**
 * One JOINTS_0/WEIGHTS_0 pair, the usual case, in one pass over the vertices with no per-vertex allocation: the same
 * arrays and counts as mergeInfluenceSets. Why the shortcut gives the same result: gathering the positive weights
 * to the front and then sorting stably is the stable sort of the weights with the others (zero, negative, NaN,
 * +Infinity, which normaliseInfluences zeroes) taken as 0; zeros add nothing to the sum, and a zero weight's
 * slot ends as (joint 0, weight 0) either way. Any sort that swaps only neighbours strictly out of order is
 * stable; the six swaps below sort 4.
 */
export function oneInfluenceSet({ j, w }: InfluenceSet, vertexCount: number, jointCount: number, where: string): Influences {
  const joints = new Uint16Array(vertexCount * MAX_INFLUENCES);
  const weights = new Float32Array(vertexCount * MAX_INFLUENCES);
  const counts = new Int32Array(COUNTS);
  // Short calls rather than one long loop: V8 then optimises settleVertices whole, with feedback for every path,
  // instead of replacing one long loop on the stack, which it was seen to deoptimise again on every load.
  for (let v = 0; v < vertexCount; v += CHUNK) settleVertices(j, w, joints, weights, v, Math.min(vertexCount, v + CHUNK), jointCount, where, counts);
  return {
    joints,
    weights,
    maxInfluences: counts[MAX]!,
    overflow: 0,
    rescaled: counts[RESCALED]!,
    empty: counts[EMPTY]!,
    tidy: counts[UNTIDY] === 0,
  };
}

/** Vertices per settleVertices call. */
const CHUNK = 256;
/** settleVertices' running counts: the largest influence count, vertices rescaled, vertices empty, untidy ones. */
const MAX = 0, RESCALED = 1, EMPTY = 2, UNTIDY = 3, COUNTS = 4;

/** Vertices [from, to) of oneInfluenceSet (see there), adding to `counts`. */
function settleVertices(
  j: Uint32Array | Uint16Array | Uint8Array,
  w: Float32Array,
  joints: Uint16Array,
  weights: Float32Array,
  from: number,
  to: number,
  jointCount: number,
  where: string,
  counts: Int32Array,
): void {
  let maxInfluences = 0;
  let rescaled = 0;
  let empty = 0;
  // Vertices where a positive weight, divided by its sum, rounds to a float32 0 (validation then tidies its joint).
  let untidy = 0;
  for (let v = from, o = from * 4; v < to; v++, o += 4) {
    const w0 = w[o]!, w1 = w[o + 1]!, w2 = w[o + 2]!, w3 = w[o + 3]!;
    let j0 = j[o]!, j1 = j[o + 1]!, j2 = j[o + 2]!, j3 = j[o + 3]!;
    if ((w0 > 0 && j0 >= jointCount) || (w1 > 0 && j1 >= jointCount) || (w2 > 0 && j2 >= jointCount) || (w3 > 0 && j3 >= jointCount)) {
      const k = w0 > 0 && j0 >= jointCount ? 0 : w1 > 0 && j1 >= jointCount ? 1 : w2 > 0 && j2 >= jointCount ? 2 : 3;
      throw new LoadError(`${where}: vertex ${v} is weighted to joint ${j[o + k]}, but the skin has ${jointCount} joints`);
    }
    let a = w0 > 0 && w0 < Infinity ? w0 : 0;
    let b = w1 > 0 && w1 < Infinity ? w1 : 0;
    let c = w2 > 0 && w2 < Infinity ? w2 : 0;
    let d = w3 > 0 && w3 < Infinity ? w3 : 0;
    const sum = a + b + c + d;
    if (!(sum > 0)) {
      // No usable weight: weight 1 on the first joint listed with a positive weight (+Infinity), else joint 0.
      empty++;
      weights[o] = 1;
      joints[o] = w0 > 0 ? j0 : w1 > 0 ? j1 : w2 > 0 ? j2 : w3 > 0 ? j3 : 0;
      if (maxInfluences < 1) maxInfluences = 1;
      continue;
    }
    if (Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) rescaled++;
    let t: number;
    if (a < b) { t = a; a = b; b = t; t = j0; j0 = j1; j1 = t; }
    if (b < c) { t = b; b = c; c = t; t = j1; j1 = j2; j2 = t; }
    if (c < d) { t = c; c = d; d = t; t = j2; j2 = j3; j3 = t; }
    if (a < b) { t = a; a = b; b = t; t = j0; j0 = j1; j1 = t; }
    if (b < c) { t = b; b = c; c = t; t = j1; j1 = j2; j2 = t; }
    if (a < b) { t = a; a = b; b = t; t = j0; j0 = j1; j1 = t; }
    // Unused slots stay (joint 0, weight +0), as the arrays were made.
    weights[o] = a / sum;
    joints[o] = j0;
    let count = 1;
    if (b > 0) {
      weights[o + 1] = b / sum;
      joints[o + 1] = j1;
      count++;
    }
    if (c > 0) {
      weights[o + 2] = c / sum;
      joints[o + 2] = j2;
      count++;
    }
    if (d > 0) {
      weights[o + 3] = d / sum;
      joints[o + 3] = j3;
      count++;
    }
    if (count > maxInfluences) maxInfluences = count;
    if (weights[o + count - 1] === 0) untidy++;
  }
  if (maxInfluences > counts[MAX]!) counts[MAX] = maxInfluences;
  counts[RESCALED] += rescaled;
  counts[EMPTY] += empty;
  counts[UNTIDY] += untidy;
}
