import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { openApp, waitState, watchConsole } from './helpers.ts';

/**
 * Every file of the shared glTF corpus (../shared/corpus-gltf, or CORPUS_GLTF_DIR) in the page, one after the
 * other in one small page: each sound file loads through the `model` URL (with its external buffers and images
 * fetched beside it, Draco decoded in the worker) with no console error, is drawn, and its skinned vertices read
 * back from the GPU match the CPU reference (whose poses test/loaders/gltf/oracle.test.ts holds against
 * three.js's GLTFLoader); each malformed file gives one message and the model before it keeps running.
 */

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS_GLTF = process.env.CORPUS_GLTF_DIR ?? join(here, '..', '..', 'shared', 'corpus-gltf');
const HAVE = existsSync(join(CORPUS_GLTF, 'ORACLE.json'));
if (!HAVE) console.warn(`[skinlab e2e] SKIPPING the glTF corpus tests: no corpus at ${CORPUS_GLTF} (set CORPUS_GLTF_DIR)`);

const MALFORMED = [
  'malformed/validator/glb/invalid_magic.glb',
  'malformed/validator/glb/truncated_chunk_data.glb',
  'malformed/validator/node/node_loop.gltf',
  'malformed/assimp/IndexOutOfRange/IndexOutOfRange.gltf',
  'malformed/assimp/IndexOutOfRange/AllIndicesOutOfRange.gltf',
];

async function serveCorpusGltf(page: Page): Promise<void> {
  await page.route('**/corpus-gltf/**', async (route) => {
    const name = decodeURIComponent(new URL(route.request().url()).pathname.split('/corpus-gltf/')[1] ?? '');
    const path = join(CORPUS_GLTF, name);
    if (!name.includes('..') && existsSync(path)) await route.fulfill({ body: readFileSync(path), contentType: 'application/octet-stream' });
    else await route.fulfill({ status: 404, body: 'not found', contentType: 'text/plain' });
  });
}

test.describe('glTF corpus in the page', () => {
  test.skip(!HAVE, `no glTF corpus at ${CORPUS_GLTF}`);

  test('every sound file loads, draws, and skins on the GPU as on the CPU; no console error', async ({ page }) => {
    test.setTimeout(180_000);
    const files = (JSON.parse(readFileSync(join(CORPUS_GLTF, 'ORACLE.json'), 'utf8')) as { files: { file: string }[] }).files.map((f) => f.file);
    expect(files.length).toBeGreaterThanOrEqual(10);
    await page.setViewportSize({ width: 200, height: 150 });
    const con = watchConsole(page);
    await serveCorpusGltf(page);
    await openApp(page, '?gui=0&grid=0&t=0.3');
    const rows: string[] = [];
    for (const file of files) {
      await page.evaluate((m) => void window.skinlab.set({ model: m }), `corpus-gltf/${file}`);
      expect(await waitState(page, 'ready|error'), `${file}: ${await page.locator('#error').textContent()}`).toBe('ready');
      const info = await page.evaluate(() => window.skinlab.info());
      expect(['gltf', 'glb'], file).toContain(info.format);
      expect(info.triangles as number, `${file}: triangles`).toBeGreaterThan(0);
      const check = await page.evaluate(() => window.skinlab.skinCheck('vs-hlsl'));
      const size = Math.max(check.modelSize, 1e-6);
      let row = `${file}: ${check.vertices} vertices, GPU vs CPU ${check.maxError.toExponential(2)} of ${check.modelSize.toPrecision(4)}`;
      expect(check.maxError, `${file}: vs-hlsl against the CPU reference`).toBeLessThanOrEqual(1e-4 * size);
      if ((info.morphTargets as string[]).length > 0) {
        const morph = await page.evaluate(() => window.skinlab.morphCheck('texture', 'vs-hlsl'));
        row += `, morphed ${morph.maxError.toExponential(2)}`;
        expect(morph.maxError, `${file}: morphed + skinned on the GPU against the CPU`).toBeLessThanOrEqual(1e-4 * size);
      }
      rows.push(row);
    }
    console.log(rows.join('\n'));
    expect(con.errors).toEqual([]);
  });

  test('every malformed file gives one message; the model before it keeps running', async ({ page }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: 200, height: 150 });
    await serveCorpusGltf(page);
    await openApp(page, '?gui=0&grid=0&t=0.3');
    for (const file of MALFORMED) {
      await page.evaluate((m) => void window.skinlab.set({ model: m }), `corpus-gltf/${file}`);
      expect(await waitState(page, 'error'), file).toBe('error');
      const message = (await page.locator('#error').textContent()) ?? '';
      expect(message, file).toContain(file.split('/').pop()!);
      const info = await page.evaluate(() => window.skinlab.info());
      expect(info.model, `${file}: the Walker is still the model`).toBe('default');
      const frames = await page.evaluate(() => window.skinlab.frames());
      await page.waitForFunction((f) => window.skinlab.frames() > f, frames);
    }
  });
});
