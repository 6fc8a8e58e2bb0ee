import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { openApp, watchConsole } from './helpers.ts';

/**
 * Picking and seeking as in the tools users know: the bone under the mouse is named by the pointer, a click
 * selects it for the weights view (a drag still orbits), and the tracks timeline seeks on a click and scrubs
 * on a drag. The Walker on a small canvas.
 */
test.use({ viewport: { width: 480, height: 360 } });

/** Pixels of the view in the skeleton overlay's highlight colour (cyan: 0.2, 0.95, 1.0). */
async function cyanPixels(page: Page): Promise<number> {
  await page.evaluate(() => window.skinlab.set({}));
  const { data } = PNG.sync.read(await page.locator('#view').screenshot());
  let n = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i]! < 110 && data[i + 1]! > 190 && data[i + 2]! > 220) n++;
  return n;
}

/** The model's screen box (canvas pixels): pixels unlike the background, the floor off, the overlays' rectangles left out. */
async function modelBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  await page.evaluate(() => window.skinlab.set({ grid: 0 }));
  const png = PNG.sync.read(await page.locator('#view').screenshot());
  await page.evaluate(() => window.skinlab.set({ grid: 1 }));
  const covers = await page.evaluate(() =>
    ['.lil-gui', '#stats'].map((q) => document.querySelector(q)?.getBoundingClientRect()).filter((r) => r !== undefined).map((r) => [r!.left, r!.top, r!.right, r!.bottom]),
  );
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      if (covers.some(([l, t, r, b]) => x >= l! - 2 && x <= r! + 2 && y >= t! - 2 && y <= b! + 2)) continue;
      const i = (y * png.width + x) * 4;
      if (Math.abs(png.data[i]! - 27) + Math.abs(png.data[i + 1]! - 29) + Math.abs(png.data[i + 2]! - 34) <= 30) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** The hovered and selected bones, the weights view's bone, and the camera's yaw. */
async function picked(page: Page): Promise<{ hover: string | null; selected: string | null; bone: string; yaw: number; names: string[] }> {
  return page.evaluate(() => {
    const i = window.skinlab.info();
    return { hover: i.hoverBone as string | null, selected: i.selectedBone as string | null, bone: i.bone as string, yaw: (i.camera as { yaw: number }).yaw, names: i.boneNames as string[] };
  });
}

test('hovering names the bone under the pointer, a click selects it, a drag orbits without selecting', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?t=0.5&skeleton=1');
  const view = (await page.locator('#view').boundingBox())!;
  // The torso of the Walker, framed into the area the panel and the stats box leave free: the middle of its
  // silhouette outside those two, 30 % down from the top of the head.
  const box = await modelBox(page);
  const x = view.x + box.x + box.width / 2;
  const y = view.y + box.y + box.height * 0.3;
  const label = page.locator('.bone-label');
  await page.mouse.move(x, y);
  await expect.poll(async () => (await picked(page)).hover).not.toBeNull();
  const before = await picked(page);
  expect(before.names).toContain(before.hover);
  expect(before.selected, 'nothing chosen yet').toBeNull();
  await expect(label).toBeVisible();
  await expect(label).toHaveText(before.hover!);
  // The torso is not the Walker's default weights bone (the one weighting the most vertices: a thigh).
  expect(before.bone).not.toBe(before.hover);

  // The pointer rests; the model moves away under it (the camera's target far to one side): the label goes
  // without a pointer move, and comes back when the camera does.
  await page.evaluate(() => window.skinlab.set({ camera: '0,0,2,1000,0,0' }));
  await expect.poll(async () => (await picked(page)).hover).toBeNull();
  await expect(label).toBeHidden();
  await page.evaluate(() => window.skinlab.set({ camera: 'auto' }));
  await expect.poll(async () => (await picked(page)).hover).toBe(before.hover);

  // Empty space: no label.
  await page.mouse.move(view.x + 12, view.y + 12);
  await expect.poll(async () => (await picked(page)).hover).toBeNull();
  await expect(label).toBeHidden();
  const cyanBefore = await cyanPixels(page);

  // A click on the torso selects its bone: the weights view's bone, the link's `bone`, the panel's menu.
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.up();
  await expect.poll(async () => (await picked(page)).selected).toBe(before.hover);
  expect((await picked(page)).bone).toBe(before.hover);
  expect(await page.evaluate(() => new URL(window.skinlab.link().url).searchParams.get('bone'))).toBe(before.hover);
  // The skeleton overlay draws the selected bone in cyan (the label, also cyan, hides off the model).
  await page.mouse.move(view.x + 12, view.y + 12);
  await expect(label).toBeHidden();
  const cyanAfter = await cyanPixels(page);
  expect(cyanBefore).toBeLessThan(5);
  expect(cyanAfter).toBeGreaterThan(20);
  await page.evaluate(() => window.skinlab.set({ view: 'weights' }));
  expect((await page.evaluate(() => window.skinlab.stats().bone)) as string).toBe(before.hover);
  await expect(page.locator('.lil-controller', { hasText: 'bone (weights)' }).locator('select')).toHaveValue(before.hover!);

  // A drag starting on the model orbits and leaves the selection as it was. The weights bone goes back to
  // the default first, so a selection by the drag would show.
  await page.evaluate((b) => window.skinlab.set({ bone: b }), before.bone);
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 30, y, { steps: 4 });
  await page.mouse.move(x + 60, y, { steps: 4 });
  await page.mouse.up();
  await page.evaluate(() => window.skinlab.set({}));
  const after = await picked(page);
  expect(Math.abs(after.yaw - before.yaw), 'the camera turned').toBeGreaterThan(5);
  expect(after.bone).toBe(before.bone);
  expect(after.selected).toBe(before.bone);
  expect(con.errors).toEqual([]);
});

