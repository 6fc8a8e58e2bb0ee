import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { canvasShot, coverageOf, openApp, pixelDifference, watchConsole } from './helpers.ts';

/**
 * The animation controller on the page (URL keys `tracks`, `lookAt`, `wander`, docs/api.md#url-parameters): the MultiAnimation sample's
 * Tiny (`tiny4`) walking and waving, the tracks timeline with its callback keys, the wander crowd, and the
 * look-at chain. Small canvases: these are about poses, not pixels.
 */

const SIZE = { width: 400, height: 300 };

/** The renderer's clear colour as 8-bit values (helpers.ts BACKGROUND). */
const BACKGROUND = [27, 29, 34];

function isFigure(d: Uint8Array, i: number): boolean {
  return Math.abs(d[i]! - BACKGROUND[0]!) + Math.abs(d[i + 1]! - BACKGROUND[1]!) + Math.abs(d[i + 2]! - BACKGROUND[2]!) > 30;
}

/** The canvas (every page that takes one has gui=0: nothing covers it). */
async function shot(page: Page): Promise<Buffer> {
  return canvasShot(page);
}

/** Rows [y0, y1) of the union of two shots' figures: how many pixels differ there, and the union's rows. */
function rowBand(a: Buffer, b: Buffer): { top: number; bottom: number; differing: (from: number, to: number) => number } {
  const pa = PNG.sync.read(a);
  const pb = PNG.sync.read(b);
  let top = pa.height;
  let bottom = -1;
  for (let y = 0; y < pa.height; y++) {
    for (let x = 0; x < pa.width; x++) {
      const i = (y * pa.width + x) * 4;
      if (isFigure(pa.data, i) || isFigure(pb.data, i)) {
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
    }
  }
  const differing = (from: number, to: number): number => {
    let n = 0;
    for (let y = Math.max(0, from); y < Math.min(pa.height, to); y++) {
      for (let x = 0; x < pa.width; x++) {
        const i = (y * pa.width + x) * 4;
        const d = Math.abs(pa.data[i]! - pb.data[i]!) + Math.abs(pa.data[i + 1]! - pb.data[i + 1]!) + Math.abs(pa.data[i + 2]! - pb.data[i + 2]!);
        if (d > 24) n++;
      }
    }
    return n;
  };
  return { top, bottom, differing };
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(SIZE);
});

test('tiny4: tracks=Walk,Wave waves on a walking figure (Wave, a partial clip, layers over Walk at high priority)', async ({ page }) => {
  const con = watchConsole(page);
  // Front view, floor off: the figure alone. t = 1.3: Walk (1 s loop) mid-stride, Wave's arm up.
  await openApp(page, '?model=tiny4&gui=0&grid=0&camera=front&clip=Walk&t=1.3');
  const walk = await shot(page);
  expect(coverageOf(walk), 'the figure is in view').toBeGreaterThan(0.02);
  await page.evaluate(() => window.skinlab.set({ tracks: 'Walk,Wave', t: 1.3 }));
  const info = await page.evaluate(() => window.skinlab.info());
  expect((info.tracks as { clip: string; priority: string; weight: number }[]).map((t) => [t.clip, t.priority, t.weight])).toEqual([
    ['Walk', 'low', 1],
    ['Wave', 'high', 1],
  ]);
  const both = await shot(page);
  await page.evaluate(() => window.skinlab.set({ tracks: 'Wave', t: 1.3 }));
  const waveAlone = await shot(page);

  const band = rowBand(walk, both);
  const height = band.bottom - band.top + 1;
  expect(height, 'figure height in pixels').toBeGreaterThan(100);
  // Knees down: the legs walk exactly as in Walk alone (Wave animates no leg frame)…
  const legsFrom = band.top + Math.round(height * 0.65);
  expect(band.differing(legsFrom, band.bottom + 1), 'leg pixels changed by the wave').toBe(0);
  // …while the upper body differs: the right arm waves.
  expect(band.differing(band.top, band.top + Math.round(height * 0.5)), 'upper-body pixels changed by the wave').toBeGreaterThan(60);
  // Wave alone does not walk: its legs stand in the file's rest pose, unlike the walking figure.
  const alone = rowBand(both, waveAlone);
  expect(alone.differing(legsFrom, band.bottom + 1), 'legs of Wave alone against Walk+Wave').toBeGreaterThan(60);
  // The link carries the tracks.
  await page.evaluate(() => window.skinlab.set({ tracks: 'Walk,Wave', t: 1.3 }));
  const link = await page.evaluate(() => window.skinlab.link());
  expect(decodeURIComponent(new URL(link.url).search)).toContain('tracks=Walk,Wave');
  expect(pixelDifference(both, await shot(page))).toBe(0);
  // Another model starts on its own clip: the tracks named tiny4's clips.
  await page.evaluate(() => window.skinlab.set({ model: 'tiny' }));
  const tiny = await page.evaluate(() => window.skinlab.info());
  expect([tiny.tracksSpec, (tiny.tracks as unknown[]).length, await page.evaluate(() => document.documentElement.dataset.state)]).toEqual(['', 1, 'ready']);
  expect(con.errors).toEqual([]);
});

