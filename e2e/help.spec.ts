import { expect, test } from '@playwright/test';
import { SHORTCUTS } from '../src/ui/shortcuts.ts';
import { openApp, watchConsole } from './helpers.ts';

/**
 * The help overlay (?) lists every shortcut of the key handler's table (src/ui/shortcuts.ts) and fits an
 * 800×600 window without scrolling.
 */
test('the help lists every key of the handler and fits 800×600 without scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  const con = watchConsole(page);
  // With the panels (the help is part of the page's chrome, which gui=0 hides).
  await openApp(page, '?grid=0&shadows=0');
  const help = page.locator('.help');
  await expect(help).toBeHidden();
  await page.keyboard.press('?');
  await expect(help).toBeVisible();
  const box = await help.evaluate((e) => ({ scroll: e.scrollHeight, client: e.clientHeight, top: e.getBoundingClientRect().top, bottom: e.getBoundingClientRect().bottom }));
  expect(box.scroll, 'no scrolling').toBeLessThanOrEqual(box.client);
  expect(box.top).toBeGreaterThanOrEqual(0);
  expect(box.bottom).toBeLessThanOrEqual(600);
  for (const s of SHORTCUTS) {
    const row = help.locator(`tr[data-action="${s.action}"]`);
    await expect(row, s.action).toHaveCount(1);
    await expect(row.locator('td').first()).toHaveText(s.label);
  }
  await expect(help).toContainText('Shift+V');
  await page.keyboard.press('?');
  await expect(help).toBeHidden();
  expect(con.errors).toEqual([]);
});

test('Shift+V steps the views backwards, V forwards', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 240 });
  await openApp(page, '?gui=0&grid=0&shadows=0');
  const view = (): Promise<string> => page.evaluate(() => String(window.skinlab.info().view));
  expect(await view()).toBe('shaded');
  await page.keyboard.press('v');
  const next = await view();
  expect(next).not.toBe('shaded');
  await page.keyboard.press('Shift+V');
  await expect.poll(view).toBe('shaded');
});
