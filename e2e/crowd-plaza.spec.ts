import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { openApp, pixelDifference, watchConsole } from './helpers.ts';

/**
 * The plaza crowd (`crowdLayout=plaza`, docs/crowds.md "Plaza"): tiny.x × 60 on a 200 × 150 canvas, seen by
 * the automatic camera from the plaza's edge at a person's height: near figures fill the lower view, far
 * ones stand small higher up; every instance has its own tint (more distinct colours than crowdTint=0);
 * the layout and the tint switch are in info() and in the link. Small canvas, no shadow map: SwiftShader
 * rasterises on the CPU.
 */

const QUERY = '?model=tiny&crowd=60&crowdLayout=plaza&gui=0&t=0.3&shadows=0&grid=0';
/** The renderer's clear colour as 8-bit values (helpers.ts BACKGROUND). */
const BACKGROUND = [27, 29, 34];

function isFigure(d: Uint8Array, i: number): boolean {
  return Math.abs(d[i]! - BACKGROUND[0]!) + Math.abs(d[i + 1]! - BACKGROUND[1]!) + Math.abs(d[i + 2]! - BACKGROUND[2]!) > 30;
}

async function shot(page: Page): Promise<Buffer> {
  return page.locator('#view').screenshot();
}

/** Share of figure pixels in rows [y0, y1). */
function covered(png: PNG, y0: number, y1: number): number {
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = 0; x < png.width; x++) if (isFigure(png.data, (y * png.width + x) * 4)) n++;
  return n / ((y1 - y0) * png.width);
}

/** Distinct colours (5 bits a channel) among the figure pixels. */
function colours(png: PNG): number {
  const seen = new Set<number>();
  for (let i = 0; i < png.data.length; i += 4) {
    if (isFigure(png.data, i)) seen.add(((png.data[i]! >> 3) << 10) | ((png.data[i + 1]! >> 3) << 5) | (png.data[i + 2]! >> 3));
  }
  return seen.size;
}

/**
 * Distinct tints between two pictures of the same figures: per pixel that is bright in `plain`, the ratio
 * `tinted / plain` of each channel, in steps of 0.04; the steps that at least 5 pixels share.
 */
function tintSteps(tinted: PNG, plain: PNG): number {
  const count = new Map<number, number>();
  for (let i = 0; i < plain.data.length; i += 4) {
    if (plain.data[i]! < 64 || plain.data[i + 1]! < 64 || plain.data[i + 2]! < 64) continue;
    let key = 0;
    for (let c = 0; c < 3; c++) key = key * 64 + Math.round(tinted.data[i + c]! / plain.data[i + c]! / 0.04);
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  let steps = 0;
  for (const n of count.values()) if (n >= 5) steps++;
  return steps;
}

/** Heights (rows) of the figures' columns of pixels: the tallest run of figure pixels in each column. */
function tallestRun(png: PNG, y0: number, y1: number): number {
  let best = 0;
  for (let x = 0; x < png.width; x++) {
    let run = 0;
    for (let y = y0; y < y1; y++) {
      run = isFigure(png.data, (y * png.width + x) * 4) ? run + 1 : 0;
      best = Math.max(best, run);
    }
  }
  return best;
}

test('a plaza crowd seen from its edge: near figures large below, far ones small above, a tint each', async ({ page }) => {
  await page.setViewportSize({ width: 200, height: 150 });
  const con = watchConsole(page);
  await openApp(page, QUERY);
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.crowdLayout).toBe('plaza');
  expect(info.crowdTint).toBe(true);
  // Looking slightly down across the plaza.
  const pitch = (info.camera as { pitch: number }).pitch;
  expect(pitch).toBeGreaterThan(0);
  expect(pitch).toBeLessThan(30);
  const plaza = await shot(page);
  const png = PNG.sync.read(plaza);
  const h = png.height;
  const low = covered(png, Math.round(h * 0.6), h);
  const high = covered(png, 0, Math.round(h * 0.45));
  const nearHeight = tallestRun(png, 0, h);
  console.log(`[crowd-plaza] figure pixels: lower 40 % ${(low * 100).toFixed(1)} %, upper 45 % ${(high * 100).toFixed(1)} %; tallest figure ${nearHeight} px`);
  // Near figures stand in the lower view and reach well up it; far ones show in the upper part.
  expect(low).toBeGreaterThan(0.05);
  expect(high).toBeGreaterThan(0.05);
  expect(nearHeight).toBeGreaterThan(h * 0.4);

  const tinted = colours(png);
  await page.evaluate(() => window.skinlab.set({ crowdTint: 0 }));
  const plain = await shot(page);
  const plainPng = PNG.sync.read(plain);
  const untinted = colours(plainPng);
  const steps = tintSteps(png, plainPng);
  console.log(`[crowd-plaza] distinct figure colours: tinted ${tinted}, crowdTint=0 ${untinted}; tints seen against crowdTint=0: ${steps} (the same picture: ${tintSteps(plainPng, plainPng)})`);
  expect(tinted).toBeGreaterThan(untinted);
  // The instances' own tints: many distinct colour ratios (one, 1:1:1, for two untinted pictures).
  expect(steps).toBeGreaterThan(10);
  // Same places, same poses: the tint changes colours, not silhouettes.
  expect(pixelDifference(plaza, plain, 0)).toBeGreaterThan(0);
  await expect.poll(() => page.evaluate(() => location.search), { timeout: 10_000 }).toContain('crowdTint=0');
  expect(await page.evaluate(() => location.search)).toContain('crowdLayout=plaza');

  // The grid, framed whole from above, is another picture whose figures are all small; it leaves the key out of the link.
  await page.evaluate(() => window.skinlab.set({ crowdLayout: 'grid', crowdTint: 1 }));
  expect((await page.evaluate(() => window.skinlab.info())).crowdLayout).toBe('grid');
  const grid = await shot(page);
  const gridHeight = tallestRun(PNG.sync.read(grid), 0, h);
  console.log(`[crowd-plaza] tallest figure: plaza ${nearHeight} px, grid ${gridHeight} px`);
  expect(nearHeight).toBeGreaterThan(gridHeight * 2);
  expect(pixelDifference(grid, plaza)).toBeGreaterThan(0.05);
  await expect.poll(() => page.evaluate(() => location.search), { timeout: 10_000 }).not.toContain('crowdLayout');
  expect(con.errors).toEqual([]);
});
