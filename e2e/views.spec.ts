import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { humanoidBones } from '../src/gen/humanoid-body.ts';
import { canvasShot, openApp, pixelDifference, watchConsole } from './helpers.ts';

/**
 * The teaching views on the default Walker, as a user sees them: the weights heat map of one bone, the
 * influence counts, the technique's bone groups, the bind pose, and the per-pixel diff against software.
 * Pixels are classified from screenshots (floor off, UI hidden).
 */

const BASE = '?model=default&t=0.5&gui=0&grid=0';
/** The Walker's skeleton order is the generator's bone list (the .m3d file keeps both: its BoneNames chunk). */
const BONES = humanoidBones().map((b) => b.name);
const boneIndex = (name: string): number => {
  const i = BONES.indexOf(name);
  if (i < 0) throw new Error(`no bone ${name} in the generator's rig`);
  return i;
};

interface Pixels {
  png: PNG;
  at(x: number, y: number): [number, number, number];
}

async function pixels(page: Page): Promise<Pixels> {
  const png = PNG.sync.read(await canvasShot(page));
  return {
    png,
    at: (x, y) => {
      const i = (y * png.width + x) * 4;
      return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    },
  };
}

const isRed = ([r, g, b]: number[]): boolean => r! > 80 && r! > 2 * g! && r! > 2 * b!;
const isBlue = ([r, g, b]: number[]): boolean => b! > 90 && b! > r! + 40 && b! > g! + 20;
/** Off the background (0.105, 0.115, 0.135 → 27, 29, 34). */
const isModel = ([r, g, b]: number[]): boolean => Math.abs(r! - 27) + Math.abs(g! - 29) + Math.abs(b! - 34) > 30;

/** Count and centroid of the pixels matching `f`. */
function region(p: Pixels, f: (c: number[]) => boolean): { n: number; x: number; y: number } {
  let n = 0, sx = 0, sy = 0;
  for (let y = 0; y < p.png.height; y++) {
    for (let x = 0; x < p.png.width; x++) {
      if (!f(p.at(x, y))) continue;
      n++;
      sx += x;
      sy += y;
    }
  }
  return { n, x: n ? sx / n : NaN, y: n ? sy / n : NaN };
}

/** Hue (36 bins) of saturated model pixels; bins with at least `min` pixels. Shading scales a colour, so the hue names it. */
function hueBins(p: Pixels, min = 40): number {
  const bins = new Array<number>(36).fill(0);
  for (let y = 0; y < p.png.height; y++) {
    for (let x = 0; x < p.png.width; x++) {
      const [r, g, b] = p.at(x, y);
      const hi = Math.max(r, g, b), lo = Math.min(r, g, b);
      if (hi < 50 || hi - lo < 0.25 * hi) continue;
      let h = hi === r ? (g - b) / (hi - lo) : hi === g ? 2 + (b - r) / (hi - lo) : 4 + (r - g) / (hi - lo);
      h = ((h * 60) % 360 + 360) % 360;
      bins[Math.floor(h / 10)]!++;
    }
  }
  return bins.filter((n) => n >= min).length;
}

/** Diff-view marks: red (small difference) to yellow (large), never a grey of the image. */
const isMarked = ([r, , b]: number[]): boolean => r! > 150 && r! - b! > 100;

