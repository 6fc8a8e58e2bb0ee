import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { CORPUS_DIR, HAVE_CORPUS, canvasShot, coverage, openApp, pixelDifference, serveCorpus, silhouette, waitState, watchConsole } from './helpers.ts';

/**
 * DirectX .x models as a user meets them: the SkinnedMesh sample's Tiny, the shipped demo models in each
 * encoding (text, binary, MSZIP-compressed binary) with their BMP/JPG/DDS textures, files dropped with
 * their textures, and a malformed file that must fail clearly while the previous model keeps running.
 */

/**
 * Console errors other than the browser's own network log for textures the corpus lacks (the loader asks
 * for each name as written, lower-case and upper-case before it warns and draws a checker).
 */
const appErrors = (con: { errors: string[] }): string[] =>
  con.errors.filter((e) => !/Failed to load resource: .*404/.test(e));

const textureWarnings = (warnings: unknown): string[] => (warnings as string[]).filter((w) => /texture/i.test(w));

/** Standard deviation of the green channel over the model's pixels: high for a textured surface. */
async function surfaceDetail(page: Page): Promise<number> {
  await page.evaluate(() => window.skinlab.set({ grid: 0 }));
  const png = PNG.sync.read(await page.locator('#view').screenshot());
  await page.evaluate(() => window.skinlab.set({ grid: 1 }));
  let n = 0, sum = 0, sq = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const r = png.data[i]!, g = png.data[i + 1]!, b = png.data[i + 2]!;
    if (Math.abs(r - 27) + Math.abs(g - 29) + Math.abs(b - 34) <= 30) continue;
    n++;
    sum += g;
    sq += g * g;
  }
  const mean = sum / Math.max(n, 1);
  return Math.sqrt(Math.max(sq / Math.max(n, 1) - mean * mean, 0));
}

async function dropFiles(page: Page, files: { name: string; path: string }[]): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, data: readFileSync(f.path).toString('base64') }));
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bin = atob(f.data);
      dt.items.add(new File([Uint8Array.from(bin, (c) => c.charCodeAt(0))], f.name));
    }
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, payload);
}

test('tiny.x mid-stride: the SkinnedMesh sample character, textured and lit', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?model=tiny&t=0.5&gui=0');
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info).toMatchObject({ model: 'tiny', bones: 35 });
  expect((info.clips as string[]).length).toBe(1);
  expect(textureWarnings(info.warnings), 'Tiny_skin.dds decodes').toEqual([]);
  const box = await silhouette(page);
  expect(box.height, 'standing upright').toBeGreaterThan(box.width * 1.2);
  expect(await surfaceDetail(page), 'the skin texture shows').toBeGreaterThan(12);
  await expect(page.locator('#view')).toHaveScreenshot('tiny-0.5.png');
  // Walking: the pose changes with time.
  const mid = await canvasShot(page);
  await page.evaluate(() => window.skinlab.set({ t: 0.1 }));
  expect(pixelDifference(mid, await canvasShot(page))).toBeGreaterThan(0.005);
  expect(con.errors).toEqual([]);
});

test('the shipped .x demos load in every encoding with their textures', async ({ page }) => {
  const con = watchConsole(page);
  // Binary .x with a JPG whose name the file mangled (C_/work/.../Zombie.jpg, shipped as ZOMBIE.JPG).
  await openApp(page, '?model=zombie&t=0.3&gui=0');
  let info = await page.evaluate(() => window.skinlab.info());
  expect(info.bones).toBe(14);
  expect(textureWarnings(info.warnings)).toEqual([]);
  expect(await coverage(page)).toBeGreaterThan(0.03);
  await expect(page.locator('#view')).toHaveScreenshot('zombie-0.3.png');
  // MSZIP-compressed binary, 6 meshes, DXT1 textures.
  await page.evaluate(() => window.skinlab.set({ model: 'dwarf' }));
  await waitState(page);
  info = await page.evaluate(() => window.skinlab.info());
  expect(info).toMatchObject({ model: 'dwarf', meshes: 6 });
  expect(textureWarnings(info.warnings)).toEqual([]);
  expect(await surfaceDetail(page)).toBeGreaterThan(12);
  await expect(page.locator('#view')).toHaveScreenshot('dwarf.png');
  // Text 0302 with 64-bit floats, 9 rigid meshes in a frame tree.
  await page.evaluate(() => window.skinlab.set({ model: 'heli' }));
  await waitState(page);
  expect((await page.evaluate(() => window.skinlab.info())).meshes).toBe(9);
  expect(await coverage(page)).toBeGreaterThan(0.03);
  await expect(page.locator('#view')).toHaveScreenshot('heli.png');
  // Three clips in one file.
  await page.evaluate(() => window.skinlab.set({ model: 'wuson', t: 0.4 }));
  await waitState(page);
  info = await page.evaluate(() => window.skinlab.info());
  expect(info.clips).toEqual(['Wuson_Run', 'Wuson_Walk', 'Wuson_Bind']);
  expect(info.clip).toBe('Wuson_Walk');
  expect(await coverage(page)).toBeGreaterThan(0.03);
  expect(con.errors).toEqual([]);
});

