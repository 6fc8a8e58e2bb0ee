import { expect, test } from '@playwright/test';
import { openApp, watchConsole } from './helpers.ts';

/**
 * cor's centres and ddm's Ω are load-time data (src/app/deform-gate.ts): the first switch to such a technique
 * runs the precompute in a worker while the page keeps drawing the technique it had, with progress in the page,
 * then draws the new one; the result is kept for the session, so coming back to the model costs nothing.
 * Dawn at detail=low with ddm: about a second of precompute, long enough to watch (its figure is in info()).
 */

test('ddm precomputes in a worker while the page keeps drawing, with progress, and the result is kept for the session', async ({ page }) => {
  test.setTimeout(120_000);
  const con = watchConsole(page);
  await openApp(page, '?model=dawn&detail=low&clip=idle');
  // Records every progress message the page shows from now on.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    const text = document.querySelector('.progress-text')!;
    new MutationObserver(() => seen.push(text.textContent ?? '')).observe(text, { childList: true, characterData: true, subtree: true });
  });
  const framesBefore = await page.evaluate(() => window.skinlab.frames());
  // The panel's menu, as a user switches (no set(): nothing waits for the data).
  await page.locator('.lil-controller', { hasText: 'technique' }).locator('select').selectOption({ label: 'ddm' });
  await expect.poll(() => page.evaluate(() => window.skinlab.stats().technique), { timeout: 60_000 }).toBe('ddm');
  const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
  expect(seen.some((t) => /Precomputing direct delta mush matrices/.test(t)), `progress shown: ${JSON.stringify(seen.slice(0, 3))}`).toBe(true);
  const info = await page.evaluate(() => window.skinlab.info());
  const pre = info.precompute as { ddm?: { ms: number; where: string } };
  expect(pre.ddm?.where).toBe('worker');
  expect(pre.ddm!.ms).toBeGreaterThan(0);
  // The page drew frames meanwhile (the old technique), and the new one matches its CPU reference.
  expect(await page.evaluate(() => window.skinlab.frames())).toBeGreaterThan(framesBefore + 2);
  const check = await page.evaluate(() => window.skinlab.skinCheck('ddm'));
  expect(check.maxError / check.modelSize).toBeLessThanOrEqual(1e-4);
  // Another model and back: the session keeps the data (no second precompute).
  await page.evaluate(() => window.skinlab.set({ model: 'twist', technique: 'vs-hlsl' }));
  await page.evaluate(() => window.skinlab.set({ model: 'dawn', detail: 'low', clip: 'idle', technique: 'ddm' }));
  const again = (await page.evaluate(() => window.skinlab.info())).precompute as { ddm?: { where: string } };
  expect(again.ddm?.where).toBe('cache');
  expect(await page.evaluate(() => window.skinlab.stats().technique)).toBe('ddm');
  expect(con.errors).toEqual([]);
});

test('Cancel during a precompute keeps the technique on screen', async ({ page }) => {
  test.setTimeout(120_000);
  const con = watchConsole(page);
  await openApp(page, '?model=dawn&detail=medium&clip=idle');
  // The user's click on Cancel, as soon as the precompute's progress shows (no race with how fast it runs).
  await page.evaluate(() => {
    const text = document.querySelector('.progress-text')!;
    const observer = new MutationObserver(() => {
      if (!/Precomputing/.test(text.textContent ?? '')) return;
      observer.disconnect();
      (window as unknown as { cancelled: boolean }).cancelled = true;
      document.querySelector<HTMLButtonElement>('.progress-cancel')!.click();
    });
    observer.observe(text, { childList: true, characterData: true, subtree: true });
  });
  await page.locator('.lil-controller', { hasText: 'technique' }).locator('select').selectOption({ label: 'ddm' });
  await expect.poll(() => page.evaluate(() => (window as unknown as { cancelled?: boolean }).cancelled === true)).toBe(true);
  await expect.poll(() => page.evaluate(() => window.skinlab.info().technique)).toBe('vs-hlsl');
  await expect(page.locator('.progress')).toBeHidden();
  // Nothing finishes behind the user's back: the page keeps drawing vs-hlsl.
  await page.waitForTimeout(3000);
  expect(await page.evaluate(() => window.skinlab.stats().technique)).toBe('vs-hlsl');
  expect(await page.evaluate(() => window.skinlab.info().technique)).toBe('vs-hlsl');
  expect(con.errors).toEqual([]);
});
