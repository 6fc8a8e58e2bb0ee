import { expect, test } from '@playwright/test';
import { BUILTIN_MODELS } from '../src/app/builtins.ts';
import type { RecordApi, RecordRequest } from '../src/app/record-plan.ts';
import { openApp, watchConsole } from './helpers.ts';

/**
 * The committed visual baselines: every built-in model × every technique of this build × 3 evenly
 * spaced times of its start clip (one time for a model without clips), 320×240, floor off (the baselines are about the skin, and small),
 * rendered through the page's recorder (the same capture as `npm run screenshots`; snapshot names are
 * the recording's file names as Playwright spells them). Re-record after an intended change with
 *   npx playwright test e2e/visual.spec.ts --update-snapshots
 * and look at the changed PNGs under e2e/__screenshots__/visual.spec.ts/ before committing them.
 */

type RecordWindow = Window & { skinlab: RecordApi };

const REQUEST: RecordRequest = {
  clips: [],
  times: [],
  frames: 3,
  techniques: 'all',
  views: ['shaded'],
  cameras: ['auto'],
  size: { width: 320, height: 240 },
};

/** Same tolerance as the other screenshot tests (playwright.config.ts): another machine's SwiftShader may round differently. */
const TOLERANCE = { maxDiffPixelRatio: 0.01, threshold: 0.15 };

for (const model of BUILTIN_MODELS) {
  test(`${model.id}: every technique at 3 times`, async ({ page }) => {
    test.setTimeout(120_000);
    const con = watchConsole(page);
    await page.setViewportSize(REQUEST.size);
    await openApp(page, `?model=${model.id}&gui=0&grid=0&t=0`);
    const info = await page.evaluate(() => window.skinlab.info());
    const plan = await page.evaluate((r) => (window as unknown as RecordWindow).skinlab.recordPlan(r), REQUEST);
    // Every technique the build has is planned; one the model cannot use says why.
    expect(new Set(plan.shots.map((s) => s.technique))).toEqual(new Set(info.techniques as string[]));
    for (const s of plan.shots) if (s.skipped !== null) test.info().annotations.push({ type: 'skipped', description: `${s.file}: ${s.skipped}` });
    const rendered = plan.shots.filter((s) => s.skipped === null);
    expect(rendered.length, 'techniques that can draw this model').toBeGreaterThanOrEqual(3);
    for (const { skipped: _, ...shot } of rendered) {
      const capture = await page.evaluate((s) => (window as unknown as RecordWindow).skinlab.capture(s), shot);
      expect.soft(Buffer.from(capture.png, 'base64')).toMatchSnapshot(shot.file, TOLERANCE);
    }
    expect(con.errors).toEqual([]);
  });
}
