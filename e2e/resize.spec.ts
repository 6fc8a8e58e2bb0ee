import { expect, test, type Page } from '@playwright/test';
import { coverageOf, openApp, pixelDifference, watchConsole } from './helpers.ts';

/**
 * A window resized after the model has loaded draws what a fresh load at the new size draws: the canvas
 * follows the window, and the camera's projection follows the canvas's aspect. The camera is placed by the
 * link (`camera=yaw,pitch,distance`), so a resize changes only the aspect (no re-framing moves the camera),
 * the case a projection computed once at load would get wrong: a picture stretched to the new shape.
 * Small canvases, the Walker paused, the floor off (the comparison is about the figure).
 */

const QUERY = '?gui=0&grid=0&t=0.5&camera=25,12,2.4';
const WIDE = { width: 320, height: 240 };
const TALL = { width: 240, height: 320 };

/** Resizes the window and resolves once a frame has been drawn at the new canvas size. */
async function resize(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.waitForFunction(
    ([w, h]) => {
      const c = document.getElementById('view') as HTMLCanvasElement;
      return c.width === w && c.height === h;
    },
    [size.width, size.height] as const,
    { timeout: 10_000 },
  );
  // set() resolves after the next frame is drawn: one drawn after the canvas took the new size.
  await page.evaluate(() => window.skinlab.set({}));
}

test('a resize after load draws what a fresh load at the new size draws (the projection follows the aspect)', async ({ page, browser }) => {
  const con = watchConsole(page);
  await page.setViewportSize(WIDE);
  await openApp(page, QUERY);
  const wideAtLoad = await page.locator('#view').screenshot();
  await resize(page, TALL);
  const tallAfterResize = await page.locator('#view').screenshot();

  const fresh = await browser.newPage({ viewport: TALL });
  const freshCon = watchConsole(fresh);
  await openApp(fresh, QUERY);
  const tallFresh = await fresh.locator('#view').screenshot();
  await fresh.close();
  await test.info().attach('tall-fresh', { body: tallFresh, contentType: 'image/png' });
  await test.info().attach('tall-after-resize', { body: tallAfterResize, contentType: 'image/png' });

  // Both pictures show the figure (an empty canvas would match an empty canvas).
  expect(coverageOf(tallFresh), 'share of the fresh tall canvas the figure covers').toBeGreaterThan(0.03);
  const tall = pixelDifference(tallFresh, tallAfterResize);
  // And back: the wide picture of the first load, drawn again after two resizes.
  await resize(page, WIDE);
  const wide = pixelDifference(wideAtLoad, await page.locator('#view').screenshot());
  console.log(`[resize] differing pixels: resized to tall vs fresh tall ${(tall * 100).toFixed(3)} %, back to wide vs the first load ${(wide * 100).toFixed(3)} %`);
  expect(tall, 'resized wide → tall against a fresh load at the tall size').toBeLessThanOrEqual(0.002);
  expect(wide, 'resized back to wide against the first load').toBeLessThanOrEqual(0.002);
  expect(con.errors).toEqual([]);
  expect(freshCon.errors).toEqual([]);
});
