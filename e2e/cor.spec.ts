import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { openApp, pixelDifference, watchConsole } from './helpers.ts';

/**
 * The `cor` technique (optimized centres of rotation, Le & Hodgins 2016) on the real page: it loads from the
 * address bar, its GPU-skinned positions, normals and tangents (transform feedback) match its CPU reference
 * (deform/cor-skin.ts with the session's centres) on tiny.x (scaled bones), the Walker, the Fox (glTF) and
 * Dawn with each morph path, and the twist rig keeps its joint at 180° of twist. Screenshots of the twist
 * rig under vs-hlsl, dual-quat and cor go to test-results/cor (SKINLAB_RESULTS moves it).
 */

const OUT = `${process.env.SKINLAB_RESULTS ?? 'test-results'}/cor`;
mkdirSync(OUT, { recursive: true });

/** skinCheck('cor') at the page's pose: maxError ≤ 1e-4 of the model size, normals and tangents ≤ 1e-3 rad. */
async function expectSkinned(page: Page, label: string): Promise<string> {
  const r = await page.evaluate(() => window.skinlab.skinCheck('cor'));
  expect(r.reference, label).toBe('cor');
  expect(r.vertices, label).toBeGreaterThan(0);
  const rel = r.maxError / r.modelSize;
  expect(rel, `${label}: positions`).toBeLessThanOrEqual(1e-4);
  expect(r.maxNormalAngle, `${label}: normals (rad)`).toBeLessThanOrEqual(1e-3);
  expect(r.maxTangentAngle, `${label}: tangents (rad)`).toBeLessThanOrEqual(1e-3);
  expect(r.tangentSignMismatches, label).toBe(0);
  expect(r.approximatedVertices, label).toBe(0);
  return (
    `${label}: ${r.vertices} vertices, max error ${rel.toExponential(2)} of size ${r.modelSize.toFixed(2)}, ` +
    `normals ${r.maxNormalAngle.toExponential(1)} rad, tangents ${r.maxTangentAngle.toExponential(1)} rad over ${r.tangentVertices}`
  );
}

test('technique=cor matches its CPU reference on tiny.x, the Walker and the Fox (transform feedback, 4 and 2 influences)', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 320, height: 240 });
  const con = watchConsole(page);
  const rows: string[] = [];
  for (const [model, t] of [['tiny', 1.3], ['default', 0.7], ['fox', 0.4]] as const) {
    await openApp(page, `?model=${model}&gui=0&t=${t}&technique=cor`);
    const info = await page.evaluate(() => window.skinlab.info());
    expect(info.technique, model).toBe('cor');
    expect((info.techniqueSupport as Record<string, string | null>).cor, model).toBeNull();
    rows.push(await expectSkinned(page, `${model} t=${t}`));
    await page.evaluate(() => window.skinlab.set({ influences: 2 }));
    rows.push(await expectSkinned(page, `${model} t=${t} influences=2`));
    // The cost panel counts the centre texture with the shared vertex data.
    const stats = await page.evaluate(() => window.skinlab.stats());
    expect(stats.technique).toBe('cor');
    expect(stats.meshDrawCalls).toBeGreaterThan(0);
    await page.evaluate(() => window.skinlab.set({ technique: 'vs-hlsl' }));
    await expect.poll(() => page.evaluate(() => window.skinlab.stats().technique)).toBe('vs-hlsl');
    const linear = await page.evaluate(() => window.skinlab.stats());
    // One RGBA32F texel per vertex, the last row of the centre texture (2048 texels wide) padded.
    const centreBytes = stats.vertexBytes - linear.vertexBytes;
    expect(centreBytes, `${model}: centre bytes`).toBeGreaterThanOrEqual(16 * (info.vertices as number));
    expect(centreBytes, `${model}: centre bytes`).toBeLessThan(16 * ((info.vertices as number) + 2048));
  }
  console.log(`[cor] transform feedback vs CPU\n${rows.join('\n')}`);
  expect(con.errors).toEqual([]);
});

