/**
 * Shortest-path quaternion interpolation on flat float arrays, shared by the sampler and the blender.
 *
 * Contract
 * - Quaternions are (x, y, z, w) at a[ao..ao+4], b[bo..bo+4]; the result goes to out[oo..oo+4].
 * - `out` may be the same array as `a` or `b` at the same offset: both inputs are read before any write.
 * - Shortest path: when dot(a, b) < 0, b is negated first, so the result never turns the long way round.
 * - Spherical linear interpolation (constant angular speed). When the two quaternions are closer than
 *   NLERP_DOT (about 3.6 degrees of rotation) it falls back to normalised lerp, where slerp's
 *   sin(angle) denominator loses precision and the two agree to float32 accuracy.
 * - The result is always renormalised to unit length; two zero quaternions give identity (0, 0, 0, 1).
 * - No allocation. V8 boxes a double passed to (or returned from) a call it does not inline, so the per-key
 *   hot paths use `slerpShortestAt`, which reads the weight from the shared `interpWeight` slot instead of
 *   taking it as an argument. `slerpShortest` is the plain-argument form for one-off use.
 */

/** Above this |dot| the keys are nearly equal and nlerp replaces slerp. */
export const NLERP_DOT = 0.9995;

/** Weight for slerpShortestAt: 0 gives a, 1 gives b. Module scratch shared by the anim jobs (single-threaded). */
export const interpWeight = new Float64Array(1);

export function slerpShortest(
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
  w: number,
  out: Float32Array,
  oo: number,
): void {
  interpWeight[0] = w;
  slerpShortestAt(a, ao, b, bo, out, oo);
}

/** slerpShortest with the weight taken from interpWeight[0]. */
export function slerpShortestAt(
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
  out: Float32Array,
  oo: number,
): void {
  const w = interpWeight[0];
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  let bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  let dot = ax * bx + ay * by + az * bz + aw * bw;
  if (dot < 0) {
    dot = -dot;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  let ka: number;
  let kb: number;
  if (dot > NLERP_DOT) {
    ka = 1 - w;
    kb = w;
  } else {
    // Here 0 <= dot <= NLERP_DOT, so acos is defined and sin(angle) > 0.
    const angle = Math.acos(dot);
    const invSin = 1 / Math.sin(angle);
    ka = Math.sin((1 - w) * angle) * invSin;
    kb = Math.sin(w * angle) * invSin;
  }
  const x = ka * ax + kb * bx;
  const y = ka * ay + kb * by;
  const z = ka * az + kb * bz;
  const qw = ka * aw + kb * bw;
  const len2 = x * x + y * y + z * z + qw * qw;
  if (len2 > 0) {
    const inv = 1 / Math.sqrt(len2);
    out[oo] = x * inv;
    out[oo + 1] = y * inv;
    out[oo + 2] = z * inv;
    out[oo + 3] = qw * inv;
  } else {
    out[oo] = 0;
    out[oo + 1] = 0;
    out[oo + 2] = 0;
    out[oo + 3] = 1;
  }
}