test('a .x dropped with its texture under another case finds it; a malformed one fails and keeps it', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?t=0.3');
  await page.evaluate(() => window.skinlab.set({ gui: 0 }));
  await dropFiles(page, [
    { name: 'dbpro_zombie.x', path: 'public/models/zombie/dbpro_zombie.x' },
    { name: 'zombie.jpg', path: 'public/models/zombie/ZOMBIE.JPG' },
  ]);
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info())).model, { timeout: 60_000 }).toBe('dbpro_zombie.x');
  await waitState(page);
  expect(textureWarnings((await page.evaluate(() => window.skinlab.info())).warnings)).toEqual([]);
  const before = await page.screenshot({ clip: { x: 0, y: 160, width: 800, height: 440 } });

  // A SkinWeights vertex index past the end of the mesh: named, not read.
  const broken = `xof 0303txt 0032
Frame Root { FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1;; }
  Mesh Tri { 3; 0;0;0;, 1;0;0;, 0;1;0;; 1; 3;0,1,2;;
    SkinWeights { "Root"; 2; 0, 7; 0.5, 0.5; 1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1;; }
  }
}
`;
  await page.setInputFiles('input[type=file]', { name: 'oob.x', mimeType: 'text/plain', buffer: Buffer.from(broken) });
  await waitState(page, 'error');
  const message = (await page.locator('#error').textContent()) ?? '';
  expect(message).toContain('oob.x');
  expect(message).toMatch(/Root/);
  expect(message).toMatch(/\b7\b/);
  expect(message).toMatch(/line \d+/);
  expect((await page.evaluate(() => window.skinlab.info())).model).toBe('dbpro_zombie.x');
  await page.waitForTimeout(200);
  const after = await page.screenshot({ clip: { x: 0, y: 160, width: 800, height: 440 } });
  expect(pixelDifference(before, after)).toBeLessThan(0.002);
  expect(con.errors).toHaveLength(1);
});

test.describe('corpus .x files', () => {
  test.skip(!HAVE_CORPUS, `no corpus at ${CORPUS_DIR}`);

  test('bat.x (MSZIP binary) flaps; its missing texture shows a checker and a warning', async ({ page }) => {
    const con = watchConsole(page);
    await serveCorpus(page);
    await openApp(page, '?model=corpus/bat.x&t=0&gui=0');
    const info = await page.evaluate(() => window.skinlab.info());
    expect(info.bones).toBe(34);
    expect(textureWarnings(info.warnings).join()).toMatch(/Bat_Albedo\.jpg/);
    // Wings spread flat and seen from the side of the floor: a thin shape, about 1.5 % of the view.
    expect(await coverage(page)).toBeGreaterThan(0.01);
    const a = await canvasShot(page);
    const duration = (await page.evaluate(() => window.skinlab.info().duration)) as number | undefined;
    await page.evaluate((t) => window.skinlab.set({ t }), (duration ?? 1) / 2);
    expect(pixelDifference(a, await canvasShot(page))).toBeGreaterThan(0.005);
    expect(appErrors(con)).toEqual([]);
  });

  test('mak_running.x: rigid meshes move with their animated frames', async ({ page }) => {
    const con = watchConsole(page);
    await serveCorpus(page);
    await openApp(page, '?model=corpus/mak_running.x&t=0&gui=0');
    const a = await canvasShot(page);
    // 23 ticks at D3DX's default 4800 ticks/s: the whole clip lasts 4.8 ms.
    await page.evaluate(() => window.skinlab.set({ t: 0.0024 }));
    expect(pixelDifference(a, await canvasShot(page))).toBeGreaterThan(0.003);
    expect(appErrors(con)).toEqual([]);
  });

  test('malformed_skinweights_oob.x and empty.x fail with a clear error', async ({ page }) => {
    const con = watchConsole(page);
    await serveCorpus(page);
    await openApp(page, '?model=tiny&t=0.5&gui=0');
    for (const name of ['malformed_skinweights_oob.x', 'empty.x']) {
      await page.evaluate((m) => window.skinlab.set({ model: `corpus/${m}` }), name);
      await waitState(page, 'error');
      await expect(page.locator('#error')).toContainText(name);
      expect((await page.evaluate(() => window.skinlab.info())).model).toBe('tiny');
    }
    await expect(page.locator('#error')).toContainText('empty');
    expect(con.errors).toHaveLength(2);
  });
});
