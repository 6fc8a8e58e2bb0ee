import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { join } from 'node:path';
import { CORPUS_DIR, HAVE_CORPUS, canvasShot, coverage, openApp, pixelDifference, serveCorpus, silhouette, waitState, watchConsole } from './helpers.ts';

/**
 * The page as a user meets it: the default character, a real .m3d from the corpus, clip switching,
 * and bad input that must show an error while the previous model keeps running.
 */

test('the default character loads, walks, and is drawn lit and framed', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?gui=0&t=0.6');
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.model).toBe('default');
  expect(info.clip).toBe('walk');
  expect(info.bones as number).toBeGreaterThanOrEqual(30);
  expect(info.clips).toEqual(expect.arrayContaining(['idle', 'walk', 'wave']));
  expect(info.technique).toBe('vs-hlsl');
  expect(info.t).toBeCloseTo(0.6, 6);
  const share = await coverage(page);
  expect(share, 'lit character share of the canvas').toBeGreaterThan(0.04);
  expect(share).toBeLessThan(0.5);
  // Tighter than the config's default (threshold 0.15, 1 %), where a canvas without the model sat right at the
  // limit (1.0 % of pixels) and the Walker frozen at t=0 just past it (1.4 %). Against this baseline at
  // threshold 0.1 (measured): no model 1.7 %, frozen at t=0 2.1 %, this build 0.01 % (the floor's contact shadow).
  await expect(page.locator('#view')).toHaveScreenshot('default-walk-0.6.png', { threshold: 0.1, maxDiffPixelRatio: 0.002 });
  expect(con.errors).toEqual([]);
});

test('the default page plays the walk without a query string, with panels and stats', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '');
  await expect(page.locator('.lil-gui').first()).toBeVisible();
  // Playing: the clip time moves on. Polled, not after a fixed wait: a busy machine draws fewer frames a second.
  const t0 = (await page.evaluate(() => window.skinlab.info())).t as number;
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info())).t as number, { timeout: 30_000 }).not.toBeCloseTo(t0, 3);
  // stats() reports whole one-second windows of frames: wait for one with a frame rate.
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.stats())).fps, { timeout: 30_000 }).toBeGreaterThan(0);
  const stats = await page.evaluate(() => window.skinlab.stats());
  expect(stats.paletteBytes).toBe(((await page.evaluate(() => window.skinlab.info())).bones as number) * 64);
  expect(stats.uploadBytes).toBe(stats.paletteBytes);
  expect(stats.drawCalls).toBeGreaterThan(0);
  await expect(page.locator('#stats')).toContainText('µs/frame');
  expect(con.errors).toEqual([]);
});

test('switching clips changes the pose, from the API and from the panel', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?t=1');
  await page.evaluate(() => window.skinlab.set({ gui: 0 }));
  const walk = await page.locator('#view').screenshot();
  await page.evaluate(() => window.skinlab.set({ clip: 'wave', t: 1 }));
  expect((await page.evaluate(() => window.skinlab.info())).clip).toBe('wave');
  const wave = await page.locator('#view').screenshot();
  expect(pixelDifference(walk, wave)).toBeGreaterThan(0.005);
  // The panel's clip menu.
  await page.evaluate(() => window.skinlab.set({ gui: 1 }));
  const clipSelect = page.locator('.lil-controller', { hasText: 'clip  (' }).locator('select');
  await clipSelect.selectOption('idle');
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info())).clip).toBe('idle');
  // By index, as the `clip` key allows (docs/api.md#url-parameters).
  await page.evaluate(() => window.skinlab.set({ clip: 0 }));
  const after = await page.evaluate(() => window.skinlab.info());
  expect(after.clip).toBe((after.clips as string[])[0]);
  expect(con.errors).toEqual([]);
});

