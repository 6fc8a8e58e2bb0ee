/**
 * Blend rules of the animation controller: sampled track poses → one local pose (and morph-track weights).
 *
 * Contract (poses: TRS_STRIDE floats per node, parent space, as Skeleton.restLocal; the caller owns them)
 * - Within a priority group, per node, the contributing tracks (enabled, weight > 0, with a clip, the node in
 *   their mask subtree and animated by their clip: a clip that does not animate a frame leaves that frame to
 *   the other tracks) combine in track-index order as three.js's PropertyMixer does: a running normalised
 *   weighted average — W += w, mix = w / W, acc = lerp(acc, sample, mix) for translation and scale,
 *   shortest-path slerp for rotation (the first contribution is copied). accumulatePose does one track.
 * - Low group, fillRest: a node with total W < 1 is then lerped from the skeleton's rest local by W
 *   (slerp for rotation); a node no low track animates takes the rest local.
 * - High group over the low result, overlayHigh: where the high group animates a node (W_high > 0),
 *   final = lerp(low, high average, priorityBlend · min(W_high, 1)) (slerp for rotation); elsewhere the low
 *   result stays. The low result plays the part of the rest pose for the high group (no rest fill there).
 * - Additive tracks, applyAdditive, after the groups, in track order: a delta against the clip's pose at
 *   time 0 (t0, r0, s0), scaled by the track weight w:
 *     t += w · (t − t0);  r = slerp(identity, r · r0⁻¹, w) · r_out (parent space);  s *= 1 + w · (s / s0 − 1)
 *   (a zero component of s0 leaves that scale component alone).
 * - Morph weights (one float per target) blend by the same rules with rest = 0, per target the clip has a
 *   morph track for; additive: m += w · (m − m0).
 * - The weight (w, or priorityBlend for overlayHigh) is read from mixWeight[0]: V8 boxes a double argument
 *   of a call it does not inline. Nothing here allocates.
 */

import { TRS_STRIDE } from '../../model/types.ts';
import { interpWeight, slerpShortestAt } from '../quat-interp.ts';

/** [0] = the weight the next call uses. */
export const mixWeight = new Float64Array(1);

const IDENTITY = new Float32Array([0, 0, 0, 1]);
const _delta = new Float32Array(4);
const _q = new Float32Array(4);

/** Adds one track's sample to a group accumulator (see contract); totals: W per node. */
export function accumulatePose(
  acc: Float32Array,
  totals: Float64Array,
  sample: Float32Array,
  contrib: Uint8Array,
  contribOffset: number,
  nodeCount: number,
): void {
  const w = mixWeight[0];
  for (let n = 0; n < nodeCount; n++) {
    if (contrib[contribOffset + n] === 0) continue;
    const before = totals[n];
    const W = before + w;
    totals[n] = W;
    const o = n * TRS_STRIDE;
    if (before === 0) {
      for (let c = 0; c < TRS_STRIDE; c++) acc[o + c] = sample[o + c];
      continue;
    }
    const m = w / W;
    for (let c = 0; c < 3; c++) {
      const ta = acc[o + c];
      acc[o + c] = ta + (sample[o + c] - ta) * m;
      const sa = acc[o + 7 + c];
      acc[o + 7 + c] = sa + (sample[o + 7 + c] - sa) * m;
    }
    interpWeight[0] = m;
    slerpShortestAt(acc, o + 3, sample, o + 3, acc, o + 3);
  }
}

/**
 * accumulatePose for the first track of a group when its sample was written straight into `acc` (every
 * total still 0): the copy accumulatePose would make is already there, so only the totals are set
 * (W = w where contrib). Nodes outside contrib keep the sample with W = 0, which later tracks overwrite
 * and fillRest / overlayHigh replace or skip, as they do for an unwritten node.
 */
export function claimPose(totals: Float64Array, contrib: Uint8Array, contribOffset: number, nodeCount: number): void {
  const w = mixWeight[0];
  for (let n = 0; n < nodeCount; n++) if (contrib[contribOffset + n] !== 0) totals[n] = w;
}

/** Low group: W = 0 → rest; 0 < W < 1 → lerp(rest, acc, W). */
export function fillRest(acc: Float32Array, totals: Float64Array, rest: Float32Array, nodeCount: number): void {
  for (let n = 0; n < nodeCount; n++) {
    const W = totals[n];
    const o = n * TRS_STRIDE;
    if (W === 0) {
      for (let c = 0; c < TRS_STRIDE; c++) acc[o + c] = rest[o + c];
    } else if (W < 1) {
      for (let c = 0; c < 3; c++) {
        const ta = rest[o + c];
        acc[o + c] = ta + (acc[o + c] - ta) * W;
        const sa = rest[o + 7 + c];
        acc[o + 7 + c] = sa + (acc[o + 7 + c] - sa) * W;
      }
      interpWeight[0] = W;
      slerpShortestAt(rest, o + 3, acc, o + 3, acc, o + 3);
    }
  }
}

