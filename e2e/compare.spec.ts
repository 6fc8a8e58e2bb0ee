import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { openApp, waitState, watchConsole } from './helpers.ts';

/**
 * Side-by-side compare (`compare=A,B`, docs/compare.md) on the twist rig at its 180° twist (src/gen/twist.ts),
 * where linear blending pinches the joint and dual quaternions keep it: each half draws its own technique —
 * the left half is a plain render of A at the half's size, cropped, the right one of B — one camera moves
 * both, the divider drags, the link carries the pair, and a bad pair shows the page's error.
 */

/** The pair under test: A left, B right (any technique the twist rig can draw). */
const PAIR = ['vs-hlsl', 'cor'] as const;
const TWIST = '?model=twist&clip=twist&t=2&gui=0';
/** The compare canvas; each half is HALF × H pixels. */
const HALF = 200;
const H = 180;

async function canvasShot(page: Page, name: string): Promise<PNG> {
  const bytes = await page.locator('#view').screenshot();
  await test.info().attach(name, { body: bytes, contentType: 'image/png' });
  return PNG.sync.read(bytes);
}

/** Pixels of `a` (columns a0…a0+width−1) and `b` (from b0) that differ by more than `tol` (sum over RGB). */
function differing(a: PNG, a0: number, b: PNG, b0: number, width: number, tol = 24): number {
  let n = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * a.width + a0 + x) * 4;
      const j = (y * b.width + b0 + x) * 4;
      if (Math.abs(a.data[i]! - b.data[j]!) + Math.abs(a.data[i + 1]! - b.data[j + 1]!) + Math.abs(a.data[i + 2]! - b.data[j + 2]!) > tol) n++;
    }
  }
  return n;
}

test('each half draws its own technique: the halves equal plain renders at the half size, and differ from each other', async ({ page }) => {
  test.setTimeout(120_000);
  const con = watchConsole(page);
  await page.setViewportSize({ width: 2 * HALF, height: H });
  await openApp(page, `${TWIST}&compare=${PAIR.join(',')}`);
  expect(await page.evaluate(() => window.skinlab.info().compare)).toEqual({ a: PAIR[0], b: PAIR[1], split: 0.5 });
  const split = await canvasShot(page, 'compare.png');
  expect(split.width).toBe(2 * HALF);

  await page.setViewportSize({ width: HALF, height: H });
  const plain: PNG[] = [];
  for (const technique of PAIR) {
    await openApp(page, `${TWIST}&technique=${technique}`);
    plain.push(await canvasShot(page, `plain-${technique}.png`));
  }
  const pixels = HALF * H;
  expect(differing(split, 0, plain[0]!, 0, HALF) / pixels, `left half = plain ${PAIR[0]}`).toBeLessThanOrEqual(0.005);
  expect(differing(split, HALF, plain[1]!, 0, HALF) / pixels, `right half = plain ${PAIR[1]}`).toBeLessThanOrEqual(0.005);
  // The candy wrapper against the kept joint: clearly more than the tolerance above.
  expect(differing(split, 0, split, HALF, HALF) / pixels, 'the halves differ').toBeGreaterThan(0.02);
  expect(con.errors).toEqual([]);
});

test('one camera: orbiting moves both halves; the link carries the pair and the C key toggles it', async ({ page }) => {
  test.setTimeout(120_000);
  const con = watchConsole(page);
  await page.setViewportSize({ width: 2 * HALF, height: H });
  await openApp(page, `${TWIST}&compare=${PAIR.join(',')}`);
  const before = await canvasShot(page, 'before-orbit.png');
  await page.mouse.move(HALF * 0.5, H / 2);
  await page.mouse.down();
  await page.mouse.move(HALF * 0.5 + 60, H / 2 + 10, { steps: 4 });
  await page.mouse.up();
  await page.evaluate(() => window.skinlab.set({}));
  const after = await canvasShot(page, 'after-orbit.png');
  const pixels = HALF * H;
  expect(differing(before, 0, after, 0, HALF) / pixels, 'the left half turned').toBeGreaterThan(0.02);
  expect(differing(before, HALF, after, HALF, HALF) / pixels, 'the right half turned').toBeGreaterThan(0.02);
  // The same camera in both halves: with A = B the halves are the same picture.
  await page.evaluate((a) => window.skinlab.set({ compare: `${a},${a}` }), PAIR[0]);
  const same = await canvasShot(page, 'same-pair.png');
  expect(differing(same, 0, same, HALF, HALF) / pixels).toBeLessThanOrEqual(0.005);

  // The link: the pair and a moved divider go into it and come back from it.
  await page.evaluate((p) => window.skinlab.set({ compare: p, compareSplit: 0.4 }), PAIR.join(','));
  const { url } = await page.evaluate(() => window.skinlab.link());
  expect(url).toContain(`compare=${PAIR.join(',')}`);
  expect(url).toContain('compareSplit=0.4');
  await page.goto(url);
  await waitState(page);
  expect(await page.evaluate(() => window.skinlab.info().compare)).toEqual({ a: PAIR[0], b: PAIR[1], split: 0.4 });
  await page.evaluate(() => window.skinlab.set({ compare: 'off' }));
  expect(await page.evaluate(() => window.skinlab.info().compare)).toBeNull();
  expect((await page.evaluate(() => window.skinlab.link())).url).not.toContain('compare');

  // C: on with the single view's technique against dual-quat, off again, on with the last pair.
  await page.evaluate(() => window.skinlab.set({ technique: 'software' }));
  await page.keyboard.press('c');
  await expect.poll(() => page.evaluate(() => window.skinlab.info().compare)).toEqual({ a: 'software', b: 'dual-quat', split: 0.4 });
  expect(await page.evaluate(() => window.skinlab.info().technique)).toBe('software');
  await page.keyboard.press('c');
  await expect.poll(() => page.evaluate(() => window.skinlab.info().compare)).toBeNull();
  expect(con.errors).toEqual([]);
});