test.describe('corpus models', () => {
  test.skip(!HAVE_CORPUS, `no corpus at ${CORPUS_DIR}`);

  test('soldier.m3d mid-animation: lit, upright, mid-stride', async ({ page }) => {
    const con = watchConsole(page);
    await serveCorpus(page);
    await openApp(page, '?model=corpus/soldier.m3d&t=0.5&gui=0');
    const info = await page.evaluate(() => window.skinlab.info());
    expect(info).toMatchObject({ bones: 58, vertices: 13748, triangles: 22507, clip: 'Take1' });
    // soldier's DDS textures are not in the corpus: a warning and a checker in their place.
    expect((info.warnings as string[]).join()).toMatch(/head_diff\.dds'.*checker/);
    expect(con.errors.filter((e) => !/Failed to load resource: .*404/.test(e))).toEqual([]);
    const share = await coverage(page);
    expect(share).toBeGreaterThan(0.04);
    // No committed baseline: the model's licence is unknown, so not even a picture of it enters the repo.
    // Instead: upright (taller than wide on screen) and moving (t=0 and t=0.5 differ).
    const box = await silhouette(page);
    expect(box.height).toBeGreaterThan(box.width * 1.3);
    expect(box.height).toBeGreaterThan(0.5 * 600);
    const mid = await canvasShot(page);
    await page.evaluate(() => window.skinlab.set({ t: 0 }));
    expect(pixelDifference(mid, await canvasShot(page))).toBeGreaterThan(0.003);
  });

  test('a file dropped on the page loads with its name in the model menu', async ({ page }) => {
    const con = watchConsole(page);
    await openApp(page, '?t=0.3');
    const base64 = readFileSync(join(CORPUS_DIR, 'soldier.m3d')).toString('base64');
    await page.evaluate(async (data) => {
      const bin = atob(data);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'soldier.m3d'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, base64);
    await expect.poll(async () => (await page.evaluate(() => window.skinlab.info())).model, { timeout: 60_000 }).toBe('soldier.m3d');
    await waitState(page);
    await expect(page.locator('.lil-gui select').first()).toContainText('soldier.m3d');
    expect(con.errors).toEqual([]);
  });
});

const BELOW_BANNER = { x: 0, y: 160, width: 800, height: 440 };

test('an invalid file shows the error with its line and keeps the previous model running', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?t=0.6');
  await page.evaluate(() => window.skinlab.set({ gui: 0 }));
  const before = await page.screenshot({ clip: BELOW_BANNER });
  const broken = '***************m3d-File-Header***************\n#Materials 1\n#Vertices 3\n#Triangles 1\n#Bones 0\n#AnimationClips 0\n\n***************Materials*********************\nDiffuse: 1 1 x\n';
  await page.setInputFiles('input[type=file]', { name: 'broken.m3d', mimeType: 'text/plain', buffer: Buffer.from(broken) });
  await waitState(page, 'error');
  await expect(page.locator('#error')).toContainText('broken.m3d');
  await expect(page.locator('#error')).toContainText(/line \d+/);
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.model).toBe('default');
  // Still drawing the same character (compared below the error banner).
  await page.waitForTimeout(200);
  const after = await page.screenshot({ clip: BELOW_BANNER });
  expect(pixelDifference(before, after)).toBeLessThan(0.002);
  expect(con.errors.length).toBe(1);
  expect(con.errors[0]).toContain('broken.m3d');
});

test('an unsupported file type and a missing URL say so', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?t=0.6&gui=0');
  await page.setInputFiles('input[type=file]', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await waitState(page, 'error');
  await expect(page.locator('#error')).toContainText('unsupported file type');
  await page.evaluate(() => window.skinlab.set({ model: 'models/none-such.m3d' }));
  await waitState(page, 'error');
  // A static server answers 404; Vite's preview server answers with its index page: both are named.
  await expect(page.locator('#error')).toContainText(/404|HTML page/);
  expect((await page.evaluate(() => window.skinlab.info())).model).toBe('default');
  expect(con.errors.filter((e) => !/Failed to load resource/.test(e)).length).toBe(2);
});

test('a bad query value shows an error and the page still draws the model', async ({ page }) => {
  const con = watchConsole(page);
  await page.goto('./?technique=bogus&t=0.2&gui=0');
  await waitState(page, 'error');
  await expect(page.locator('#error')).toContainText('technique=bogus');
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info())).model).toBe('default');
  await page.waitForTimeout(300);
  expect(await coverage(page)).toBeGreaterThan(0.04);
  expect(con.errors.length).toBe(1);
});

