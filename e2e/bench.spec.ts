import { expect, test } from '@playwright/test';
import { openApp, watchConsole } from './helpers.ts';

/**
 * The in-page benchmark (src/app/bench/, ui/bench-view.ts): `skinlab.bench` rows for every technique the page
 * lists, the wall-time fallback when the GPU timer extension is absent, and `?bench=crowd` with its overlay.
 * 320x240 and quick runs: SwiftShader rasterises on the CPU, and the figures themselves are not the point here.
 */

type Row = { name: string; value: number; unit: string; note?: string };
type W = Window & { skinlab: { bench(o: object): Promise<Row[]>; info(): Record<string, unknown> } };

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 240 });
});

test('bench({quick, parts: techniques}) gives finite positive figures for every listed technique and puts the page back', async ({ page }) => {
  const { errors } = watchConsole(page);
  await openApp(page, '?model=tiny&technique=accumulated&gui=0');
  const info = await page.evaluate(() => (window as unknown as W).skinlab.info());
  const listed = (info.techniques as string[]).filter((id) => !(info.techniqueSupport as Record<string, string | null>)[id]);
  expect(listed.length).toBeGreaterThanOrEqual(8);
  const rows = await page.evaluate(() => (window as unknown as W).skinlab.bench({ quick: true, parts: 'techniques', models: ['tiny'] }));
  const value = (name: string): number | undefined => rows.find((r) => r.name === name)?.value;
  const timer = value('bench_gpu_timer');
  for (const id of listed) {
    for (const figure of ['frame_ms', 'submit_ms', 'draw_calls', ...(timer ? ['gpu_ms'] : [])]) {
      const v = value(`gpu_tiny_${id}_${figure}`);
      expect(v, `gpu_tiny_${id}_${figure}`).toBeGreaterThan(0);
      expect(Number.isFinite(v)).toBe(true);
    }
    expect(value(`gpu_tiny_${id}_rank`)).toBeGreaterThanOrEqual(1);
    if (id !== 'vs-hlsl') expect(value(`gpu_tiny_${id}_ratio_vs_vs-hlsl`)).toBeGreaterThan(0);
  }
  for (const r of rows) expect(Number.isFinite(r.value), r.name).toBe(true);
  expect(await page.evaluate(() => document.documentElement.dataset.bench)).toBe('done');
  const after = await page.evaluate(() => (window as unknown as W).skinlab.info());
  expect([after.model, after.technique]).toEqual(['tiny', 'accumulated']);
  expect(errors).toEqual([]);
});

test('without EXT_disjoint_timer_query_webgl2, ?bench=crowd falls back to wall time, says so, and shows the overlay', async ({ page }) => {
  const { errors } = watchConsole(page);
  // The extension hidden from the page, as on a browser that lacks it.
  await page.addInitScript(() => {
    const get = WebGL2RenderingContext.prototype.getExtension;
    WebGL2RenderingContext.prototype.getExtension = function (this: WebGL2RenderingContext, name: string) {
      return name === 'EXT_disjoint_timer_query_webgl2' ? null : (get as (this: WebGL2RenderingContext, n: string) => unknown).call(this, name);
    } as typeof get;
  });
  // The crowd bench took 15 s on a busy 2-core machine (and more under heavier load): a wide bound.
  test.setTimeout(240_000);
  await openApp(page, '?model=tiny&bench=crowd');
  await page.waitForFunction(() => ['done', 'error'].includes(document.documentElement.dataset.bench ?? ''), undefined, { timeout: 180_000 });
  expect(await page.evaluate(() => document.documentElement.dataset.bench)).toBe('done');
  const view = page.locator('#bench-view');
  await expect(view).toBeVisible();
  await expect(view).toContainText('no GPU timer');
  await expect(view.locator('svg.bench-chart polyline').first()).toBeVisible();
  await expect(view.locator('.bench-table')).toContainText('crowd_cpu_10_frame_ms');
  await expect(view.locator('.bench-table')).toContainText('crowd_threejs_10_frame_ms');
  await expect(view.locator('.bench-table')).not.toContainText('_gpu_ms');
  const download = page.waitForEvent('download');
  await view.getByRole('button', { name: 'Download JSON' }).click();
  const file = await download;
  const rows = JSON.parse(await (await file.createReadStream()).toArray().then((b) => Buffer.concat(b).toString('utf8'))) as Row[];
  const timerRow = rows.find((r) => r.name === 'bench_gpu_timer')!;
  expect(timerRow.value).toBe(0);
  expect(timerRow.note).toContain('no GPU timer');
  expect(rows.find((r) => r.name === 'crowd_cpu_1_frame_ms')!.note).toContain('no GPU timer');
  await page.keyboard.press('Escape');
  await expect(view).toBeHidden();
  // The panel offers the same run.
  await expect(page.locator('.lil-gui').getByText('Benchmark…')).toBeAttached(); // the panel starts closed below 700 px
  expect(errors).toEqual([]);
});
