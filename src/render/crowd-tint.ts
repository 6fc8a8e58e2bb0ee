/**
 * Crowd mode's per-instance tint, pure (no WebGL; tested in Node): a colour near white per instance, from
 * the instance index alone (deterministic, the same on every path and every frame), that the crowd's lit
 * fragment stage multiplies into the material's base colour (sRGB, before lighting; glsl/lit.frag).
 *
 * tint = b · (1 + s · cos(θ − 2πk/3)) for channel k = r, g, b: brightness b in [1 − TINT_BRIGHTNESS,
 * 1 + TINT_BRIGHTNESS], a hue angle θ and a saturation s in [0, TINT_SATURATION], each from an integer hash
 * of the index. The channels' mean is b, so the hue shifts the colour without changing its brightness much;
 * every channel stays within (1 ± 0.1) · (1 ± 0.13): ±25 % at most.
 */

export const TINT_BRIGHTNESS = 0.1;
export const TINT_SATURATION = 0.13;

/** A 32-bit integer hash (lowbias32): well-mixed bits from consecutive indices. */
function hash(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Instance i's tint (r, g, b, each around 1) into out[at .. at + 3). No allocation. */
export function crowdTint(i: number, out: Float32Array, at = 0): void {
  const u = hash(i * 3 + 1) / 4294967296;
  const v = hash(i * 3 + 2) / 4294967296;
  const w = hash(i * 3 + 3) / 4294967296;
  const b = 1 + (u * 2 - 1) * TINT_BRIGHTNESS;
  const s = w * TINT_SATURATION;
  const theta = v * 2 * Math.PI;
  out[at] = b * (1 + s * Math.cos(theta));
  out[at + 1] = b * (1 + s * Math.cos(theta - (2 * Math.PI) / 3));
  out[at + 2] = b * (1 + s * Math.cos(theta + (2 * Math.PI) / 3));
}
