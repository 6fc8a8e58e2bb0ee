import pixelmatch from 'pixelmatch';
import { countCovered, coverageMask, type Rgba } from './shots-coverage.ts';

/**
 * How `compare` judges one pair of equally sized images. A pixel *differs* when pixelmatch finds its
 * colour distance over `pixelThreshold` and does not classify it as anti-aliasing (pixelmatch's AA
 * detector: a pixel between a darker and a brighter neighbour that each sit in a flat area in both
 * images); AA pixels are shown in the diff (yellow) but never counted. The pair fails by either rule:
 *
 * - `coverage`: differing pixels > `threshold` × the pixels the model covers in either image (the union
 *   of both coverage masks, shots-coverage.ts). A change spread thinly over the whole character.
 * - `region`: some `region` × `region` window (any position) holds more than `regionPixels` differing
 *   pixels. A change concentrated in one place (a glow on the hair, a missing hand), whatever the model's
 *   size.
 *
 * Pure: images in, figures and the diff image out (RGBA, same size; pixelmatch's colours: red counted,
 * yellow AA, faded grey unchanged).
 */

export interface Rules {
  /** Largest share of the covered pixels that may differ, 0..1. */
  threshold: number;
  /** pixelmatch's per-pixel colour tolerance, 0..1. */
  pixelThreshold: number;
  /** Side of the region window, pixels. */
  region: number;
  /** Largest count of differing pixels one window may hold. */
  regionPixels: number;
}

/**
 * Defaults, measured on the Walker (test/fixtures/compare at 320×240, and the default 800×600 plan of
 * 27 shots): two runs of one build differ by 0 pixels; every silhouette pixel blended half-way towards
 * the background (the edge moved by half a pixel, an anti-aliasing-only change) leaves 0.4–0.8 % of the
 * covered pixels and at most 8–13 per 16×16 window counted; the rim light turned red changes 6.4–7.7 %
 * of the covered pixels and 71–239 in the worst window; the character's draw removed changes > 40 %
 * and > 200 in a window. The limits sit about 2.5× under the smallest real change and 1.8× over the
 * largest AA-only one.
 */
export const DEFAULT_RULES: Readonly<Rules> = { threshold: 0.02, pixelThreshold: 0.1, region: 16, regionPixels: 24 };

export type RuleName = 'coverage' | 'region';

/** The window with the most differing pixels; `x`, `y` its top-left corner. */
export interface Worst {
  x: number;
  y: number;
  width: number;
  height: number;
  pixels: number;
}

export interface Judgement {
  /** Differing pixels (AA excluded). */
  pixels: number;
  /** Pixels pixelmatch classified as anti-aliasing (not counted). */
  aaPixels: number;
  /** Pixels the model covers in either image. */
  coverage: number;
  /** pixels / coverage (0 when nothing differs, 1 when pixels differ and nothing is covered). */
  share: number;
  worst: Worst;
  /** Rules the pair breaks, coverage first; empty: it passes. */
  failed: RuleName[];
  /** RGBA diff image. */
  diff: Uint8Array;
}

const RED: [number, number, number] = [255, 0, 0];
const YELLOW: [number, number, number] = [255, 255, 0];

/**
 * Judges a pair. `maskA`/`maskB`: recorded coverage masks (1 byte per pixel) or null to estimate that
 * image's coverage from its background colour.
 */
export function judgePair(a: Rgba, b: Rgba, maskA: Uint8Array | null, maskB: Uint8Array | null, rules: Rules): Judgement {
  const { width, height } = a;
  if (b.width !== width || b.height !== height) throw new Error(`judgePair: sizes differ (${width}x${height} vs ${b.width}x${b.height})`);
  const diff = new Uint8Array(width * height * 4);
  pixelmatch(a.data, b.data, diff, width, height, { threshold: rules.pixelThreshold, includeAA: false, diffColor: RED, diffColorAlt: RED, aaColor: YELLOW });
  // Unchanged pixels are drawn in grey (r = g = b), so pure red and pure yellow are unambiguous.
  const counted = new Uint8Array(width * height);
  let pixels = 0;
  let aaPixels = 0;
  for (let p = 0, i = 0; p < counted.length; p++, i += 4) {
    if (diff[i] !== 255 || diff[i + 2] !== 0) continue;
    if (diff[i + 1] === 0) {
      counted[p] = 1;
      pixels++;
    } else if (diff[i + 1] === 255) aaPixels++;
  }
  const ma = maskA ?? coverageMask(a);
  const mb = maskB ?? coverageMask(b);
  const union = new Uint8Array(width * height);
  for (let p = 0; p < union.length; p++) union[p] = ma[p]! | mb[p]!;
  const coverage = countCovered(union);
  const share = pixels === 0 ? 0 : coverage === 0 ? 1 : pixels / coverage;
  const worst = worstWindow(counted, width, height, rules.region);
  const failed: RuleName[] = [];
  if (share > rules.threshold) failed.push('coverage');
  if (worst.pixels > rules.regionPixels) failed.push('region');
  return { pixels, aaPixels, coverage, share, worst, failed, diff };
}

/**
 * The size × size window (clamped to the image) holding the most 1s of `counted`, over every position;
 * the first in row order on ties. Summed-area table: O(width · height).
 */
export function worstWindow(counted: Uint8Array, width: number, height: number, size: number): Worst {
  const w = Math.min(size, width);
  const h = Math.min(size, height);
  const stride = width + 1;
  const sums = new Int32Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += counted[y * width + x]!;
      sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1]! + row;
    }
  }
  const best: Worst = { x: 0, y: 0, width: w, height: h, pixels: -1 };
  for (let y = 0; y + h <= height; y++) {
    for (let x = 0; x + w <= width; x++) {
      const n = sums[(y + h) * stride + x + w]! - sums[y * stride + x + w]! - sums[(y + h) * stride + x]! + sums[y * stride + x]!;
      if (n > best.pixels) {
        best.x = x;
        best.y = y;
        best.pixels = n;
      }
    }
  }
  return best;
}
