/**
 * glTF sampler interpolation → the Scene's linear keys (src/anim/sample-clip.ts interpolates linearly, slerp
 * for rotations, and is left as it is). Pure functions on typed arrays; load time only.
 *
 * - STEP is exact: each key value is held until just before the next key, by a copy of it at the largest
 *   float32 time below the next key's (one ulp earlier), so linear interpolation reproduces the step.
 * - CUBICSPLINE (glTF 2.0 Appendix C, Hermite with the sampler's in/out tangents scaled by the key interval)
 *   is evaluated at every key and, adaptively, between keys: a segment is halved while the spline at its
 *   quarter points departs from linear interpolation by more than CUBIC_TOLERANCE × the channel's range (the
 *   spread of its key values per component, largest component), at most MAX_CUBIC_DEPTH times (so at most
 *   2^MAX_CUBIC_DEPTH − 1 keys added per segment). Rotations are normalised after the spline, as the spec says,
 *   and compared normalised.
 * Input `times` ascending (the validator's rule; repeated times are kept as they are).
 */

export interface LinearKeys {
  readonly times: Float32Array;
  readonly values: Float32Array;
}

/** Relative tolerance of the cubic resampling (of the channel's range). */
export const CUBIC_TOLERANCE = 1e-5;
/** Halvings per cubic segment at most: 31 added keys. */
export const MAX_CUBIC_DEPTH = 5;

const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);

/** The largest float32 strictly below `t` (finite t). */
export function floatBelow(t: number): number {
  f32[0] = t;
  const f = f32[0]!;
  if (f < t) return f;
  // f ≥ t and no float32 lies strictly between t and f: the one just below f is the answer.
  if (f === 0) {
    i32[0] = -2147483647; // −(smallest subnormal): sign bit and mantissa 1
    return f32[0]!;
  }
  i32[0] = f > 0 ? i32[0]! - 1 : i32[0]! + 1;
  return f32[0]!;
}

/** STEP keys → linear keys with the same values between keys. */
export function stepToLinear(times: Float32Array, values: Float32Array, stride: number): LinearKeys {
  const n = times.length;
  const outTimes = new Float32Array(Math.max(0, 2 * n - 1));
  const outValues = new Float32Array(outTimes.length * stride);
  let o = 0;
  for (let k = 0; k < n; k++) {
    outTimes[o] = times[k]!;
    outValues.set(values.subarray(k * stride, k * stride + stride), o * stride);
    o++;
    if (k + 1 < n) {
      const hold = floatBelow(times[k + 1]!);
      if (hold > times[k]!) {
        outTimes[o] = hold;
        outValues.set(values.subarray(k * stride, k * stride + stride), o * stride);
        o++;
      }
    }
  }
  return { times: outTimes.slice(0, o), values: outValues.slice(0, o * stride) };
}

/**
 * CUBICSPLINE keys (per key: in-tangent, value, out-tangent, `stride` floats each) → linear keys.
 * `rotation`: values are quaternions (stride 4), normalised after evaluation.
 */
export function cubicToLinear(times: Float32Array, values: Float32Array, stride: number, rotation: boolean): LinearKeys {
  const n = times.length;
  if (n === 0) return { times: new Float32Array(0), values: new Float32Array(0) };
  const tol = CUBIC_TOLERANCE * channelRange(values, stride, n);
  const outT: number[] = [];
  const outV: number[] = [];
  const p = new Float64Array(stride);
  const q = new Float64Array(stride);
  const seg = { k: 0, dt: 0 };
  const evalAt = (s: number, out: Float64Array): void => {
    const k = seg.k;
    const s2 = s * s;
    const s3 = s2 * s;
    const h00 = 2 * s3 - 3 * s2 + 1;
    const h10 = (s3 - 2 * s2 + s) * seg.dt;
    const h01 = -2 * s3 + 3 * s2;
    const h11 = (s3 - s2) * seg.dt;
    const o0 = k * 3 * stride;
    const o1 = (k + 1) * 3 * stride;
    for (let c = 0; c < stride; c++) {
      out[c] = h00 * values[o0 + stride + c]! + h10 * values[o0 + 2 * stride + c]! + h01 * values[o1 + stride + c]! + h11 * values[o1 + c]!;
    }
    if (rotation) normalise(out);
  };
  const push = (t: number, v: Float64Array): void => {
    const tf = Math.fround(t);
    if (outT.length > 0 && !(tf > outT[outT.length - 1]!)) return;
    outT.push(tf);
    for (let c = 0; c < stride; c++) outV.push(v[c]!);
  };
  // Error of linear interpolation between the spline at s0 and s1, at their quarter points.
  const departs = (s0: number, v0: Float64Array, s1: number, v1: Float64Array): boolean => {
    for (const f of [0.25, 0.5, 0.75]) {
      evalAt(s0 + (s1 - s0) * f, p);
      for (let c = 0; c < stride; c++) q[c] = v0[c]! + (v1[c]! - v0[c]!) * f;
      if (rotation) normalise(q);
      for (let c = 0; c < stride; c++) if (Math.abs(p[c]! - q[c]!) > tol) return true;
    }
    return false;
  };
  const refine = (s0: number, v0: Float64Array, s1: number, v1: Float64Array, depth: number): void => {
    if (depth >= MAX_CUBIC_DEPTH || !departs(s0, v0, s1, v1)) return;
    const sm = (s0 + s1) / 2;
    const vm = new Float64Array(stride);
    evalAt(sm, vm);
    refine(s0, v0, sm, vm, depth + 1);
    push(times[seg.k]! + sm * seg.dt, vm);
    refine(sm, vm, s1, v1, depth + 1);
  };
  const v0 = new Float64Array(stride);
  const v1 = new Float64Array(stride);
  for (let k = 0; k < n; k++) {
    for (let c = 0; c < stride; c++) v0[c] = values[k * 3 * stride + stride + c]!;
    if (rotation) normalise(v0);
    push(times[k]!, v0);
    if (k + 1 >= n) break;
    seg.k = k;
    seg.dt = times[k + 1]! - times[k]!;
    if (!(seg.dt > 0)) continue;
    for (let c = 0; c < stride; c++) v1[c] = values[(k + 1) * 3 * stride + stride + c]!;
    if (rotation) normalise(v1);
    refine(0, v0, 1, v1, 0);
  }
  return { times: Float32Array.from(outT), values: Float32Array.from(outV) };
}

/** Largest per-component spread of the key values (CUBICSPLINE layout); 1 when every value is equal. */
function channelRange(values: Float32Array, stride: number, n: number): number {
  let range = 0;
  for (let c = 0; c < stride; c++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let k = 0; k < n; k++) {
      const v = values[k * 3 * stride + stride + c]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (hi - lo > range) range = hi - lo;
  }
  return range > 0 ? range : 1;
}

function normalise(v: Float64Array): void {
  let len = 0;
  for (let c = 0; c < v.length; c++) len += v[c]! * v[c]!;
  len = Math.sqrt(len);
  if (len > 0) for (let c = 0; c < v.length; c++) v[c] = v[c]! / len;
}
