import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { canvasShot, openApp, pixelDifference, waitState, watchConsole } from './helpers.ts';

/**
 * A lost WebGL context (GPU reset, driver update, WEBGL_lose_context) is survivable: the page stops drawing,
 * says so, and when the browser restores the context it rebuilds every GPU resource (programs, model buffers,
 * textures, palettes, crowd, diff view) from the CPU data it kept and carries on at the same state. Time is
 * frozen (`t=`), so the picture after the restore must be the picture before it.
 */

const OUT = `${process.env.SKINLAB_RESULTS ?? 'test-results'}/context-loss`;
mkdirSync(OUT, { recursive: true });

type Counts = Record<string, number>;

/** The renderer's clear colour as 8-bit values (helpers.ts BACKGROUND). */
const BACKGROUND = [27, 29, 34];

/** Share of canvas pixels clearly unlike the background. */
function nonBackground(png: Buffer): number {
  const p = PNG.sync.read(png);
  let n = 0;
  for (let i = 0; i < p.data.length; i += 4) {
    if (Math.abs(p.data[i]! - BACKGROUND[0]!) + Math.abs(p.data[i + 1]! - BACKGROUND[1]!) + Math.abs(p.data[i + 2]! - BACKGROUND[2]!) > 30) n++;
  }
  return n / (p.width * p.height);
}

/**
 * The canvas as the page shows it, kept under the results folder (every page here has gui=0). While the context
 * is lost no frame is drawn, so that picture comes from the compositor (`lost`); otherwise from the canvas.
 */
async function shot(page: Page, name: string, lost = false): Promise<Buffer> {
  const png = lost ? await page.locator('#view').screenshot() : await canvasShot(page);
  writeFileSync(`${OUT}/${name}.png`, png);
  return png;
}

/**
 * Loses the context through WEBGL_lose_context and resolves once the page has seen `webglcontextlost`.
 * The extension object is kept on window: getExtension answers null while the context is lost.
 */
async function loseContext(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const canvas = document.getElementById('view') as HTMLCanvasElement;
        const ext = canvas.getContext('webgl2')!.getExtension('WEBGL_lose_context')!;
        (window as unknown as { loseContextExt: WEBGL_lose_context }).loseContextExt = ext;
        canvas.addEventListener('webglcontextlost', () => setTimeout(resolve, 0), { once: true });
        ext.loseContext();
      }),
  );
}

async function restoreContext(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { loseContextExt: WEBGL_lose_context }).loseContextExt.restoreContext());
}

/** The state a user would notice changing. */
async function visibleState(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(() => {
    const i = window.skinlab.info();
    return { model: i.model, clip: i.clip, t: i.t, technique: i.technique, view: i.view, crowd: i.crowd, influences: i.influences, canvas: i.canvas };
  });
}

/**
 * Lose, check the page is visibly waiting (state loading, notice shown, every GL count 0, no frames drawn),
 * restore, wait for ready; returns the GL counts after.
 */
async function loseAndRestore(page: Page, label: string): Promise<Counts> {
  await loseContext(page);
  expect(await page.evaluate(() => document.documentElement.dataset.state)).toBe('loading');
  await expect(page.locator('#context-lost')).toBeVisible();
  await expect(page.locator('#context-lost')).toContainText('WebGL context lost');
  const lost = await page.evaluate(() => window.skinlab.glObjects() as unknown as Record<string, number>);
  expect(Object.values(lost).every((n) => n === 0), `GL counts reset on loss: ${JSON.stringify(lost)}`).toBe(true);
  // A while without a context: the loop keeps running without drawing or throwing.
  await page.waitForTimeout(300);
  await shot(page, `${label}-lost`, true);
  await restoreContext(page);
  await waitState(page, 'ready');
  await expect(page.locator('#context-lost')).toBeHidden();
  return page.evaluate(() => window.skinlab.glObjects() as unknown as Record<string, number>);
}