test('weights: an arm bone is red on that arm and blue elsewhere', async ({ page }) => {
  const con = watchConsole(page);
  const left = boneIndex('upper_arm_l');
  await openApp(page, `${BASE}&view=weights&bone=${left}`);
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.bone).toBe((info.boneNames as string[])[left]);
  const l = await pixels(page);
  const model = region(l, isModel);
  const redL = region(l, isRed);
  const blue = region(l, isBlue);
  expect(redL.n, 'red pixels of upper_arm_l').toBeGreaterThan(300);
  expect(blue.n, 'most of the body is blue (weight 0)').toBeGreaterThan(model.n * 0.6);
  // Upper body: above the silhouette's centroid (screen y grows downwards).
  expect(redL.y).toBeLessThan(model.y);
  await page.evaluate((b) => window.skinlab.set({ bone: b }), boneIndex('upper_arm_r'));
  const redR = region(await pixels(page), isRed);
  expect(redR.n).toBeGreaterThan(300);
  // The two arms are on opposite sides of the body.
  expect(Math.sign(redL.x - model.x)).toBe(-Math.sign(redR.x - model.x));
  expect(Math.abs(redL.x - redR.x)).toBeGreaterThan(40);
  // Bone by name, and a bad bone is an error that names the bones.
  await page.evaluate((n) => window.skinlab.set({ bone: n }), (info.boneNames as string[])[left]!);
  expect(Math.abs(region(await pixels(page), isRed).x - redL.x)).toBeLessThan(3);
  expect(con.errors).toEqual([]);
  await page.evaluate(() => window.skinlab.set({ bone: 'no_such_bone' }));
  await expect(page.locator('#error')).toContainText('bone=no_such_bone: no such bone');
});

test('influences: several counts at 4 influences, one at 1', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, `${BASE}&view=influences&influences=4`);
  const four = await pixels(page);
  expect(hueBins(four, 200), 'distinct influence colours at 4').toBeGreaterThanOrEqual(3);
  await page.evaluate(() => window.skinlab.set({ influences: 1 }));
  const one = await pixels(page);
  const model = region(one, isModel).n;
  expect(region(one, isBlue).n, 'every vertex has 1 influence: all blue').toBeGreaterThan(model * 0.9);
  expect(con.errors).toEqual([]);
});

test('weights and influences look the same under every technique: the view data follows gl_VertexID through group draws and copies', async ({ page }) => {
  // The per-vertex data lives in a texture indexed by gl_VertexID (render/view-data.ts): ff-indexed at its
  // smallest palette (many group draws, duplicated vertices), ff-nonindexed (approximated copies), vs-asm
  // (register palette) and software (CPU-skinned arrays) must colour the Walker as vs-hlsl does.
  const con = watchConsole(page);
  await openApp(page, `${BASE}&view=weights&bone=${boneIndex('upper_arm_l')}&technique=vs-hlsl`);
  const range = (await page.evaluate(() => window.skinlab.info())).paletteRange as { min: number };
  for (const view of ['weights', 'influences']) {
    await page.evaluate((v) => window.skinlab.set({ view: v, technique: 'vs-hlsl' }), view);
    const reference = await canvasShot(page);
    for (const technique of ['ff-indexed', 'ff-nonindexed', 'vs-asm', 'software']) {
      await page.evaluate(([t, p]) => window.skinlab.set({ technique: t!, palette: Number(p) }), [technique, String(range.min)]);
      const img = await canvasShot(page);
      expect(pixelDifference(img, reference), `${view}: ${technique} vs vs-hlsl`).toBeLessThanOrEqual(0.005);
    }
  }
  expect(con.errors).toEqual([]);
});

test('groups: a small ff-indexed palette shows several groups, vs-hlsl fewer', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, `${BASE}&view=groups&technique=vs-hlsl`);
  const range = (await page.evaluate(() => window.skinlab.info())).paletteRange as { min: number };
  const hlsl = hueBins(await pixels(page));
  await page.evaluate((p) => window.skinlab.set({ technique: 'ff-indexed', palette: p }), range.min);
  const stats = await page.evaluate(() => window.skinlab.stats());
  const ff = hueBins(await pixels(page));
  expect(stats.groups, 'ff-indexed groups at the smallest palette').toBeGreaterThan(4);
  expect(ff).toBeGreaterThanOrEqual(5);
  expect(ff).toBeGreaterThan(hlsl);
  expect(con.errors).toEqual([]);
});

