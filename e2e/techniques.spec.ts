import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { canvasShot, coverage, openApp, pixelDifference, watchConsole } from './helpers.ts';

/**
 * Every skinning technique against the software reference: the rendered picture (mismatching pixels) and
 * the skinned vertex positions, normals and tangents read back with transform feedback (window.skinlab.skinCheck). Also: every
 * `?technique=` id loads, a switch never reloads the model, rigid skinning (influences=1) folds, and the
 * per-technique costs are measured and written to test-results/techniques/costs.json (SKINLAB_RESULTS moves it).
 */

const LINEAR = ['software', 'ff-nonindexed', 'ff-indexed', 'vs-asm', 'vs-hlsl', 'accumulated', 'texture', 'stream-out'];
/** Techniques that deliberately differ from linear blending, each with its own CPU reference. */
const NONLINEAR = ['dual-quat', 'cor', 'ddm'];
const ALL = [...LINEAR, ...NONLINEAR];
/** The technique ids' order (docs/api.md#technique-ids), as info().techniques lists them. */
const MENU = ['software', 'ff-nonindexed', 'ff-indexed', 'vs-asm', 'vs-hlsl', 'accumulated', 'dual-quat', 'cor', 'texture', 'stream-out', 'ddm'];
const OUT = `${process.env.SKINLAB_RESULTS ?? 'test-results'}/techniques`;
mkdirSync(OUT, { recursive: true });

interface Model {
  id: string;
  times: number[];
  /**
   * Share of pixels where dual-quat may differ from software at each time ([min, max]). Dual quaternions
   * change only the bent joints' shape (tiny's scaled bones most), so a user sees the same figure in the same
   * pose: a small share, bounded from above. Linear blending differs from software on ≤ 0.001 %, so the lower
   * bound catches a dual-quat that silently blends linearly. Measured: default 0.014–0.021 %, tiny 0.75–0.83 %, fox 0.025–0.047 %.
   */
  dualQuat: [number, number];
  /**
   * The same for cor (centres of rotation): it too changes only the blended joints' shape, by about as much as
   * dual-quat. Measured: default 0.014–0.016 %, tiny 0.47–0.52 %, fox 0.018–0.041 % (dual-quat in the same run:
   * 0.015–0.017 %, 0.50–0.55 %, 0.023–0.026 %).
   */
  cor: [number, number];
  /**
   * The same for ddm (direct delta mush smooths every blended region, not only the joints, and tiny's scaled
   * detail follows the smoothed scale): more than dual-quat. Measured: default 0.12–0.13 %, tiny 1.7–2.0 %, fox 2.6 %.
   */
  ddm: [number, number];
}
const MODELS: Model[] = [
  { id: 'default', times: [0.2, 1.0], dualQuat: [0.00005, 0.002], cor: [0.00005, 0.002], ddm: [0.0005, 0.005] },
  { id: 'tiny', times: [0.5, 3.0], dualQuat: [0.002, 0.015], cor: [0.002, 0.015], ddm: [0.005, 0.04] },
  // A glTF character (the Khronos Fox, 24 joints, embedded texture), read through the glTF SDK.
  { id: 'fox', times: [0.1, 0.6], dualQuat: [0.0001, 0.003], cor: [0.0001, 0.003], ddm: [0.005, 0.05] },
];

/** Opens a built-in model; a model that does not load fails the test with the page's message. */
async function openModel(page: Page, model: string, query: string): Promise<void> {
  await openApp(page, `?model=${model}&${query}`);
}

/** The canvas (every page here has gui=0: nothing covers it), kept under the results folder for a look. */
async function shot(page: Page, name: string): Promise<Buffer> {
  const png = await canvasShot(page);
  writeFileSync(`${OUT}/${name}.png`, png);
  return png;
}

