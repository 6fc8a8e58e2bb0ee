import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeIO } from '@gltf-transform/core';
import { expect, test, type Page } from '@playwright/test';
import { coverage, coverageOf, openApp, pixelDifference, watchConsole } from './helpers.ts';

/**
 * The pbr shading and the tangents view in the page, on small canvases:
 * - e2e/fixtures/pbr/fox-pbr.glb (scripts/make-pbr-fox.ts: the Fox with tangents, a bump normal map and an
 *   occlusion-roughness-metallic map; served by the test, not shipped) drawn pbr differs from studio, and its
 *   normal map visibly changes the picture (the same file without it, made here with gltf-transform); a visual
 *   baseline of the pbr picture;
 * - Michelle (../shared/corpus-materials, licence unknown: read from there, skipped without it) loads with no
 *   "not rendered" warning for its normal or metallic-roughness maps, and draws;
 * - view=tangents colours a model with tangents by direction (T/B/N segments over it), and one without in grey.
 */

const here = dirname(fileURLToPath(import.meta.url));
const FOX_PBR = join(here, 'fixtures', 'pbr', 'fox-pbr.glb');
const MATERIALS = process.env.CORPUS_MATERIALS_DIR ?? join(here, '..', '..', 'shared', 'corpus-materials');
const MICHELLE = join(MATERIALS, 'Michelle.glb');
const SIZE = { width: 240, height: 180 };
/** As e2e/visual.spec.ts: tight, for another CPU's rounding only. */
const TOLERANCE = { maxDiffPixelRatio: 0.002, threshold: 0.05 };

/** Serves `files` (name → bytes) at /pbr-fixtures/NAME. */
async function serve(page: Page, files: Record<string, () => Buffer | Uint8Array>): Promise<void> {
  await page.route('**/pbr-fixtures/**', async (route) => {
    const name = decodeURIComponent(new URL(route.request().url()).pathname.split('/pbr-fixtures/')[1] ?? '');
    const make = files[name];
    if (make) await route.fulfill({ body: Buffer.from(make()), contentType: 'application/octet-stream' });
    else await route.fulfill({ status: 404, body: 'not found', contentType: 'text/plain' });
  });
}

/** The fixture without its normal map. */
async function withoutNormalMap(): Promise<Uint8Array> {
  const io = new NodeIO();
  const doc = await io.readBinary(new Uint8Array(readFileSync(FOX_PBR)));
  for (const m of doc.getRoot().listMaterials()) m.setNormalTexture(null);
  return io.writeBinary(doc);
}

const shot = (page: Page): Promise<Buffer> => page.locator('#view').screenshot();

test('fox-pbr: pbr differs from studio, the normal map changes the picture, and the pbr picture matches its baseline', async ({ page }) => {
  const con = watchConsole(page);
  const flat = await withoutNormalMap();
  await serve(page, { 'fox-pbr.glb': () => readFileSync(FOX_PBR), 'fox-flat.glb': () => flat });
  await page.setViewportSize(SIZE);
  await openApp(page, '?model=pbr-fixtures/fox-pbr.glb&clip=Survey&t=0&gui=0&grid=0');
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.shading, 'glTF defaults to pbr').toBe('pbr');
  expect(info.shadingSetting).toBe('auto');
  expect((info.warnings as string[]).filter((w) => /not rendered|drawn without/.test(w))).toEqual([]);
  const pbr = await shot(page);
  expect(coverageOf(pbr)).toBeGreaterThan(0.05);
  expect(pbr).toMatchSnapshot('fox-pbr-survey-t0.png', TOLERANCE);

  await page.evaluate(() => window.skinlab.set({ shading: 'studio' }));
  expect(await page.evaluate(() => window.skinlab.info().shading)).toBe('studio');
  const studio = await shot(page);
  const studioDiff = pixelDifference(pbr, studio);
  expect(studioDiff, 'share of pixels pbr changes against studio').toBeGreaterThan(0.02);

  await page.evaluate(() => window.skinlab.set({ shading: 'pbr', model: 'pbr-fixtures/fox-flat.glb' }));
  await page.waitForFunction(() => window.skinlab.info().model === 'pbr-fixtures/fox-flat.glb' && document.documentElement.dataset.state === 'ready');
  const flatShot = await shot(page);
  expect(coverageOf(flatShot)).toBeGreaterThan(0.05);
  const normalDiff = pixelDifference(pbr, flatShot, 12);
  expect(normalDiff, 'share of pixels the normal map changes').toBeGreaterThan(0.01);
  console.log(`fox-pbr: pbr vs studio ${(studioDiff * 100).toFixed(1)} % of pixels, with vs without normal map ${(normalDiff * 100).toFixed(1)} %`);
  expect(con.errors).toEqual([]);
});

