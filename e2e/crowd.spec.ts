import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { canvasShot, coverage, openApp, pixelDifference, watchConsole } from './helpers.ts';

/**
 * Crowd mode (URL key `crowd`, docs/api.md#url-parameters): N instances of the character, each at its own phase, drawn
 * instanced with every palette in one texture: the draw count does not grow with N.
 */

/** The renderer's clear colour as 8-bit values (helpers.ts BACKGROUND). */
const BACKGROUND = [27, 29, 34];

function isFigure(d: Uint8Array, i: number): boolean {
  return Math.abs(d[i]! - BACKGROUND[0]!) + Math.abs(d[i + 1]! - BACKGROUND[1]!) + Math.abs(d[i + 2]! - BACKGROUND[2]!) > 30;
}

/** Connected regions (4-neighbour) of at least `minPixels` figure pixels in a PNG. */
function blobs(png: PNG, minPixels = 12): number {
  const { width, height, data } = png;
  const seen = new Uint8Array(width * height);
  const stack: number[] = [];
  let count = 0;
  for (let start = 0; start < width * height; start++) {
    if (seen[start] || !isFigure(data, start * 4)) continue;
    let size = 0;
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const p = stack.pop()!;
      size++;
      const x = p % width;
      const y = (p - x) / width;
      for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, y > 0 ? p - width : -1, y < height - 1 ? p + width : -1]) {
        if (q >= 0 && !seen[q] && isFigure(data, q * 4)) {
          seen[q] = 1;
          stack.push(q);
        }
      }
    }
    if (size >= minPixels) count++;
  }
  return count;
}

/** The canvas (the pages that take one have gui=0: nothing covers it). */
async function shot(page: Page): Promise<Buffer> {
  return canvasShot(page);
}

/** A rectangle of a PNG as its own PNG buffer (for comparing two figures of one image). */
function crop(buf: Buffer, x: number, y: number, w: number, h: number): Buffer {
  const src = PNG.sync.read(buf);
  const out = new PNG({ width: w, height: h });
  PNG.bitblt(src, out, x, y, w, h, 0, 0);
  return PNG.sync.write(out);
}

test('crowd=1 is the normal single-model view', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?gui=0&t=0.6');
  const single = await shot(page);
  const drawCalls = (await page.evaluate(() => window.skinlab.stats())).drawCalls;
  await openApp(page, '?gui=0&t=0.6&crowd=1');
  expect(pixelDifference(await shot(page), single, 0)).toBe(0);
  const stats = await page.evaluate(() => window.skinlab.stats());
  expect(stats.crowd).toBe(1);
  expect(stats.drawCalls).toBe(drawCalls);
  expect(con.errors).toEqual([]);
});

test('crowd=100 draws many separate figures with the draw count of crowd=10', async ({ page }, testInfo) => {
  // tiny: the smallest character, so 100 of them stay quick on a CPU rasteriser (SwiftShader).
  const con = watchConsole(page);
  // One fixed camera for both, far enough back to hold the crowd: the crowd must cover much more (at full detail,
  // lod=0: the draw counts compared are one per subset; the distance LOD has crowd-lod.spec.ts). No shadow
  // map (a crowd's caster pass is covered by the shadows tests): a hundred figures cost SwiftShader enough.
  await openApp(page, '?model=tiny&gui=0&t=0.6&camera=25,30,9&technique=vs-hlsl&shadows=0&lod=0');
  const single = await coverage(page);
  const singleMeshDraws = (await page.evaluate(() => window.skinlab.stats())).meshDrawCalls;
  await page.evaluate(() => window.skinlab.set({ crowd: 100 }));
  const many = await coverage(page);
  expect(many, 'crowd coverage against one figure').toBeGreaterThan(single * 8);

  // The default framing of the whole crowd: many separated silhouettes.
  await page.evaluate(() => window.skinlab.set({ camera: 'auto', grid: 0 }));
  const image = await shot(page);
  await testInfo.attach('crowd-100.png', { body: image, contentType: 'image/png' });
  expect(blobs(PNG.sync.read(image)), 'separate figures').toBeGreaterThanOrEqual(25);

  await page.evaluate(() => window.skinlab.set({ crowd: 10, grid: 1 }));
  const s10 = await page.evaluate(() => window.skinlab.stats());
  await page.evaluate(() => window.skinlab.set({ crowd: 100 }));
  const s100 = await page.evaluate(() => window.skinlab.stats());
  expect(s10.crowd).toBe(10);
  expect(s100.crowd).toBe(100);
  expect(s100.drawCalls).toBe(s10.drawCalls);
  // One instanced draw per subset (what vs-hlsl draws for one figure) plus the floor grid.
  expect(s100.meshDrawCalls).toBe(singleMeshDraws);
  expect(s100.drawCalls).toBe(singleMeshDraws + 1);
  // The baked path (default) uploads no palettes: only instance data, when it changes.
  expect(s100.technique).toBe('crowd 100 (instanced, baked palettes)');
  expect(s100.uploadBytes).toBeLessThan(s100.paletteBytes * 100);
  await page.evaluate(() => window.skinlab.set({ crowdPath: 'cpu' }));
  const cpu = await page.evaluate(() => window.skinlab.stats());
  expect(cpu.technique).toBe('crowd 100 (instanced, texture palette)');
  expect(cpu.drawCalls).toBe(s10.drawCalls);
  expect(cpu.cpuAnimUs).toBeGreaterThan(0);
  // On the cpu path every instance's palettes go up in one texture upload.
  expect(cpu.uploadBytes).toBeGreaterThanOrEqual(cpu.paletteBytes * 100);
  expect(con.errors).toEqual([]);
});

