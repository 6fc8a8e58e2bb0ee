import { expect, test } from '@playwright/test';
import { PROGRESS_SHOW_DELAY_MS } from '../src/ui/overlay.ts';
import { openApp, waitState, watchConsole } from './helpers.ts';

/**
 * The loading progress box (src/ui/overlay.ts) appears only once a load has lasted PROGRESS_SHOW_DELAY_MS; its
 * text follows the load from the start. The model's file is held back by the test, so the load lasts as long as
 * the test wants, whatever the machine's speed. Times are taken in the page: from just before the load is asked
 * for to the box seen shown (a MutationObserver), a gap a busy machine can only lengthen.
 */
test('a load shows its progress box, with Cancel, only after the delay; the text is there from the start', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?model=tiny&gui=0&shadows=0&grid=0');
  let release = (): void => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/models/wuson/Testwuson.X', async (route) => {
    await held;
    await route.continue();
  });
  await page.evaluate(() => {
    const box = document.querySelector('.progress') as HTMLElement;
    const text = box.querySelector('.progress-text') as HTMLElement;
    const seen = { askedAt: -1, text: '', shownAt: -1, hiddenWhileText: true };
    (window as unknown as { __progress: typeof seen }).__progress = seen;
    new MutationObserver(() => {
      const now = performance.now();
      if (seen.text === '' && text.textContent) {
        seen.text = text.textContent;
        seen.hiddenWhileText = box.hidden;
      }
      if (seen.shownAt < 0 && !box.hidden) seen.shownAt = now;
    }).observe(box, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  // The load's start is taken just before it is asked for: the box's timer starts later, so the gap measured
  // can only be longer than the timer's delay (an observer's callback runs late on a busy page, never early).
  const loaded = page.evaluate(() => {
    (window as unknown as { __progress: { askedAt: number } }).__progress.askedAt = performance.now();
    return window.skinlab.set({ model: 'wuson' });
  });
  await expect(page.locator('.progress')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.progress-cancel')).toBeVisible();
  release();
  await loaded;
  await waitState(page);
  await expect(page.locator('.progress')).toBeHidden();
  const seen = await page.evaluate(() => (window as unknown as { __progress: { askedAt: number; text: string; shownAt: number; hiddenWhileText: boolean } }).__progress);
  expect(seen.text).toMatch(/^Loading /);
  expect(seen.hiddenWhileText, 'the text is set before the box shows').toBe(true);
  expect(seen.shownAt - seen.askedAt).toBeGreaterThanOrEqual(PROGRESS_SHOW_DELAY_MS);
  expect((await page.evaluate(() => window.skinlab.info())).model).toBe('wuson');
  expect(con.errors).toEqual([]);
});
