import type { Rng } from './rng.ts';

/**
 * The values an inflated count takes. The loaders' count guards sit all over the range (.m3d: 32767 bones,
 * 65535 materials, meshes and targets, 2^24 keys and morph tracks, 2^26 vertices and triangles, and the
 * "larger than the rest of the file" check that trips anywhere from tens to millions depending on the file;
 * .x: list counts against the bytes left), so a count is drawn from the whole range: the boundaries
 * (each limit and its neighbours), log-uniform between 1 and 2^32 (every decade about equally often), or
 * near the original count. Pure functions of the case's Rng, like every mutation.
 */

const P16 = 1 << 16;
const P20 = 1 << 20;
const P24 = 1 << 24;
const P26 = 1 << 26;

/** The limits and their neighbours, as unsigned 32-bit values. */
export const COUNT_BOUNDARIES: readonly number[] = [
  0, 1, 2, 255, 256, 32767, 32768, 32769, P16 - 1, P16, P16 + 1, P20 - 1, P20, P20 + 1,
  P24 - 1, P24, P24 + 1, P26 - 1, P26, P26 + 1, 0x7fffffff, 0x80000000, 0xfffffff0, 0xffffffff, 1e9,
];

/** Text-only counts: negative, past 32 bits, past 2^53, or not plain integers. */
export const TEXT_ONLY_COUNTS: readonly string[] = ['-1', '-2147483648', '4294967296', '9007199254740993', '1e9', '99999999999999999999'];

/** An integer in [1, 2^32), log-uniform: floor(2^(32u)). */
export function logUniformCount(r: Rng): number {
  return Math.min(0xffffffff, Math.floor(2 ** ((r.u32() / 4294967296) * 32)));
}

/** A count for a field that held `orig`: a boundary (35 %), log-uniform (45 %) or near `orig` (20 %). */
export function drawCount(r: Rng, orig: number): number {
  const p = r.u32() / 4294967296;
  if (p < 0.35) return r.pick(COUNT_BOUNDARIES);
  if (p < 0.8) return logUniformCount(r);
  return r.pick([orig + 1, orig - 1, orig * 2, orig * 1000, orig + 65536]);
}

/** A text count: now and then one a 32-bit field could not hold, otherwise drawCount. */
export function drawTextCount(r: Rng, orig: number): string {
  return r.chance(0.15) ? r.pick(TEXT_ONLY_COUNTS) : String(drawCount(r, orig));
}

/** A binary (DWORD) count: drawCount as unsigned 32 bits. */
export function drawU32Count(r: Rng, orig: number): number {
  return drawCount(r, orig) >>> 0;
}
