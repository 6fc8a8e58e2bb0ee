import { expect, test, type Page } from '@playwright/test';
import { openApp, watchConsole } from './helpers.ts';

/**
 * Switching from a crowd of one model to the single view of another must not touch the GL objects of the
 * model it leaves (deleted with it): no GL error, no WebGL warning on the console. The page's context is
 * read back through the canvas (getContext returns the context the page made).
 */

async function glError(page: Page): Promise<number> {
  return page.evaluate(() => (document.querySelector('#view') as HTMLCanvasElement).getContext('webgl2')!.getError());
}

test('a crowd of tiny, then the default model alone: no GL error, no console error', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 320, height: 240 });
  const con = watchConsole(page);
  // Chromium reports a GL call on a deleted object as a console warning ("WebGL: INVALID_OPERATION: …").
  const webgl: string[] = [];
  page.on('console', (m) => {
    if (m.text().startsWith('WebGL:')) webgl.push(m.text());
  });
  await openApp(page, '?gui=0&grid=0&shadows=0');
  expect(await glError(page)).toBe(0);
  await page.evaluate(() => window.skinlab.set({ model: 'tiny', crowd: 10 }));
  expect(await page.evaluate(() => window.skinlab.info().model)).toBe('tiny');
  expect(await glError(page)).toBe(0);
  await page.evaluate(() => window.skinlab.set({ model: 'default', crowd: 1 }));
  // A few more frames after the switch.
  for (let i = 0; i < 3; i++) await page.evaluate(() => window.skinlab.set({}));
  expect(await glError(page)).toBe(0);
  expect(webgl).toEqual([]);
  expect(con.errors).toEqual([]);
  // And back again, with a crowd of the default model.
  await page.evaluate(() => window.skinlab.set({ model: 'tiny', crowd: 10 }));
  await page.evaluate(() => window.skinlab.set({ model: 'default', crowd: 4 }));
  await page.evaluate(() => window.skinlab.set({ crowd: 1 }));
  expect(await glError(page)).toBe(0);
  expect(webgl).toEqual([]);
  expect(con.errors).toEqual([]);
});
