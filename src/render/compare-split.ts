/**
 * Side-by-side compare's layout in the drawing buffer: where the divider falls and the two halves' regions
 * (GL window coordinates: x from the left, y from the bottom, in device pixels). Each half is its own
 * viewport, so its projection uses its own aspect: with the divider in the middle of an even-width buffer,
 * each half is exactly the picture a plain render of width/2 × height with the same camera draws. Pure
 * arithmetic into caller-owned arrays; no GL, no allocation.
 */

/** A region as [x, y, width, height]. */
export type Region = Int32Array;

/** The divider's column: pixels left of it for a buffer `width` wide and a split share 0..1 (each half ≥ 1 px). */
export function dividerColumn(width: number, split: number): number {
  if (width < 2) return width;
  return Math.min(width - 1, Math.max(1, Math.round(width * split)));
}

/** Writes the left and right halves' regions of a `width` × `height` buffer split at `split`. */
export function splitRegions(width: number, height: number, split: number, left: Region, right: Region): void {
  const column = dividerColumn(width, split);
  left[0] = 0;
  left[1] = 0;
  left[2] = column;
  left[3] = height;
  right[0] = column;
  right[1] = 0;
  right[2] = Math.max(1, width - column);
  right[3] = height;
}

/** The aspect a region's projection uses (width / height). */
export function regionAspect(r: Region): number {
  return r[2]! / Math.max(1, r[3]!);
}
