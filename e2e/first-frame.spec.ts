import { expect, test, type Page } from '@playwright/test';
import { PANEL_BUILD_WAIT_MS } from '../src/ui/overlay.ts';
import { openApp, watchConsole } from './helpers.ts';

/**
 * Time to first frame (stats().firstFrame, src/app/first-frame.ts): set for the model the page starts with,
 * set again for a model switched to, and its parts add up to no more than the total.
 */

type FirstFrame = NonNullable<ReturnType<Window['skinlab']['stats']>['firstFrame']>;

async function firstFrame(page: Page): Promise<{ ms: number | null; parts: FirstFrame | null }> {
  return page.evaluate(() => {
    const s = window.skinlab.stats();
    return { ms: s.firstFrameMs, parts: s.firstFrame };
  });
}

function checkParts(ff: FirstFrame): void {
  const parts = [ff.fetchMs, ff.parseMs, ff.prepareMs, ff.uploadMs, ff.shadersMs, ff.waitMs, ff.drawMs];
  for (const p of parts) expect(p).toBeGreaterThanOrEqual(0);
  const sum = parts.reduce((a, b) => a + b, 0);
  expect(sum).toBeLessThanOrEqual(ff.totalMs + 1e-6);
  expect(ff.totalMs).toBeGreaterThan(0);
  // The page's clock at that frame is after the load started: at least the total since the page began.
  expect(ff.pageMs).toBeGreaterThanOrEqual(ff.totalMs);
}

test('stats().firstFrameMs: set at page start and again after a model switch, its parts within the total', async ({ page }) => {
  await page.setViewportSize({ width: 240, height: 180 });
  const con = watchConsole(page);
  await openApp(page, '?gui=0&grid=0&shadows=0&model=tiny');
  const start = await firstFrame(page);
  expect(start.ms).toBeGreaterThan(0);
  expect(start.parts!.model).toBe('tiny');
  expect(start.parts!.totalMs).toBe(start.ms);
  // The first frame compiled its programs: the shaders' share is not zero.
  expect(start.parts!.shadersMs).toBeGreaterThan(0);
  checkParts(start.parts!);

  await page.evaluate(() => window.skinlab.set({ model: 'default' }));
  const after = await firstFrame(page);
  expect(after.parts!.model).toBe('default');
  expect(after.ms).toBeGreaterThan(0);
  expect(after.parts!.pageMs).toBeGreaterThan(start.parts!.pageMs);
  checkParts(after.parts!);
  expect(con.errors).toEqual([]);
});

test('the first model is read and parsed once, by the worker started ahead of the page', async ({ page }) => {
  await page.setViewportSize({ width: 240, height: 180 });
  const con = watchConsole(page);
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('.x')) asked.push(r.url());
  });
  await openApp(page, '?gui=0&grid=0&shadows=0&model=tiny');
  const { parse, ff } = await page.evaluate(() => ({ parse: window.skinlab.info().parse as { where: string }, ff: window.skinlab.stats().firstFrame }));
  expect(asked).toHaveLength(1);
  expect(parse?.where).toBe('worker');
  // Read in the worker with the parse: the page itself fetched nothing.
  expect(ff?.fetchMs).toBeLessThan(5);
  expect(ff?.parseMs).toBeGreaterThan(0);
  expect(con.errors).toEqual([]);
});

test('the panel fills in after the first frame without moving the model: that frame is framed beside it already (the Walker, 800×600)', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  const con = watchConsole(page);
  // The picture of the page's first finished frame (the measured first frame is the first gl.finish), read in
  // the task that drew it.
  await page.addInitScript(() => {
    const finish = WebGL2RenderingContext.prototype.finish;
    let first = true;
    WebGL2RenderingContext.prototype.finish = function (this: WebGL2RenderingContext) {
      finish.call(this);
      if (first && this.canvas instanceof HTMLCanvasElement) {
        first = false;
        (window as unknown as { __firstPicture: string }).__firstPicture = this.canvas.toDataURL();
        (window as unknown as { __panelAtFirst: number }).__panelAtFirst = document.querySelectorAll('.lil-gui .lil-controller').length;
        // Until that frame the empty canvas and the panel's root are left out of the picture (style.css `pending`).
        (window as unknown as { __shownAtFirst: string }).__shownAtFirst = `${getComputedStyle(this.canvas).opacity} ${getComputedStyle(document.querySelector('.lil-gui.lil-root')!).visibility}`;
      }
    };
  });
  // Paused at a fixed time: every frame after the first draws the same pose from the same camera, unless it moved.
  await openApp(page, '?t=0.5&paused=1&grid=0');
  const r = await page.evaluate(async () => {
    await window.skinlab.set({});
    const w = window as unknown as { __firstPicture: string; __panelAtFirst: number; __shownAtFirst: string };
    return {
      shownAtFirst: w.__shownAtFirst,
      shownNow: `${getComputedStyle(document.getElementById('view')!).opacity} ${getComputedStyle(document.querySelector('.lil-gui.lil-root')!).visibility}`,
      same: (document.getElementById('view') as HTMLCanvasElement).toDataURL() === w.__firstPicture,
      controllersAtFirst: w.__panelAtFirst,
      controllersNow: document.querySelectorAll('.lil-gui .lil-controller').length,
      loadMs: window.skinlab.stats().firstFrame?.totalMs ?? Infinity,
    };
  });
  // Filled after the first frame; before it only where the load took longer than PANEL_BUILD_WAIT_MS (a busy
  // machine), the load starting just after that wait is set. Either way the frames agree.
  console.log(`[first-frame] load ${Math.round(r.loadMs)} ms; panel controllers at the first frame: ${r.controllersAtFirst}, now ${r.controllersNow}`);
  if (r.loadMs < PANEL_BUILD_WAIT_MS) expect(r.controllersAtFirst, 'the panel is filled after the first frame').toBe(0);
  expect(r.controllersNow).toBeGreaterThan(20);
  if (r.loadMs < PANEL_BUILD_WAIT_MS) expect(r.shownAtFirst, 'canvas and panel root hidden while the first frame is drawn').toBe('0 hidden');
  expect(r.shownNow, 'both shown once it is').toBe('1 visible');
  expect(r.same, 'the frame after the panel filled in is the first frame, pixel for pixel').toBe(true);
  expect(con.errors).toEqual([]);
});

