import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import playwrightConfig from '../../playwright.config.ts';
import { startShotsServer, type ShotsServer } from '../cli/shots-server.ts';
import type { Metric } from './metric.ts';
import { runTtffBench } from './ttff-bench.ts';

/**
 * The browser part of `npm run bench` (docs/api.md#bench-resultsjson rows). Builds nothing: it serves an existing
 * build (`npx vite build`; folder SKINLAB_DIST or dist/) on 127.0.0.1 with the screenshots CLI's server,
 * opens headless Chromium (the browser tests' SwiftShader flags, or with `gpu` the hardware GPU: GPU_ARGS)
 * on an 800x600 page and measures:
 *
 * (a) techniques and (b) crowds: the page's own benchmark, `window.skinlab.bench({quick, parts})`
 *     (src/app/bench/: GPU timer queries over windows of frames, wall time of the same frames, the three.js
 *     peer page in an iframe): one implementation for the page's Benchmark button, `?bench=` and this CLI.
 *     Its rows are returned as they are; its progress lines are logged.
 * (c) heap: the app's render loop running the Walker for a window (10 s; 3 s with --quick): garbage
 *     collections in it from a browser trace (`browser_gc_count`), bytes allocated per frame (used-heap
 *     growth with no collection in between), and the JS heap after a forced GC before and after
 *     (`browser_heap_growth_bytes`).
 * (d) ttff: time to first frame of a fresh page per model, against three.js's GLTFLoader for the glTF files
 *     (src/bench/ttff-bench.ts).
 *
 * --quick: the page's quick run, a shorter heap window.
 * SKINLAB_BENCH_PARTS (or `parts`): a comma list of crowds, techniques, heap, ttff to run only those (`shadows`, a
 * part of its own before, is measured inside techniques and accepted as a synonym).
 */

export interface BrowserBenchOptions {
  quick: boolean;
  /** Built site; default SKINLAB_DIST or dist/ under the working directory. */
  dist?: string;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  /** Parts to run (default SKINLAB_BENCH_PARTS, else all): crowds, techniques, heap, ttff. */
  parts?: readonly string[];
  /** Chromium executable (default: playwright.config.ts's, CHROMIUM_PATH or /usr/bin/chromium). */
  browser?: string;
  /** Draw with the machine's GPU (GPU_ARGS) instead of SwiftShader. */
  gpu?: boolean;
}

const BROWSER_PARTS = ['crowds', 'techniques', 'shadows', 'heap', 'ttff'] as const;

/**
 * Chromium flags for a hardware GPU: ANGLE on Vulkan, the GPU process on even where Chromium's blocklist or
 * headless mode would fall back to software (the tests' other flags are kept, less the SwiftShader ones).
 * Linux with an NVIDIA or AMD Vulkan driver.
 */
export const GPU_ARGS = ['--use-angle=vulkan', '--enable-features=Vulkan', '--enable-gpu', '--ignore-gpu-blocklist'];

type SkinlabWindow = Window & {
  skinlab: {
    frames(): number;
  };
};

const READY_TIMEOUT_MS = 180_000;

/** The heap window's model: the default Walker, the page a user first sees. */
const HEAP_MODEL = 'default';

function round(x: number, digits = 3): number {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
}

async function waitReady(page: Page, what: string): Promise<void> {
  await page.waitForFunction(() => ['ready', 'error'].includes(document.documentElement.dataset.state ?? ''), undefined, { timeout: READY_TIMEOUT_MS });
  const state = await page.evaluate(() => document.documentElement.dataset.state);
  if (state !== 'ready') {
    const text = (await page.locator('#error').textContent().catch(() => null))?.trim();
    throw new Error(`${what}: the page reported an error: ${text || '(no message)'}`);
  }
}

