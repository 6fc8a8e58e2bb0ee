/**
 * Blending job: two local poses → one (crossfades).
 *
 * Contract
 * - a, b, out: TRS_STRIDE (10) floats per node (t 3, r 4 xyzw, s 3), parent space, as Skeleton.restLocal.
 *   The first nodeCount nodes are blended; the caller owns all three buffers.
 * - out = a at w = 0 and b at w = 1 (the rotation possibly with the opposite sign, the same rotation).
 *   Translation and scale lerp; rotation shortest-path slerp with an nlerp fallback (quat-interp.ts).
 *   w is not clamped: outside [0, 1] translation and scale extrapolate.
 * - out may be the same array as a or b.
 * - No allocation. blendLocalsAt takes w from interpWeight[0] (quat-interp.ts) for per-frame callers that
 *   compute w each frame, since V8 boxes a double argument of a call it does not inline.
 */

import { TRS_STRIDE } from '../model/types.ts';
import { interpWeight, slerpShortestAt } from './quat-interp.ts';

export function blendLocals(a: Float32Array, b: Float32Array, w: number, out: Float32Array, nodeCount: number): void {
  interpWeight[0] = w;
  blendLocalsAt(a, b, out, nodeCount);
}

/**
 * blendLocals with the weight taken from interpWeight[0] (quat-interp.ts), for callers that compute the
 * weight each frame: passing a fresh double to a call V8 does not inline allocates a box for it.
 */
export function blendLocalsAt(a: Float32Array, b: Float32Array, out: Float32Array, nodeCount: number): void {
  const w = interpWeight[0];
  for (let i = 0; i < nodeCount; i++) {
    const o = i * TRS_STRIDE;
    for (let c = 0; c < 3; c++) {
      const ta = a[o + c];
      out[o + c] = ta + (b[o + c] - ta) * w;
      const sa = a[o + 7 + c];
      out[o + 7 + c] = sa + (b[o + 7 + c] - sa) * w;
    }
    slerpShortestAt(a, o + 3, b, o + 3, out, o + 3);
  }
}