test('bind pose: the stored mesh, the same at any time, unlike the animated pose; B toggles it', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, `${BASE}&t=0.2&skeleton=1`);
  const posed = await canvasShot(page);
  await page.evaluate(() => window.skinlab.set({ bindPose: 1 }));
  const bindA = await canvasShot(page);
  await page.evaluate(() => window.skinlab.set({ t: 0.9 }));
  const bindB = await canvasShot(page);
  expect(pixelDifference(bindA, bindB)).toBeLessThan(0.0005);
  expect(pixelDifference(posed, bindA)).toBeGreaterThan(0.01);
  await page.locator('#view').focus();
  await page.keyboard.press('b');
  expect((await page.evaluate(() => window.skinlab.info())).bindPose).toBe(false);
  await page.keyboard.press('B');
  expect((await page.evaluate(() => window.skinlab.info())).bindPose).toBe(true);
  expect(con.errors).toEqual([]);
});

test('diff: vs-hlsl matches software, dual-quat and 1 influence do not', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, `${BASE}&view=diff&technique=vs-hlsl`);
  const canvas = (await page.evaluate(() => window.skinlab.info())).canvas as number[];
  const area = canvas[0]! * canvas[1]!;
  const same = region(await pixels(page), isMarked).n;
  expect(same / area, 'vs-hlsl against software').toBeLessThan(0.0005);
  // The grey image is still there (the view is not just black).
  expect(region(await pixels(page), isModel).n).toBeGreaterThan(area * 0.02);
  await page.evaluate(() => window.skinlab.set({ technique: 'dual-quat' }));
  const dq = region(await pixels(page), isMarked).n;
  expect(dq, 'dual-quat against linear blending').toBeGreaterThan(Math.max(50, same * 4));
  await page.evaluate(() => window.skinlab.set({ technique: 'vs-hlsl', influences: 1 }));
  const rigid = region(await pixels(page), isMarked).n;
  expect(rigid, 'rigid skinning against all 4 influences').toBeGreaterThan(Math.max(300, same * 4));
  // The stats box's count (read back when the picture has settled).
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.stats())).diffPixels as number).toBeGreaterThan(300);
  expect(con.errors).toEqual([]);
});

test('every teaching view draws under every technique without console errors; the panel offers them', async ({ page }) => {
  const con = watchConsole(page);
  // The views at 320×240, 16 % of the pixels (the counts scale with the canvas: 800 here is 1250 at 400×300),
  // the panel at the full size.
  await page.setViewportSize({ width: 320, height: 240 });
  await openApp(page, `${BASE}`);
  const info = await page.evaluate(() => window.skinlab.info());
  const support = info.techniqueSupport as Record<string, string | null>;
  let least = Infinity;
  for (const technique of info.techniques as string[]) {
    if (support[technique]) continue;
    for (const view of ['weights', 'influences', 'groups', 'diff']) {
      await page.evaluate(([t, v]) => window.skinlab.set({ technique: t!, view: v!, bindPose: v === 'groups' ? 1 : 0 }), [technique, view]);
      const n = region(await pixels(page), isModel).n;
      expect(n, `${technique} ${view}`).toBeGreaterThan(800);
      least = Math.min(least, n);
    }
  }
  console.log(`[views] fewest model pixels of a view: ${least}`);
  expect(con.errors).toEqual([]);
  // The panel: every view in the menu, the bone menu only with the weights view.
  await page.setViewportSize({ width: 800, height: 600 });
  await openApp(page, `${BASE}&technique=vs-hlsl`);
  await page.evaluate(() => window.skinlab.set({ gui: 1 }));
  const viewSelect = page.locator('.lil-controller', { hasText: 'view  (' }).locator('select');
  expect(await viewSelect.locator('option').allTextContents()).toEqual(info.views);
  const bone = page.locator('.lil-controller', { hasText: 'bone (weights)' });
  await expect(bone).toBeHidden();
  await viewSelect.selectOption('weights');
  await expect(bone).toBeVisible();
  expect(con.errors).toEqual([]);
});
