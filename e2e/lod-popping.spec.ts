import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { canvasShot, openApp, watchConsole } from './helpers.ts';

/**
 * Crowd detail levels must not pop (docs/crowds.md "Distance LOD"): the camera backs slowly away from a crowd
 * of 30 tiny.x (generated levels at ½, ¼, ⅛, 1/16 and 1/32 of the triangles, each drawn only where its
 * error projects under 1 px), the animation paused, and each frame is compared with the one before. Every instance switches
 * level somewhere along the path; a switch may add no more than a small share of changed pixels to what the
 * camera's own motion changes, measured on the same path with every instance at full detail (`lod=0`).
 * Small canvas and the floor off: SwiftShader rasterises on the CPU, and the floor's lines would move alike
 * in both runs.
 */

const QUERY = '?model=tiny&crowd=30&shadows=0&grid=0&gui=0&t=0.6';
/**
 * Camera distances (in model radii, about the model's centre), 3 % further at each step: slow enough that a
 * frame moves the figures by a few pixels, over a stretch where instances cross the ¼ and ⅛ levels' switches.
 */
const STEPS = 10;
const NEAR = 5;
const GROWTH = 1.03;
/** Share of the canvas a frame with levels may change beyond the full-detail frame's change (0.2 % = 98 px of 256 × 192). */
const MARGIN = 0.002;
/** Largest share of the figures' pixels that may differ from the full-detail frame of the same camera. */
const NEAR_FULL = 0.5;
/** A channel differing by more than this counts as a changed pixel. */
const TOLERANCE = 24;

interface LodInfo {
  status: string;
}

function cameraAt(k: number): string {
  return `10,35,${(NEAR * GROWTH ** k).toFixed(4)}`;
}

function changed(a: PNG, b: PNG, i: number): boolean {
  return Math.abs(a.data[i]! - b.data[i]!) > TOLERANCE || Math.abs(a.data[i + 1]! - b.data[i + 1]!) > TOLERANCE || Math.abs(a.data[i + 2]! - b.data[i + 2]!) > TOLERANCE;
}

/** Share of the canvas where `a` and `b` differ. */
function share(a: PNG, b: PNG): number {
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) if (changed(a, b, i)) n++;
  return n / (a.width * a.height);
}

/** Share of the canvas the figures cover: pixels unlike the top-left corner's (the flat clear colour, the floor off). */
function coverage(a: PNG): number {
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) if (Math.abs(a.data[i]! - a.data[0]!) + Math.abs(a.data[i + 1]! - a.data[1]!) + Math.abs(a.data[i + 2]! - a.data[2]!) > TOLERANCE) n++;
  return n / (a.width * a.height);
}

/** The canvas along the path, one frame drawn per camera (and one more per read). */
async function walk(page: Page): Promise<PNG[]> {
  const shots: PNG[] = [];
  for (let k = 0; k < STEPS; k++) {
    await page.evaluate((c) => window.skinlab.set({ camera: c }), cameraAt(k));
    shots.push(PNG.sync.read(await canvasShot(page)));
  }
  return shots;
}

/** Instances per level in the last frame (stats() closes a window each second: one more is drawn first). */
async function perLevel(page: Page): Promise<number[]> {
  await page.waitForTimeout(1100);
  await page.evaluate(() => window.skinlab.set({}));
  return page.evaluate(() => window.skinlab.stats().instancesPerLevel);
}

test('moving through a crowd, detail levels switch without popping', async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 256, height: 192 });
  const con = watchConsole(page);
  await openApp(page, `${QUERY}&camera=${cameraAt(0)}`);
  await page.waitForFunction(() => (window.skinlab.info().lod as LodInfo).status !== 'loading', null, { timeout: 60_000 });
  expect((await page.evaluate(() => window.skinlab.info().lod as LodInfo)).status).toBe('ready');

  const near = await perLevel(page);
  const withLod = await walk(page);
  const far = await perLevel(page);
  await page.evaluate(() => window.skinlab.set({ lod: 0 }));
  const full = await walk(page);

  const extra: number[] = [];
  const apart: number[] = [];
  for (let k = 0; k < STEPS; k++) {
    if (k > 0) extra.push(share(withLod[k - 1]!, withLod[k]!) - share(full[k - 1]!, full[k]!));
    apart.push(share(withLod[k]!, full[k]!) / Math.max(1e-6, coverage(full[k]!)));
  }
  const pct = (xs: number[]): string => xs.map((x) => (x * 100).toFixed(1)).join(' ');
  console.log(`lod popping: instances per level near ${near.join('/')}, far ${far.join('/')}`);
  console.log(`lod popping: change beyond full detail, % of the canvas: ${pct(extra)}`);
  console.log(`lod popping: figures' pixels unlike full detail, %: ${pct(apart)}`);
  const worst = extra.indexOf(Math.max(...extra));
  expect(extra[worst]!, `step ${worst + 1} (camera ${cameraAt(worst + 1)}) changed ${(extra[worst]! * 100).toFixed(2)} % of the canvas more than at full detail`).toBeLessThan(MARGIN);
  expect(Math.max(...apart), 'share of the figures\' pixels unlike full detail').toBeLessThan(NEAR_FULL);
  // The path crosses switches: instances changed level along it.
  expect(near.reduce((a, n, l) => a + Math.abs(n - (far[l] ?? 0)), 0), 'instances that changed level').toBeGreaterThanOrEqual(4);
  expect(con.errors).toEqual([]);
});