for (const model of MODELS) {
  test.describe(`model=${model.id}`, () => {
    test('every technique renders like software at two times (≤ 0.5 % mismatching pixels; dual-quat, cor and ddm within their bounds)', async ({ page }) => {
      test.setTimeout(180_000);
      const con = watchConsole(page);
      await openModel(page, model.id, `gui=0&t=${model.times[0]}&technique=software`);
      const rows: string[] = [];
      for (const t of model.times) {
        await page.evaluate((t) => window.skinlab.set({ technique: 'software', t }), t);
        // The reference shows the model (an empty canvas would match an empty canvas).
        expect(await coverage(page), `${model.id}: software at t=${t} covers the canvas`).toBeGreaterThan(0.02);
        const reference = await shot(page, `${model.id}-software-t${t}`);
        for (const id of ALL.slice(1)) {
          await page.evaluate(([id, t]) => window.skinlab.set({ technique: id as string, t: t as number }), [id, t] as const);
          const info = await page.evaluate(() => window.skinlab.info());
          expect(info.technique, `technique ${id} fell back`).toBe(id);
          const picture = await shot(page, `${model.id}-${id}-t${t}`);
          const diff = pixelDifference(reference, picture);
          rows.push(`${id} t=${t}: ${(diff * 100).toFixed(3)} %`);
          if (LINEAR.includes(id)) expect(diff, `${id} at t=${t} against software`).toBeLessThanOrEqual(0.005);
          else {
            const [low, high] = id === 'cor' ? model.cor : id === 'ddm' ? model.ddm : model.dualQuat;
            expect(diff, `${id} at t=${t} against software: the same figure`).toBeLessThanOrEqual(high);
            expect(diff, `${id} at t=${t} against software: not linear blending`).toBeGreaterThanOrEqual(low);
          }
        }
      }
      console.log(`[${model.id}] mismatching pixels vs software\n${rows.join('\n')}`);
      expect(con.errors).toEqual([]);
    });

    test('transform feedback: every technique skins the vertices the CPU reference does (≤ 1e-4 of the model size; normals and tangents ≤ 1e-3 rad)', async ({ page }) => {
      test.setTimeout(180_000);
      // Vertices read back, not pixels: a small canvas keeps the frames each switch draws cheap.
      await page.setViewportSize({ width: 320, height: 240 });
      const con = watchConsole(page);
      await openModel(page, model.id, `gui=0&t=${model.times[0]}`);
      const rows: string[] = [];
      for (const influences of [4, 1]) {
        for (const t of model.times) {
          await page.evaluate(([t, influences]) => window.skinlab.set({ t, influences }), [t, influences] as const);
          for (const id of ALL) {
            // `software` skins with skinMesh, the default reference: it is held against the gl-matrix one instead.
            const reference = id === 'software' ? 'gl-matrix' : 'auto';
            const r = await page.evaluate(([id, reference]) => window.skinlab.skinCheck(id, reference), [id, reference] as const);
            expect(r.reference).toBe(id === 'software' ? 'gl-matrix' : NONLINEAR.includes(id) ? id : 'software');
            const rel = r.maxError / r.modelSize;
            rows.push(
              `${id} influences=${influences} t=${t}: ${r.vertices} vertices, max error ${rel.toExponential(2)} of size ${r.modelSize.toFixed(2)} (reference ${r.reference})` +
                `, normals ${r.maxNormalAngle.toExponential(1)} rad, tangents ${r.maxTangentAngle.toExponential(1)} rad over ${r.tangentVertices} vertices` +
                (r.approximatedVertices > 0 ? `; ${r.approximatedVertices} approximated vertices off by up to ${(r.maxErrorApproximated / r.modelSize).toExponential(2)}` : ''),
            );
            expect(r.vertices).toBeGreaterThan(0);
            expect(rel, `${id} influences=${influences} t=${t}`).toBeLessThanOrEqual(1e-4);
            // Float rounding turns them by < 1e-6 rad (measured); a normal or tangent skinned wrongly by a joint's turn.
            expect(r.maxNormalAngle, `${id} influences=${influences} t=${t}: normals (rad)`).toBeLessThanOrEqual(1e-3);
            expect(r.maxTangentAngle, `${id} influences=${influences} t=${t}: tangents (rad)`).toBeLessThanOrEqual(1e-3);
            expect(r.tangentSignMismatches).toBe(0);
            if (id !== 'ff-nonindexed') expect(r.approximatedVertices).toBe(0);
          }
        }
      }
      console.log(`[${model.id}] transform feedback vs CPU\n${rows.join('\n')}`);
      expect(con.errors).toEqual([]);
    });
  });
}