/** Client x of `fraction` of the timeline's bar (timeline.ts: an 86 px label column, 260 px in all). */
async function barX(page: Page, fraction: number): Promise<{ x: number; y: number }> {
  const box = (await page.locator('svg.timeline').boundingBox())!;
  return { x: box.x + 86 + fraction * (260 - 86 - 2), y: box.y + 8 };
}

test('the timeline seeks on a click and scrubs on a drag; playback resumes, keys still work', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?t=0.2');
  const timeline = page.locator('svg.timeline');
  await expect(timeline).toBeVisible();
  expect(await timeline.evaluate((c) => getComputedStyle(c).cursor)).toBe('ew-resize');
  const duration = (await page.evaluate(() => window.skinlab.info().duration)) as number;
  expect(duration).toBeGreaterThan(0.5);

  // Paused (a pinned t): a click at half the bar seeks to half the clip and stays paused; the link carries it.
  const half = await barX(page, 0.5);
  await page.mouse.click(half.x, half.y);
  await page.evaluate(() => window.skinlab.set({}));
  let info = await page.evaluate(() => window.skinlab.info());
  expect(info.t as number).toBeCloseTo(duration / 2, 1);
  expect(info.paused).toBe(true);
  expect(Number(new URL((await page.evaluate(() => window.skinlab.link())).url).searchParams.get('t'))).toBeCloseTo(info.t as number, 5);
  // The view has the focus: → steps a frame from there.
  await page.keyboard.press('ArrowRight');
  await page.evaluate(() => window.skinlab.set({}));
  expect((await page.evaluate(() => window.skinlab.info().t)) as number).toBeCloseTo((info.t as number) + 1 / 30, 3);

  // Playing: a drag scrubs (the time follows the pointer, held), and the release plays on from there.
  await page.evaluate(() => window.skinlab.set({ t: null }));
  const from = await barX(page, 0.1);
  const to = await barX(page, 0.8);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.evaluate(() => window.skinlab.set({}));
  expect((await page.evaluate(() => window.skinlab.info().t)) as number).toBeCloseTo(duration * 0.1, 1);
  await page.mouse.move(to.x, to.y, { steps: 5 });
  await page.evaluate(() => window.skinlab.set({}));
  info = await page.evaluate(() => window.skinlab.info());
  expect(info.t as number).toBeCloseTo(duration * 0.8, 1);
  expect(info.paused, 'held while scrubbing').toBe(true);
  await page.mouse.up();
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info().paused)) as boolean).toBe(false);
  // Playing on from 0.8 of the clip: the time moves (it may wrap past the end).
  const t1 = (await page.evaluate(() => window.skinlab.info().t)) as number;
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info().t)) as number).not.toBeCloseTo(t1, 3);
  // Space still pauses.
  await page.keyboard.press(' ');
  expect(await page.evaluate(() => window.skinlab.info().paused)).toBe(true);
  expect(con.errors).toEqual([]);
});
