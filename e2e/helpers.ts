import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { PNG } from 'pngjs';

const here = dirname(fileURLToPath(import.meta.url));
export const CORPUS_DIR = process.env.CORPUS_DIR ?? join(here, '..', '..', 'shared', 'corpus');
export const HAVE_CORPUS = existsSync(join(CORPUS_DIR, 'ORACLE.json'));
if (!HAVE_CORPUS) console.warn(`[skinlab e2e] SKIPPING corpus tests: no corpus at ${CORPUS_DIR} (set CORPUS_DIR)`);

/** Collects console errors and page errors; `allow` filters expected ones (with a reason at the call site). */
export function watchConsole(page: Page): { errors: string[] } {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return { errors };
}

/** Serves ../shared/corpus at /corpus/ for the page (the files stay outside the project). */
export async function serveCorpus(page: Page): Promise<void> {
  await page.route('**/corpus/**', async (route) => {
    const name = decodeURIComponent(new URL(route.request().url()).pathname.split('/corpus/')[1] ?? '');
    const path = join(CORPUS_DIR, name);
    if (!name.includes('..') && existsSync(path)) await route.fulfill({ body: readFileSync(path) });
    else await route.fulfill({ status: 404, body: 'not found' });
  });
}

export async function waitState(page: Page, state: 'ready' | 'error' | 'ready|error' = 'ready'): Promise<string> {
  const wanted = state.split('|');
  await page.waitForFunction((w) => w.includes(document.documentElement.dataset.state ?? ''), wanted, { timeout: 60_000 });
  return page.evaluate(() => document.documentElement.dataset.state ?? '');
}

export async function openApp(page: Page, query: string, state: 'ready' | 'error' | 'ready|error' = 'ready'): Promise<void> {
  await page.goto(`./${query}`);
  const s = await waitState(page, state);
  if (state === 'ready') expect(s, await page.locator('#error').textContent() ?? '').toBe('ready');
}

/**
 * The canvas's picture as PNG bytes, read in the page in the task that drew a frame: `set({})` resolves right
 * after the frame is drawn, while the drawing buffer still holds it (as the Recorder and Save picture read it).
 * Pixel for pixel what `page.locator('#view').screenshot()` gives when no overlay covers the canvas (`gui=0`),
 * without a round trip through the compositor, which under SwiftShader waits out several whole frames (measured:
 * 2.5–3.5× quicker for the Walker at 800×600 and 320×240). The panel, stats box and labels are not in it: tests
 * whose picture must include them keep the screenshot.
 */
export async function canvasShot(page: Page): Promise<Buffer> {
  const url = await page.evaluate(async () => {
    await window.skinlab.set({});
    return (document.getElementById('view') as HTMLCanvasElement).toDataURL('image/png');
  });
  return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
}

/** The renderer's clear colour (0.105, 0.115, 0.135) as 8-bit sRGB values written unchanged. */
const BACKGROUND = [27, 29, 34];

/** A screenshot of the canvas with the floor grid switched off for the moment (restored after). */
async function gridlessShot(page: Page): Promise<PNG> {
  const grid = await page.evaluate(() => window.skinlab.info().grid);
  await page.evaluate(() => window.skinlab.set({ grid: 0 }));
  const png = PNG.sync.read(await page.locator('#view').screenshot());
  await page.evaluate((g) => window.skinlab.set({ grid: g ? 1 : 0 }), grid);
  return png;
}

/** True where pixel i (RGBA index) is clearly unlike the background: part of the model (or its shadow edge). */
function isModel(data: Uint8Array, i: number): boolean {
  return Math.abs(data[i]! - BACKGROUND[0]!) + Math.abs(data[i + 1]! - BACKGROUND[1]!) + Math.abs(data[i + 2]! - BACKGROUND[2]!) > 30;
}

/** Share of the canvas covered by the model. */
/**
 * Waits (polling, up to 60 s) until the stats window has closed twice since the call, so `stats()` then
 * reports frames drawn after whatever the caller changed before it — however slowly a busy machine draws.
 */
export async function settledStats(page: Page): Promise<void> {
  const start = await page.evaluate(() => window.skinlab.stats().windows as number);
  await expect.poll(() => page.evaluate(() => window.skinlab.stats().windows as number), { timeout: 60_000, intervals: [100, 250, 500] }).toBeGreaterThanOrEqual(start + 2);
}

export async function coverage(page: Page): Promise<number> {
  const png = await gridlessShot(page);
  let covered = 0;
  for (let i = 0; i < png.data.length; i += 4) if (isModel(png.data, i)) covered++;
  return covered / (png.width * png.height);
}

/** Screen bounding box (pixels) of the model. */
export async function silhouette(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const png = await gridlessShot(page);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      if (!isModel(png.data, (y * png.width + x) * 4)) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** Fraction of pixels that differ (any channel by more than `tolerance`) between two screenshots. */
export function pixelDifference(a: Buffer, b: Buffer, tolerance = 24): number {
  const pa = PNG.sync.read(a);
  const pb = PNG.sync.read(b);
  if (pa.width !== pb.width || pa.height !== pb.height) return 1;
  let diff = 0;
  for (let i = 0; i < pa.data.length; i += 4) {
    if (
      Math.abs(pa.data[i]! - pb.data[i]!) > tolerance ||
      Math.abs(pa.data[i + 1]! - pb.data[i + 1]!) > tolerance ||
      Math.abs(pa.data[i + 2]! - pb.data[i + 2]!) > tolerance
    ) diff++;
  }
  return diff / (pa.width * pa.height);
}

/**
 * Share of a screenshot (PNG bytes) covered by the model: the test of coverage(), applied to the very image a
 * test compares (take it with the floor off: grid lines count as model).
 */
export function coverageOf(png: Buffer): number {
  const image = PNG.sync.read(png);
  let covered = 0;
  for (let i = 0; i < image.data.length; i += 4) if (isModel(image.data, i)) covered++;
  return covered / (image.width * image.height);
}
