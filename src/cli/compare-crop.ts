import { PNG } from 'pngjs';
import type { Worst } from './compare-rules.ts';
import type { Rgba } from './shots-coverage.ts';

/**
 * The zoomed crop of a pair's worst window for the report: baseline | new | diff side by side, each the
 * window with as much context again around it (clamped to the image), enlarged with nearest-neighbour
 * sampling so single pixels stay visible, the window outlined in cyan on each panel. Pure: pixels in,
 * PNG bytes out.
 */

/** Side of each panel in the output, pixels (about; the scale is a whole number). */
const PANEL = 240;
const GAP = 6;
const GAP_COLOUR = [21, 24, 29];
const OUTLINE = [0, 220, 255];

export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Output pixels per image pixel. */
  scale: number;
}

/** The image rectangle shown around a window: twice the window's size, centred on it, inside the image. */
export function cropRect(worst: Worst, imageWidth: number, imageHeight: number): CropRect {
  const width = Math.min(imageWidth, Math.max(worst.width * 2, 8));
  const height = Math.min(imageHeight, Math.max(worst.height * 2, 8));
  const clamp = (v: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, v));
  const x = clamp(Math.round(worst.x + worst.width / 2 - width / 2), 0, imageWidth - width);
  const y = clamp(Math.round(worst.y + worst.height / 2 - height / 2), 0, imageHeight - height);
  const scale = Math.max(1, Math.floor(PANEL / Math.max(width, height)));
  return { x, y, width, height, scale };
}

/** The three-panel PNG for a window of a pair (`diff`: RGBA of the same size as the images). */
export function cropPng(a: Rgba, b: Rgba, diff: Uint8Array, worst: Worst): Buffer {
  const r = cropRect(worst, a.width, a.height);
  const pw = r.width * r.scale;
  const ph = r.height * r.scale;
  const out = new PNG({ width: pw * 3 + GAP * 2, height: ph });
  const o = out.data;
  for (let i = 0; i < o.length; i += 4) {
    o[i] = GAP_COLOUR[0]!;
    o[i + 1] = GAP_COLOUR[1]!;
    o[i + 2] = GAP_COLOUR[2]!;
    o[i + 3] = 255;
  }
  const sources = [a.data, b.data, diff];
  // Window edges in panel pixels (inclusive).
  const wx0 = (worst.x - r.x) * r.scale;
  const wy0 = (worst.y - r.y) * r.scale;
  const wx1 = (worst.x - r.x + worst.width) * r.scale - 1;
  const wy1 = (worst.y - r.y + worst.height) * r.scale - 1;
  for (let panel = 0; panel < 3; panel++) {
    const src = sources[panel]!;
    const ox = panel * (pw + GAP);
    for (let y = 0; y < ph; y++) {
      const sy = r.y + Math.floor(y / r.scale);
      for (let x = 0; x < pw; x++) {
        const sx = r.x + Math.floor(x / r.scale);
        const si = (sy * a.width + sx) * 4;
        const di = (y * out.width + ox + x) * 4;
        const edge = ((x === wx0 || x === wx1) && y >= wy0 && y <= wy1) || ((y === wy0 || y === wy1) && x >= wx0 && x <= wx1);
        o[di] = edge ? OUTLINE[0]! : src[si]!;
        o[di + 1] = edge ? OUTLINE[1]! : src[si + 1]!;
        o[di + 2] = edge ? OUTLINE[2]! : src[si + 2]!;
        o[di + 3] = 255;
      }
    }
  }
  return PNG.sync.write(out);
}
