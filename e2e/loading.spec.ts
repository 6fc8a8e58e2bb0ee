import { expect, test, type Page } from '@playwright/test';
import { coverage, openApp, pixelDifference, waitState, watchConsole } from './helpers.ts';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Loading cannot break the page: big files parse in a worker while the current model keeps playing,
 * Cancel stops a parse at once, and any bytes that are not a model give one clear message while the
 * previous model keeps running.
 */

/**
 * Makes, in the page, a valid text .x of `vertices` vertices and as many (degenerate) triangles, about
 * 36 bytes each, and drops it as `name`. Built in the page because a file this size cannot pass through
 * Playwright's connection to the browser.
 */
async function dropBigX(page: Page, name: string, vertices: number): Promise<number> {
  return page.evaluate(
    ({ name, vertices }) => {
      const enc = new TextEncoder();
      const parts: [Uint8Array, number][] = [
        [enc.encode(`xof 0303txt 0032\nFrame Root {\n Mesh Sheet {\n  ${vertices};\n`), 1],
        [enc.encode('0.12345;0.54321;0.00000;,\n'), vertices - 1],
        [enc.encode(`0.12345;0.54321;0.00000;;\n  ${vertices};\n`), 1],
        [enc.encode('3;0,1,2;,\n'), vertices - 1],
        [enc.encode('3;0,1,2;;\n }\n}\n'), 1],
      ];
      const bytes = new Uint8Array(parts.reduce((n, [row, count]) => n + row.length * count, 0));
      let o = 0;
      for (const [row, count] of parts) {
        // One copy of the row, then doubling copies within the buffer.
        bytes.set(row, o);
        let done = row.length;
        const total = row.length * count;
        while (done < total) {
          const n = Math.min(done, total - done);
          bytes.copyWithin(o + done, o, o + n);
          done += n;
        }
        o += total;
      }
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      return bytes.length;
    },
    { name, vertices },
  );
}

/** Counts animation frames from page start (window.__frames), so a stalled main thread shows as a count that stops. */
async function countFrames(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __frames: number };
    w.__frames = 0;
    const tick = (): void => {
      w.__frames++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Wraps the page's Worker so a test can see how many were started and terminated (window.__workers). */
async function watchWorkers(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __workers: { started: number; terminated: number } };
    w.__workers = { started: 0, terminated: 0 };
    const Base = window.Worker;
    window.Worker = class extends Base {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        w.__workers.started++;
      }
      override terminate(): void {
        w.__workers.terminated++;
        super.terminate();
      }
    };
  });
}

const workers = (page: Page): Promise<{ started: number; terminated: number }> =>
  page.evaluate(() => (window as unknown as { __workers: { started: number; terminated: number } }).__workers);

const frames = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __frames: number }).__frames);

/**
 * In the page: waits until the progress text starts with "Parsing", then until it no longer does, and
 * returns the frames drawn and the milliseconds between. Polls with timers, which run even when a
 * synchronous parse blocks frames (they then fire late, after it).
 */
function framesWhileParsing(page: Page): Promise<{ frames: number; ms: number; text: string }> {
  return page.evaluate(
    () =>
      new Promise<{ frames: number; ms: number; text: string }>((resolve) => {
        const w = window as unknown as { __frames: number };
        const text = (): string => document.querySelector('.progress:not([hidden]) .progress-text')?.textContent ?? '';
        let f0 = -1;
        let t0 = 0;
        let seen = '';
        const poll = (): void => {
          const parsing = text().startsWith('Parsing');
          if (f0 < 0 && parsing) {
            f0 = w.__frames;
            t0 = performance.now();
            seen = text();
          } else if (f0 >= 0 && !parsing) {
            resolve({ frames: w.__frames - f0, ms: performance.now() - t0, text: seen });
            return;
          }
          setTimeout(poll, 5);
        };
        poll();
      }),
  );
}

