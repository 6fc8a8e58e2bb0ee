import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { canvasShot, coverage, openApp, pixelDifference, waitState, watchConsole } from './helpers.ts';

/**
 * glTF in the page: a .gltf whose buffers are separate files loads through the `model` URL (the page fetches the
 * buffers beside it and hands them to the parse worker); one whose buffer is missing gives one message naming
 * it while the previous model keeps running; Export .glb writes the default model as a binary glTF; a single-sided
 * material is culled from behind under every technique; Draco's WebAssembly decoder runs under the page's policy.
 *
 * The fixtures (e2e/fixtures/gltf, Khronos's SimpleSkin, CC0: see NOTICE) are served at /e2e-fixtures/ by
 * the test itself, so the built site does not ship them.
 */

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(here, 'fixtures');
/** The shared glTF corpus (../shared/corpus-gltf), for files the project does not ship: tests that need it skip without it. */
const CORPUS_GLTF = process.env.CORPUS_GLTF_DIR ?? join(here, '..', '..', 'shared', 'corpus-gltf');
const HAVE_CORPUS_GLTF = existsSync(join(CORPUS_GLTF, 'MANIFEST.tsv'));
if (!HAVE_CORPUS_GLTF) console.warn(`[skinlab e2e] SKIPPING the Draco test: no glTF corpus at ${CORPUS_GLTF} (set CORPUS_GLTF_DIR)`);

async function serveFixtures(page: Page, prefix = 'e2e-fixtures', root = FIXTURES): Promise<string[]> {
  const requested: string[] = [];
  await page.route(`**/${prefix}/**`, async (route) => {
    const name = decodeURIComponent(new URL(route.request().url()).pathname.split(`/${prefix}/`)[1] ?? '');
    requested.push(name);
    const path = join(root, name);
    if (!name.includes('..') && existsSync(path)) await route.fulfill({ body: readFileSync(path), contentType: 'application/octet-stream' });
    else await route.fulfill({ status: 404, body: 'not found', contentType: 'text/plain' });
  });
  return requested;
}

test('a .gltf with external .bin buffers loads from the model URL: format gltf, drawn, no console error', async ({ page }) => {
  const con = watchConsole(page);
  const requested = await serveFixtures(page);
  await openApp(page, '?model=e2e-fixtures/gltf/SimpleSkin/SimpleSkin.gltf&t=0.5&gui=0');
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.format).toBe('gltf');
  expect(info.bones).toBe(2);
  expect(info.clips as string[]).toHaveLength(1);
  const parse = info.parse as { where: string; resources: number; bytes: number };
  expect(parse.where).toBe('worker');
  expect(parse.resources).toBe(4);
  expect(parse.bytes).toBe(2350 + 168 + 320 + 128 + 240);
  expect(requested.filter((n) => n.endsWith('.bin')).sort()).toEqual(
    ['inverseBindMatrices.bin', 'skinAnimation.bin', 'skinGeometry.bin', 'skinningData.bin'].map((f) => `gltf/SimpleSkin/${f}`),
  );
  expect(await coverage(page), 'the strip is drawn').toBeGreaterThan(0.005);
  expect(con.errors).toEqual([]);
});

test('a .gltf whose .bin is missing: one message naming the buffer, the previous model keeps running', async ({ page }) => {
  const con = watchConsole(page);
  await serveFixtures(page);
  await openApp(page, '?t=0.5&gui=0');
  const drawn = await coverage(page);
  await page.evaluate(() => void window.skinlab.set({ model: 'e2e-fixtures/gltf/SimpleSkin-missing-bin/SimpleSkin.gltf' }));
  expect(await waitState(page, 'error')).toBe('error');
  const message = (await page.locator('#error').textContent()) ?? '';
  expect(message).toMatch(/^SimpleSkin\.gltf: /);
  expect(message).toContain('skinGeometry.bin');
  expect(message).toMatch(/\/buffers\/0/);
  // Besides the message, only the browser's own notes of the 404s (each buffer, in each spelling tried).
  expect(con.errors.filter((e) => !e.startsWith('Failed to load resource: the server responded with a status of 404'))).toEqual([message]);
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.model).toBe('default');
  expect(info.format).toBe('m3d');
  const frames = await page.evaluate(() => window.skinlab.frames());
  await page.keyboard.press('Escape'); // the banner off the canvas, for the coverage measure
  expect(await coverage(page), 'the Walker is still drawn').toBeCloseTo(drawn, 2);
  expect(await page.evaluate(() => window.skinlab.frames()), 'and the page still draws').toBeGreaterThan(frames);
});

test('Export .glb: skinlab.exportGlb() on the default model returns a non-empty .glb, no error', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?t=0.5&gui=0');
  const out = await page.evaluate(() => window.skinlab.exportGlb());
  // The Walker: 11k vertices with normals, uvs, joints and weights, 22k triangles, 4 clips on 43 bones.
  expect(out.bytes).toBeGreaterThan(500_000);
  expect(Array.isArray(out.warnings)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.dataset.state)).toBe('ready');
  expect(con.errors).toEqual([]);
});

