import { expect, test, type Page } from '@playwright/test';
import { canvasShot, openApp, pixelDifference, watchConsole } from './helpers.ts';

/**
 * Crowd paths (URL key `crowdPath`, docs/crowds.md): the baked path (palettes baked per clip, each
 * instance's two frames blended in the vertex stage) draws the picture of the cpu path (every palette per
 * frame) at the same instance times; one instanced draw per subset whatever N; and camera-frustum culling
 * leaves out instances without changing the picture. `lod=0`: the paths and draw counts are compared at full
 * detail (the distance LOD has its own spec, crowd-lod.spec.ts). Small canvas: SwiftShader rasterises on the CPU.
 */

async function shot(page: Page): Promise<Buffer> {
  return canvasShot(page);
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 240 });
});

for (const [model, t] of [['tiny', 0.6], ['default', 0.45]] as const) {
  test(`${model}: baked and cpu crowds of 10 at one paused time draw the same picture`, async ({ page }) => {
    const con = watchConsole(page);
    await openApp(page, `?model=${model}&gui=0&t=${t}&crowd=10&shadows=0&lod=0`);
    const baked = await shot(page);
    expect((await page.evaluate(() => window.skinlab.info())).crowdPath).toBe('baked');
    await page.evaluate(() => window.skinlab.set({ crowdPath: 'cpu' }));
    expect((await page.evaluate(() => window.skinlab.info())).crowdPath).toBe('cpu');
    const cpu = await shot(page);
    const share = pixelDifference(baked, cpu);
    console.log(`[crowd-baked] ${model}: ${(share * 100).toFixed(3)} % of pixels differ between baked and cpu`);
    expect(share, 'share of pixels that differ').toBeLessThanOrEqual(0.005);
    expect(con.errors).toEqual([]);
  });
}

test('one instanced draw per subset for 10 and 1000 instances on both paths', async ({ page }) => {
  const con = watchConsole(page);
  // vs-hlsl draws one figure with one draw per subset: the crowd's draws per pass.
  await openApp(page, '?model=tiny&gui=0&t=0.6&shadows=0&lod=0&technique=vs-hlsl&camera=25,5,1.2');
  const subsets = (await page.evaluate(() => window.skinlab.stats())).meshDrawCalls;
  for (const crowdPath of ['baked', 'cpu']) {
    for (const crowd of [10, 1000]) {
      // The camera close to the middle of the crowd: culling keeps the rasteriser's work small at N = 1000.
      await page.evaluate((p) => window.skinlab.set(p), { crowd, crowdPath });
      // The instance counts are the last frame of stats()'s one-second window: wait for a window of this crowd.
      await expect.poll(async () => {
        const s = await page.evaluate(() => window.skinlab.stats());
        return s.instancesDrawn + s.instancesCulled;
      }, { timeout: 20_000 }).toBe(crowd);
      const s = await page.evaluate(() => window.skinlab.stats());
      expect(s.meshDrawCalls, `${crowdPath} ${crowd}`).toBe(subsets);
      // The floor grid, and the subsets.
      expect(s.drawCalls, `${crowdPath} ${crowd}`).toBe(subsets + 1);
      expect(s.instancesDrawn).toBeGreaterThan(0);
      expect(s.instancesDrawn + s.instancesCulled).toBe(crowd);
    }
  }
  expect(con.errors).toEqual([]);
});

test('culling with the camera inside the crowd leaves instances out and the picture as it was', async ({ page }) => {
  const con = watchConsole(page);
  // Close to the middle figure, looking along the grid: many of the 30 are behind or beside the camera.
  await openApp(page, '?model=tiny&gui=0&t=0.6&crowd=30&shadows=0&lod=0&camera=25,5,1.2');
  const culled = await shot(page);
  // stats() reports its last one-second window: wait for a window drawn in each state before reading counts.
  const counts = async (): Promise<string> => {
    const s = await page.evaluate(() => window.skinlab.stats());
    return `${s.instancesDrawn}+${s.instancesCulled}`;
  };
  await expect.poll(counts, { timeout: 20_000 }).toMatch(/^\d+\+[1-9]\d*$/);
  const on = await page.evaluate(() => window.skinlab.stats());
  expect(on.instancesDrawn + on.instancesCulled).toBe(30);
  await page.evaluate(() => window.skinlab.set({ cull: 0 }));
  const all = await shot(page);
  await expect.poll(counts, { timeout: 20_000 }).toBe('30+0');
  const share = pixelDifference(culled, all);
  console.log(`[crowd-baked] culling: ${on.instancesCulled} of 30 culled, ${(share * 100).toFixed(3)} % of pixels differ`);
  expect(share, 'share of pixels that differ').toBeLessThanOrEqual(0.005);
  // The cpu path culls too, and builds palettes only for what it draws.
  await page.evaluate(() => window.skinlab.set({ cull: 1, crowdPath: 'cpu' }));
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info())).crowdPath).toBe('cpu');
  await expect.poll(counts, { timeout: 20_000 }).toBe(`${on.instancesDrawn}+${on.instancesCulled}`);
  // The address bar follows the state once it has held for one poll (url-sync.ts): poll it.
  await expect.poll(() => new URL(page.url()).searchParams.get('crowdPath'), { timeout: 30_000 }).toBe('cpu');
  expect(con.errors).toEqual([]);
});

test('with shadows, culled casters whose shadow falls in view still cast: the picture is the one without culling', async ({ page }) => {
  const con = watchConsole(page);
  await page.setViewportSize({ width: 320, height: 240 });
  // Looking down into the crowd: instances just outside the view are culled, and the key light (from the
  // upper left) throws their shadows into it. Drawing only the live casters changes 2–5 % of the pixels here
  // (by more than 3 levels); casting those whose shadow may fall in view changes none.
  await openApp(page, '?model=tiny&gui=0&t=0.6&crowd=30&shadows=1&lod=0&camera=0,75,1.2');
  const culled = await shot(page);
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.stats())).instancesCulled, { timeout: 20_000 }).toBeGreaterThan(0);
  await page.evaluate(() => window.skinlab.set({ cull: 0 }));
  const all = await shot(page);
  const share = pixelDifference(culled, all, 3);
  console.log(`[crowd-baked] shadow casters culled by their shadow: ${(share * 100).toFixed(3)} % of pixels differ from every instance casting`);
  expect(share, 'share of pixels that differ').toBeLessThanOrEqual(0.002);
  expect(con.errors).toEqual([]);
});
