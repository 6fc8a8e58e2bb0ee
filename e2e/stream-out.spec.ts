import { expect, test, type Page } from '@playwright/test';
import { openApp, pixelDifference, settledStats, watchConsole } from './helpers.ts';

/**
 * The stream-out technique (transform feedback skins once per frame; every pass draws the result) and the
 * per-pass costs every technique reports: a shader technique skins each vertex once per pass that draws it
 * (the wireframe view adds a pass, and its skinnings), stream-out once per frame whatever the passes, and its
 * transform feedback writes 24 bytes per vertex (position, normal), 40 with tangents. Dawn with 5 morph weights
 * under stream-out matches software in pixels on every morph path (positions and tangents: morph.spec.ts).
 * On every model here (the Walker, tiny, Dawn with morphs) the feedback every pass draws is read back
 * (window.skinlab.skinCheck) and held against the CPU: positions, normals and, where the mesh has them, tangents.
 */

/** ≤ 5 targets: every morph path applies them all (as morph.spec.ts). */
const FIVE = 'happy:0.8,jaw_open:0.7,blink:1,brow_up_left:0.6,smirk:0.5';

/**
 * Largest angle (radians) a stream-out normal or tangent may turn from the CPU's: float rounding turns them
 * by well under 1e-3 rad (measured on SwiftShader: ≤ 3e-7); a normal or tangent left in the bind pose is off by the pose's
 * turn, and each check asserts the pose turns most normals (MIN_TURNED) so the comparison can fail.
 */
const MAX_ANGLE = 1e-3;
/** Least share of the vertices whose normal the pose turns by more than 0.05 rad (SkinCheck.normalsTurned; measured: Dawn 36 %, the Walker 84 %, tiny 100 %). */
const MIN_TURNED = 0.2;

/**
 * Reads back what stream-out's feedback holds at the current state (skinCheck) and asserts it is what the CPU
 * skins: every vertex, positions within 1e-4 of the model size, normals and tangents within MAX_ANGLE,
 * bitangent signs kept. `tangents`: whether the model's meshes carry tangents (all of its vertices then).
 */
async function expectFeedbackLikeCpu(page: Page, label: string, tangents: boolean): Promise<string> {
  const r = await page.evaluate(() => window.skinlab.skinCheck('stream-out'));
  const vertices = await page.evaluate(() => window.skinlab.info().vertices as number);
  const row =
    `${label}: ${r.vertices} vertices, position ${(r.maxError / r.modelSize).toExponential(2)} of size, normal ${r.maxNormalAngle.toExponential(2)} rad ` +
    `(the pose turns ${((100 * r.normalsTurned) / r.vertices).toFixed(0)} % of them by > 0.05 rad), tangent ${r.maxTangentAngle.toExponential(2)} rad over ${r.tangentVertices} vertices, ${r.tangentSignMismatches} sign mismatches`;
  expect(r.technique).toBe('stream-out');
  expect(r.vertices, `${label}: every vertex read back`).toBe(vertices);
  expect(r.normalsTurned / r.vertices, `${label}: share of normals the pose turns (a bind-pose normal would be off)`).toBeGreaterThan(MIN_TURNED);
  expect(r.maxError / r.modelSize, `${label}: positions`).toBeLessThanOrEqual(1e-4);
  expect(r.maxNormalAngle, `${label}: normals (rad)`).toBeLessThanOrEqual(MAX_ANGLE);
  expect(r.tangentVertices, `${label}: vertices with tangents`).toBe(tangents ? vertices : 0);
  expect(r.maxTangentAngle, `${label}: tangents (rad)`).toBeLessThanOrEqual(MAX_ANGLE);
  expect(r.tangentSignMismatches, `${label}: bitangent signs`).toBe(0);
  return row;
}

interface Costs {
  passes: number;
  skinned: number;
  feedback: number;
  vertices: number;
}

/** The figures of frames after a switch, once two stats windows have closed since (a view change shows at a window's close). */
async function costs(page: Page, set: Record<string, string | number>): Promise<Costs> {
  await page.evaluate((s) => window.skinlab.set(s), set);
  await settledStats(page);
  return page.evaluate(() => {
    const s = window.skinlab.stats();
    return { passes: s.passes, skinned: s.skinnedVerticesPerFrame, feedback: s.feedbackBytes, vertices: window.skinlab.info().vertices as number };
  });
}