test('views and overlays: wireframe and skeleton draw differently from shaded', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?t=0.6&gui=0');
  const shaded = await canvasShot(page);
  await page.evaluate(() => window.skinlab.set({ view: 'wireframe' }));
  const wire = await canvasShot(page);
  await page.evaluate(() => window.skinlab.set({ view: 'skeleton' }));
  const skel = await canvasShot(page);
  expect(pixelDifference(shaded, wire)).toBeGreaterThan(0.01);
  expect(pixelDifference(shaded, skel)).toBeGreaterThan(0.01);
  expect((await page.evaluate(() => window.skinlab.info())).view).toBe('skeleton');
  expect(con.errors).toEqual([]);
});

/** A one-quad static .m3d facing the default camera, textured with `map`. */
function quadM3d(map: string): string {
  const v = (x: number, y: number, u: number, w: number): string =>
    `Position: ${x} ${y} 0\nTangent: 1 0 0 1\nNormal: 0 0 -1\nTex-Coords: ${u} ${w}\n\n`;
  return `***************m3d-File-Header***************
#Materials 1
#Vertices 4
#Triangles 2
#Bones 0
#AnimationClips 0

***************Materials*********************
Name: painted
Diffuse: 1 1 1
Fresnel0: 0.02 0.02 0.02
Roughness: 0.9
AlphaClip: 0
MaterialTypeName: Static
DiffuseMap: ${map}

***************SubsetTable*******************
SubsetID: 0 VertexStart: 0 VertexCount: 4 FaceStart: 0 FaceCount: 2

***************Vertices**********************
${v(-1, -1, 0, 1)}${v(-1, 1, 0, 0)}${v(1, 1, 1, 0)}${v(1, -1, 1, 1)}***************Triangles*********************
0 1 2
0 2 3
`;
}

test('a dropped model finds its dropped texture by name, whatever the case', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?gui=0&grid=0&camera=front');
  const png = new PNG({ width: 8, height: 8 });
  for (let i = 0; i < 64; i++) png.data.set([230, 40, 30, 255], i * 4);
  const texture = PNG.sync.write(png).toString('base64');
  await page.evaluate(
    async ([m3d, tex]) => {
      const bin = atob(tex);
      const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([m3d], 'quad.m3d'));
      dt.items.add(new File([bytes], 'PAINT.PNG', { type: 'image/png' }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    [quadM3d('textures\\paint.png'), texture] as const,
  );
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info())).model).toBe('quad.m3d');
  await waitState(page);
  expect((await page.evaluate(() => window.skinlab.info())).warnings).toEqual([]);
  const shot = PNG.sync.read(await canvasShot(page));
  const i = (300 * shot.width + 400) * 4;
  const [r, g, b] = [shot.data[i]!, shot.data[i + 1]!, shot.data[i + 2]!];
  expect(r, `centre pixel ${r},${g},${b}`).toBeGreaterThan(g * 2);
  expect(r).toBeGreaterThan(b * 2);
  expect(con.errors).toEqual([]);
});

test('a first load that fails leaves a usable page: the error, a hint, and the panel to pick a model', async ({ page }) => {
  const con = watchConsole(page);
  await page.goto('./?model=missing/nothing.m3d');
  await waitState(page, 'error');
  await expect(page.locator('#error')).toContainText('nothing.m3d');
  await expect(page.locator('.empty-hint')).toBeVisible();
  const shot = PNG.sync.read(await page.locator('#view').screenshot());
  expect([shot.data[0], shot.data[1], shot.data[2]]).toEqual([27, 29, 34]); // the background, not a blank canvas
  await page.locator('.lil-controller', { hasText: 'model' }).locator('select').first().selectOption({ label: 'Walker (generated)' });
  await waitState(page);
  await expect(page.locator('.empty-hint')).toBeHidden();
  expect((await page.evaluate(() => window.skinlab.info())).model).toBe('default');
  expect(con.errors.filter((e) => !/Failed to load resource/.test(e))).toHaveLength(1);
});