/** out = lerp(out, high, mixWeight[0] · min(W_high, 1)) where W_high > 0. */
export function overlayHigh(out: Float32Array, high: Float32Array, totals: Float64Array, nodeCount: number): void {
  const blend = mixWeight[0];
  for (let n = 0; n < nodeCount; n++) {
    const W = totals[n];
    if (W === 0) continue;
    const f = blend * (W < 1 ? W : 1);
    if (f === 0) continue;
    const o = n * TRS_STRIDE;
    for (let c = 0; c < 3; c++) {
      const ta = out[o + c];
      out[o + c] = ta + (high[o + c] - ta) * f;
      const sa = out[o + 7 + c];
      out[o + 7 + c] = sa + (high[o + 7 + c] - sa) * f;
    }
    interpWeight[0] = f;
    slerpShortestAt(out, o + 3, high, o + 3, out, o + 3);
  }
}

/** Applies one additive track (sample against pose0, weight mixWeight[0]) onto out where contrib. */
export function applyAdditive(
  out: Float32Array,
  sample: Float32Array,
  pose0: Float32Array,
  contrib: Uint8Array,
  contribOffset: number,
  nodeCount: number,
): void {
  const w = mixWeight[0];
  for (let n = 0; n < nodeCount; n++) {
    if (contrib[contribOffset + n] === 0) continue;
    const o = n * TRS_STRIDE;
    for (let c = 0; c < 3; c++) {
      out[o + c] += w * (sample[o + c] - pose0[o + c]);
      const s0 = pose0[o + 7 + c];
      if (s0 !== 0) out[o + 7 + c] *= 1 + w * (sample[o + 7 + c] / s0 - 1);
    }
    // delta = r · r0⁻¹ (r0 unit: inverse = conjugate).
    const ax = sample[o + 3], ay = sample[o + 4], az = sample[o + 5], aw = sample[o + 6];
    const bx = -pose0[o + 3], by = -pose0[o + 4], bz = -pose0[o + 5], bw = pose0[o + 6];
    _delta[0] = aw * bx + ax * bw + ay * bz - az * by;
    _delta[1] = aw * by - ax * bz + ay * bw + az * bx;
    _delta[2] = aw * bz + ax * by - ay * bx + az * bw;
    _delta[3] = aw * bw - ax * bx - ay * by - az * bz;
    interpWeight[0] = w;
    slerpShortestAt(IDENTITY, 0, _delta, 0, _q, 0);
    const qx = _q[0], qy = _q[1], qz = _q[2], qw = _q[3];
    const rx = out[o + 3], ry = out[o + 4], rz = out[o + 5], rw = out[o + 6];
    out[o + 3] = qw * rx + qx * rw + qy * rz - qz * ry;
    out[o + 4] = qw * ry - qx * rz + qy * rw + qz * rx;
    out[o + 5] = qw * rz + qx * ry - qy * rx + qz * rw;
    out[o + 6] = qw * rw - qx * rx - qy * ry - qz * rz;
  }
}

/** Morph version of accumulatePose: `has` marks the targets the track's clip has a morph track for. */
export function accumulateMorph(acc: Float32Array, totals: Float64Array, sample: Float32Array, has: Uint8Array, count: number): void {
  const w = mixWeight[0];
  for (let i = 0; i < count; i++) {
    if (has[i] === 0) continue;
    const before = totals[i];
    const W = before + w;
    totals[i] = W;
    acc[i] = before === 0 ? sample[i] : acc[i] + (sample[i] - acc[i]) * (w / W);
  }
}

/** Morph version of fillRest (rest = 0). */
export function fillMorphRest(acc: Float32Array, totals: Float64Array, count: number): void {
  for (let i = 0; i < count; i++) {
    const W = totals[i];
    if (W === 0) acc[i] = 0;
    else if (W < 1) acc[i] *= W;
  }
}

/** Morph version of overlayHigh. */
export function overlayHighMorph(out: Float32Array, high: Float32Array, totals: Float64Array, count: number): void {
  const blend = mixWeight[0];
  for (let i = 0; i < count; i++) {
    const W = totals[i];
    if (W === 0) continue;
    const f = blend * (W < 1 ? W : 1);
    out[i] += (high[i] - out[i]) * f;
  }
}

/** Morph version of applyAdditive. */
export function additiveMorph(out: Float32Array, sample: Float32Array, morph0: Float32Array, has: Uint8Array, count: number): void {
  const w = mixWeight[0];
  for (let i = 0; i < count; i++) if (has[i] === 1) out[i] += w * (sample[i] - morph0[i]);
}
