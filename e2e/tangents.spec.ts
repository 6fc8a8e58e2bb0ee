import { Document, WebIO } from '@gltf-transform/core';
import { expect, test } from '@playwright/test';
import { encodePng } from '../src/loaders/textures/png-encode.ts';
import { openApp, waitState, watchConsole } from './helpers.ts';

/**
 * MikkTSpace in the page: a normal-mapped strip without TANGENT, made here with gltf-transform, whose u runs
 * 0 → 1 → 0 across its three columns (mirrored UVs), loads through the parse worker, which fetches the
 * mikktspace WebAssembly under the page's CSP: the mesh gets tangents (`info().tangentsGenerated`), the middle
 * column's 2 vertices are split (6 → 8 vertices), no warning and no console error; and the same on the page's
 * thread when the worker cannot start.
 */

async function mirroredStrip(): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const acc = (type: 'VEC2' | 'VEC3', a: number[]) => doc.createAccessor().setType(type).setArray(new Float32Array(a)).setBuffer(buffer);
  const tex = doc.createTexture('n').setImage(encodePng(new Uint8Array([128, 128, 255, 255]), 1, 1)).setMimeType('image/png');
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', acc('VEC3', [-1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 1, 0, 0, 1, 0, 1, 1, 0]))
    .setAttribute('NORMAL', acc('VEC3', Array.from({ length: 6 }, () => [0, 0, 1]).flat()))
    .setAttribute('TEXCOORD_0', acc('VEC2', [0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0]))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array([0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4])).setBuffer(buffer))
    .setMaterial(doc.createMaterial('bumpy').setNormalTexture(tex));
  doc.createScene().addChild(doc.createNode('strip').setMesh(doc.createMesh('strip').addPrimitive(prim)));
  return new WebIO().writeBinary(doc);
}

test('a normal-mapped glTF without tangents gets MikkTSpace tangents in the parse worker and on the page', async ({ page }) => {
  await page.setViewportSize({ width: 160, height: 120 });
  const con = watchConsole(page);
  const glb = await mirroredStrip();
  await page.route('**/fixtures-made/strip.glb', (route) => route.fulfill({ body: Buffer.from(glb), contentType: 'application/octet-stream' }));
  await openApp(page, '?gui=0&grid=0&model=fixtures-made/strip.glb');
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.warnings).toEqual([]);
  expect(info.tangentsGenerated).toBe(1);
  expect(info.vertices).toBe(8);
  expect((info.parse as { where: string }).where).toBe('worker');
  // No worker: MikkTSpace's WebAssembly compiles on the page, under the same policy.
  await page.route('**/parse-worker*', (route) => route.abort());
  await page.evaluate(() => window.skinlab.set({ model: 'default' }));
  await page.evaluate(() => window.skinlab.set({ model: 'fixtures-made/strip.glb' }));
  expect(await waitState(page, 'ready|error')).toBe('ready');
  const main = await page.evaluate(() => window.skinlab.info());
  expect((main.parse as { where: string }).where).toBe('main');
  expect([main.tangentsGenerated, main.vertices, main.warnings]).toEqual([1, 8, []]);
  expect(con.errors).toEqual([]);
});
