import { expect, test, type Page } from '@playwright/test';
import { canvasShot, openApp, pixelDifference, watchConsole } from './helpers.ts';

/**
 * Crowd distance LOD (docs/crowds.md "Distance LOD"): Dawn at medium in a crowd of 9 loads its low level
 * in the background; then the far instances draw low (stats().instancesPerLevel), the camera pass makes one
 * draw per subset per level in use, and the picture differs from lod=0's only a little (nothing at all when
 * every figure is near); a tiny.x crowd gets generated levels and draws more than one of them. Small canvas:
 * SwiftShader rasterises on the CPU.
 */

// The mesh levels alone: impostors past the lightest are e2e/crowd-impostors.spec.ts's.
const QUERY = '?model=dawn&detail=medium&crowd=9&shadows=0&gui=0&t=2&impostors=off';
/** Looking along the crowd's rows from just outside it: the front row near, the back row far. */
const MIXED = { yaw: 0, pitch: 8, distance: 4, target: [0, 0.9, 0] };
/** Close up: every instance in view is near (medium). */
const NEAR = { yaw: 0, pitch: 8, distance: 1.2, target: [0, 0.9, 0] };
/** Far away: every instance is small (low). */
const FAR = { yaw: 0, pitch: 20, distance: 30, target: [0, 0.9, 0] };

/** info().lod. */
interface LodInfo {
  status: string;
  levels: { detail: string; from: number; to: number | null }[];
}

function camera(c: typeof MIXED): string {
  return `${c.yaw},${c.pitch},${c.distance},${c.target.join(',')}`;
}

/** The last frame's figures: stats() takes them at the end of each one-second window, so one more window is drawn first. */
async function figures(page: Page): Promise<{ perLevel: number[]; draws: number }> {
  await page.waitForTimeout(1100);
  await page.evaluate(() => window.skinlab.set({}));
  const s = await page.evaluate(() => window.skinlab.stats());
  return { perLevel: s.instancesPerLevel, draws: s.meshDrawCalls };
}

/** Turns LOD back on (lod=0 released the lighter levels) at camera `c` and waits for them to load again. */
async function lodOn(page: Page, c: string): Promise<void> {
  await page.evaluate((cam) => window.skinlab.set({ lod: 1, camera: cam }), c);
  await page.waitForFunction(() => (window.skinlab.info().lod as LodInfo).status === 'ready', null, { timeout: 40_000 });
  await page.evaluate(() => window.skinlab.set({}));
}

async function shot(page: Page): Promise<Buffer> {
  return canvasShot(page);
}

test('far instances draw the low level once it has loaded, one draw per subset per level', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 320, height: 240 });
  const con = watchConsole(page);
  await openApp(page, `${QUERY}&camera=${camera(MIXED)}`);
  await page.waitForFunction(() => (window.skinlab.info().lod as LodInfo).status !== 'loading', null, { timeout: 40_000 });
  const info = await page.evaluate(() => window.skinlab.info());
  expect((info.lod as LodInfo).status).toBe('ready');
  await page.evaluate(() => window.skinlab.set({}));
  const lod = (await page.evaluate(() => window.skinlab.info().lod)) as LodInfo;
  expect(lod.levels.map((l) => l.detail)).toEqual(['medium', 'low']);
  expect(lod.levels[0].to).toBeGreaterThan(0);
  const mixed = await figures(page);
  console.log(`[crowd-lod] mixed view: instances per level ${mixed.perLevel.join(' + ')}, ${mixed.draws} mesh draws; switch at ${lod.levels[0].to} model units, camera ${JSON.stringify(info.camera)}`);
  expect(mixed.perLevel.length).toBe(2);
  expect(mixed.perLevel[0]).toBeGreaterThan(0);
  expect(mixed.perLevel[1]).toBeGreaterThan(0);
  const mixedOn = await shot(page);
  await page.evaluate(() => window.skinlab.set({ lod: 0 }));
  const mixedOff = await shot(page);
  expect((await figures(page)).perLevel.length).toBe(1);
  const share = pixelDifference(mixedOn, mixedOff);
  console.log(`[crowd-lod] lod=1 and lod=0 differ in ${(share * 100).toFixed(2)} % of the pixels`);
  expect(share).toBeGreaterThan(0);
  expect(share).toBeLessThan(0.02);

  // Draws: every figure near → medium's subsets; every figure far → low's; the mixed view → both.
  await lodOn(page, camera(NEAR));
  const near = await figures(page);
  expect(near.perLevel[1]).toBe(0);
  const nearOn = await shot(page);
  await page.evaluate(() => window.skinlab.set({ lod: 0 }));
  expect(pixelDifference(nearOn, await shot(page), 0)).toBe(0);
  await lodOn(page, camera(FAR));
  const far = await figures(page);
  expect(far.perLevel[0]).toBe(0);
  expect(far.perLevel[1]).toBe(9);
  console.log(`[crowd-lod] mesh draws: near ${near.draws}, far ${far.draws}, mixed ${mixed.draws}`);
  expect(mixed.draws).toBe(near.draws + far.draws);
  expect(con.errors).toEqual([]);
});

