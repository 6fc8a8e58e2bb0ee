import { expect, test } from '@playwright/test';
import { BUILTIN_MODELS } from '../src/app/builtins.ts';
import type { RecordApi, RecordRequest } from '../src/app/record-plan.ts';
import { coverageOf, openApp, pixelDifference, watchConsole } from './helpers.ts';

/**
 * The committed visual baselines: every built-in model × every technique of this build × 3 evenly
 * spaced times of its start clip (one time for a model without clips), 320×240, floor off (the baselines are about the skin, and small),
 * rendered through the page's recorder (the same capture as `npm run screenshots`; snapshot names are
 * the recording's file names as Playwright spells them). Re-record after an intended change with
 *   npx playwright test e2e/visual.spec.ts --update-snapshots
 * and look at the changed PNGs under e2e/__screenshots__/visual.spec.ts/ before committing them.
 *
 * The comparison must be able to fail. At the old tolerance (threshold 0.15, 1 % of pixels) a canvas without
 * the model matched every Walker baseline (most of the small figure is within 0.15 of the background: 0.8–0.9 %
 * of pixels differed), and Dawn and the zombie frozen at t=0 matched their later baselines. So each shot also
 * asserts that the model covers a share of the picture, each later time of a clip differs from the t=0 shot
 * (the animation plays), and the comparison is tight enough that either failure exceeds it.
 */

type RecordWindow = Window & { skinlab: RecordApi };

/**
 * More URL parameters per model. Dawn at its low detail: the same skeleton, clips and morph targets as medium
 * on a third of the file, and a 320×240 shot does not resolve medium's finer mesh (dawn.spec.ts covers the levels).
 */
const EXTRA: Record<string, string> = { dawn: '&detail=low' };

const REQUEST: RecordRequest = {
  clips: [],
  times: [],
  frames: 3,
  techniques: 'all',
  views: ['shaded'],
  cameras: ['auto'],
  size: { width: 320, height: 240 },
};

/**
 * Per-pixel colour threshold (pixelmatch's YIQ distance, 0..1) and share of pixels allowed past it. The
 * baselines were recorded on this machine type and SwiftShader reproduces them exactly here; the margin is
 * for another CPU's rounding. Against the baselines, with this tolerance (measured): no model at all
 * differs on ≥ 3.5 % of pixels at every shot; the model frozen at t=0 on ≥ 1.7 % at every later time.
 */
const TOLERANCE = { maxDiffPixelRatio: 0.002, threshold: 0.05 };
/** Least share of a 320×240 shot the model covers (the smallest baseline, tiny, covers 4.2 %). */
const MIN_COVERAGE = 0.02;
/** Least share of pixels a later time of a clip changes against t=0 (the stillest, the zombie, changes 1.5 %). */
const MIN_MOTION = 0.005;

for (const model of BUILTIN_MODELS) {
  test(`${model.id}: every technique at 3 times`, async ({ page }) => {
    test.setTimeout(120_000);
    const con = watchConsole(page);
    await page.setViewportSize(REQUEST.size);
    await openApp(page, `?model=${model.id}${EXTRA[model.id] ?? ''}&gui=0&grid=0&t=0&shading=studio`);
    const info = await page.evaluate(() => window.skinlab.info());
    const plan = await page.evaluate((r) => (window as unknown as RecordWindow).skinlab.recordPlan(r), REQUEST);
    // Every technique the build has is planned; one the model cannot use says why.
    expect(new Set(plan.shots.map((s) => s.technique))).toEqual(new Set(info.techniques as string[]));
    for (const s of plan.shots) if (s.skipped !== null) test.info().annotations.push({ type: 'skipped', description: `${s.file}: ${s.skipped}` });
    const rendered = plan.shots.filter((s) => s.skipped === null);
    expect(rendered.length, 'techniques that can draw this model').toBeGreaterThanOrEqual(3);
    /** Each technique's first (t=0) shot, against which its later times must show motion. */
    const first = new Map<string, { t: number; png: Buffer }>();
    for (const { skipped: _, ...shot } of rendered) {
      const capture = await page.evaluate((s) => (window as unknown as RecordWindow).skinlab.capture(s), shot);
      const png = Buffer.from(capture.png, 'base64');
      expect.soft(coverageOf(png), `${shot.file}: share of the shot the model covers`).toBeGreaterThan(MIN_COVERAGE);
      const start = first.get(shot.technique);
      if (!start) first.set(shot.technique, { t: shot.t, png });
      else expect.soft(pixelDifference(start.png, png), `${shot.file}: pixels changed since t=${start.t}`).toBeGreaterThan(MIN_MOTION);
      expect.soft(png).toMatchSnapshot(shot.file, TOLERANCE);
    }
    expect(con.errors).toEqual([]);
  });
}
