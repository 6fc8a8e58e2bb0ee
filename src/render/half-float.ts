import { base64ToBytes, bytesToBase64 } from '../model/base64.ts';

/**
 * IEEE 754 binary16 ("half float") bits for RGBA16F textures, and the text that cube-map levels travel in
 * when they are baked into a generated module (render/studio-env-data.ts, scripts/gen-env.ts).
 *
 * Contract
 * - halfBits(v): the binary16 bit pattern of the float32 value of v, rounded to nearest, ties to even (what
 *   a GL implementation does when it stores float data in a 16-bit float texture); overflow gives ±infinity,
 *   values below half the smallest subnormal give ±0, NaN stays NaN. halfValue is its inverse (exact).
 * - encodeHalfCube(levels) / decodeHalfCube(text, size): the baked layout of a cube map with its mip chain.
 *   For each level (size² texels halving down to 1), then each of the 6 faces (GL order), then each texel
 *   row by row: R, G, B, A as binary16, little-endian, all in one base64 string. Decoding gives each face
 *   as a view into one Uint16Array, ready for texImage2D(…, RGBA16F, …, RGBA, HALF_FLOAT, …) as is; it
 *   returns null when the text does not hold exactly the texels of `size` (never reads out of range).
 *   Alpha (always 1) is stored so that the page decodes with no per-texel script: where the engine has
 *   Uint8Array.fromBase64, decoding is one native call and views.
 * No GL: the page, the generator and the tests share it.
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The binary16 bits of float32(v), round to nearest even. */
export function halfBits(v: number): number {
  f32[0] = v;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  const mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant !== 0 ? 0x200 : 0);
  const e = exp - 112; // rebias 127 → 15
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    // Subnormal half: the 24-bit significand shifted down by 14 − e, rounded; a carry into 0x400 is the
    // smallest normal, which is correct.
    const shift = 14 - e;
    if (shift > 24) return sign;
    const m = mant | 0x800000;
    const rem = m & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    let h = m >>> shift;
    if (rem > half || (rem === half && (h & 1) !== 0)) h++;
    return sign | h;
  }
  // A carry out of the mantissa bumps the exponent (up to infinity), which is correct.
  let h = sign | (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1) !== 0)) h++;
  return h;
}

/** The value of binary16 bits h (exact). */
export function halfValue(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant !== 0 ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** `data` as binary16 bits, element by element (halfBits). */
export function toHalfArray(data: Float32Array): Uint16Array<ArrayBuffer> {
  const out = new Uint16Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = halfBits(data[i]!);
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The baked text of `levels` (per level, per face, RGBA float texels): RGBA binary16, little-endian, base64. */
export function encodeHalfCube(levels: readonly (readonly Float32Array[])[]): string {
  const parts = levels.flatMap((faces) => faces.map(toHalfArray));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let o = 0;
  for (const p of parts) {
    bytes.set(new Uint8Array(p.buffer), o);
    o += p.byteLength;
  }
  if (!LITTLE_ENDIAN) for (let i = 0; i < bytes.length; i += 2) [bytes[i], bytes[i + 1]] = [bytes[i + 1]!, bytes[i]!];
  return bytesToBase64(bytes);
}

/**
 * The cube of `text` (encodeHalfCube's layout) with faces of size × size texels at level 0, halving down
 * to 1 × 1: per level, per face, an RGBA binary16 view (Uint16Array) into one buffer. Null when the text is
 * not base64 or does not hold exactly that many texels.
 */
export function decodeHalfCube(text: string, size: number): Uint16Array[][] | null {
  const bytes = base64ToBytes(text);
  let texels = 0;
  for (let w = size; w >= 1; w >>= 1) texels += 6 * w * w;
  if (!bytes || size < 1 || bytes.length !== texels * 8) return null;
  if (!LITTLE_ENDIAN) for (let i = 0; i < bytes.length; i += 2) [bytes[i], bytes[i + 1]] = [bytes[i + 1]!, bytes[i]!];
  const halves = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
  const out: Uint16Array[][] = [];
  let o = 0;
  for (let w = size; w >= 1; w >>= 1) {
    const faces: Uint16Array[] = [];
    for (let f = 0; f < 6; f++, o += w * w * 4) faces.push(halves.subarray(o, o + w * w * 4));
    out.push(faces);
  }
  return out;
}