test('influences=1 (rigid) draws a different skin from 4 influences, and back again', async ({ page }) => {
  const con = watchConsole(page);
  // The run bends knees and elbows most: rigid skinning creases them.
  await openApp(page, '?clip=run&t=0.2&gui=0&camera=25,5,1.6');
  const four = await canvasShot(page);
  await page.evaluate(() => window.skinlab.set({ influences: 1 }));
  expect((await page.evaluate(() => window.skinlab.info())).influences).toBe(1);
  const one = await canvasShot(page);
  const changed = pixelDifference(four, one, 8);
  expect(changed).toBeGreaterThan(0.004);
  expect(changed).toBeLessThan(0.1); // the same figure, creased at the joints
  await page.evaluate(() => window.skinlab.set({ influences: 4 }));
  expect(pixelDifference(four, await canvasShot(page))).toBe(0);
  expect(con.errors).toEqual([]);
});

test('the wheel stops near the model and far from it, and panning still moves the view there', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 240 });
  const con = watchConsole(page);
  await openApp(page, '?t=0.6&gui=0');
  const camera = (): Promise<{ distance: number; target?: number[] }> => page.evaluate(() => window.skinlab.info().camera as { distance: number; target?: number[] });
  const framed = (await camera()).distance;
  // Wheel notches of 120 dispatched on the canvas in one go (the page's own wheel listener; one round trip).
  const wheel = (notches: number): Promise<void> =>
    page.evaluate(async (n) => {
      const canvas = document.getElementById('view')!;
      for (let k = 0; k < Math.abs(n); k++) canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: Math.sign(n) * 120, clientX: 160, clientY: 120, bubbles: true, cancelable: true }));
      await window.skinlab.set({});
    }, notches);
  await wheel(-40);
  const near = (await camera()).distance;
  await wheel(80);
  const far = await camera();
  console.log(`[app] zoom range against the framed distance: nearest ${(near / framed).toFixed(4)}, farthest ${(far.distance / framed).toFixed(1)}`);
  // 0.02 to 60 model radii; framed, the camera stands 2–4 radii away. Unclamped: 40 wheel steps in would be
  // 0.0007 of the framed distance, 80 out 1.8 M times it.
  expect(near / framed).toBeGreaterThan(0.003);
  expect(near / framed).toBeLessThan(0.02);
  expect(far.distance / framed).toBeGreaterThan(10);
  expect(far.distance / framed).toBeLessThan(40);
  // A right-drag pans: the target moves, and the model (a dot this far out) moves with it.
  const before = await canvasShot(page);
  await page.mouse.move(160, 120);
  await page.mouse.down({ button: 'right' });
  await page.mouse.move(60, 120, { steps: 4 });
  await page.mouse.up({ button: 'right' });
  await page.evaluate(() => window.skinlab.set({}));
  const panned = await camera();
  expect(panned.target).toBeDefined();
  expect(pixelDifference(before, await canvasShot(page))).toBeGreaterThan(0);
  expect(con.errors).toEqual([]);
});

test('dragging orbits the camera, the wheel zooms, and double-click frames the model again', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?t=0.6&gui=0');
  const framed = await canvasShot(page);
  await page.mouse.move(300, 300);
  await page.mouse.down();
  await page.mouse.move(420, 280, { steps: 5 });
  await page.mouse.up();
  await page.evaluate(() => window.skinlab.set({}));
  const orbited = await canvasShot(page);
  expect(pixelDifference(framed, orbited)).toBeGreaterThan(0.01);
  const before = (await silhouette(page)).height;
  await page.mouse.move(400, 300);
  await page.mouse.wheel(0, -400);
  await page.evaluate(() => window.skinlab.set({}));
  expect((await silhouette(page)).height).toBeGreaterThan(before * 1.2);
  await page.mouse.dblclick(400, 300);
  await page.evaluate(() => window.skinlab.set({}));
  expect(pixelDifference(framed, await canvasShot(page))).toBe(0);
  expect(con.errors).toEqual([]);
});