test('after a context loss and restore the textured model is drawn as before, technique by technique', async ({ page }) => {
  test.setTimeout(120_000);
  const con = watchConsole(page);
  // tiny: a skinned .x with a DDS texture (the texture is fetched, decoded and uploaded again).
  await openApp(page, '?model=tiny&gui=0&t=0.5&technique=dual-quat');
  const rows: string[] = [];
  for (const [i, technique] of ['dual-quat', 'texture', 'software', 'vs-asm', 'stream-out'].entries()) {
    if (i > 0) await page.evaluate((technique) => window.skinlab.set({ technique }), technique);
    const before = await visibleState(page);
    expect(before.technique).toBe(technique);
    const countsBefore = await page.evaluate(() => window.skinlab.glObjects() as unknown as Record<string, number>);
    const picture = await shot(page, `tiny-${technique}-before`);
    const countsAfter = await loseAndRestore(page, `tiny-${technique}`);
    expect(await visibleState(page)).toEqual(before);
    const after = await shot(page, `tiny-${technique}-after`);
    const diff = pixelDifference(picture, after, 8);
    const cover = nonBackground(after);
    rows.push(`${technique}: ${(diff * 100).toFixed(3)} % pixels differ, model+floor cover ${(cover * 100).toFixed(1)} %; GL ${JSON.stringify(countsAfter)}`);
    expect(cover, `${technique}: the canvas is not blank after the restore`).toBeGreaterThan(0.02);
    expect(diff, `${technique}: picture after the restore against before`).toBeLessThanOrEqual(0.001);
    // The first round was loaded with its technique, so the restore rebuilds exactly what there was.
    if (i === 0) expect(countsAfter).toEqual(countsBefore);
    else {
      expect(countsAfter.buffers).toBeGreaterThan(0);
      expect(countsAfter.textures, 'the material texture and the white one').toBeGreaterThanOrEqual(2);
    }
  }
  console.log(`[context-loss] tiny\n${rows.join('\n')}`);
  expect(con.errors).toEqual([]);
});

test('a crowd, a placed camera and the diff view come back after a context loss', async ({ page }) => {
  test.setTimeout(120_000);
  const con = watchConsole(page);
  await openApp(page, '?model=tiny&gui=0&t=0.8&technique=vs-hlsl&crowd=4&camera=40,25,4');
  const before = await visibleState(page);
  const crowd = await shot(page, 'crowd4-before');
  await loseAndRestore(page, 'crowd4');
  expect(await visibleState(page)).toEqual(before);
  expect((await page.evaluate(() => window.skinlab.stats())).crowd).toBe(4);
  const crowdAfter = await shot(page, 'crowd4-after');
  expect(nonBackground(crowdAfter)).toBeGreaterThan(0.02);
  expect(pixelDifference(crowd, crowdAfter, 8), 'crowd of 4 after the restore').toBeLessThanOrEqual(0.001);

  await page.evaluate(() => window.skinlab.set({ crowd: 1, view: 'diff', technique: 'accumulated' }));
  const diff = await shot(page, 'diff-before');
  const pixels = (await page.evaluate(() => window.skinlab.stats())).diffPixels;
  await loseAndRestore(page, 'diff');
  expect((await visibleState(page)).view).toBe('diff');
  const diffAfter = await shot(page, 'diff-after');
  expect(pixelDifference(diff, diffAfter, 8), 'diff view after the restore').toBeLessThanOrEqual(0.001);
  expect((await page.evaluate(() => window.skinlab.stats())).diffPixels).toBe(pixels);
  expect(con.errors).toEqual([]);
});

test('a context lost while a model is loading: the load completes on the restored context', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const con = watchConsole(page);
  await openApp(page, '?model=heli&gui=0&t=0.5&technique=vs-hlsl');
  for (const delay of [0, 120]) {
    const target = delay === 0 ? 'tiny' : 'zombie';
    await page.evaluate((model) => {
      (window as unknown as { pending: Promise<void> }).pending = window.skinlab.set({ model });
    }, target);
    if (delay > 0) await page.waitForTimeout(delay);
    await loseContext(page);
    await page.waitForTimeout(400);
    await restoreContext(page);
    await page.evaluate(() => (window as unknown as { pending: Promise<void> }).pending);
    await waitState(page, 'ready');
    expect((await visibleState(page)).model).toBe(target);
    const after = await shot(page, `load-in-flight-${target}-after`);
    expect(nonBackground(after), `${target}: drawn after the restore`).toBeGreaterThan(0.02);
    const counts = await page.evaluate(() => window.skinlab.glObjects() as unknown as Record<string, number>);

    // The same state loaded on a fresh page: the same picture and the same objects (programs aside: the
    // restored page compiled the previous model's variants too).
    const fresh = await browser.newPage();
    await openApp(fresh, `?model=${target}&gui=0&t=0.5&technique=vs-hlsl`);
    const reference = await canvasShot(fresh);
    writeFileSync(`${OUT}/load-in-flight-${target}-fresh.png`, reference);
    const freshCounts = await fresh.evaluate(() => window.skinlab.glObjects() as unknown as Record<string, number>);
    await fresh.close();
    expect(pixelDifference(reference, after, 8), `${target} after the restore against a fresh page`).toBeLessThanOrEqual(0.001);
    for (const kind of Object.keys(freshCounts)) if (kind !== 'programs') expect(counts[kind], kind).toBe(freshCounts[kind]);
  }
  expect(con.errors).toEqual([]);
});
