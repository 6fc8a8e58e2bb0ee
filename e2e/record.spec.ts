import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { PNG } from 'pngjs';
import type { Manifest, RecordApi, Shot } from '../src/app/record-plan.ts';
import { runScreenshots } from '../src/cli/screenshots.ts';
import { openApp, watchConsole } from './helpers.ts';

/**
 * Recording: the in-app Record folder and the `screenshots` CLI write the same PNGs for the same states,
 * a capture is exactly what the page shows, Cancel stops a recording, and the page's state comes back.
 */

type RecordWindow = Window & { skinlab: RecordApi };

/** The Record folder of the panel and its controllers by exact name. */
function recordFolder(page: Page): { folder: Locator; ctl: (name: string) => Locator; sub: (title: string) => Locator } {
  const titled = (root: Locator | Page, title: string): Locator =>
    root.locator('.lil-gui').filter({ has: page.locator(':scope > .lil-title', { hasText: new RegExp(`^${title}$`) }) });
  const folder = titled(page, 'Record');
  const exact = (name: string): RegExp => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  return {
    folder,
    ctl: (name) => folder.locator('.lil-controller').filter({ has: page.locator('.lil-name', { hasText: exact(name) }) }),
    sub: (title) => titled(folder, title),
  };
}

async function pageState(page: Page): Promise<Record<string, unknown>> {
  const i = await page.evaluate(() => window.skinlab.info());
  return { model: i.model, clip: i.clip, technique: i.technique, view: i.view, paused: i.paused, canvas: i.canvas };
}

/**
 * Three techniques of distinct paths (CPU-skinned, the GPU palette, dual quaternions), not all of them: the
 * comparison is of the two ways to record, and each technique's picture has its own baselines (visual.spec.ts).
 */
const RECORDED = ['software', 'vs-hlsl', 'dual-quat'];

test('the Record folder downloads the same PNGs and manifest as npm run screenshots', async ({ page }) => {
  test.setTimeout(180_000);
  // The CLI path: its own server on the built folder the suite serves (SKINLAB_DIST) and its own browser.
  const cliDir = test.info().outputPath('cli');
  const cli = await runScreenshots({
    model: 'default',
    out: cliDir,
    request: { clips: [], times: [0.25, 0.8], frames: null, techniques: RECORDED, views: ['shaded', 'wireframe'], cameras: ['auto'], size: { width: 320, height: 240 } },
    params: {},
    dist: process.env.SKINLAB_DIST ?? 'dist',
    chromium: null,
    timeoutMs: 60_000,
  });
  const rendered = cli.shots.filter((s) => s.status === 'ok');
  expect(rendered.length).toBe(RECORDED.length * 2 * 2);

  // The app path: the panel, as a user drives it, on a page that is playing at another size.
  const con = watchConsole(page);
  await openApp(page, '');
  const before = await pageState(page);
  expect(before.paused).toBe(false);
  const { folder, ctl, sub } = recordFolder(page);
  await folder.locator(':scope > .lil-title').click();
  await ctl('times').locator('select').selectOption({ label: 'list of times' });
  await ctl('times (s)').locator('input').fill('0.25, 0.8');
  await ctl('size (px)').locator('input').fill('320x240');
  await sub('techniques').locator(':scope > .lil-title').click();
  const techniques = (await page.evaluate(() => window.skinlab.info().techniques)) as string[];
  for (const id of techniques) if (!RECORDED.includes(id)) await ctl(id).locator('input').uncheck();
  await sub('views').locator(':scope > .lil-title').click();
  await sub('views').locator('.lil-controller', { hasText: 'wireframe' }).locator('input').check();
  const downloading = page.waitForEvent('download');
  await ctl('Record → .zip').locator('button').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^skinlab-default-\d{8}-\d{6}\.zip$/);
  const zip = unzipSync(new Uint8Array(readFileSync(await download.path())));

  const manifest = JSON.parse(new TextDecoder().decode(zip['manifest.json'])) as Manifest;
  expect(manifest.recorder).toBe('app');
  const strip = (m: Manifest): unknown => ({ ...m, recorder: null, params: null });
  expect(strip(manifest)).toEqual(strip(cli));
  expect(Object.keys(zip).sort()).toEqual(['manifest.json', ...rendered.map((s) => s.file)].sort());
  for (const s of rendered) {
    const fromCli = readFileSync(join(cliDir, s.file));
    expect(Buffer.compare(Buffer.from(zip[s.file]!), fromCli), `${s.file}: app and CLI bytes`).toBe(0);
  }
  // Different states make different images (the comparison above is not between blanks).
  expect(Buffer.compare(readFileSync(join(cliDir, rendered[0]!.file)), readFileSync(join(cliDir, rendered[1]!.file)))).not.toBe(0);

  await expect(folder.locator('.record-progress')).toContainText(`${rendered.length} images`);
  // The page is back as it was: same state, playing, canvas at the window's size.
  expect(await pageState(page)).toEqual(before);
  const t0 = (await page.evaluate(() => window.skinlab.info())).t as number;
  await expect.poll(async () => (await page.evaluate(() => window.skinlab.info())).t, { timeout: 30_000 }).not.toBe(t0);
  expect(con.errors).toEqual([]);
});