/** x of the centroid of figure pixels in columns [x0, x1). */
function centroidX(png: PNG, x0: number, x1: number): number {
  let sum = 0;
  let n = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = x0; x < x1; x++) {
      if (isFigure(png.data, (y * png.width + x) * 4)) {
        sum += x;
        n++;
      }
    }
  }
  return n > 0 ? sum / n : (x0 + x1) / 2;
}

/** Silhouette mismatch of two same-sized crops: pixels that are figure in one and background in the other, over the figure pixels of either. */
function silhouetteMismatch(a: Buffer, b: Buffer): number {
  const pa = PNG.sync.read(a);
  const pb = PNG.sync.read(b);
  let either = 0;
  let one = 0;
  for (let i = 0; i < pa.data.length; i += 4) {
    const fa = isFigure(pa.data, i);
    const fb = isFigure(pb.data, i);
    if (fa || fb) either++;
    if (fa !== fb) one++;
  }
  return either > 0 ? one / either : 0;
}

test('crowd instances play at different phases', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?gui=0&t=0.2&crowd=2&grid=0&camera=0,0,3.2');
  const a = await shot(page);
  const pa = PNG.sync.read(a);
  const { width, height } = pa;
  const half = width / 2;
  const box = Math.floor(width * 0.3);
  // A box around each figure's centroid (instance 0 right, instance 1 left: crowd-layout.ts).
  const around = (img: Buffer, png: PNG, right: boolean): Buffer => {
    const cx = centroidX(png, right ? half : 0, right ? width : half);
    const x = Math.max(0, Math.min(width - box, Math.round(cx - box / 2)));
    return crop(img, x, 0, box, height);
  };
  // Silhouettes, not colours: the two cells see the light and the camera from slightly different angles.
  const apart = silhouetteMismatch(around(a, pa, false), around(a, pa, true));
  // The floor of that measure: the bind pose gives every instance the same pose, so what is left is the
  // two cells' perspective and pixel grid.
  await page.evaluate(() => window.skinlab.set({ bindPose: 1 }));
  const bind = await shot(page);
  const pb = PNG.sync.read(bind);
  const floor = silhouetteMismatch(around(bind, pb, false), around(bind, pb, true));
  expect(apart, 'two instances at one time differ well beyond the equal-pose floor').toBeGreaterThan(Math.max(0.1, floor * 1.5));
  expect(con.errors).toEqual([]);
});

test('the crowd slider in the Rendering folder sets the crowd', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?model=tiny&t=0.6');
  const slider = page.locator('.lil-gui .lil-controller.lil-number').filter({ has: page.locator('.lil-name', { hasText: /^crowd/ }) });
  const input = slider.locator('input');
  await input.fill('50');
  await input.press('Enter');
  await page.evaluate(() => window.skinlab.set({}));
  expect((await page.evaluate(() => window.skinlab.info())).crowd).toBe(50);
  expect((await page.evaluate(() => window.skinlab.stats())).crowd).toBe(50);
  await page.evaluate(() => window.skinlab.set({ crowd: 7 }));
  await expect(input).toHaveValue('7');
  expect(con.errors).toEqual([]);
});

test('a bad crowd value is reported and leaves the crowd as it was', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?gui=0&crowd=50000', 'error');
  expect(await page.locator('#error').textContent()).toContain('crowd=50000');
  expect((await page.evaluate(() => window.skinlab.info())).crowd).toBe(1);
  expect(con.errors.length).toBe(1);
});