/**
 * The module scripts an HTML page names (and which are async), or the one `script` given, and every chunk they
 * import statically, at any depth (paths under the site).
 */
async function staticChunks(page: Page, url: string, script = false): Promise<{ entries: string[]; async: boolean[]; blocking: boolean[]; imports: Map<string, string[]> }> {
  const base = new URL(url, page.url());
  const text = script ? '' : await (await page.request.get(base.href)).text();
  const tags = [...text.matchAll(/<script\b[^>]*\btype="module"[^>]*>/g)].map((m) => m[0]);
  const entries = script ? [base.pathname] : tags.map((tag) => new URL(/\bsrc="([^"]+)"/.exec(tag)![1]!, base).pathname);
  const async = tags.map((tag) => /\basync\b/.test(tag));
  const blocking = tags.map((tag) => /\bblocking="render"/.test(tag));
  const imports = new Map<string, string[]>();
  const stack = [...entries];
  while (stack.length > 0) {
    const path = stack.pop()!;
    if (imports.has(path)) continue;
    const code = await (await page.request.get(new URL(path, base).href)).text();
    // Static imports only (`import … from "x"`, `import "x"`), not import(…) or the dependency list Vite keeps.
    const found = [...code.matchAll(/(?:^|[;}\n])\s*import\s*(?:[\w$*{][^;]*?\bfrom\s*)?["'`]([^"'`]+)["'`]/g)].map((m) => new URL(m[1]!, new URL(path, base)).pathname);
    imports.set(path, found);
    stack.push(...found);
  }
  return { entries, async, blocking, imports };
}

test("the page's entry script imports no other script (the parse worker starts as soon as it has arrived), and the three.js peer pages share nothing with it", async ({ page }) => {
  await openApp(page, '?gui=0&grid=0&shadows=0&model=tiny');
  const app = await staticChunks(page, './');
  // The entry script, then the page's main script (vite.config.ts pageScript), which may take modules from it.
  expect(app.entries.length, 'module scripts').toBe(2);
  const entry = app.entries[0]!;
  expect(app.imports.get(entry), `${entry} imports`).toEqual([]);
  // Run as it arrives, not once the page's stylesheet has as well (src/boot.ts).
  expect(app.async, 'async: the entry script; deferred: the main script').toEqual([true, false]);
  // The first paint waits for the main script, not the entry script (vite.config.ts pageScript).
  expect(app.blocking, 'render-blocking: the main script only').toEqual([false, true]);
  expect(app.imports.get(app.entries[1]!), 'the main script').toContain(entry);
  for (const peer of ['bench/three-crowd.html', 'bench/three-gltf.html']) {
    const { imports } = await staticChunks(page, peer);
    expect([...imports.keys()], `${peer} loads the app's entry chunk (and would run it)`).not.toContain(entry);
  }
});

test("the parse worker's script imports no other script, and its parsers (glTF reader included) arrive in one module that imports only that script", async ({ page }) => {
  await openApp(page, '?gui=0&grid=0&shadows=0&model=tiny');
  const app = await staticChunks(page, './');
  const entry = app.entries[0]!;
  const base = new URL(entry, page.url());
  const entryCode = await (await page.request.get(base.href)).text();
  // The worker's script, as the entry script names it (parse-worker-start.ts).
  const worker = /["'`](?:\.\/)?(parse-worker-[\w-]+\.js)["'`]/.exec(entryCode)?.[1];
  expect(worker, `${entry} names the parse worker's script`).toBeTruthy();
  const workerUrl = new URL(worker!, base);
  const { imports } = await staticChunks(page, workerUrl.href, true);
  expect(imports.get(workerUrl.pathname), 'the worker script imports').toEqual([]);
  // Its work module (parse-worker-body.ts): the first chunk it asks for, one request after its own script.
  const workerCode = await (await page.request.get(workerUrl.href)).text();
  const body = /import\(\s*["'`](\.\/parse-worker-body-[\w-]+\.js)["'`]\s*\)/.exec(workerCode)?.[1];
  expect(body, 'the worker script loads its work module').toBeTruthy();
  const bodyUrl = new URL(body!, workerUrl);
  const bodyImports = (await staticChunks(page, bodyUrl.href, true)).imports;
  expect(bodyImports.get(bodyUrl.pathname), 'the work module imports').toEqual([workerUrl.pathname]);
  const bodyCode = await (await page.request.get(bodyUrl.href)).text();
  expect(bodyCode, 'the glTF reader is part of the work module').toContain('KHR_materials_emissive_strength');
});