test.describe('big files', () => {
  test('a 170 MiB file parses in a worker while the page keeps drawing; Cancel stops it and the previous model stays', async ({ page }) => {
    test.setTimeout(150_000);
    await countFrames(page);
    await watchWorkers(page);
    const con = watchConsole(page);
    await openApp(page, '');
    const t0 = (await page.evaluate(() => window.skinlab.info())).t as number;
    // The default model parsed in a worker that has ended.
    const w0 = await workers(page);
    expect(w0.started).toBeGreaterThanOrEqual(1);
    expect(w0.terminated).toBe(w0.started);
    const b0 = await frames(page);
    await page.waitForTimeout(1000);
    const baseline = (await frames(page)) - b0;

    // About 170 MiB: several seconds of parsing even on a fast machine (the parse is what Cancel must stop).
    const size = await dropBigX(page, 'big-sheet.x', 4_700_000);
    expect(size).toBeGreaterThan(160 * 1048576);

    // In the page, so the timing does not depend on round trips to the test: once "Parsing" shows, watching
    // (frames, clip time, the elapsed time shown) for a second and at least two frames, then Cancel clicked
    // where a user would. A parse on the page's thread would draw no frame at all while it lasts, so the watch
    // would only end with the parse. (On a busy machine the parse takes a core the page would use, so it
    // draws slower than before, but it draws: the watch then lasts longer than a second.)
    const run = page.evaluate(
      () =>
        new Promise<Record<string, unknown>>((resolve) => {
          const w = window as unknown as { __frames: number; __workers: { started: number; terminated: number } };
          const text = (): string => document.querySelector('.progress:not([hidden]) .progress-text')?.textContent ?? '';
          const wait = (): void => {
            if (!text().startsWith('Parsing')) {
              setTimeout(wait, 5);
              return;
            }
            const before = { frames: w.__frames, t: window.skinlab.info().t as number, text: text(), state: document.documentElement.dataset.state };
            const indeterminate = document.querySelector('.progress-bar')!.classList.contains('indeterminate');
            const start = performance.now();
            const watch = (): void => {
              if ((performance.now() - start < 1000 || w.__frames - before.frames < 2) && text().startsWith('Parsing')) {
                setTimeout(watch, 20);
                return;
              }
              const after = { frames: w.__frames, t: window.skinlab.info().t as number, text: text(), ms: performance.now() - start };
              const workers = { ...w.__workers };
              const button = document.querySelector('.progress-cancel') as HTMLElement;
              const r = button.getBoundingClientRect();
              const onTop = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === button;
              button.click();
              resolve({ before, after, indeterminate, workers, onTop, stateAfterCancel: document.documentElement.dataset.state, workersAfterCancel: { ...w.__workers } });
            };
            setTimeout(watch, 20);
          };
          wait();
        }),
    );
    const progress = page.locator('.progress-text');
    await expect(progress).toContainText('Parsing big-sheet.x… (', { timeout: 60_000 });
    await page.screenshot({ path: test.info().outputPath('parsing.png') });
    const r = (await run) as {
      before: { frames: number; t: number; text: string; state: string };
      after: { frames: number; t: number; text: string; ms: number };
      indeterminate: boolean;
      workers: { started: number; terminated: number };
      onTop: boolean;
      stateAfterCancel: string;
      workersAfterCancel: { started: number; terminated: number };
    };
    test.info().annotations.push({ type: 'figures', description: `frames: ${baseline} in 1 s before loading, ${r.after.frames - r.before.frames} in ${r.after.ms.toFixed(0)} ms while parsing` });
    console.log(test.info().annotations.at(-1)!.description);
    expect(r.before.text).toMatch(/^Parsing big-sheet\.x… \(\d+\.\d MiB\) \d+\.\d s$/);
    expect(r.after.text, 'the whole watch lay inside the parse, and the elapsed time counted up').toMatch(/^Parsing big-sheet\.x… /);
    expect(r.after.text).not.toBe(r.before.text);
    expect(r.before.state).toBe('loading');
    expect(r.indeterminate).toBe(true);
    expect(r.after.frames - r.before.frames, `frames drawn while parsing (${baseline} in a second before)`).toBeGreaterThanOrEqual(2);
    expect(r.after.t, 'the current model kept playing').not.toBe(r.before.t);
    expect(r.before.t).not.toBe(t0);
    expect(r.workers).toEqual({ started: w0.started + 1, terminated: w0.terminated });

    // Cancel (not under the panel) made the page ready again within the click and terminated the worker.
    expect(r.onTop, 'Cancel is on top, not under the panel').toBe(true);
    expect(r.stateAfterCancel).toBe('ready');
    expect(r.workersAfterCancel, 'Cancel terminated the parsing worker').toEqual({ started: w0.started + 1, terminated: w0.terminated + 1 });
    await expect(page.locator('.progress')).toBeHidden();
    expect((await page.evaluate(() => window.skinlab.info())).model).toBe('default');
    const f1 = await frames(page);
    // The terminated parse never comes back to replace the model.
    await page.waitForTimeout(1500);
    const info = await page.evaluate(() => window.skinlab.info());
    expect(info.model).toBe('default');
    expect(await page.evaluate(() => document.documentElement.dataset.state)).toBe('ready');
    await expect.poll(() => frames(page), { timeout: 30_000 }).toBeGreaterThan(f1);
    expect(await coverage(page)).toBeGreaterThan(0.02);
    expect(con.errors).toEqual([]);
  });

  test('dawn-medium (18 MB) parses off the page thread, and on it when no worker can start', async ({ page, context }) => {
    test.setTimeout(180_000);
    await countFrames(page);
    const con = watchConsole(page);
    await openApp(page, '');
    const during = framesWhileParsing(page);
    await page.evaluate(() => void window.skinlab.set({ model: 'dawn', detail: 'medium' }));
    const worker = await during;
    await waitState(page, 'ready');
    const info = await page.evaluate(() => window.skinlab.info());
    expect(info.detail).toBe('medium');
    const parse = info.parse as { where: string; parseMs: number; totalMs: number; bytes: number };
    expect(parse.where).toBe('worker');
    expect(parse.bytes).toBeGreaterThan(17e6);
    expect(worker.text).toMatch(/^Parsing dawn-medium\.m3d… \(17\.\d MiB\)/);
    const workerFps = (worker.frames * 1000) / worker.ms;
    expect(worker.frames, `frames drawn while the worker parsed (${worker.frames} in ${worker.ms.toFixed(0)} ms)`).toBeGreaterThanOrEqual(1);

    // The fallback: the worker's script cannot load, so the same file parses on the page (frames stall meanwhile).
    const blocked = await context.newPage();
    await blocked.route('**/parse-worker*', (route) => route.abort());
    await countFrames(blocked);
    const con2 = watchConsole(blocked);
    await openApp(blocked, '');
    const duringMain = framesWhileParsing(blocked);
    await blocked.evaluate(() => void window.skinlab.set({ model: 'dawn', detail: 'medium' }));
    const main = await duringMain;
    await waitState(blocked, 'ready');
    const info2 = await blocked.evaluate(() => window.skinlab.info());
    const parse2 = info2.parse as { where: string; parseMs: number; totalMs: number };
    expect(parse2.where).toBe('main');
    expect(info2.triangles).toBe(info.triangles);
    const mainFps = (main.frames * 1000) / main.ms;
    test.info().annotations.push({
      type: 'figures',
      description:
        `dawn-medium: worker parse ${parse.parseMs.toFixed(0)} ms (${parse.totalMs.toFixed(0)} ms with start and transfer), ` +
        `${workerFps.toFixed(1)} fps meanwhile; main thread parse ${parse2.parseMs.toFixed(0)} ms, ${mainFps.toFixed(1)} fps meanwhile`,
    });
    console.log(test.info().annotations.at(-1)!.description);
    expect(con.errors).toEqual([]);
    // The blocked worker script is the one expected failure on that page.
    expect(con2.errors.filter((e) => !/parse-worker|Failed to load resource/.test(e))).toEqual([]);
  });
});

