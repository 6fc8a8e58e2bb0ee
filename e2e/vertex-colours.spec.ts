import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { colourGlb } from '../test/loaders/gltf/colour-fixture.ts';
import { openApp, watchConsole } from './helpers.ts';

/**
 * Vertex colours on the page: a glTF whose colour is only in COLOR_0 (a white material; test/loaders/gltf/
 * colour-fixture.ts, built in the test, served at /vcol-fixture/) draws its red left half and blue right half,
 * on Dawn's morph slots (the default path, which leaves no attribute location free), the texture path and the
 * CPU-skinning technique; three.js's Parrot (../shared/corpus-materials, not shipped) draws coloured, not white.
 */

const here = dirname(fileURLToPath(import.meta.url));
const MATERIALS = process.env.CORPUS_MATERIALS_DIR ?? join(here, '..', '..', 'shared', 'corpus-materials');
const PARROT = join(MATERIALS, 'Parrot.glb');
if (!existsSync(PARROT)) console.warn(`[skinlab e2e] SKIPPING the Parrot vertex-colour test: no ${PARROT} (set CORPUS_MATERIALS_DIR)`);

async function serve(page: Page, glb: Uint8Array): Promise<void> {
  await page.route('**/vcol-fixture/**', async (route) => {
    const name = new URL(route.request().url()).pathname.split('/vcol-fixture/')[1];
    if (name === 'square.glb') await route.fulfill({ body: Buffer.from(glb), contentType: 'model/gltf-binary' });
    else if (name === 'Parrot.glb' && existsSync(PARROT)) await route.fulfill({ body: readFileSync(PARROT), contentType: 'model/gltf-binary' });
    else await route.fulfill({ status: 404, body: 'not found' });
  });
}

/** The renderer's clear colour as 8-bit sRGB (e2e/helpers.ts). */
const BACKGROUND = [27, 29, 34];

/**
 * Pixels clearly red and clearly blue, their share of the canvas and mean x (0..1); and the share of the model's
 * pixels (those clearly unlike the background) that are saturated, of any hue.
 */
async function hues(page: Page): Promise<{ red: number; blue: number; redX: number; blueX: number; saturated: number }> {
  const png = PNG.sync.read(await page.locator('#view').screenshot());
  let red = 0, blue = 0, redX = 0, blueX = 0, saturated = 0, model = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      const r = png.data[i]!, g = png.data[i + 1]!, b = png.data[i + 2]!;
      if (Math.abs(r - BACKGROUND[0]!) + Math.abs(g - BACKGROUND[1]!) + Math.abs(b - BACKGROUND[2]!) > 30) model++;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) saturated++;
      if (r > 90 && r > 2 * g && r > 2 * b) {
        red++;
        redX += x / png.width;
      } else if (b > 90 && b > 2 * r && b > 1.5 * g) {
        blue++;
        blueX += x / png.width;
      }
    }
  }
  const n = png.width * png.height;
  return { red: red / n, blue: blue / n, redX: red ? redX / red : 0, blueX: blue ? blueX / blue : 0, saturated: model ? saturated / model : 0 };
}

test.use({ viewport: { width: 320, height: 240 } });

test('a COLOR_0-only square draws red on the left and blue on the right: morph slots, morph texture, software skinning', async ({ page }) => {
  const con = watchConsole(page);
  await serve(page, await colourGlb({ morph: true }));
  await openApp(page, '?model=vcol-fixture/square.glb&gui=0&grid=0&t=0');
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.vertexColours).toBe(1);
  expect(info.warnings).toEqual([]);
  const steps: Record<string, string>[] = [{}, { morphs: 'texture' }, { technique: 'software' }];
  for (const settings of steps) {
    await page.evaluate((s) => window.skinlab.set(s), settings);
    await expect.poll(async () => (await hues(page)).red, { message: JSON.stringify(settings) }).toBeGreaterThan(0.1);
    const h = await hues(page);
    expect(h.blue, `${JSON.stringify(settings)}: the right half is blue`).toBeGreaterThan(0.1);
    expect(h.redX, 'red left of blue').toBeLessThan(h.blueX - 0.2);
  }
  expect(con.errors).toEqual([]);
});

test('three.js Parrot (colour in COLOR_0 only) draws coloured, not white', async ({ page }) => {
  test.skip(!existsSync(PARROT), `no ${PARROT}`);
  const con = watchConsole(page);
  await serve(page, new Uint8Array(0));
  await openApp(page, '?model=vcol-fixture/Parrot.glb&gui=0&grid=0&t=0.3');
  expect(await page.evaluate(() => window.skinlab.info().vertexColours)).toBeGreaterThan(0);
  const h = await hues(page);
  // Drawn white, the Parrot has no saturated pixel at all; coloured, most of it is red, blue or yellow.
  expect(h.red, 'the red body').toBeGreaterThan(0.005);
  expect(h.saturated, 'share of the model coloured').toBeGreaterThan(0.3);
  expect(con.errors).toEqual([]);
});
