import { expect, test } from '@playwright/test';
import { PROGRESS_SHOW_DELAY_MS } from '../src/ui/overlay.ts';
import { openApp, waitState, watchConsole } from './helpers.ts';

/**
 * The loading progress box (src/ui/overlay.ts) appears only once a load has lasted PROGRESS_SHOW_DELAY_MS; its
 * text follows the load from the start. The model's file is held back by the test, so the load lasts as long as
 * the test wants, whatever the machine's speed. Times are taken in the page, by a MutationObserver: a timer
 * never fires early, so the gap it measures cannot be shorter than the delay on a busy machine either.
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
    const seen = { textAt: -1, text: '', shownAt: -1, hiddenWhileText: true };
    (window as unknown as { __progress: typeof seen }).__progress = seen;
    new MutationObserver(() => {
      const now = performance.now();
      if (seen.textAt < 0 && text.textContent) {
        seen.textAt = now;
        seen.text = text.textContent;
        seen.hiddenWhileText = box.hidden;
      }
      if (seen.shownAt < 0 && !box.hidden) seen.shownAt = now;
    }).observe(box, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const loaded = page.evaluate(() => window.skinlab.set({ model: 'wuson' }));
  await expect(page.locator('.progress')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.progress-cancel')).toBeVisible();
  release();
  await loaded;
  await waitState(page);
  await expect(page.locator('.progress')).toBeHidden();
  const seen = await page.evaluate(() => (window as unknown as { __progress: { textAt: number; text: string; shownAt: number; hiddenWhileText: boolean } }).__progress);
  expect(seen.text).toMatch(/^Loading /);
  expect(seen.hiddenWhileText, 'the text is set before the box shows').toBe(true);
  expect(seen.shownAt - seen.textAt).toBeGreaterThanOrEqual(PROGRESS_SHOW_DELAY_MS - 1);
  expect((await page.evaluate(() => window.skinlab.info())).model).toBe('wuson');
  expect(con.errors).toEqual([]);
});
