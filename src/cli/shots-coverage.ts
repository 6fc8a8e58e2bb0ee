import { PNG } from 'pngjs';

/**
 * Coverage masks: which pixels of a shot the model covers. `compare` divides a pair's differing pixels by
 * the pixels the model covers in either image, so the share means the same for a character filling a tenth
 * of the frame as for one filling all of it.
 *
 * Where a mask comes from:
 * - recorded: `screenshots` draws each shot a second time with the floor off (`grid=0`), where everything
 *   that is not the model is the renderer's flat clear colour, and stores the non-background pixels as a
 *   grey PNG under `masks/<shot file>` (255 = model, 0 = background). The floor, its grid and the
 *   character's shadow on it are never counted as model.
 * - estimated (recordings without `masks/`, e.g. the app's Record folder): pixels that differ from the
 *   image's background colour (the most common colour of its one-pixel border). A visible floor then counts
 *   as covered, which makes the share rule more lenient, never stricter; the region rule does not use masks.
 *
 * Images are RGBA, row-major, top row first (pngjs layout). Masks are one byte per pixel, 1 = covered.
 * Pure apart from PNG encoding: no file system.
 */

export const MASK_DIR = 'masks';

/** Largest difference in any channel (0..255) that still counts as the background colour. */
export const BACKGROUND_TOLERANCE = 2;

export interface Rgba {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The most common colour of the image's border pixels, as 0xRRGGBB. */
export function borderColour(img: Rgba): number {
  const { data, width, height } = img;
  const counts = new Map<number, number>();
  const add = (x: number, y: number): void => {
    const i = (y * width + x) * 4;
    const key = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  for (let x = 0; x < width; x++) {
    add(x, 0);
    if (height > 1) add(x, height - 1);
  }
  for (let y = 1; y < height - 1; y++) {
    add(0, y);
    if (width > 1) add(width - 1, y);
  }
  let best = 0;
  let bestCount = -1;
  for (const [key, n] of counts) {
    if (n > bestCount) {
      best = key;
      bestCount = n;
    }
  }
  return best;
}

/** 1 where a pixel differs from the border colour by more than BACKGROUND_TOLERANCE in some channel. */
export function coverageMask(img: Rgba): Uint8Array {
  const bg = borderColour(img);
  const r = bg >> 16;
  const g = (bg >> 8) & 255;
  const b = bg & 255;
  const { data } = img;
  const mask = new Uint8Array(img.width * img.height);
  for (let p = 0, i = 0; p < mask.length; p++, i += 4) {
    const d = Math.max(Math.abs(data[i]! - r), Math.abs(data[i + 1]! - g), Math.abs(data[i + 2]! - b));
    mask[p] = d > BACKGROUND_TOLERANCE ? 1 : 0;
  }
  return mask;
}

/** A mask as a greyscale PNG (255 = covered). */
export function encodeMask(mask: Uint8Array, width: number, height: number): Buffer {
  const png = new PNG({ width, height, colorType: 0, inputColorType: 0, inputHasAlpha: false, bitDepth: 8 });
  const grey = Buffer.alloc(width * height);
  for (let p = 0; p < grey.length; p++) grey[p] = mask[p] ? 255 : 0;
  png.data = grey;
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false, bitDepth: 8 });
}

/** A mask PNG (any colour type) back to 1/0 per pixel: covered where its red channel is ≥ 128. */
export function decodeMask(bytes: Uint8Array): { mask: Uint8Array; width: number; height: number } {
  const png = PNG.sync.read(Buffer.from(bytes));
  const mask = new Uint8Array(png.width * png.height);
  for (let p = 0; p < mask.length; p++) mask[p] = png.data[p * 4]! >= 128 ? 1 : 0;
  return { mask, width: png.width, height: png.height };
}

/** Covered pixels of a mask. */
export function countCovered(mask: Uint8Array): number {
  let n = 0;
  for (let p = 0; p < mask.length; p++) n += mask[p]!;
  return n;
}
