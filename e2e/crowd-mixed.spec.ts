import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { openApp, watchConsole } from './helpers.ts';

/**
 * Mixed crowds (docs/crowds.md "Mixed crowds"): `crowdModels` adds other models to a crowd of the loaded one,
 * loaded in the background. tiny.x (grey-white) with the Fox (orange), the two smallest built-ins, 12
 * instances at full detail on a 200 × 150 canvas: both models load and draw, each instance one of them, one
 * instanced draw per subset per model in each pass; a bad entry is named in the error banner and the crowd
 * draws with what loaded. Small canvas: SwiftShader rasterises on the CPU.
 */

interface CrowdModelInfo {
  id: string;
  status: string;
  instances: number;
  triangles: number;
  error?: string;
}

async function crowdModels(page: Page): Promise<CrowdModelInfo[]> {
  return page.evaluate(() => window.skinlab.info().crowdModels as CrowdModelInfo[]);
}

/** Waits until no model of the crowd is loading, then one more frame. */
async function loaded(page: Page): Promise<CrowdModelInfo[]> {
  await expect.poll(async () => (await crowdModels(page)).some((m) => m.status === 'loading'), { timeout: 40_000 }).toBe(false);
  await page.evaluate(() => window.skinlab.set({}));
  return crowdModels(page);
}

/** The last frame's figures: stats() takes them at the end of each one-second window, so one more window is drawn first. */
async function figures(page: Page): Promise<{ draws: number; perModel: number[]; drawn: number }> {
  await page.waitForTimeout(1100);
  await page.evaluate(() => window.skinlab.set({}));
  const s = await page.evaluate(() => window.skinlab.stats());
  return { draws: s.meshDrawCalls, perModel: s.instancesPerModel, drawn: s.instancesDrawn };
}

/** Pixels of the canvas that are the Fox's orange and tiny's light grey. */
async function colours(page: Page): Promise<{ orange: number; grey: number }> {
  const png = PNG.sync.read(await page.locator('#view').screenshot());
  let orange = 0;
  let grey = 0;
  const d = png.data;
  for (let i = 0; i < d.length; i += 4) {
    const r = d[i]!;
    const g = d[i + 1]!;
    const b = d[i + 2]!;
    if (r > 120 && r - g > 40 && g - b > 20) orange++;
    else if (r > 120 && Math.abs(r - g) < 20 && Math.abs(g - b) < 25) grey++;
  }
  return { orange, grey };
}

const QUERY = '?gui=0&model=tiny&crowd=12&lod=0&t=0.3';

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 200, height: 150 });
});

test('crowdModels=fox: both models draw, one instanced draw per subset per model per pass', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, `${QUERY}&crowdModels=fox`);
  const models = await loaded(page);
  expect(models.map((m) => [m.id, m.status])).toEqual([['tiny', 'ready'], ['fox', 'ready']]);
  expect(models[0]!.triangles).toBe(6841);
  expect(models[1]!.triangles).toBe(576);
  const mixed = await figures(page);
  expect(mixed.drawn).toBe(12);
  expect(mixed.perModel.length).toBe(2);
  expect(mixed.perModel[0]! + mixed.perModel[1]!).toBe(12);
  expect(Math.min(...mixed.perModel)).toBeGreaterThanOrEqual(3);
  const mixedColours = await colours(page);
  // The link keeps the mix.
  await expect.poll(() => page.evaluate(() => location.search)).toContain('crowdModels=fox');

  await page.evaluate(() => window.skinlab.set({ crowdModels: '' }));
  const single = await figures(page);
  expect(single.perModel).toEqual([12]);
  // The Fox is one subset: drawn once by the caster pass (shadows on) and once by the camera pass.
  expect(mixed.draws - single.draws).toBe(2);
  const singleColours = await colours(page);
  expect(mixedColours.orange, JSON.stringify({ mixedColours, singleColours })).toBeGreaterThan(100);
  expect(singleColours.orange).toBeLessThan(10);
  expect(mixedColours.grey).toBeGreaterThan(50);
  expect(con.errors).toEqual([]);
});

test('a bad crowdModels entry is named in the error banner; the crowd draws with what loaded', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, `${QUERY}&crowdModels=nosuch,fox`, 'ready|error');
  const models = await loaded(page);
  expect(models.map((m) => [m.id, m.status])).toEqual([['tiny', 'ready'], ['fox', 'ready']]);
  await expect(page.locator('#error')).toContainText('crowdModels: nosuch: not a built-in model');
  expect(await page.evaluate(() => document.documentElement.dataset.state)).toBe('error');
  const f = await figures(page);
  expect(f.drawn).toBe(12);
  expect(f.perModel.length).toBe(2);
  // The banner lies over the small canvas: closed for the picture, as a user would.
  await page.locator('.error-banner .close').click();
  expect((await colours(page)).orange).toBeGreaterThan(100);
  expect(con.errors.length).toBe(1);
  expect(con.errors[0]).toContain('nosuch');
});
