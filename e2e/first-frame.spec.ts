import { expect, test, type Page } from '@playwright/test';
import { openApp, watchConsole } from './helpers.ts';

/**
 * Time to first frame (stats().firstFrame, src/app/first-frame.ts): set for the model the page starts with,
 * set again for a model switched to, and its parts add up to no more than the total.
 */

type FirstFrame = NonNullable<ReturnType<Window['skinlab']['stats']>['firstFrame']>;

async function firstFrame(page: Page): Promise<{ ms: number | null; parts: FirstFrame | null }> {
  return page.evaluate(() => {
    const s = window.skinlab.stats();
    return { ms: s.firstFrameMs, parts: s.firstFrame };
  });
}

function checkParts(ff: FirstFrame): void {
  const parts = [ff.fetchMs, ff.parseMs, ff.prepareMs, ff.uploadMs, ff.shadersMs, ff.waitMs, ff.drawMs];
  for (const p of parts) expect(p).toBeGreaterThanOrEqual(0);
  const sum = parts.reduce((a, b) => a + b, 0);
  expect(sum).toBeLessThanOrEqual(ff.totalMs + 1e-6);
  expect(ff.totalMs).toBeGreaterThan(0);
  // The page's clock at that frame is after the load started: at least the total since the page began.
  expect(ff.pageMs).toBeGreaterThanOrEqual(ff.totalMs);
}

test('stats().firstFrameMs: set at page start and again after a model switch, its parts within the total', async ({ page }) => {
  await page.setViewportSize({ width: 240, height: 180 });
  const con = watchConsole(page);
  await openApp(page, '?gui=0&grid=0&shadows=0&model=tiny');
  const start = await firstFrame(page);
  expect(start.ms).toBeGreaterThan(0);
  expect(start.parts!.model).toBe('tiny');
  expect(start.parts!.totalMs).toBe(start.ms);
  // The first frame compiled its programs: the shaders' share is not zero.
  expect(start.parts!.shadersMs).toBeGreaterThan(0);
  checkParts(start.parts!);

  await page.evaluate(() => window.skinlab.set({ model: 'default' }));
  const after = await firstFrame(page);
  expect(after.parts!.model).toBe('default');
  expect(after.ms).toBeGreaterThan(0);
  expect(after.parts!.pageMs).toBeGreaterThan(start.parts!.pageMs);
  checkParts(after.parts!);
  expect(con.errors).toEqual([]);
});

test('the first model is read and parsed once, by the worker started ahead of the page', async ({ page }) => {
  await page.setViewportSize({ width: 240, height: 180 });
  const con = watchConsole(page);
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('.x')) asked.push(r.url());
  });
  await openApp(page, '?gui=0&grid=0&shadows=0&model=tiny');
  const { parse, ff } = await page.evaluate(() => ({ parse: window.skinlab.info().parse as { where: string }, ff: window.skinlab.stats().firstFrame }));
  expect(asked).toHaveLength(1);
  expect(parse?.where).toBe('worker');
  // Read in the worker with the parse: the page itself fetched nothing.
  expect(ff?.fetchMs).toBeLessThan(5);
  expect(ff?.parseMs).toBeGreaterThan(0);
  expect(con.errors).toEqual([]);
});