test('view=tangents: a mesh with tangents coloured by direction under several techniques, one without in grey', async ({ page }) => {
  const con = watchConsole(page);
  await serve(page, { 'fox-pbr.glb': () => readFileSync(FOX_PBR) });
  await page.setViewportSize(SIZE);
  await openApp(page, '?model=pbr-fixtures/fox-pbr.glb&clip=Survey&t=0&gui=0&grid=0&view=tangents');
  expect(await page.evaluate(() => window.skinlab.info().view)).toBe('tangents');
  expect(await coverage(page)).toBeGreaterThan(0.05);
  /** Share of model pixels whose channels spread by more than 40 (coloured, not grey). */
  const colourful = async (): Promise<number> => {
    const { PNG } = await import('pngjs');
    const png = PNG.sync.read(await shot(page));
    let model = 0;
    let coloured = 0;
    for (let i = 0; i < png.data.length; i += 4) {
      const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
      if (Math.abs(r - 27) + Math.abs(g - 29) + Math.abs(b - 34) <= 30) continue;
      model++;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 40) coloured++;
    }
    return model > 0 ? coloured / model : 0;
  };
  expect(await colourful(), 'tangent colours on the fixture').toBeGreaterThan(0.3);
  // Techniques whose frame comes from elsewhere draw it too: CPU-skinned attributes (software, NO_SKIN), a
  // transform-feedback pass (stream-out), dual quaternions.
  for (const technique of ['software', 'stream-out', 'dual-quat']) {
    await page.evaluate((t) => window.skinlab.set({ technique: t }), technique);
    expect(await colourful(), `tangent colours under ${technique}`).toBeGreaterThan(0.3);
  }
  expect(con.errors).toEqual([]);
  // The shipped Fox has no tangents: grey.
  await page.evaluate(() => window.skinlab.set({ model: 'fox' }));
  await page.waitForFunction(() => window.skinlab.info().model === 'fox' && document.documentElement.dataset.state === 'ready');
  expect(await coverage(page)).toBeGreaterThan(0.02);
  expect(await colourful(), 'no tangents: grey').toBeLessThan(0.05);
  expect(con.errors).toEqual([]);
});

test('Michelle (corpus-materials): no "not rendered" warning for its normal or metallic-roughness maps, tangents generated, drawn pbr', async ({ page }) => {
  test.skip(!existsSync(MICHELLE), `SKIPPED: no ${MICHELLE} (the materials corpus is not shipped; set CORPUS_MATERIALS_DIR)`);
  const con = watchConsole(page);
  await serve(page, { 'Michelle.glb': () => readFileSync(MICHELLE) });
  await page.setViewportSize(SIZE);
  await openApp(page, '?model=pbr-fixtures/Michelle.glb&t=0.5&gui=0&grid=0');
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.shading).toBe('pbr');
  // Its normal-mapped mesh carries no TANGENT: MikkTSpace's are generated, so the normal map is drawn.
  expect(info.tangentsGenerated).toBeGreaterThan(0);
  const warnings = info.warnings as string[];
  for (const w of warnings) {
    if (/not rendered/.test(w)) expect(w).not.toMatch(/normal|metallic|roughness/i);
  }
  expect(warnings.join('\n')).not.toMatch(/showing a checker|drawn without it/);
  expect(await coverage(page)).toBeGreaterThan(0.03);
  expect(con.errors).toEqual([]);
});