test('?technique=<id> loads every technique, and info() lists them all as usable on the default model', async ({ page }) => {
  // Eleven loads, nothing read from the pixels: a small canvas keeps each first frame cheap.
  await page.setViewportSize({ width: 320, height: 240 });
  const con = watchConsole(page);
  for (const id of ALL) {
    await openApp(page, `?gui=0&t=0.4&technique=${id}`);
    const info = await page.evaluate(() => window.skinlab.info());
    expect(info.technique).toBe(id);
    expect(info.techniques).toEqual(MENU);
    expect(info.techniqueSupport).toEqual(Object.fromEntries(MENU.map((t) => [t, null])));
    const stats = await page.evaluate(() => window.skinlab.stats());
    expect(stats.technique).toBe(id);
    expect(stats.meshDrawCalls).toBeGreaterThan(0);
  }
  expect(con.errors).toEqual([]);
});

test('switching technique in the panel never reloads the model, and the cost panel follows', async ({ page }) => {
  const con = watchConsole(page);
  const modelRequests: string[] = [];
  page.on('request', (r) => {
    if (/\.(m3d|x)$/i.test(new URL(r.url()).pathname)) modelRequests.push(r.url());
  });
  await openApp(page, '?t=0.5');
  expect(modelRequests).toHaveLength(1);
  const select = page.locator('.lil-controller', { hasText: 'technique' }).locator('select');
  const seen = new Map<string, { groups: number; draws: number; dup: number }>();
  for (const id of ['ff-nonindexed', 'ff-indexed', 'vs-asm', 'software', 'texture', 'dual-quat', 'stream-out']) {
    await select.selectOption({ label: id });
    await expect.poll(async () => (await page.evaluate(() => window.skinlab.stats())).technique).toBe(id);
    const s = await page.evaluate(() => window.skinlab.stats());
    seen.set(id, { groups: s.groups, draws: s.meshDrawCalls, dup: s.duplicatedVertices });
    await expect(page.locator('#stats')).toContainText(id);
  }
  expect(modelRequests).toHaveLength(1);
  expect(await page.evaluate(() => document.documentElement.dataset.state)).toBe('ready');
  // Fixed-function non-indexed needs the most groups; the palette techniques fewer; software one.
  expect(seen.get('ff-nonindexed')!.groups).toBeGreaterThan(seen.get('ff-indexed')!.groups);
  expect(seen.get('ff-indexed')!.groups).toBeGreaterThanOrEqual(seen.get('vs-asm')!.groups);
  expect(seen.get('software')!.groups).toBe(1);
  expect(seen.get('software')!.dup).toBe(0);
  expect(seen.get('ff-nonindexed')!.dup).toBeGreaterThan(0);
  // The palette slider: a smaller palette, more groups.
  await page.evaluate(() => window.skinlab.set({ technique: 'ff-indexed', palette: 40 }));
  const large = (await page.evaluate(() => window.skinlab.stats())).groups;
  const range = (await page.evaluate(() => window.skinlab.info())).paletteRange as { min: number; max: number };
  await page.evaluate((min) => window.skinlab.set({ palette: min }), range.min);
  const small = (await page.evaluate(() => window.skinlab.stats())).groups;
  expect(small).toBeGreaterThan(large);
  expect(range.max).toBeGreaterThanOrEqual(40);
  // T steps to the next technique in menu order, Shift+T back; the panel follows.
  await page.locator('#view').click();
  await page.keyboard.press('t');
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info())).technique).toBe('vs-asm');
  await expect(select).toHaveValue('vs-asm');
  await page.keyboard.press('Shift+T');
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info())).technique).toBe('ff-indexed');
  expect(modelRequests).toHaveLength(1);
  expect(con.errors).toEqual([]);
});

