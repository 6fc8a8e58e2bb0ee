import { expect, test } from '@playwright/test';
import { openApp, watchConsole } from './helpers.ts';

/**
 * A link naming a bone the model does not have is an error like any other bad parameter (the banner and
 * the console), naming the model's bones; the weights view then shows the model's default bone.
 */
test('?bone=nope&view=weights is an error that names the bones', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 240 });
  const con = watchConsole(page);
  await openApp(page, '?gui=0&grid=0&shadows=0&bone=nope&view=weights', 'error');
  const names = (await page.evaluate(() => window.skinlab.info().boneNames)) as string[];
  expect(names.length).toBeGreaterThan(0);
  const banner = page.locator('#error');
  await expect(banner).toContainText('bone=nope: no such bone');
  await expect(banner).toContainText(`${names.length} bones: ${names.slice(0, Math.min(names.length, 20)).join(', ')}`);
  expect(con.errors.some((e) => e.includes('bone=nope: no such bone'))).toBe(true);
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.view).toBe('weights');
  expect(names).toContain(info.bone);
});