test('a capture is pixel for pixel what the page shows at that size', async ({ page }) => {
  const con = watchConsole(page);
  await page.setViewportSize({ width: 320, height: 240 });
  for (const technique of ['vs-hlsl', 'software']) {
    await openApp(page, `?gui=0&t=0.5&technique=${technique}`);
    const screenshot = PNG.sync.read(await page.locator('#view').screenshot());
    const shot: Shot = { file: 'x.png', model: 'default', clip: 'walk', t: 0.5, technique, view: 'shaded', camera: 'auto', width: 320, height: 240 };
    const capture = await page.evaluate((s) => (window as unknown as RecordWindow).skinlab.capture(s), shot);
    const png = PNG.sync.read(Buffer.from(capture.png, 'base64'));
    expect([png.width, png.height]).toEqual([320, 240]);
    let differing = 0;
    for (let i = 0; i < png.data.length; i++) if (png.data[i] !== screenshot.data[i]) differing++;
    expect(differing, `${technique}: bytes differing between capture and screenshot`).toBe(0);
  }
  expect(con.errors).toEqual([]);
});

test('Cancel stops a recording without a download and restores the page', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?technique=software&view=wireframe');
  const before = await pageState(page);
  const { folder, ctl } = recordFolder(page);
  await folder.locator(':scope > .lil-title').click();
  await ctl('frames per clip').locator('input').fill('120');
  await ctl('frames per clip').locator('input').press('Enter');
  let downloads = 0;
  page.on('download', () => downloads++);
  await ctl('Record → .zip').locator('button').click();
  await expect(folder.locator('.record-progress')).toContainText(/^[3-9] \/ \d+|^\d\d+ \/ \d+/);
  await expect(ctl('Record → .zip').locator('button')).toBeDisabled();
  await ctl('Cancel recording').locator('button').click();
  await expect(folder.locator('.record-progress')).toHaveText('cancelled');
  await expect(ctl('Record → .zip').locator('button')).toBeEnabled();
  await expect(ctl('Cancel recording')).toBeHidden();
  expect(await pageState(page)).toEqual(before);
  await page.waitForTimeout(300);
  expect(downloads).toBe(0);
  expect(con.errors).toEqual([]);
});

test('a bad size is reported in the error banner and nothing is recorded', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '');
  const { folder, ctl } = recordFolder(page);
  await folder.locator(':scope > .lil-title').click();
  await ctl('size (px)').locator('input').fill('big');
  await ctl('Record → .zip').locator('button').click();
  await expect(page.locator('#error')).toContainText('size "big": expected WIDTHxHEIGHT');
  // The message is also logged with console.error, as every page error is.
  expect(con.errors).toEqual([expect.stringContaining('size "big"')]);
});