const BELOW_BANNER = { x: 0, y: 160, width: 800, height: 440 };

/** Drops files made in the page from bytes (base64) onto the window, as a user's drag-and-drop. */
async function drop(page: Page, files: { name: string; bytes: Buffer }[]): Promise<void> {
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files.map((f) => ({ name: f.name, data: f.bytes.toString('base64') })));
}

/** Seeded bytes (xorshift), so a failure reproduces. */
function noise(n: number, seed = 0x2545f491): Buffer {
  const out = Buffer.alloc(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s & 0xff;
  }
  return out;
}

test.describe('files that are not models', () => {
  test('an unsupported file type, dropped or opened, gives one message and the previous model keeps running', async ({ page }) => {
    const con = watchConsole(page);
    await openApp(page, '?t=0.6');
    const before = await page.screenshot({ clip: BELOW_BANNER });

    await drop(page, [{ name: 'teapot.obj', bytes: Buffer.from('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n') }]);
    await waitState(page, 'error');
    await expect(page.locator('#error')).toHaveText(
      'teapot.obj: unsupported file type .obj; skinlab loads .x, .m3d, .gltf, .glb models (drop the model together with its textures)',
    );
    await page.screenshot({ path: test.info().outputPath('unsupported.png') });
    expect((await page.evaluate(() => window.skinlab.info())).model).toBe('default');
    expect(pixelDifference(before, await page.screenshot({ clip: BELOW_BANNER }))).toBeLessThan(0.002);

    await page.setInputFiles('input[type=file]', [
      { name: 'scene.fbx', mimeType: 'application/octet-stream', buffer: noise(256) },
      { name: 'skin.png', mimeType: 'image/png', buffer: noise(64) },
    ]);
    await expect(page.locator('#error')).toHaveText(/^scene\.fbx, skin\.png: unsupported file types \.fbx, \.png; skinlab loads \.x, \.m3d, \.gltf, \.glb models/);
    expect(await page.evaluate(() => document.documentElement.dataset.state)).toBe('error');
    expect((await page.evaluate(() => window.skinlab.info())).model).toBe('default');
    expect(con.errors).toHaveLength(2);
    expect(con.errors[0]).toContain('teapot.obj: unsupported file type .obj');
  });

  test('a model renamed to another extension loads as what it is; binary bytes named .m3d are described, never printed', async ({ page }) => {
    const con = watchConsole(page);
    await openApp(page, '?t=0.6');
    const tiny = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'models', 'tiny', 'tiny.x'));
    await drop(page, [{ name: 'renamed.glb', bytes: tiny }]);
    await expect.poll(() => page.evaluate(() => window.skinlab.info().model), { timeout: 60_000 }).toBe('renamed.glb');
    await waitState(page, 'ready');
    expect((await page.evaluate(() => window.skinlab.info())).bones).toBeGreaterThan(30);

    await drop(page, [{ name: 'broken.m3d', bytes: noise(300) }]);
    await waitState(page, 'error');
    const message = (await page.locator('#error').textContent()) ?? '';
    expect(message).toMatch(/broken\.m3d: not a Luna \.m3d text file: it looks like (binary data starting with bytes( [0-9a-f]{2}){4}|an? [A-Za-z ()]+)/);
    expect(message).toMatch(/^[\x20-\x7e\n]*$/);
    expect((await page.evaluate(() => window.skinlab.info())).model).toBe('renamed.glb');
    expect(con.errors).toHaveLength(1);
  });

  test('a model file over 256 MiB is refused from its size, before it is read', async ({ page }) => {
    const con = watchConsole(page);
    await openApp(page, '?t=0.6');
    const shown: string[] = [];
    await page.exposeFunction('__progress', (t: string) => shown.push(t));
    await page.evaluate(() => {
      new MutationObserver(() => (window as unknown as { __progress: (t: string) => void }).__progress(document.querySelector('.progress-text')?.textContent ?? '')).observe(
        document.querySelector('.progress')!,
        { subtree: true, characterData: true, childList: true },
      );
      // 257 MiB made of one 1 MiB part repeated: the Blob holds references, the page never reads it.
      const part = new Uint8Array(1 << 20);
      const dt = new DataTransfer();
      dt.items.add(new File(Array.from({ length: 257 }, () => part), 'huge.x'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await waitState(page, 'error');
    await expect(page.locator('#error')).toHaveText('huge.x: 257.0 MiB is larger than the 256 MiB limit for models');
    expect((await page.evaluate(() => window.skinlab.info())).model).toBe('default');
    expect(shown.filter((t) => /MiB of|Parsing/.test(t)), 'nothing was read or parsed').toEqual([]);
    expect(con.errors).toEqual(['huge.x: 257.0 MiB is larger than the 256 MiB limit for models']);
  });

  test('random bytes named .x and an empty file: a clear message each, the previous model still drawn', async ({ page }) => {
    const con = watchConsole(page);
    await openApp(page, '?t=0.6');
    const before = await page.screenshot({ clip: BELOW_BANNER });
    const cases: [string, Buffer, RegExp][] = [
      ['noise.x', noise(200_000), /^noise\.x: not a DirectX \.x file: it does not start with the 'xof ' header/],
      ['empty.m3d', Buffer.alloc(0), /^empty\.m3d: the file is empty/],
      ['empty.x', Buffer.alloc(0), /^empty\.x: the file is empty/],
      ['noise.m3d', noise(100_000, 7), /^noise\.m3d: /],
      ['half.x', Buffer.concat([Buffer.from('xof 0303txt 0032\nFrame A {\n Mesh {\n 3;\n 0;0;0;,'), noise(5000, 3)]), /^half\.x: .*line \d+/],
    ];
    for (const [name, bytes, message] of cases) {
      await drop(page, [{ name, bytes }]);
      await expect(page.locator('#error')).toHaveText(message);
      expect(await waitState(page, 'error')).toBe('error');
      expect((await page.evaluate(() => window.skinlab.info())).model, name).toBe('default');
      expect(pixelDifference(before, await page.screenshot({ clip: BELOW_BANNER })), `${name}: the model is still drawn`).toBeLessThan(0.002);
    }
    expect(con.errors).toHaveLength(cases.length);
    // The page is not stuck: a good model still loads after all that.
    await page.evaluate(() => window.skinlab.set({ model: 'twist', t: 0.6 }));
    await waitState(page, 'ready');
    expect((await page.evaluate(() => window.skinlab.info())).model).toBe('twist');
  });
  test('a fault while building the page’s chrome: the page still reaches ready, says what is missing, keeps drawing, and the rest of the panel works', async ({ page }) => {
    const con = watchConsole(page);
    // The tracks timeline (an SVG the panel builds after the first frame) cannot be made in this page.
    await page.addInitScript(() => {
      const make = Document.prototype.createElementNS;
      Document.prototype.createElementNS = function (this: Document, ns: string | null, name: string, ...rest: unknown[]) {
        if (name === 'svg') throw new Error('svg refused by the test');
        return (make as (...a: unknown[]) => Element).call(this, ns, name, ...rest);
      } as typeof Document.prototype.createElementNS;
    });
    await openApp(page, '?model=tiny&t=0.3');
    await expect(page.locator('#error')).toContainText('Part of the page could not be built (svg refused by the test)');
    expect(con.errors.some((e) => e.includes('Part of the page could not be built'))).toBe(true);
    // Only the timeline is missing: the panel knows the model (its clip and time rows are there).
    await expect(page.getByRole('combobox', { name: 'clip ([ ])' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'time (s)' })).toHaveValue('0.300');
    const before = await page.evaluate(() => window.skinlab.frames());
    await expect.poll(() => page.evaluate(() => window.skinlab.frames()), { timeout: 10_000 }).toBeGreaterThan(before + 2);
    // Scripting still works: another model loads and becomes ready.
    await page.evaluate(() => window.skinlab.set({ model: 'twist' }));
    await waitState(page, 'ready');
    expect((await page.evaluate(() => window.skinlab.info())).model).toBe('twist');
  });
});
