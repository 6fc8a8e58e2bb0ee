import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { writeM3d } from '../src/loaders/m3d/write-m3d.ts';
import { loadModel } from '../src/loaders/load-model.ts';
import { FIXTURE_TARGETS, morphWalkerScene } from '../test/app/morph-fixture.ts';
import { canvasShot, openApp, pixelDifference, silhouette, waitState, watchConsole } from './helpers.ts';

/**
 * Morph targets (GPU Gems ch. 4, Dawn) on the real page: the three morph paths (`slots`, `texture`, `cpu`)
 * agree with each other and with the CPU reference under several skinning techniques (transform-feedback
 * positions through window.skinlab.morphCheck, and pixels); with 8 active targets the slots path drops 3
 * and says so while the texture path still matches; `jaw_open` changes the face only; the GUI folders
 * drive the face; bad names are reported with the valid ones.
 *
 * Subjects: `fixture` — the Walker with 11 synthetic Dawn-named head targets (test/app/morph-fixture.ts),
 * written with the app's own .m3d writer and served by page.route; `dawn` — the generated built-in
 * at its low detail (public/models/generated/dawn-low.m3d, written by `npm run gen`, which the test script runs
 * first): the same 50 head targets as medium on a third of the bytes to parse (dawn.spec.ts covers the levels).
 * Both are the project's own: a fixture that cannot be written, a writer that drops the targets, a
 * missing Dawn, no targets or no tangents on the page all fail the tests (no skips).
 * Expression tracks are switched off (morphTrack=0) so only the weights named here act.
 */

const here = dirname(fileURLToPath(import.meta.url));
const DAWN_FILE = join(here, '..', 'public', 'models', 'generated', 'dawn-low.m3d');

/** The fixture as .m3d text, or why it could not be made (reported by every fixture test, never skipped). */
let fixtureText: string | null = null;
let fixtureWhy = '';
try {
  fixtureText = writeM3d(morphWalkerScene());
  const written = loadModel('morph-walker.m3d', new TextEncoder().encode(fixtureText)).morphTargets;
  if (written.length !== FIXTURE_TARGETS.length) {
    fixtureWhy = `the .m3d writer wrote ${written.length} of the fixture's ${FIXTURE_TARGETS.length} morph targets`;
    fixtureText = null;
  }
} catch (e) {
  fixtureWhy = `cannot build the morph fixture: ${(e as Error).message}`;
  fixtureText = null;
}

interface Subject {
  readonly name: string;
  readonly model: string;
  readonly clip: string;
  /** More URL parameters of the subject (`&key=value`). */
  readonly query: string;
  /** null when the subject can be served, else why not (a test failure). */
  readonly missing: () => string | null;
}

const SUBJECTS: readonly Subject[] = [
  { name: 'fixture', model: 'test-models/morph-walker.m3d', clip: 'walk', query: '', missing: () => (fixtureText ? null : fixtureWhy) },
  { name: 'dawn', model: 'dawn', clip: '', query: '&detail=low', missing: () => (existsSync(DAWN_FILE) ? null : `no ${DAWN_FILE} (npm run gen writes it)`) },
];

/** ≤ 5 targets: every path applies them all. */
const FIVE = 'happy:0.8,jaw_open:0.7,blink:1,brow_up_left:0.6,smirk:0.5';
/** 8 targets: the slots path keeps the 5 heaviest and drops jaw_open, blink and smirk (0.9 each: visible). */
const EIGHT = 'happy:1,sad:1,angry:1,surprised:1,thoughtful:1,jaw_open:0.9,blink:0.9,smirk:0.9';

async function open(page: Page, s: Subject, extra: string): Promise<void> {
  if (fixtureText) await page.route('**/test-models/morph-walker.m3d', (r) => r.fulfill({ body: fixtureText! }));
  // Morph paths and techniques against each other, face-filling: the shadow map (covered with morphs by
  // stream-out.spec.ts and with every technique by shadows.spec.ts) is left off to keep SwiftShader's work short.
  await openApp(page, `?model=${s.model}${s.query}${s.clip ? `&clip=${s.clip}` : ''}&t=0.3&gui=0&grid=0&shadows=0&camera=0,5,2.4&morphTrack=0${extra}`);
  const targets = (await page.evaluate(() => window.skinlab.info().morphTargets)) as string[];
  expect(targets.length, `${s.model} has morph targets on the page`).toBeGreaterThan(0);
}

async function shot(page: Page, params: Record<string, string>): Promise<Buffer> {
  await page.evaluate((p) => window.skinlab.set(p), params);
  return canvasShot(page);
}