test('tiny4: the timeline shows each track and flashes its footstep keys as they fire', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?model=tiny4&tracks=Walk,Jog:0.5');
  const timeline = page.locator('svg.timeline');
  await expect(timeline).toBeVisible();
  expect(await timeline.evaluate((c) => c.getBoundingClientRect().height)).toBe(32);
  // Footsteps fire as the tracks pass them (callback keys found from the feet at load).
  await page.waitForFunction(() => (window.skinlab.info().events as { name: string }[]).filter((e) => e.name.startsWith('footstep_')).length >= 3, null, { timeout: 20_000 });
  const events = (await page.evaluate(() => window.skinlab.info().events)) as { name: string; clip: string; at: number }[];
  for (let k = 1; k < events.length; k++) expect(events[k - 1]!.at, 'newest first').toBeGreaterThanOrEqual(events[k]!.at);
  expect(new Set(events.map((e) => e.clip))).toContain('Walk');
  // A fired key lights up in the timeline (yellow) for a moment.
  const lit = await page.waitForFunction(
    () => {
      // Lit: the key's tick widened and drawn in the lit colour (style-tools.css), as the strip paints it.
      for (const k of document.querySelectorAll<SVGRectElement>('svg.timeline rect.key.lit')) {
        if (getComputedStyle(k).fill === 'rgb(255, 225, 77)' && k.width.baseVal.value === 3) return true;
      }
      return false;
    },
    null,
    { timeout: 30_000, polling: 20 },
  );
  expect(await lit.jsonValue()).toBe(true);
  // The strip is painted: its time cursors (white) and its bars show in a picture of it.
  const strip = PNG.sync.read(await timeline.screenshot());
  let white = 0;
  for (let i = 0; i < strip.data.length; i += 4) if (strip.data[i]! > 235 && strip.data[i + 1]! > 235 && strip.data[i + 2]! > 235) white++;
  expect(white, 'white cursor pixels in the timeline').toBeGreaterThanOrEqual(2 * 12);
  // A key set from the page fires like one from the file; a bad clip is refused with the list.
  await page.evaluate(() => window.skinlab.addMarker('Walk', 0.5, 'clap'));
  await page.waitForFunction(() => (window.skinlab.info().events as { name: string }[]).some((e) => e.name === 'clap'), null, { timeout: 30_000 });
  const refused = await page.evaluate(() => {
    try {
      window.skinlab.addMarker('Sprint', 0.5, 'x');
      return '';
    } catch (e) {
      return (e as Error).message;
    }
  });
  expect(refused).toMatch(/no clip Sprint \(clips: Loiter, Walk, Jog, Wave\)/);
  // Paused while the tracks play, the link carries the controller clock: a fresh page draws the same picture.
  // Past Walk's 1 s loop, so the clock and Walk's own (wrapped) time differ.
  type Tracks = { clip: string; time: number; duration: number }[];
  await page.waitForFunction(() => (window.skinlab.info().tracks as Tracks).find((x) => x.clip === 'Jog')!.time > 1.1, null, { timeout: 20_000 });
  await page.keyboard.press(' ');
  await page.evaluate(() => window.skinlab.set({ gui: 0 }));
  const link = (await page.evaluate(() => window.skinlab.link())).url;
  expect(new URL(link).searchParams.get('tracks')).toBe('Walk,Jog:0.5');
  const t = Number(new URL(link).searchParams.get('t'));
  const jog = ((await page.evaluate(() => window.skinlab.info().tracks)) as Tracks).find((x) => x.clip === 'Jog')!;
  expect(t, 'the link carries the controller clock, not Walk\'s wrapped time').toBeGreaterThan(1);
  expect(Math.abs((t % jog.duration) - jog.time)).toBeLessThan(1e-3);
  const paused = await shot(page);
  const again = await page.context().newPage();
  await again.setViewportSize(SIZE);
  await again.goto(link);
  await again.waitForFunction(() => document.documentElement.dataset.state === 'ready');
  expect(coverageOf(paused)).toBeGreaterThan(0.02);
  expect(pixelDifference(paused, await shot(again)), 'the reopened link against the paused page').toBe(0);
  expect(con.errors).toEqual([]);
});

