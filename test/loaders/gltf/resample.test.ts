import { describe, expect, it } from 'vitest';
import { CUBIC_TOLERANCE, MAX_CUBIC_DEPTH, cubicToLinear, floatBelow, stepToLinear } from '../../../src/loaders/gltf/gltf-resample.ts';

/** Linear interpolation of linear keys at t (clamped), stride 1. */
function sampleLinear(times: Float32Array, values: Float32Array, t: number): number {
  if (t <= times[0]!) return values[0]!;
  for (let k = 0; k + 1 < times.length; k++) {
    if (t < times[k + 1]!) return values[k]! + ((values[k + 1]! - values[k]!) * (t - times[k]!)) / (times[k + 1]! - times[k]!);
  }
  return values[values.length - 1]!;
}

describe('floatBelow', () => {
  it('is the next float32 below, for representable and unrepresentable times', () => {
    expect(floatBelow(1)).toBe(Math.fround(1 - 2 ** -24));
    expect(floatBelow(0.1)).toBeLessThan(0.1);
    expect(Math.fround(floatBelow(0.1))).toBe(floatBelow(0.1));
    expect(floatBelow(0)).toBeLessThan(0);
    expect(floatBelow(-1)).toBe(Math.fround(-1 - 2 ** -23));
  });
});

describe('stepToLinear', () => {
  it('holds each value until one ulp before the next key, so linear sampling reproduces the step', () => {
    const times = Float32Array.of(0.04, 0.5, 1);
    const values = Float32Array.of(1, 2, 3, 10, 20, 30, 5, 6, 7);
    const out = stepToLinear(times, values, 3);
    expect(Array.from(out.times)).toEqual([Math.fround(0.04), floatBelow(0.5), 0.5, floatBelow(1), 1]);
    expect(Array.from(out.values)).toEqual([1, 2, 3, 1, 2, 3, 10, 20, 30, 10, 20, 30, 5, 6, 7]);
    const x = new Float32Array(out.times.length);
    for (let k = 0; k < x.length; k++) x[k] = out.values[k * 3]!;
    expect(sampleLinear(out.times, x, 0.49999)).toBe(1);
    expect(sampleLinear(out.times, x, 0.5)).toBe(10);
    expect(sampleLinear(out.times, x, 0.99)).toBe(10);
  });
});

describe('cubicToLinear', () => {
  const hermite = (p0: number, m0: number, p1: number, m1: number, s: number): number => {
    const s2 = s * s;
    const s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * m0 + (-2 * s3 + 3 * s2) * p1 + (s3 - s2) * m1;
  };
  it('follows the Hermite spline within the tolerance of the channel range, keeping every key', () => {
    // A 1 Hz sine keyed at 30 fps with its exact derivative as tangents (what exporters write).
    const n = 31;
    const times = new Float32Array(n);
    const values = new Float32Array(n * 3);
    for (let k = 0; k < n; k++) {
      const t = k / 30;
      times[k] = t;
      values[k * 3] = values[k * 3 + 2] = 2 * Math.PI * Math.cos(2 * Math.PI * t);
      values[k * 3 + 1] = Math.sin(2 * Math.PI * t);
    }
    const out = cubicToLinear(times, values, 1, false);
    for (const t of times) expect(Array.from(out.times)).toContain(t);
    let worst = 0;
    for (let i = 0; i <= 3000; i++) {
      const t = i / 3000;
      const seg = Math.min(n - 2, Math.floor(Math.fround(t) * 30));
      const t0 = times[seg]!;
      const dt = times[seg + 1]! - t0;
      const s = (t - t0) / dt;
      const want = hermite(values[seg * 3 + 1]!, dt * values[seg * 3 + 2]!, values[seg * 3 + 4]!, dt * values[seg * 3 + 3]!, s);
      worst = Math.max(worst, Math.abs(sampleLinear(out.times, out.values, t) - want));
    }
    // Range 2: the tolerance is 2e-5; the quarter-point check leaves the error within a small multiple of it.
    expect(worst).toBeLessThan(2 * 2 * CUBIC_TOLERANCE);
    expect(out.times.length).toBeGreaterThan(n);
  });
  it('caps the keys added per segment', () => {
    const out = cubicToLinear(Float32Array.of(0, 1, 3), Float32Array.of(0, 0, 40, -20, 1, 30, 10, 0, 0), 1, false);
    expect(out.times.length).toBeLessThanOrEqual(3 + 2 * (2 ** MAX_CUBIC_DEPTH - 1));
  });
  it('adds no key where the spline is a straight line', () => {
    const out = cubicToLinear(Float32Array.of(0, 2), Float32Array.of(0.5, 0, 0.5, 0.5, 1, 0.5), 1, false);
    expect(Array.from(out.times)).toEqual([0, 2]);
  });
  it('normalises rotations after the spline', () => {
    const s = Math.SQRT1_2;
    // Two keys 90° apart about Z, zero tangents.
    const v = Float32Array.of(0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, s, s, 0, 0, 0, 0);
    const out = cubicToLinear(Float32Array.of(0, 1), v, 4, true);
    for (let k = 0; k < out.times.length; k++) {
      const q = out.values.subarray(k * 4, k * 4 + 4);
      expect(Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!)).toBeCloseTo(1, 6);
    }
  });
});
