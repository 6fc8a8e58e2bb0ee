import { expect, test, type Page } from '@playwright/test';
import { openApp, watchConsole } from './helpers.ts';

/**
 * The ddm technique (direct delta mush, a transform-feedback pass every draw reads): on tiny, the Walker, Dawn low
 * with five morph weights (the pass morphs first: slots path) and the glTF Fox, the feedback read back
 * (window.skinlab.skinCheck('ddm')) is what the CPU runtime (src/deform/ddm-runtime.ts) computes from the same
 * pose: positions within 1e-4 of the model size, normals and tangents within a few milliradians, no console error.
 * Each check also asserts the pose moves the model, so a bind-pose readback would fail.
 */

const FIVE = 'happy:0.8,jaw_open:0.7,blink:1,brow_up_left:0.6,smirk:0.5';
/** Normal and tangent angle limit (rad): float rounding of the GPU's polar decomposition, far below a pose's turn. */
const MAX_ANGLE = 5e-3;

async function expectDdmLikeCpu(page: Page, label: string): Promise<string> {
  const r = await page.evaluate(() => window.skinlab.skinCheck('ddm'));
  const vertices = await page.evaluate(() => window.skinlab.info().vertices as number);
  const row = `${label}: ${r.vertices} vertices, position ${(r.maxError / r.modelSize).toExponential(2)} of size, normal ${r.maxNormalAngle.toExponential(2)} rad (${((100 * r.normalsTurned) / r.vertices).toFixed(0)} % turned), tangent ${r.maxTangentAngle.toExponential(2)} rad over ${r.tangentVertices}`;
  expect(r.technique).toBe('ddm');
  expect(r.reference).toBe('ddm');
  expect(r.vertices, `${label}: every vertex read back`).toBe(vertices);
  expect(r.normalsTurned / r.vertices, `${label}: the pose turns normals`).toBeGreaterThan(0.05);
  expect(r.maxError / r.modelSize, `${label}: positions`).toBeLessThanOrEqual(1e-4);
  expect(r.maxNormalAngle, `${label}: normals`).toBeLessThanOrEqual(MAX_ANGLE);
  expect(r.maxTangentAngle, `${label}: tangents`).toBeLessThanOrEqual(MAX_ANGLE);
  expect(r.tangentSignMismatches).toBe(0);
  return row;
}

test('ddm: the pass matches the CPU runtime on tiny, the Walker, Dawn low with morphs and the Fox', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 400, height: 300 });
  const con = watchConsole(page);
  const rows: string[] = [];
  await openApp(page, '?model=tiny&t=0.5&gui=0&technique=ddm');
  expect((await page.evaluate(() => window.skinlab.info())).technique).toBe('ddm');
  rows.push(await expectDdmLikeCpu(page, 'tiny'));
  await openApp(page, '?model=default&clip=walk&t=0.3&gui=0&technique=ddm');
  rows.push(await expectDdmLikeCpu(page, 'walker'));
  await openApp(page, `?model=dawn&detail=low&t=0.3&gui=0&morphTrack=0&morph=${FIVE}&morphs=slots&technique=ddm`);
  rows.push(await expectDdmLikeCpu(page, 'dawn low, slots'));
  await page.evaluate(() => window.skinlab.set({ morphs: 'cpu' }));
  rows.push(await expectDdmLikeCpu(page, 'dawn low, cpu'));
  await openApp(page, '?model=fox&t=0.4&gui=0&technique=ddm');
  rows.push(await expectDdmLikeCpu(page, 'fox'));
  console.log(`[ddm] feedback vs CPU\n${rows.join('\n')}`);
  expect(con.errors).toEqual([]);
});
