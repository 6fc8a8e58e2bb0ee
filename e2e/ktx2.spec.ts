import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { openApp, watchConsole } from './helpers.ts';
import { ktx2Quad } from '../test/fixtures/ktx2/quad.ts';

/**
 * KHR_texture_basisu in the page: facecap.glb (../shared/corpus-materials: a KTX2/ETC1S face texture with
 * EXT_meshopt_compression, KHR_mesh_quantization and 52 morph targets) draws with its texture transcoded by the
 * Basis transcoder: no warning about KTX2 or a checker, and the face's pixels are skin greys, not the magenta /
 * dark-grey checker that stands in for a texture that could not be decoded. Without the shared corpus too: a quad
 * made here carrying test/fixtures/ktx2's UASTC image shows its red, green and blue quadrants, and the same
 * quad with the image cut short shows the checker and one warning naming the damage.
 */

const here = dirname(fileURLToPath(import.meta.url));
const DIR = process.env.CORPUS_MATERIALS_DIR ?? join(here, '..', '..', 'shared', 'corpus-materials');
const FACECAP = join(DIR, 'facecap.glb');
const HAVE = existsSync(FACECAP);
if (!HAVE) console.warn(`[skinlab e2e] SKIPPING the KTX2 test: no ${FACECAP} (set CORPUS_MATERIALS_DIR)`);

/**
 * Opens facecap with the compressed-texture extensions in `hide` answered null (as on a device without them),
 * and records the internal formats of compressed uploads; checks the warnings and the face's pixels.
 */
async function drawFacecap(page: Page, hide: string[]): Promise<number[]> {
  await page.setViewportSize({ width: 200, height: 160 });
  const con = watchConsole(page);
  await page.addInitScript((names: string[]) => {
    const proto = WebGL2RenderingContext.prototype;
    const get = proto.getExtension;
    const upload = proto.compressedTexImage2D;
    const seen: number[] = [];
    (window as unknown as { compressedFormats: number[] }).compressedFormats = seen;
    proto.getExtension = function (this: WebGL2RenderingContext, name: string) {
      return names.includes(name) ? null : (get as (this: WebGL2RenderingContext, n: string) => unknown).call(this, name);
    } as typeof proto.getExtension;
    proto.compressedTexImage2D = function (this: WebGL2RenderingContext, ...args: unknown[]) {
      if (!seen.includes(args[2] as number)) seen.push(args[2] as number);
      return (upload as (...a: unknown[]) => void).apply(this, args);
    } as typeof proto.compressedTexImage2D;
  }, hide);
  await page.route('**/corpus-materials/facecap.glb', (route) => route.fulfill({ body: readFileSync(FACECAP), contentType: 'application/octet-stream' }));
  await openApp(page, '?gui=0&grid=0&shadows=0&t=0&model=corpus-materials/facecap.glb');
  const info = await page.evaluate(() => window.skinlab.info());
  expect((info.warnings as string[]).filter((w) => /ktx2|basis|checker/i.test(w))).toEqual([]);
  const png = PNG.sync.read(await page.locator('#view').screenshot());
  let model = 0;
  let magenta = 0;
  let grey = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    if (Math.abs(r - 27) + Math.abs(g - 29) + Math.abs(b - 34) <= 30) continue; // background
    model++;
    if (r > 120 && b > 120 && g < 0.5 * Math.min(r, b)) magenta++;
    if (Math.max(r, g, b) - Math.min(r, g, b) < 40 && r > 60) grey++;
  }
  expect(model, 'the face covers part of the canvas').toBeGreaterThan(0.05 * png.width * png.height);
  expect(magenta, 'checker-magenta pixels').toBeLessThan(0.01 * model);
  expect(grey, 'lit skin-grey pixels').toBeGreaterThan(0.5 * model);
  expect(con.errors).toEqual([]);
  return page.evaluate(() => (window as unknown as { compressedFormats: number[] }).compressedFormats);
}

test.describe('KTX2 textures in the page', () => {
  test.skip(!HAVE, `no ${FACECAP}`);

  test('facecap.glb: its KTX2 texture is transcoded and drawn, not the checker; no KTX2 warning', async ({ page }) => {
    const formats = await drawFacecap(page, []);
    expect(formats.length, 'one compressed format uploaded (SwiftShader has ETC2, BC7, S3TC and ASTC)').toBe(1);
  });

  test('facecap.glb on a device with BC7 but no ETC2 or ASTC (desktop GPUs): uploaded as BC7', async ({ page }) => {
    expect(await drawFacecap(page, ['WEBGL_compressed_texture_etc', 'WEBGL_compressed_texture_astc'])).toEqual([0x8e8c]);
  });

  test('facecap.glb on a device without compressed formats: RGBA8', async ({ page }) => {
    const all = ['WEBGL_compressed_texture_etc', 'WEBGL_compressed_texture_astc', 'EXT_texture_compression_bptc', 'WEBGL_compressed_texture_s3tc'];
    expect(await drawFacecap(page, all)).toEqual([]);
  });
});

/** Pixels of the canvas whose red, green or blue clearly dominates, and checker-magenta ones. */
async function hues(page: Page): Promise<{ red: number; green: number; blue: number; magenta: number }> {
  const png = PNG.sync.read(await page.locator('#view').screenshot());
  const out = { red: 0, green: 0, blue: 0, magenta: 0 };
  for (let i = 0; i < png.data.length; i += 4) {
    const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    if (r > 180 && b > 180 && g < 60) out.magenta++; // the checker's (255, 0, 255), lit
    else if (r > g + 50 && r > b + 50) out.red++;
    else if (g > r + 50 && g > b + 50) out.green++;
    else if (b > r + 50 && b > g + 50) out.blue++;
  }
  return out;
}

test('a KTX2 fixture on a quad shows its quadrants; the same image cut short shows the checker with a warning', async ({ page }) => {
  await page.setViewportSize({ width: 160, height: 160 });
  const con = watchConsole(page);
  const ktx2 = new Uint8Array(readFileSync(join(here, '..', 'test', 'fixtures', 'ktx2', 'quadrants-uastc.ktx2')));
  const good = await ktx2Quad(ktx2);
  const bad = await ktx2Quad(ktx2.slice(0, 200));
  await page.route('**/made/*.glb', (route) => route.fulfill({ body: Buffer.from(route.request().url().endsWith('good.glb') ? good : bad), contentType: 'application/octet-stream' }));
  // The studio shading: the texture's colours as they are (the quad's glTF material is metallic by default, which
  // the pbr shading draws as a tinted mirror).
  await openApp(page, '?gui=0&grid=0&shadows=0&shading=studio&model=made/good.glb');
  expect((await page.evaluate(() => window.skinlab.info())).warnings).toEqual([]);
  const shown = await hues(page);
  expect(shown.red, 'red quadrant').toBeGreaterThan(100);
  expect(shown.green, 'green quadrant').toBeGreaterThan(100);
  expect(shown.blue, 'blue quadrant').toBeGreaterThan(100);
  expect(shown.magenta).toBe(0);
  await page.evaluate(() => void window.skinlab.set({ model: 'made/bad.glb' }));
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info())).warnings as string[], { timeout: 30_000 }).toEqual([
    expect.stringMatching(/^texture '[^']+\.ktx2' is unusable: corrupt KTX2: the container cannot be read \(.*\); showing a checker$/),
  ]);
  expect((await hues(page)).magenta, 'the checker').toBeGreaterThan(100);
  expect(con.errors).toEqual([]);
});