test('tiny4: a wander crowd of 50 walks about with its own controllers, one draw per subset', async ({ page }) => {
  const con = watchConsole(page);
  // Two instances on the grid: the instanced path's draws (one per subset).
  await openApp(page, '?model=tiny4&gui=0&crowd=2');
  const grid = await page.evaluate(() => window.skinlab.stats().drawCalls);
  await page.evaluate(() => window.skinlab.set({ crowd: 50, wander: 1 }));
  const info = await page.evaluate(() => window.skinlab.info());
  expect(info.wander).toBe(true);
  const a = await shot(page);
  // About 1.5 s of walking: that much wall time and at least 6 frames (a frame advances the crowd by 0.25 s at
  // most, so on a busy machine drawing few frames a second the wall time alone would show less of the walk).
  const f0 = await page.evaluate(() => window.skinlab.frames());
  await page.waitForTimeout(1500);
  await page.waitForFunction((f) => window.skinlab.frames() >= f + 6, f0, { timeout: 60_000 });
  const b = await shot(page);
  const st = await page.evaluate(() => window.skinlab.stats());
  expect(st.drawCalls, 'one instanced draw per subset, as for 2 instances').toBe(grid);
  expect(coverageOf(b)).toBeGreaterThan(0.05);
  expect(pixelDifference(a, b), 'the crowd moves').toBeGreaterThan(0.01);
  expect(st.technique).toMatch(/wander/);
  // Footsteps fire on the walking agents; their CPU cost per instance is reported.
  await page.waitForFunction(() => window.skinlab.stats().footstepsPerSecond > 0, null, { timeout: 20_000 });
  expect((await page.evaluate(() => window.skinlab.stats())).wanderUsPerInstance).toBeGreaterThan(0);
  expect(con.errors).toEqual([]);
});

test('look-at: the head turns towards the camera, about half as far at weight 0.5', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?gui=0&grid=0&clip=idle&t=0.5&camera=50,5,2.4');
  const chain = (await page.evaluate(() => window.skinlab.info().lookAtChain)) as string[];
  expect(chain.length, 'a head chain was found').toBeGreaterThan(0);
  const off = await shot(page);
  await page.evaluate(() => window.skinlab.set({ lookAt: 1 }));
  // Look-at aims where the camera was last drawn from: one more frame settles it.
  await page.evaluate(() => window.skinlab.set({}));
  const on = await shot(page);
  const turned = pixelDifference(off, on);
  expect(turned, 'pixels the turned head changes').toBeGreaterThan(0.001);
  expect(turned, 'only the head and neck move').toBeLessThan(0.05);
  await page.evaluate(() => window.skinlab.set({ lookAt: 0.5 }));
  await page.evaluate(() => window.skinlab.set({}));
  const half = pixelDifference(off, await shot(page));
  expect(half).toBeGreaterThan(0);
  expect(half).toBeLessThan(turned);
  expect(con.errors).toEqual([]);
});
