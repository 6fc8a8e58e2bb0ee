import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { canvasShot, openApp, pixelDifference, watchConsole } from './helpers.ts';

/**
 * A phone: 390×844 CSS pixels with touch. Gestures go through CDP's Input.dispatchTouchEvent, so the page
 * receives real pointer events of pointerType 'touch' (Chromium's own touch → pointer path).
 * The camera is not in window.skinlab.info(), so the gestures are judged by the model's silhouette on screen.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

type Point = { x: number; y: number };

/**
 * One touch event at `at` seconds after `t0` (an explicit timestamp: SwiftShader keeps the page busy for
 * hundreds of milliseconds per frame, which would otherwise stretch a quick double tap into two slow taps).
 */
async function touch(cdp: CDPSession, type: 'touchStart' | 'touchMove' | 'touchEnd', points: readonly Point[], t0: number, at: number): Promise<void> {
  await cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, id) => ({ x: p.x, y: p.y, id })), timestamp: t0 + at });
}

/** Fingers go down at `from`, move in `steps` even steps (16 ms apart) to `to`, and lift. */
async function gesture(cdp: CDPSession, from: readonly Point[], to: readonly Point[], steps = 5): Promise<void> {
  const t0 = Date.now() / 1000;
  await touch(cdp, 'touchStart', from, t0, 0);
  for (let s = 1; s <= steps; s++) {
    const k = s / steps;
    await touch(cdp, 'touchMove', from.map((p, i) => ({ x: p.x + (to[i]!.x - p.x) * k, y: p.y + (to[i]!.y - p.y) * k })), t0, s * 0.016);
  }
  await touch(cdp, 'touchEnd', [], t0, (steps + 1) * 0.016);
}

/** Two 60 ms taps 200 ms apart. */
/** The canvas after the next frame, and the screen box of the pixels unlike the background (27, 29, 34): the model. */
async function view(page: Page): Promise<{ png: Buffer; box: { x: number; y: number; width: number; height: number } }> {
  const png = await canvasShot(page);
  const { data, width, height } = PNG.sync.read(png);
  let x0 = width, y0 = height, x1 = -1, y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (Math.abs(data[i]! - 27) + Math.abs(data[i + 1]! - 29) + Math.abs(data[i + 2]! - 34) <= 30) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return { png, box: { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 } };
}

async function doubleTap(cdp: CDPSession, at: Point): Promise<void> {
  const t0 = Date.now() / 1000;
  for (const start of [0, 0.2]) {
    await touch(cdp, 'touchStart', [at], t0, start);
    await touch(cdp, 'touchEnd', [], t0, start + 0.06);
  }
}

test('one finger orbits, two fingers pinch-zoom and pan, a double tap frames the model', async ({ page }) => {
  const { errors } = watchConsole(page);
  // Only the model in the canvas's pixels: no chrome (gui=0), no floor; a frozen time keeps the pose still.
  await openApp(page, '?t=0.5&gui=0&grid=0');
  const cdp = await page.context().newCDPSession(page);
  const { png: framedShot, box: framed } = await view(page);
  const cx = 195;
  const cy = 420;

  // One finger across the screen: the view turns around the model (a different picture, about the same place).
  await gesture(cdp, [{ x: cx - 80, y: cy }], [{ x: cx + 80, y: cy + 40 }]);
  const { png: orbitedShot, box: orbited } = await view(page);
  expect(pixelDifference(framedShot, orbitedShot)).toBeGreaterThan(0.02);
  expect(Math.abs(orbited.x + orbited.width / 2 - (framed.x + framed.width / 2))).toBeLessThan(framed.width * 0.6);

  await doubleTap(cdp, { x: cx, y: cy });
  expect((await view(page)).box).toEqual(framed);

  // Pinch out: the fingers' spread grows 1.5 times, so does the model.
  await gesture(cdp, [{ x: cx - 40, y: cy }, { x: cx + 40, y: cy }], [{ x: cx - 60, y: cy }, { x: cx + 60, y: cy }]);
  const zoomed = (await view(page)).box;
  expect(zoomed.width / framed.width).toBeGreaterThan(1.3);
  expect(zoomed.width / framed.width).toBeLessThan(1.7);
  // The page itself neither zoomed nor scrolled (the canvas's touch-action: none).
  expect(await page.evaluate(() => [window.visualViewport!.scale, window.scrollX, window.scrollY])).toEqual([1, 0, 0]);

  // Both fingers move 50 px right and 30 px up at a constant spread: the model follows, same size.
  await gesture(cdp, [{ x: cx - 40, y: cy }, { x: cx + 40, y: cy }], [{ x: cx + 10, y: cy - 30 }, { x: cx + 90, y: cy - 30 }]);
  const panned = (await view(page)).box;
  expect(Math.abs(panned.width - zoomed.width)).toBeLessThanOrEqual(3);
  expect(panned.x - zoomed.x).toBeGreaterThan(40);
  expect(panned.x - zoomed.x).toBeLessThan(60);
  expect(panned.y - zoomed.y).toBeGreaterThan(-40);
  expect(panned.y - zoomed.y).toBeLessThan(-20);

  await doubleTap(cdp, { x: cx, y: cy });
  expect((await view(page)).box).toEqual(framed);
  expect(errors).toEqual([]);
});

type Box = { left: number; top: number; right: number; bottom: number };