export async function runBrowserBench(opts: BrowserBenchOptions): Promise<Metric[]> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const dist = resolve(opts.dist ?? process.env.SKINLAB_DIST ?? 'dist');
  if (!existsSync(join(dist, 'index.html')) || !existsSync(join(dist, 'bench', 'three-crowd.html')) || !existsSync(join(dist, 'bench', 'three-gltf.html'))) {
    throw new Error(`${dist} has no build with the three.js peer pages (bench/three-crowd.html, bench/three-gltf.html): build it first with npx vite build`);
  }
  const launch = playwrightConfig.use?.launchOptions ?? {};
  const executablePath = opts.browser ?? launch.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no browser at ${executablePath}`);
  const args = opts.gpu ? [...GPU_ARGS, ...(launch.args ?? []).filter((a) => !/swiftshader|use-angle/.test(a))] : launch.args;
  const viewport = playwrightConfig.use?.viewport ?? { width: 800, height: 600 };

  const parts = new Set(opts.parts ?? (process.env.SKINLAB_BENCH_PARTS ? process.env.SKINLAB_BENCH_PARTS.split(',').map((x) => x.trim()) : BROWSER_PARTS));
  for (const p of parts) if (!(BROWSER_PARTS as readonly string[]).includes(p)) throw new Error(`unknown browser bench part "${p}" (parts: ${BROWSER_PARTS.join(', ')})`);
  const techniques = parts.has('techniques') || parts.has('shadows');
  const crowds = parts.has('crowds');

  const metrics: Metric[] = [];
  const server: ShotsServer = await startShotsServer(dist, { kind: 'builtin', id: 'default' });
  const browser: Browser = await chromium.launch({ ...launch, args, executablePath, headless: true });
  const t0 = performance.now();
  try {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const open = async (query: string, what: string, path = ''): Promise<Page> => {
      const page = await context.newPage();
      page.on('pageerror', (e) => log(`page error (${what}): ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'warning' && m.text().startsWith('bench:')) log(m.text());
        if (m.type() === 'error' && !/^Failed to load resource: .* 404/.test(m.text())) log(`page error (${what}): ${m.text()}`);
      });
      await page.goto(`${server.url}${path}?${query}`);
      await waitReady(page, what);
      return page;
    };

    // (a) + (b): the page's benchmark (src/app/bench/runner.ts).
    if (techniques || crowds) {
      const page = await open('gui=0&shadows=0&model=tiny', 'bench');
      await page.exposeFunction('skinlabBenchLog', (line: string) => log(`${line} (${((performance.now() - t0) / 1000).toFixed(0)} s)`));
      const renderer = await page.evaluate(() => {
        const gl = document.createElement('canvas').getContext('webgl2');
        const dbg = gl?.getExtension('WEBGL_debug_renderer_info');
        return gl ? String(gl.getParameter(dbg ? dbg.UNMASKED_RENDERER_WEBGL : gl.RENDERER)) : '(no WebGL2)';
      });
      log(`browser: ${renderer}`);
      // A string, not a function: tsx's transform would wrap the callback in a helper the page lacks (__name).
      // The crowd scenes (10,000 instances) only on a hardware GPU: on SwiftShader one such frame takes minutes.
      const options = JSON.stringify({ quick: opts.quick, parts: techniques && crowds ? 'all' : techniques ? 'techniques' : 'crowd', scenes: opts.gpu === true });
      const rows = (await page.evaluate(`window.skinlab.bench({ ...${options}, onProgress: (p) => window.skinlabBenchLog(p.step + '/' + p.steps + ' ' + p.text) })`)) as Metric[];
      metrics.push(...rows);
      log(`page benchmark: ${rows.length} rows (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      await page.close();
    }

    // (c) Heap and garbage collections over the render loop. Between two heap readings with no collection in
    // between, the growth of the used heap is what the page allocated: bytes per frame. Collections are
    // counted from a browser trace (Playwright's Browser.startTracing: V8's MinorGC/MajorGC events).
    if (parts.has('heap')) {
      const page = await open(`gui=0&model=${HEAP_MODEL}`, 'heap');
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('HeapProfiler.enable');
      const used = async (): Promise<number> => (await cdp.send('Runtime.getHeapUsage')).usedSize;
      const settle = async (): Promise<number> => {
        await cdp.send('HeapProfiler.collectGarbage');
        await cdp.send('HeapProfiler.collectGarbage');
        return used();
      };
      const frameCount = (): Promise<number> => page.evaluate(() => (window as unknown as SkinlabWindow).skinlab.frames());
      // Warm-up: until V8 has optimised the frame's functions, unoptimised code boxes doubles.
      await page.waitForTimeout(opts.quick ? 1000 : 5000);
      const windowMs = opts.quick ? 3000 : 10_000;
      const before = await settle();
      await browser.startTracing(page, { categories: ['devtools.timeline', 'v8', 'disabled-by-default-v8.gc'] });
      const f0 = await frameCount();
      const h0 = await used();
      await page.waitForTimeout(windowMs);
      const h1 = await used();
      const f1 = await frameCount();
      const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents?: { name?: string }[] } | { name?: string }[];
      const events = Array.isArray(trace) ? trace : (trace.traceEvents ?? []);
      const minor = events.filter((e) => e.name === 'MinorGC').length;
      const major = events.filter((e) => e.name === 'MajorGC').length;
      const after = await settle();
      const frames = f1 - f0;
      const perFrame = minor + major === 0 && frames > 0 ? (h1 - h0) / frames : NaN;
      metrics.push({ name: 'browser_frames', value: frames, unit: 'frames', note: `render-loop frames of ${HEAP_MODEL} in the ${windowMs / 1000} s window` });
      metrics.push({ name: 'browser_gc_count', value: minor + major, unit: 'GCs', note: `V8 collections in the page during those frames (trace: ${minor} MinorGC, ${major} MajorGC)` });
      if (Number.isFinite(perFrame)) metrics.push({ name: 'browser_alloc_bytes_per_frame', value: round(perFrame, 1), unit: 'bytes', note: 'used-heap growth over the window / frames, no collection in between (includes the page\'s idle timers and the measurement\'s own calls)' });
      metrics.push({ name: 'browser_heap_growth_bytes', value: after - before, unit: 'bytes', note: 'JS heap after a forced GC, after minus before the window' });
      log(`heap: ${frames} frames, ${minor + major} GCs, ${(h1 - h0)} B allocated (${Number.isFinite(perFrame) ? perFrame.toFixed(1) : '?'} B/frame), ${after - before} B retained`);
      await page.close();
    }

    // (d) Time to first frame, fresh pages (src/bench/ttff-bench.ts).
    if (parts.has('ttff')) {
      metrics.push(...(await runTtffBench({ browser, dist, context: { viewport, deviceScaleFactor: 1 }, quick: opts.quick, log })));
    }
  } finally {
    await browser.close();
    await server.close();
  }
  log(`browser bench: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return metrics;
}