test('the divider drags with the pointer and moves with the arrow keys', async ({ page }) => {
  test.setTimeout(90_000);
  const con = watchConsole(page);
  await page.setViewportSize({ width: 2 * HALF, height: H });
  await openApp(page, `?model=twist&clip=twist&t=2&compare=${PAIR.join(',')}`);
  const divider = page.locator('.compare-divider');
  await expect(divider).toBeVisible();
  await expect(page.locator('.compare-label-left')).toContainText(PAIR[0]);
  await expect(page.locator('.compare-label-right')).toContainText(PAIR[1]);
  const camera = await page.evaluate(() => window.skinlab.info().camera);
  const box = (await divider.boundingBox())!;
  expect(box.x + box.width / 2).toBeCloseTo(HALF, -1);
  await page.mouse.move(box.x + box.width / 2, H * 0.8);
  await page.mouse.down();
  await page.mouse.move(2 * HALF * 0.3, H * 0.8, { steps: 5 });
  await page.mouse.up();
  const split = await page.evaluate(() => (window.skinlab.info().compare as { split: number }).split);
  expect(split).toBeGreaterThan(0.27);
  expect(split).toBeLessThan(0.33);
  // The camera did not move: the drag was the divider's.
  expect(await page.evaluate(() => window.skinlab.info().camera)).toEqual(camera);
  await divider.focus();
  await page.keyboard.press('ArrowRight');
  const moved = await page.evaluate(() => (window.skinlab.info().compare as { split: number }).split);
  expect(moved).toBeCloseTo(split + 0.02, 5);
  // The arrow went to the divider, not to the clip (the time stays pinned at 2 s).
  expect(await page.evaluate(() => window.skinlab.info().t)).toBe(2);
  expect(con.errors).toEqual([]);
});

test('a bad pair shows the error, never a blank page', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 2 * HALF, height: H });
  for (const bad of ['vs-hlsl,nope', 'vs-hlsl']) {
    await openApp(page, `${TWIST}&compare=${bad}`, 'error');
    await expect(page.locator('#error')).toBeVisible();
    await expect(page.locator('#error')).toContainText(`compare=${bad}`);
    // The model still drew, in the single view.
    expect(await page.evaluate(() => window.skinlab.info().model)).toBe('twist');
    expect(await page.evaluate(() => window.skinlab.info().compare)).toBeNull();
  }
});

test('the panel’s “compare with…” menu turns compare on with the chosen technique, changes it, and turns it off', async ({ page }) => {
  test.setTimeout(90_000);
  const con = watchConsole(page);
  await page.setViewportSize({ width: 2 * HALF + 320, height: H + 200 });
  await openApp(page, '?model=twist&clip=twist&t=2');
  const single = await page.evaluate(() => window.skinlab.info().technique);
  const menu = page.locator('.lil-controller', { hasText: 'compare with' }).locator('select');
  await menu.selectOption('cor');
  await expect.poll(() => page.evaluate(() => window.skinlab.info().compare)).toEqual({ a: single, b: 'cor', split: 0.5 });
  await menu.selectOption('dual-quat');
  await expect.poll(() => page.evaluate(() => window.skinlab.info().compare)).toEqual({ a: single, b: 'dual-quat', split: 0.5 });
  await expect(menu).toHaveValue('dual-quat');
  await menu.selectOption('off');
  await expect.poll(() => page.evaluate(() => window.skinlab.info().compare)).toBeNull();
  expect(con.errors).toEqual([]);
});
