import { expect, test, type Page } from '@playwright/test';
import { openApp, watchConsole } from './helpers.ts';

/**
 * Shortcuts work whatever was clicked in the panel (src/ui/panel-focus.ts): lil-gui keeps key events inside
 * its controls, so once a button, checkbox, menu or slider has done its work the focus goes back to the canvas.
 * Each kind of control is used with the mouse (or the keyboard, for a menu), then a shortcut is pressed and its
 * effect read from info(). Keys typed into a text field stay there until Enter. 800 × 600, the panel open.
 */

type Facts = { skeleton: boolean; paused: boolean; bindPose: boolean; grid: boolean; view: string; technique: string };

async function facts(page: Page): Promise<Facts> {
  return page.evaluate(() => {
    const i = window.skinlab.info();
    return { skeleton: i.skeleton, paused: i.paused, bindPose: i.bindPose, grid: i.grid, view: i.view, technique: i.technique } as Facts;
  });
}

function control(page: Page, name: string) {
  return page.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: name }) }).first();
}

test('after a click on any kind of panel control, the keyboard shortcuts still work; typing in a field stays there', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  const con = watchConsole(page);
  await openApp(page, '?t=0.5&shadows=0');
  const start = await facts(page);

  // A button: Frame model, then K (skeleton overlay).
  await control(page, 'Frame model').locator('button').click();
  await page.keyboard.press('k');
  await expect.poll(async () => (await facts(page)).skeleton).toBe(!start.skeleton);

  // A checkbox: the skeleton overlay itself, then Space pauses (and does not tick the box back).
  const box = control(page, 'skeleton overlay').locator('input[type=checkbox]');
  await box.click();
  await expect.poll(async () => (await facts(page)).skeleton).toBe(start.skeleton);
  const paused = (await facts(page)).paused;
  await page.keyboard.press(' ');
  await expect.poll(async () => (await facts(page)).paused).toBe(!paused);
  expect((await facts(page)).skeleton).toBe(start.skeleton);

  // A menu: another technique, chosen, then B (bind pose).
  const menu = control(page, 'technique').locator('select');
  const options = await menu.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  const other = options.find((v) => v !== start.technique && v !== '')!;
  await menu.selectOption(other);
  await page.keyboard.press('b');
  await expect.poll(async () => (await facts(page)).bindPose).toBe(!start.bindPose);

  // A slider: drag the speed, then G (floor grid).
  const slider = control(page, 'speed').locator('.lil-slider');
  const s = (await slider.boundingBox())!;
  await page.mouse.move(s.x + s.width * 0.2, s.y + s.height / 2);
  await page.mouse.down();
  await page.mouse.move(s.x + s.width * 0.4, s.y + s.height / 2, { steps: 3 });
  await page.mouse.up();
  await page.keyboard.press('g');
  await expect.poll(async () => (await facts(page)).grid).toBe(!start.grid);

  // A text field keeps what is typed (W and K are letters there), then Enter hands the keys back: W (wireframe).
  const field = control(page, 'speed').locator('input');
  await field.click();
  const before = await facts(page);
  await page.keyboard.press('Control+a');
  await page.keyboard.type('1wk');
  const typing = await facts(page);
  expect(typing.view).toBe(before.view);
  expect(typing.skeleton).toBe(before.skeleton);
  await page.keyboard.press('Enter');
  await page.keyboard.press('w');
  await expect.poll(async () => (await facts(page)).view).toBe(before.view === 'wireframe' ? 'shaded' : 'wireframe');

  // Open file…: the button, then Space must not open the picker again (it pauses or plays).
  let pickers = 0;
  page.on('filechooser', () => pickers++);
  await control(page, 'Open file').locator('button').click();
  await expect.poll(() => pickers).toBe(1);
  const p2 = (await facts(page)).paused;
  await page.keyboard.press(' ');
  await expect.poll(async () => (await facts(page)).paused).toBe(!p2);
  expect(pickers).toBe(1);
  expect(con.errors).toEqual([]);
});