test('per-pass costs: vs-hlsl skins every vertex in every pass, stream-out once per frame and says what its feedback wrote', async ({ page }) => {
  test.setTimeout(120_000);
  const con = watchConsole(page);
  await openApp(page, '?model=tiny&t=0.5&technique=vs-hlsl');
  const hlsl = await costs(page, { technique: 'vs-hlsl', view: 'shaded' });
  expect(hlsl.vertices).toBeGreaterThan(0);
  expect(hlsl.passes).toBeGreaterThanOrEqual(1);
  expect(hlsl.skinned).toBe(hlsl.passes * hlsl.vertices);
  expect(hlsl.feedback).toBe(0);
  const hlslWire = await costs(page, { view: 'wireframe' });
  expect(hlslWire.passes, 'the wireframe view draws the meshes once more').toBe(hlsl.passes + 1);
  expect(hlslWire.skinned).toBe(hlslWire.passes * hlsl.vertices);

  const so = await costs(page, { technique: 'stream-out', view: 'shaded' });
  console.log(`[stream-out] feedback vs CPU, ${await expectFeedbackLikeCpu(page, 'tiny t=0.5', false)}`);
  expect(so.passes).toBe(hlsl.passes);
  expect(so.skinned).toBe(so.vertices);
  const soWire = await costs(page, { view: 'wireframe' });
  expect(soWire.passes).toBe(hlslWire.passes);
  expect(soWire.skinned, 'skinned once whatever the passes').toBe(so.vertices);
  // tiny has no tangents: position and normal, 24 bytes per vertex.
  expect(soWire.feedback).toBe(24 * so.vertices);
  await expect(page.locator('#stats')).toContainText(`skinned ${so.vertices} vertices/frame`);
  await expect(page.locator('#stats')).toContainText(`stream-out ${Math.round((24 * so.vertices) / 1024)} KiB/frame`);

  // software also skins once; the shader techniques never write feedback.
  const sw = await costs(page, { technique: 'software', view: 'wireframe' });
  expect(sw.skinned).toBe(sw.vertices);
  expect(sw.feedback).toBe(0);
  expect(con.errors).toEqual([]);
});

test('Dawn with 5 morph weights: stream-out draws what software draws on every morph path (≤ 0.5 % pixels), with tangents in its feedback', async ({ page }) => {
  test.setTimeout(180_000);
  const con = watchConsole(page);
  await openApp(page, `?model=dawn&detail=low&t=0.3&gui=0&grid=0&camera=0,5,2.4&morphTrack=0&morph=${FIVE}&technique=software&morphs=cpu`);
  const reference = await page.locator('#view').screenshot();
  const rows: string[] = [];
  for (const morphs of ['slots', 'texture', 'cpu']) {
    await page.evaluate((m) => window.skinlab.set({ technique: 'stream-out', morphs: m }), morphs);
    const picture = await page.locator('#view').screenshot();
    const diff = pixelDifference(reference, picture);
    rows.push(`${morphs}: ${(diff * 100).toFixed(3)} %`);
    expect(diff, `stream-out/${morphs} against software/cpu`).toBeLessThanOrEqual(0.005);
    const r = await page.evaluate((m) => window.skinlab.morphCheck(m, 'stream-out'), morphs);
    expect(r.maxMorphOffset, 'the weights move the mesh').toBeGreaterThan(1e-3 * r.modelSize);
    expect(r.maxError, `stream-out/${morphs}: GPU vs CPU morph + skin`).toBeLessThan(1e-4 * r.modelSize);
    // The feedback read back once, on Dawn's own path (each readback compiles a program of its own).
    if (morphs === 'slots') rows.push(`feedback vs CPU, ${await expectFeedbackLikeCpu(page, `dawn ${morphs}`, true)}`);
  }
  // Dawn's meshes carry tangents: 40 bytes per vertex.
  await settledStats(page);
  const s = await page.evaluate(() => ({ feedback: window.skinlab.stats().feedbackBytes, vertices: window.skinlab.info().vertices as number }));
  expect(s.feedback).toBe(40 * s.vertices);
  console.log(`[stream-out] dawn low, 5 weights, mismatching pixels vs software\n${rows.join('\n')}`);
  expect(con.errors).toEqual([]);
});

test('the Walker under stream-out: the feedback every pass draws holds the positions, normals and tangents the CPU skins', async ({ page }) => {
  // Vertices read back, not pixels: a small canvas.
  await page.setViewportSize({ width: 320, height: 240 });
  const con = watchConsole(page);
  await openApp(page, '?gui=0&t=0.5&technique=stream-out');
  const rows = [await expectFeedbackLikeCpu(page, 'walker t=0.5', true)];
  await page.evaluate(() => window.skinlab.set({ influences: 1 }));
  rows.push(await expectFeedbackLikeCpu(page, 'walker t=0.5 influences=1', true));
  console.log(`[stream-out] feedback vs CPU\n${rows.join('\n')}`);
  expect(con.errors).toEqual([]);
});
