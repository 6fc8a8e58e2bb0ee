import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { cropPng, cropRect } from '../../src/cli/compare-crop.ts';
import { DEFAULT_RULES, judgePair, worstWindow } from '../../src/cli/compare-rules.ts';
import { borderColour, coverageMask, decodeMask, encodeMask, type Rgba } from '../../src/cli/shots-coverage.ts';

/** The judging rules on hand-built images: each rule alone, the worst window, masks and the crop. */

const W = 64;
const H = 48;
const BG: [number, number, number] = [27, 29, 34];

/** Flat background with a w×h "figure" at (fx, fy); `paint` recolours some pixels of the result. */
function scene(fx: number, fy: number, w: number, h: number, paint: (x: number, y: number) => [number, number, number] | null = () => null): Rgba {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inside = x >= fx && x < fx + w && y >= fy && y < fy + h;
      const c = paint(x, y) ?? (inside ? [200, 120, 60] : BG);
      data.set([c[0], c[1], c[2], 255], (y * W + x) * 4);
    }
  }
  return { data, width: W, height: H };
}

describe('coverage masks', () => {
  it('finds the flat background from the border and marks everything else', () => {
    const img = scene(10, 5, 20, 30);
    expect(borderColour(img)).toBe((27 << 16) | (29 << 8) | 34);
    const m = coverageMask(img);
    expect(m.reduce((n, v) => n + v, 0)).toBe(600);
    expect(m[5 * W + 10]).toBe(1);
    expect(m[5 * W + 9]).toBe(0);
    const round = decodeMask(encodeMask(m, W, H));
    expect([round.width, round.height]).toEqual([W, H]);
    expect(round.mask).toEqual(m);
  });
});

describe('rules', () => {
  it('coverage alone: a faint change spread over a large figure (no window over the limit)', () => {
    // Every 4th pixel of every 4th row of a 48×40 figure: 120 pixels = 6 % of 1920, ≤ 16 per 16×16 window.
    const a = scene(8, 4, 48, 40);
    const b = scene(8, 4, 48, 40, (x, y) => (x >= 8 && x < 56 && y >= 4 && y < 44 && x % 4 === 0 && y % 4 === 0 ? [90, 200, 250] : null));
    const j = judgePair(a, b, null, null, DEFAULT_RULES);
    expect(j.coverage).toBe(1920);
    expect(j.pixels).toBe(120);
    expect(j.worst.pixels).toBeLessThanOrEqual(DEFAULT_RULES.regionPixels);
    expect(j.failed).toEqual(['coverage']);
  });

  it('region alone: a 5×6 blot on a figure filling the frame (1 % of its pixels)', () => {
    const a = scene(0, 0, W, H);
    const b = scene(0, 0, W, H, (x, y) => (x >= 30 && x < 35 && y >= 20 && y < 26 ? [20, 240, 20] : null));
    // Recorded masks: the figure covers every pixel (an estimate from the border would take it for background).
    const all = new Uint8Array(W * H).fill(1);
    const j = judgePair(a, b, all, all, DEFAULT_RULES);
    expect(j.pixels).toBe(30);
    expect(j.share).toBeLessThan(DEFAULT_RULES.threshold);
    expect(j.failed).toEqual(['region']);
    expect(j.worst.pixels).toBe(30);
    // The window holds the whole blot.
    expect(j.worst.x).toBeLessThanOrEqual(30);
    expect(j.worst.x + j.worst.width).toBeGreaterThanOrEqual(35);
  });

  it('a recorded mask replaces the estimate: a figure that vanishes is measured against its own pixels', () => {
    const a = scene(10, 5, 20, 30);
    const b = scene(10, 5, 0, 0);
    const recorded = coverageMask(a);
    const j = judgePair(a, b, recorded, new Uint8Array(W * H), DEFAULT_RULES);
    expect(j.coverage).toBe(600);
    expect(j.share).toBeGreaterThan(0.9);
  });

  it('finds the window with the most pixels at any position', () => {
    const counted = new Uint8Array(40 * 30);
    for (const [x, y] of [[3, 3], [20, 10], [21, 11], [22, 12], [35, 25]]) counted[y * 40 + x] = 1;
    expect(worstWindow(counted, 40, 30, 4)).toEqual({ x: 19, y: 9, width: 4, height: 4, pixels: 3 });
    // A window larger than the image is clamped to it.
    expect(worstWindow(counted, 40, 30, 100)).toMatchObject({ x: 0, y: 0, width: 40, height: 30, pixels: 5 });
  });
});

describe('crop of the worst window', () => {
  it('shows baseline | new | diff around the window, enlarged, inside the image', () => {
    const r = cropRect({ x: 60, y: 1, width: 16, height: 16, pixels: 9 }, 320, 240);
    expect(r).toEqual({ x: 52, y: 0, width: 32, height: 32, scale: 7 });
    expect(cropRect({ x: 310, y: 230, width: 16, height: 16, pixels: 1 }, 320, 240)).toMatchObject({ x: 288, y: 208 });
    const a = scene(10, 5, 20, 30);
    const b = scene(10, 5, 20, 30, (x, y) => (x === 12 && y === 8 ? [255, 255, 255] : null));
    const j = judgePair(a, b, null, null, DEFAULT_RULES);
    const png = PNG.sync.read(cropPng(a, b, j.diff, j.worst));
    const c = cropRect(j.worst, W, H);
    expect([png.width, png.height]).toEqual([c.width * c.scale * 3 + 12, c.height * c.scale]);
    // The changed pixel, enlarged, in the middle panel (the window's outline aside).
    const px = (x: number, y: number): number[] => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3)];
    const panel = c.width * c.scale + 6;
    const at = (panelIndex: number): number[] => px(panelIndex * panel + (12 - c.x) * c.scale + 2, (8 - c.y) * c.scale + 2);
    expect(at(0)).toEqual([200, 120, 60]);
    expect(at(1)).toEqual([255, 255, 255]);
    expect(at(2)).toEqual([255, 0, 0]);
  });
});