for (const s of SUBJECTS) {
  test.describe(`morph targets (${s.name})`, () => {
    test.beforeEach(() => {
      expect(s.missing(), `${s.name} morph subject`).toBeNull();
    });

    test('with ≤ 5 weights slots, texture and cpu agree (positions and pixels) under several techniques', async ({ page }) => {
      const { errors } = watchConsole(page);
      await open(page, s, `&morph=${FIVE}`);
      for (const technique of ['vs-hlsl', 'ff-indexed', 'software', 'dual-quat', 'stream-out']) {
        for (const path of ['slots', 'texture', 'cpu']) {
          const r = await page.evaluate(([p, t]) => window.skinlab.morphCheck(p, t), [path, technique] as const);
          expect(r.maxMorphOffset, 'the weights move the mesh').toBeGreaterThan(1e-3 * r.modelSize);
          expect(r.dropped, `${technique}/${path}`).toBe(0);
          expect(r.maxError, `${technique}/${path}: GPU vs CPU morph + skin`).toBeLessThan(1e-4 * r.modelSize);
        }
      }
      for (const technique of ['vs-hlsl', 'ff-indexed', 'stream-out']) {
        const cpu = await shot(page, { technique, morphs: 'cpu' });
        for (const path of ['slots', 'texture']) {
          const img = await shot(page, { technique, morphs: path });
          expect(pixelDifference(img, cpu), `${technique}: ${path} vs cpu`).toBeLessThanOrEqual(0.005);
        }
      }
      const stats = await page.evaluate(() => window.skinlab.stats());
      expect(stats.morphPath).toBe('texture');
      await page.evaluate(() => window.skinlab.set({ morphs: 'slots' }));
      const slots = await page.evaluate(() => window.skinlab.stats());
      // Slots list their targets in ascending target index.
      const names = (await page.evaluate(() => window.skinlab.info().morphTargets)) as string[];
      expect(slots.morphSlots).toEqual(['happy', 'jaw_open', 'blink', 'smirk', 'brow_up_left'].sort((a, b) => names.indexOf(a) - names.indexOf(b)));
      expect(slots.morphDropped).toBe(0);
      expect(errors).toEqual([]);
    });

    test('tangents (Dawn §4.3.2): re-orthonormalised against the morphed normal and skinned on the GPU match the CPU', async ({ page }) => {
      const { errors } = watchConsole(page);
      await open(page, s, `&morph=${FIVE}`);
      for (const technique of ['vs-hlsl', 'ff-indexed', 'dual-quat', 'software', 'stream-out']) {
        for (const path of ['slots', 'texture', 'cpu']) {
          const r = await page.evaluate(([p, t]) => window.skinlab.tangentCheck(p, t), [path, technique] as const);
          console.log(`[tangents] ${s.name} ${technique}/${path}: ${r.vertices} vertices in ${r.meshes} meshes (${r.meshesWithoutTangents} without), max angle ${r.maxAngle.toExponential(2)} rad, max component ${r.maxComponentError.toExponential(2)}, morph turns the frame by up to ${r.maxMorphTurn.toFixed(3)} rad`);
          expect(r.meshes, `${s.name} has tangents`).toBeGreaterThan(0);
          expect(r.vertices).toBeGreaterThan(0);
          expect(r.maxMorphTurn, 'the weights turn the tangent frame').toBeGreaterThan(1e-2);
          expect(r.maxAngle, `${technique}/${path}: GPU vs CPU tangent angle`).toBeLessThan(1e-4);
          expect(r.maxComponentError, `${technique}/${path}: GPU vs CPU tangent components`).toBeLessThan(1e-4);
          expect(r.signMismatches, `${technique}/${path}: bitangent sign`).toBe(0);
        }
      }
      expect(errors).toEqual([]);
    });

    test('with 8 weights slots drops 3 and differs visibly; texture still matches cpu', async ({ page }) => {
      const { errors } = watchConsole(page);
      await open(page, s, `&morph=${EIGHT}&technique=vs-hlsl`);
      const cpu = await shot(page, { morphs: 'cpu' });
      const texture = await shot(page, { morphs: 'texture' });
      const slots = await shot(page, { morphs: 'slots' });
      expect(pixelDifference(texture, cpu), 'texture vs cpu').toBeLessThanOrEqual(0.005);
      expect(pixelDifference(slots, cpu), 'slots vs cpu: the dropped targets show').toBeGreaterThan(0.0003);
      const st = await page.evaluate(() => window.skinlab.stats());
      expect(st.morphSlots).toHaveLength(5);
      expect(st.morphSlots).not.toContain('jaw_open');
      expect(st.morphDropped).toBeCloseTo(2.7, 4);
      const rs = await page.evaluate(() => window.skinlab.morphCheck('slots'));
      expect(rs.dropped).toBeCloseTo(2.7, 4);
      expect(rs.maxErrorPath, 'slots applies exactly its 5 targets').toBeLessThan(1e-4 * rs.modelSize);
      expect(rs.maxError, 'and so misses the other 3').toBeGreaterThan(1e-3 * rs.modelSize);
      const rt = await page.evaluate(() => window.skinlab.morphCheck('texture', 'ff-indexed'));
      expect(rt.maxError).toBeLessThan(1e-4 * rt.modelSize);
      expect(errors).toEqual([]);
    });

    test('jaw_open changes pixels only around the face', async ({ page }) => {
      const { errors } = watchConsole(page);
      await open(page, s, '');
      // Without the shadow map: the open jaw's shadow on the neck and chest would move too, and this is about the vertices the target moves.
      await page.evaluate(() => window.skinlab.set({ shadows: 0 }));
      const box = await silhouette(page);
      const neutral = await shot(page, { morph: '' });
      const jaw = await shot(page, { morph: 'jaw_open:1' });
      const a = PNG.sync.read(neutral);
      const b = PNG.sync.read(jaw);
      let y0 = Infinity;
      let y1 = -Infinity;
      let changed = 0;
      for (let y = 0; y < a.height; y++) {
        for (let x = 0; x < a.width; x++) {
          const i = (y * a.width + x) * 4;
          if (Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!) <= 30) continue;
          changed++;
          y0 = Math.min(y0, y);
          y1 = Math.max(y1, y);
        }
      }
      expect(changed, 'jaw_open changes something').toBeGreaterThan(20);
      // Screen y grows downwards: the change lies within the top quarter of the figure.
      expect(y0).toBeGreaterThanOrEqual(box.y - 2);
      expect(y1, `changed rows ${y0}..${y1}, figure ${box.y}..${box.y + box.height}`).toBeLessThan(box.y + 0.25 * box.height);
      expect(errors).toEqual([]);
      // An unknown name: a message listing the valid ones; the known part applies, the page still draws.
      await page.evaluate(() => window.skinlab.set({ morph: 'no_such_face:1,jaw_open:0.5' }));
      await expect(page.locator('#error')).toContainText('morph=no_such_face: no such morph target (targets: ');
      await expect(page.locator('#error')).toContainText('jaw_open');
      expect((await page.evaluate(() => window.skinlab.info())).morph).toBe('jaw_open:0.5');
    });

    test('GUI: Emotions and Modifiers folders, a slider moves the face, the slot view lists it', async ({ page }) => {
      const { errors } = watchConsole(page);
      await open(page, s, '');
      await page.evaluate(() => window.skinlab.set({ gui: 1 }));
      const titles = await page.locator('.lil-gui .lil-title').allTextContents();
      expect(titles).toEqual(expect.arrayContaining(['Morph targets', 'Emotions', 'Modifiers']));
      const before = await page.locator('#view').screenshot();
      const slider = page.locator('.lil-gui .lil-controller.lil-number').filter({ has: page.locator('.lil-name', { hasText: /^jaw_open$/ }) });
      const input = slider.locator('input');
      await input.fill('1');
      await input.press('Enter');
      await page.evaluate(() => window.skinlab.set({}));
      const info = await page.evaluate(() => window.skinlab.info());
      expect(info.morph).toBe('jaw_open:1');
      expect(pixelDifference(await page.locator('#view').screenshot(), before)).toBeGreaterThan(0.0002);
      await expect(page.locator('.morph-slots')).toContainText('jaw_open 1.00');
      expect(errors).toEqual([]);
    });
  });
}

test('morph errors and a model without targets', async ({ page }) => {
  const { errors } = watchConsole(page);
  // The Walker has no targets: `morphs` is accepted and does nothing, the panel hides the morph controls.
  await openApp(page, '?model=default&t=0.3&morphs=texture');
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.morphTargets).toEqual([]);
  expect(info.morphs).toBe('texture');
  await expect(page.locator('.lil-gui .lil-title', { hasText: 'Morph targets' })).toBeHidden();
  expect(errors).toEqual([]);
  // Malformed and unknown values: a clear message, the page still draws.
  await page.goto('./?model=default&t=0.3&morph=happy:1');
  expect(await waitState(page, 'error')).toBe('error');
  await expect(page.locator('#error')).toContainText('no morph targets');
  expect(await page.evaluate(() => (window.skinlab.info().vertices as number) > 0)).toBe(true);
  await page.goto('./?model=default&t=0.3&morphs=sideways&morph=happy');
  expect(await waitState(page, 'error')).toBe('error');
  await expect(page.locator('#error')).toContainText('morphs=sideways: unknown morph path; one of slots, texture, cpu');
  await expect(page.locator('#error')).toContainText('morph=happy: expected name:weight');
});
