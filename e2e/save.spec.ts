import { readFileSync } from 'node:fs';
import { expect, test, type Download, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { coverageOf, openApp, watchConsole } from './helpers.ts';

/**
 * "Save picture": the S key and the panel's button download the canvas as a PNG at the drawing buffer's
 * size, named after the model, clip and time; the panel's Fullscreen button toggles fullscreen.
 */

/** The downloaded PNG: its name, and whether it is the canvas (same pixel size, the model drawn on the background). */
async function checkPicture(page: Page, download: Download, keep: string): Promise<void> {
  expect(download.suggestedFilename()).toBe('skinlab-default-walk-t0.500.png');
  await download.saveAs(keep);
  const bytes = readFileSync(keep);
  const png = PNG.sync.read(bytes);
  const [width, height] = await page.evaluate(() => window.skinlab.info().canvas as [number, number]);
  expect([png.width, png.height]).toEqual([width, height]);
  // Not a blank (cleared or discarded) buffer: a good share of pixels unlike the background.
  expect(coverageOf(bytes)).toBeGreaterThan(0.05);
}

test('S and the panel button save the canvas as a PNG; Fullscreen toggles', async ({ page }, testInfo) => {
  const { errors } = watchConsole(page);
  await openApp(page, '?t=0.5');

  const byKey = page.waitForEvent('download');
  await page.keyboard.press('s');
  await checkPicture(page, await byKey, testInfo.outputPath('key.png'));

  const byButton = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save picture (S)' }).click();
  await checkPicture(page, await byButton, testInfo.outputPath('button.png'));

  const fullscreen = page.getByRole('button', { name: 'Fullscreen' });
  await fullscreen.click();
  await expect(page.getByRole('button', { name: 'Exit fullscreen' })).toBeVisible();
  expect(await page.evaluate(() => document.fullscreenElement === document.documentElement)).toBe(true);
  await page.getByRole('button', { name: 'Exit fullscreen' }).click();
  await expect(fullscreen).toBeVisible();
  expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();
  expect(errors).toEqual([]);
});