test('a palette below the smallest workable size is refused with a message and clamped', async ({ page }) => {
  await page.goto('./?gui=0&technique=ff-indexed&palette=2');
  await page.waitForFunction(() => document.documentElement.dataset.state === 'error');
  await expect(page.locator('#error')).toContainText('palette=2');
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.palette).toBe((info.paletteRange as { min: number }).min);
});

test('rigid skinning (influences=1) folds at the joints: visibly different from 4 influences', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?gui=0&clip=walk&t=0.6&camera=left&technique=software');
  const smooth = await shot(page, 'default-influences4-left');
  await page.evaluate(() => window.skinlab.set({ influences: 1 }));
  const rigid = await shot(page, 'default-influences1-left');
  // Renders are deterministic: any difference is the truncation (sharper creases at knees and elbows).
  expect(pixelDifference(smooth, rigid)).toBeGreaterThan(0.0003);
  // Every technique follows the same truncation.
  await page.evaluate(() => window.skinlab.set({ technique: 'vs-asm' }));
  expect(pixelDifference(rigid, await shot(page, 'default-influences1-vs-asm'))).toBeLessThanOrEqual(0.005);
  expect(con.errors).toEqual([]);
});

test('costs per technique (draws, groups, duplicated vertices, uploads, frame time)', async ({ page }) => {
  test.setTimeout(240_000);
  // The costs are the technique's, not the canvas's: a small canvas keeps SwiftShader's pixel work (and this
  // test) short. Frame times here are indicative only; `npm run bench` measures them properly.
  await page.setViewportSize({ width: 320, height: 240 });
  const table: Record<string, unknown>[] = [];
  // The Walker (an .x-style generated rig) and the Fox (glTF); tiny draws like the Walker here.
  const models = MODELS.filter((m) => m.id !== 'tiny');
  for (const model of models) {
    await openModel(page, model.id, 'gui=0');
    for (const id of ALL) {
      await page.evaluate((id) => window.skinlab.set({ technique: id }), id);
      // A switch restarts stats()'s window and shows the switch frame's figures at once (src/app/frame-stats.ts):
      // the new technique's per-frame costs, without waiting for the window to close.
      const frameMs = await page.evaluate(() => window.skinlab.benchFrames(5));
      const s = await page.evaluate(() => window.skinlab.stats());
      expect(s.technique, `${model.id}: technique ${id} fell back`).toBe(id);
      table.push({
        model: model.id,
        technique: id,
        drawCalls: s.meshDrawCalls,
        groups: s.groups,
        duplicatedVertices: s.duplicatedVertices,
        approximatedTriangles: s.approximatedTriangles,
        uploadBytesPerFrame: Math.round(s.uploadBytes),
        passes: s.passes,
        skinnedVerticesPerFrame: s.skinnedVerticesPerFrame,
        feedbackBytesPerFrame: Math.round(s.feedbackBytes),
        vertexBytes: s.vertexBytes,
        cpuSkinUs: Math.round(s.cpuSkinUs),
        medianFrameMs: Number(frameMs.toFixed(2)),
      });
    }
  }
  writeFileSync(`${OUT}/costs.json`, JSON.stringify(table, null, 2));
  console.table(table);
  // Every model × every technique, each drawn (no failed load or switch left out of the table).
  expect(table.map((r) => `${r.model}/${r.technique}`)).toEqual(models.flatMap((m) => ALL.map((id) => `${m.id}/${id}`)));
  for (const r of table) expect(r.drawCalls, `${r.model}/${r.technique} draws`).toBeGreaterThan(0);
});