test('a single-sided glTF material culls back faces under every technique, and the techniques agree with software', async ({ page }) => {
  const con = watchConsole(page);
  await serveFixtures(page);
  // SimpleSkin's strip uses the default material (single-sided) and faces +Z: seen from the front, then from behind.
  await openApp(page, '?model=e2e-fixtures/gltf/SimpleSkin/SimpleSkin.gltf&t=0.5&gui=0&grid=0&camera=front&technique=software');
  const front = await coverage(page);
  expect(front, 'the strip is drawn from the front').toBeGreaterThan(0.01);
  const reference = await page.locator('#view').screenshot();
  for (const id of ['ff-nonindexed', 'ff-indexed', 'vs-asm', 'vs-hlsl', 'accumulated', 'dual-quat', 'texture', 'stream-out']) {
    await page.evaluate((id) => window.skinlab.set({ technique: id }), id);
    const diff = pixelDifference(reference, await page.locator('#view').screenshot());
    // Dual quaternions bend the strip's joint a little rounder than linear blending (measured 1.2 %): the same figure.
    expect(diff, `${id} against software`).toBeLessThanOrEqual(id === 'dual-quat' ? 0.03 : 0.005);
  }
  for (const id of ['software', 'vs-hlsl', 'texture', 'stream-out']) {
    await page.evaluate((id) => window.skinlab.set({ technique: id, camera: 'back' }), id);
    expect(await coverage(page), `${id}: nothing from behind`).toBeLessThan(front / 50);
  }
  expect(con.errors).toEqual([]);
});

test('a Draco-compressed .gltf decodes under the page\'s Content-Security-Policy, in the worker and on the page', async ({ page }) => {
  test.skip(!HAVE_CORPUS_GLTF, `no glTF corpus at ${CORPUS_GLTF}`);
  const con = watchConsole(page);
  await serveFixtures(page, 'corpus-gltf', CORPUS_GLTF);
  await openApp(page, '?model=corpus-gltf/khronos/CesiumMan-Draco/CesiumMan.gltf&t=0.5&gui=0');
  let info = await page.evaluate(() => window.skinlab.info());
  expect(info.triangles).toBe(4672);
  expect((info.parse as { where: string; resources: number }).where).toBe('worker');
  expect((info.parse as { resources: number }).resources, 'its .bin and its .jpg texture').toBe(2);
  expect(info.images, 'the texture read with the model').toBe(1);
  expect(info.warnings).toEqual([]);
  // No worker: the decoder's WebAssembly compiles on the page, under the page's policy ('wasm-unsafe-eval').
  await page.route('**/parse-worker*', (route) => route.abort());
  await page.evaluate(() => window.skinlab.set({ model: 'default' }));
  await page.evaluate(() => window.skinlab.set({ model: 'corpus-gltf/khronos/CesiumMan-Draco/CesiumMan.gltf' }));
  expect(await waitState(page, 'ready|error')).toBe('ready');
  info = await page.evaluate(() => window.skinlab.info());
  expect((info.parse as { where: string }).where).toBe('main');
  expect(info.triangles).toBe(4672);
  expect(await coverage(page)).toBeGreaterThan(0.01);
  expect(con.errors).toEqual([]);
});

test("a glTF's own texture is decoded by the parse worker, for the first model and a switch, into the picture the page's own decode gives", async ({ page, context }) => {
  const con = watchConsole(page);
  const images = (): Promise<{ where: string; images: number }> => page.evaluate(() => window.skinlab.info().parse as { where: string; images: number });
  await page.setViewportSize({ width: 320, height: 240 });
  // The Fox carries its texture (a PNG) in the .glb: decoded in the worker that read the page's first model.
  await openApp(page, '?model=fox&t=0.4&gui=0');
  expect(await images()).toEqual(expect.objectContaining({ where: 'worker', images: 1 }));
  const first = await canvasShot(page);
  // A switch away and back: a new worker parses it and decodes the texture again.
  await page.evaluate(() => window.skinlab.set({ model: 'default' }));
  expect((await images()).images).toBe(0);
  await page.evaluate(() => window.skinlab.set({ model: 'fox', t: 0.4 }));
  expect(await images()).toEqual(expect.objectContaining({ where: 'worker', images: 1 }));
  expect(pixelDifference(await canvasShot(page), first, 0), 'the switch draws the same picture').toBe(0);
  // Where no worker can start, the page parses and decodes it itself: the same pixels.
  const own = await context.newPage();
  await own.setViewportSize({ width: 320, height: 240 });
  await own.route('**/parse-worker*', (route) => route.abort());
  await openApp(own, '?model=fox&t=0.4&gui=0');
  expect(await own.evaluate(() => window.skinlab.info().parse)).toEqual(expect.objectContaining({ where: 'main', images: 0 }));
  expect(pixelDifference(await canvasShot(own), first, 0), "the page's own decode draws the same picture").toBe(0);
  expect(con.errors).toEqual([]);
});