/** Viewport rectangles of the panel, the stats box and the error banner. */
async function boxes(page: Page): Promise<{ panel: Box; stats: Box; banner: Box | null }> {
  return page.evaluate(() => {
    const box = (el: Element | null): Box | null => {
      if (!el || (el as HTMLElement).hidden) return null;
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    return { panel: box(document.querySelector('.lil-gui.lil-root'))!, stats: box(document.getElementById('stats'))!, banner: box(document.querySelector('.error-banner')) };
  });
}

function inside(b: Box, w: number, h: number): boolean {
  return b.left >= 0 && b.top >= 0 && b.right <= w && b.bottom <= h;
}

function overlap(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** True when the topmost element at the centre and at points 3 px inside each corner belongs to `selector`. */
async function onTop(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const target = document.querySelector(sel)!;
    const r = target.getBoundingClientRect();
    const points = [
      [(r.left + r.right) / 2, (r.top + r.bottom) / 2],
      [r.left + 3, r.top + 3],
      [r.right - 3, r.top + 3],
      [r.left + 3, r.bottom - 3],
      [r.right - 3, r.bottom - 3],
    ];
    return points.every(([x, y]) => target.contains(document.elementFromPoint(x!, y!)));
  }, selector);
}

test('phone layout: panel starts closed and opens by tap; compact stats; the error banner and context-lost notice are on top', async ({ page }, testInfo) => {
  const { errors } = watchConsole(page);
  await openApp(page, '?t=0.5');
  const panel = page.locator('.lil-gui.lil-root').first();
  await expect(panel).toHaveClass(/lil-closed/);
  const stats = page.locator('#stats');
  await expect(stats).toContainText('fps');
  await expect(stats).toContainText('vs-hlsl');
  await expect(stats).toContainText('draws');
  // Compact: four lines at most, small type.
  expect((await stats.innerText()).split('\n').length).toBeLessThanOrEqual(4);
  expect(await stats.evaluate((e) => getComputedStyle(e).fontSize)).toBe('10px');
  let b = await boxes(page);
  expect(inside(b.panel, 390, 844) && inside(b.stats, 390, 844)).toBe(true);
  expect(b.panel.bottom - b.panel.top).toBeLessThan(48);
  expect(overlap(b.panel, b.stats)).toBe(false);
  await page.screenshot({ path: testInfo.outputPath('phone-closed.png') });

  await panel.locator('> .lil-title').tap();
  // lil-gui opens over two animation frames, then a 300 ms height transition during which the panel takes no
  // taps; a page busy drawing (SwiftShader on a loaded machine) spaces those frames out. So wait for what a
  // user gets once it settles: the panel grown to its open height, its transition over.
  await expect(panel).not.toHaveClass(/lil-closed/);
  await expect.poll(async () => { const p = (await boxes(page)).panel; return p.bottom - p.top; }, { timeout: 30_000 }).toBeGreaterThan(200);
  await expect(panel).not.toHaveClass(/lil-transition/);
  b = await boxes(page);
  expect(inside(b.panel, 390, 844)).toBe(true);
  expect(b.panel.bottom - b.panel.top).toBeGreaterThan(200);
  // It leaves the lower part of the screen to the canvas (it ends above 75% of the height), and the stats stay in
  // view below it.
  expect(b.panel.bottom).toBeLessThan(844 * 0.75);
  expect(overlap(b.panel, b.stats)).toBe(false);
  await page.screenshot({ path: testInfo.outputPath('phone-open.png') });
  // Every control is reachable: the last one, scrolled into view inside the panel, lies on the screen and takes a tap.
  const last = panel.locator('.lil-controller:visible').last();
  await last.scrollIntoViewIfNeeded();
  const lastBox = await last.evaluate((e) => e.getBoundingClientRect().toJSON() as Box);
  expect(inside(lastBox, 390, 844) && lastBox.top >= b.panel.top && lastBox.bottom <= b.panel.bottom + 1).toBe(true);
  expect(await last.evaluate((e) => { const r = e.getBoundingClientRect(); return e.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2)); })).toBe(true);

  // A bad technique: the banner lies inside the screen, over the open panel, clear of the stats, and its × works.
  await page.evaluate(() => window.skinlab.set({ technique: 'nope' }).catch(() => {}));
  await expect(page.locator('#error')).toContainText('nope');
  b = await boxes(page);
  expect(b.banner).not.toBeNull();
  expect(inside(b.banner!, 390, 844)).toBe(true);
  expect(overlap(b.banner!, b.stats)).toBe(false);
  expect(await onTop(page, '.error-banner')).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('phone-error.png') });
  await page.locator('.error-banner .close').tap();
  await expect(page.locator('.error-banner')).toBeHidden();

  // The context-lost notice, over the open panel. It ignores the pointer (pointer-events: none), so the
  // hit test below lends it pointer events for the moment.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const canvas = document.getElementById('view') as HTMLCanvasElement;
        const ext = canvas.getContext('webgl2')!.getExtension('WEBGL_lose_context')!;
        (window as unknown as { loseExt: WEBGL_lose_context }).loseExt = ext;
        canvas.addEventListener('webglcontextlost', () => setTimeout(resolve, 0), { once: true });
        ext.loseContext();
      }),
  );
  const notice = page.locator('#context-lost');
  await expect(notice).toBeVisible();
  await notice.evaluate((e) => ((e as HTMLElement).style.pointerEvents = 'auto'));
  expect(await onTop(page, '#context-lost')).toBe(true);
  const lost = await notice.evaluate((e) => e.getBoundingClientRect().toJSON() as Box);
  expect(inside(lost, 390, 844) && !overlap(lost, b.stats)).toBe(true);
  await page.evaluate(() => (window as unknown as { loseExt: WEBGL_lose_context }).loseExt.restoreContext());
  await expect(notice).toBeHidden({ timeout: 60_000 });
  // The bad technique's message, and nothing else.
  expect(errors.filter((e) => !e.includes('nope'))).toEqual([]);
});
