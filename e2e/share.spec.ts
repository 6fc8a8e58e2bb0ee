import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { canvasShot, coverageOf, openApp, waitState, watchConsole } from './helpers';

/**
 * Links that reproduce a view: the page keeps its address in step with what is shown (defaults left out),
 * and a link opened in a fresh page draws the very same picture — every pixel — at the same size.
 */

/** The canvas alone, with the chrome hidden (H: the view is framed on the whole canvas), as a PNG. */
async function canvasPixels(page: Page): Promise<Buffer> {
  await page.keyboard.press('h');
  const png = await canvasShot(page);
  await page.keyboard.press('h');
  return png;
}

/** Pixels that differ at all (no tolerance). */
function exactDifference(pngA: Buffer, pngB: Buffer): number {
  const a = PNG.sync.read(pngA);
  const b = PNG.sync.read(pngB);
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let differing = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) differing++;
  }
  return differing;
}

/** A panel control by its accessible name (lil-gui labels each input with the controller's name). */
const control = (page: Page, label: string, tag: 'select' | 'input' = 'select') => page.getByLabel(label, { exact: true }).and(page.locator(tag));

/** Opens `url` in a new page of the same context and returns its canvas pixels. */
async function reopen(page: Page, url: string): Promise<{ png: Buffer; page: Page }> {
  const fresh = await page.context().newPage();
  const con = watchConsole(fresh);
  await fresh.goto(url);
  expect(await waitState(fresh, 'ready'), (await fresh.locator('#error').textContent()) ?? '').toBe('ready');
  const png = await canvasPixels(fresh);
  expect(con.errors).toEqual([]);
  return { png, page: fresh };
}

test('a dozen changes through the panel and the keys: the address follows, and the link redraws the same picture', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '');
  // Nothing changed yet: the address carries nothing.
  expect(new URL(page.url()).search).toBe('');
  const entries = await page.evaluate(() => history.length);

  await control(page, 'clip ([ ])').selectOption('wave');
  await control(page, 'technique (T)').selectOption('ff-indexed');
  await control(page, 'influences').selectOption('3');
  const palette = control(page, 'palette (ff-indexed)', 'input');
  await palette.fill('20');
  await palette.press('Enter');
  await page.locator('#view').focus();
  // V three times: shaded → wireframe → skeleton → weights; then a bone from the panel.
  for (let i = 0; i < 3; i++) await page.keyboard.press('v');
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info())).view).toBe('weights');
  const bones = (await page.evaluate(() => window.skinlab.info())).boneNames as string[];
  await control(page, 'bone (weights)').selectOption(bones[5]!);
  await page.locator('#view').focus();
  await page.keyboard.press('k');
  await page.keyboard.press('g');
  // Orbit, pan (shift-drag) and zoom with the mouse, on the canvas left of the panel.
  await page.mouse.move(250, 300);
  await page.mouse.down();
  await page.mouse.move(310, 270, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.down('Shift');
  await page.mouse.move(250, 300);
  await page.mouse.down();
  await page.mouse.move(230, 320, { steps: 3 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.mouse.wheel(0, -240);
  // Pause where the clip happens to be (the time the link carries is the one drawn).
  await page.keyboard.press(' ');
  await page.evaluate(() => window.skinlab.set({}));

  const { url, linkable } = await page.evaluate(() => window.skinlab.link());
  expect(linkable).toBe(true);
  const query = new URL(url).searchParams;
  expect(Object.fromEntries(query)).toMatchObject({ clip: 'wave', technique: 'ff-indexed', influences: '3', palette: '20', view: 'weights', bone: bones[5], skeleton: '1', grid: '0' });
  expect(query.get('camera')!.split(',')).toHaveLength(6);
  expect(Number(query.get('t'))).toBeGreaterThan(0);
  // Left out: the model (the default), speed, morph path, crowd.
  for (const key of ['model', 'speed', 'morphs', 'crowd', 'detail']) expect(query.has(key), key).toBe(false);
  // The address bar says the same, without a history entry per change.
  await expect.poll(() => page.url(), { timeout: 30_000 }).toBe(url);
  expect(await page.evaluate(() => history.length)).toBe(entries);

  const original = await canvasPixels(page);
  expect(coverageOf(original)).toBeGreaterThan(0.03);
  const { png: reopened, page: fresh } = await reopen(page, url);
  expect(exactDifference(original, reopened)).toBe(0);
  // The reopened page writes back the very same address.
  await expect.poll(() => fresh.url(), { timeout: 30_000 }).toBe(url);
  expect(con.errors).toEqual([]);
});

test('a model with morph targets: detail, hand-set weights, morph path and crowd survive a link', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?model=dawn&detail=low&t=1.25');
  expect(new URL(page.url()).searchParams.get('t')).toBe('1.25');
  await control(page, 'morph path').selectOption('texture');
  const slider = control(page, 'jaw_open', 'input');
  await slider.fill('0.63');
  await slider.press('Enter');
  await page.locator('#view').focus();
  await page.keyboard.press('t');
  await page.evaluate(() => window.skinlab.set({ speed: 0.5, camera: 'left' }));
  const { url } = await page.evaluate(() => window.skinlab.link());
  const query = Object.fromEntries(new URL(url).searchParams);
  expect(query).toMatchObject({ model: 'dawn', detail: 'low', t: '1.25', morphs: 'texture', speed: '0.5', camera: '-90,5,2.4' });
  expect(query.morph).toContain('jaw_open:0.63');
  expect(query.technique).toBeDefined();
  const original = await canvasPixels(page);
  expect(coverageOf(original)).toBeGreaterThan(0.03);
  const reopened = await reopen(page, url);
  // Closed at once: a page left open keeps drawing Dawn, and SwiftShader shares the CPU with the next one.
  await reopened.page.close();
  expect(exactDifference(original, reopened.png)).toBe(0);

  // A crowd from the API: the link carries it too.
  await page.evaluate(() => window.skinlab.set({ crowd: 4, morph: '' }));
  const crowd = await page.evaluate(() => window.skinlab.link());
  expect(new URL(crowd.url).searchParams.get('crowd')).toBe('4');
  expect(new URL(crowd.url).searchParams.has('morph')).toBe(false);
  const crowdPicture = await canvasPixels(page);
  expect(coverageOf(crowdPicture)).toBeGreaterThan(0.03);
  const again = await reopen(page, crowd.url);
  await again.page.close();
  expect(exactDifference(crowdPicture, again.png)).toBe(0);
  expect(con.errors).toEqual([]);
});

test('a model opened from a file cannot be linked: the panel and the notice say so, the link keeps the view', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?technique=dual-quat&skeleton=1');
  await page.setInputFiles('input[type=file]', 'public/models/tiny/tiny.x');
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info())).model, { timeout: 60_000 }).toBe('tiny.x');
  await waitState(page);
  expect((await page.evaluate(() => window.skinlab.info())).origin).toBe('file');
  const { url, linkable } = await page.evaluate(() => window.skinlab.link());
  expect(linkable).toBe(false);
  expect(new URL(url).search).toBe('?technique=dual-quat&skeleton=1');
  await expect(page.getByRole('button', { name: /Copy link.*not this file/ })).toBeVisible();
  await page.locator('#view').focus();
  await page.keyboard.press('l');
  await expect(page.locator('#toast')).toContainText('opened from a file');
  expect(con.errors).toEqual([]);
});