test('Dawn (medium) with morph targets: every morph path skins like the CPU under cor (positions, morphs, tangents); the wireframe, weights and skeleton views draw', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 320, height: 240 });
  const con = watchConsole(page);
  await openApp(page, '?model=dawn&gui=0&t=2&technique=cor&morphTrack=0&morph=happy:0.8,jaw_open:0.7,blink:1,brow_up_left:0.6,smirk:0.5');
  const rows: string[] = [];
  for (const path of ['slots', 'texture', 'cpu']) {
    await page.evaluate((morphs) => window.skinlab.set({ morphs }), path);
    rows.push(await expectSkinned(page, `dawn morphs=${path}`));
    const m = await page.evaluate((p) => window.skinlab.morphCheck(p, 'cor'), path);
    expect(m.maxMorphOffset, 'the weights move the mesh').toBeGreaterThan(1e-3 * m.modelSize);
    expect(m.maxError, `morphs=${path}: GPU vs CPU morph + cor`).toBeLessThan(1e-4 * m.modelSize);
    const tc = await page.evaluate((p) => window.skinlab.tangentCheck(p, 'cor'), path);
    expect(tc.maxAngle, `morphs=${path}: tangents`).toBeLessThan(1e-4);
  }
  // The other passes read the centres too (every view's program is the technique's).
  for (const view of ['wireframe', 'weights', 'skeleton']) {
    await page.evaluate((v) => window.skinlab.set({ view: v }), view);
    const s = await page.evaluate(() => window.skinlab.stats());
    expect(s.technique, view).toBe('cor');
  }
  console.log(`[cor] dawn\n${rows.join('\n')}`);
  expect(con.errors).toEqual([]);
});

/** Model pixels in the thinnest column of the middle tenth of the silhouette, and the median over the outer fifths. */
function columnProfile(bytes: Buffer): { joint: number; body: number } {
  const png = PNG.sync.read(bytes);
  const { width, height, data } = png;
  const bg = [data[0]!, data[1]!, data[2]!];
  const columns = new Array<number>(width).fill(0);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (Math.abs(data[i]! - bg[0]!) + Math.abs(data[i + 1]! - bg[1]!) + Math.abs(data[i + 2]! - bg[2]!) > 30) columns[x]!++;
    }
  }
  const x0 = columns.findIndex((c) => c > 0);
  const x1 = width - 1 - [...columns].reverse().findIndex((c) => c > 0);
  const span = x1 - x0 + 1;
  const mid = (x0 + x1) / 2;
  let joint = Infinity;
  for (let x = Math.round(mid - span * 0.05); x <= Math.round(mid + span * 0.05); x++) joint = Math.min(joint, columns[x]!);
  const outer: number[] = [];
  for (let x = x0; x <= x1; x++) if (Math.abs(x - mid) > span * 0.3) outer.push(columns[x]!);
  outer.sort((a, b) => a - b);
  return { joint, body: outer[outer.length >> 1]! };
}

test('twist rig: cor keeps the joint at 180° of twist (no candy wrapper) and differs from linear blending when bent', async ({ page }) => {
  test.setTimeout(120_000);
  const con = watchConsole(page);
  const shots: Record<string, Buffer> = {};
  for (const clip of ['twist', 'bend']) {
    for (const technique of ['vs-hlsl', 'dual-quat', 'cor']) {
      await openApp(page, `?model=twist&clip=${clip}&t=2&gui=0&grid=0&camera=front&technique=${technique}`);
      shots[`${clip}-${technique}`] = await page.locator('#view').screenshot();
      writeFileSync(`${OUT}/twist-${clip}-${technique}.png`, shots[`${clip}-${technique}`]!);
    }
  }
  const lbs = columnProfile(shots['twist-vs-hlsl']!);
  const cor = columnProfile(shots['twist-cor']!);
  const dq = columnProfile(shots['twist-dual-quat']!);
  console.log(`[cor] twist 180° joint thickness (px): vs-hlsl ${lbs.joint} of ${lbs.body}, dual-quat ${dq.joint} of ${dq.body}, cor ${cor.joint} of ${cor.body}`);
  expect(lbs.joint).toBeLessThan(0.3 * lbs.body);
  expect(cor.joint).toBeGreaterThan(0.9 * cor.body);
  expect(Math.abs(cor.body - lbs.body)).toBeLessThanOrEqual(0.05 * lbs.body);
  // Bent 90°: linear blending thins the elbow, cor does not; a visible difference.
  expect(pixelDifference(shots['bend-vs-hlsl']!, shots['bend-cor']!)).toBeGreaterThan(0.001);
  await expectSkinned(page, 'twist bend t=2');
  expect(con.errors).toEqual([]);
});