test('a model without detail levels gets generated ones, chosen by projected error', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 320, height: 240 });
  const con = watchConsole(page);
  // Over the crowd from its front corner (distance 7.4 framing units: about 2,800 model units): the near rows within
  // 2,300 model units (where 1/8's error exceeds 1 px at 240 px) draw 1/2, the rest 1/8.
  await openApp(page, '?model=tiny&crowd=100&shadows=0&gui=0&t=0.5&camera=25,20,7.4,0,-48,-27');
  await page.waitForFunction(() => (window.skinlab.info().lod as LodInfo).status !== 'loading', null, { timeout: 40_000 });
  expect(((await page.evaluate(() => window.skinlab.info().lod)) as LodInfo).status).toBe('ready');
  // Generated in the page's LOD worker, started at boot: its WebAssembly is compiled before the request comes.
  const timing = (await page.evaluate(() => window.skinlab.info().lod)) as { timing: { ms: number; wasmMs: number; totalMs: number } | null };
  console.log(`[crowd-lod] tiny generated: ${JSON.stringify(timing.timing)}`);
  expect(timing.timing).not.toBeNull();
  expect(timing.timing!.ms).toBeGreaterThan(0);
  expect(timing.timing!.totalMs).toBeGreaterThanOrEqual(timing.timing!.ms);
  expect(timing.timing!.wasmMs).toBeGreaterThanOrEqual(0);
  await page.evaluate(() => window.skinlab.set({}));
  const table = (await page.evaluate(() => window.skinlab.info().lodLevels)) as { source: string; levels: { triangles: number; error: number }[] };
  console.log(`[crowd-lod] tiny: ${JSON.stringify(table)}`);
  expect(table.source).toBe('generated');
  expect(table.levels.length).toBeGreaterThanOrEqual(3);
  for (let l = 1; l < table.levels.length; l++) {
    expect(table.levels[l].triangles).toBeLessThan(table.levels[l - 1].triangles);
    expect(table.levels[l].error).toBeGreaterThan(0);
  }
  const { perLevel } = await figures(page);
  console.log(`[crowd-lod] tiny crowd of 100: instances per level ${perLevel.join(' + ')}, camera ${JSON.stringify((await page.evaluate(() => window.skinlab.info())).camera)}`);
  expect(perLevel.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  expect(perLevel.filter((n) => n > 0).length).toBeGreaterThan(1);
  expect(con.errors).toEqual([]);
});

test('where no LOD worker can start, the page makes the levels itself (the simplifier loaded on that path)', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 200, height: 150 });
  const con = watchConsole(page);
  // A page where the LOD worker's constructor throws (as under a policy refusing it); every other worker starts.
  await page.addInitScript(() => {
    const Native = window.Worker;
    window.Worker = class extends Native {
      constructor(url: string | URL, options?: WorkerOptions) {
        if (String(url).includes('lod-worker')) throw new DOMException('refused by the test', 'SecurityError');
        super(url, options);
      }
    };
  });
  await openApp(page, '?model=tiny&crowd=100&shadows=0&gui=0&t=0.5');
  await page.waitForFunction(() => (window.skinlab.info().lod as LodInfo).status !== 'loading', null, { timeout: 60_000 });
  const lod = (await page.evaluate(() => window.skinlab.info().lod)) as LodInfo & { timing: { where: string } | null };
  expect(lod.status).toBe('ready');
  expect(lod.timing?.where).toBe('main');
  // The levels are uploaded on the next crowd frame after they are ready: one drawn frame first (set resolves after it).
  await page.evaluate(() => window.skinlab.set({}));
  const table = (await page.evaluate(() => window.skinlab.info().lodLevels)) as { source: string; levels: unknown[] };
  expect(table.source).toBe('generated');
  expect(table.levels.length).toBeGreaterThanOrEqual(3);
  expect(con.errors).toEqual([]);
});
