import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import playwrightConfig from '../../playwright.config.ts';
import { startShotsServer, type ShotsServer } from '../cli/shots-server.ts';
import { benchCrowdShadows, benchDawnShadows } from './browser-shadows.ts';
import type { Metric } from './metric.ts';

/**
 * The browser part of `npm run bench` (CONTRACT section 4 metrics). Builds nothing: it serves an existing
 * build (`npx vite build`; folder SKINLAB_DIST or dist/) on 127.0.0.1 with the screenshots CLI's server,
 * opens headless Chromium with the browser tests' flags (playwright.config.ts: SwiftShader WebGL2, an
 * 800x600 page) and measures:
 *
 * (a) techniques: median frame time of every technique on `tiny` and on Dawn (`detail=medium`), timed by
 *     the page's `skinlab.benchSplit(k)` (frames drawn back to back, each finished with a 1-pixel readPixels
 *     so the GPU work is inside), with the page's side split out twice: the time until the frame's commands
 *     are issued (`submit_ms`) and the CPU animation + technique work inside it (stats cpuAnimUs +
 *     cpuSkinUs, `cpu_us`). SwiftShader rasterises on the CPU: the absolute figures are this machine's, the
 *     ratios between techniques (`*_ratio_vs_vs-hlsl` = vs-hlsl time / technique time) are the point.
 * (b) crowds: N = 1, 10, 100, 1000 copies of tiny.x in our crowd mode (N = 1 is the single-model view) and
 *     the peer in the same run, three.js drawing N SkeletonUtils clones with AnimationMixers
 *     (bench/three-crowd.html, same canvas size, MSAA, layout, phases and framing), timed the same way →
 *     `crowd_<N>_frame_ms`, `crowd_<N>_submit_ms`, the peer's `crowd_threejs_<N>_*`, draw calls, and for
 *     N = 100 and 1000 `crowd_<N>_ratio_vs_threejs` (frame) and `crowd_<N>_submit_ratio_vs_threejs`.
 * (d) shadows (browser-shadows.ts): every technique on Dawn at `detail=high` with the key light's shadow map
 *     on and off (`gpu_dawn_high_{shadows,noshadows}_<id>_*`, `gpu_dawn_high_shadows_<id>_ratio_vs_vs-hlsl`,
 *     stream-out's among them when the page lists it), and a crowd of 100 with and without
 *     (`crowd_100_{shadows,noshadows}_*`). Parts (a) and (b) run with `shadows=0`: the peer draws no shadows,
 *     and the figures stay comparable with runs from before the shadow map.
 * (c) heap: the app's render loop running the Walker for a window (10 s; 3 s with --quick): garbage
 *     collections in it from a browser trace (`browser_gc_count`), bytes allocated per frame (used-heap
 *     growth with no collection in between), and the JS heap after a forced GC before and after
 *     (`browser_heap_growth_bytes`).
 *
 * --quick: fewer frames per figure, no N = 1000 crowd, a shorter heap window.
 * SKINLAB_BENCH_PARTS (or `parts`): a comma list of crowds, techniques, shadows, heap to run only those.
 */

export interface BrowserBenchOptions {
  quick: boolean;
  /** Built site; default SKINLAB_DIST or dist/ under the working directory. */
  dist?: string;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  /** Parts to run (default SKINLAB_BENCH_PARTS, else all): crowds, techniques, shadows, heap. */
  parts?: readonly string[];
}

const BROWSER_PARTS = ['crowds', 'techniques', 'shadows', 'heap'] as const;

type SkinlabWindow = Window & {
  skinlab: {
    set(p: Record<string, unknown>): Promise<void>;
    info(): Record<string, unknown>;
    stats(): Record<string, number | string | null>;
    benchFrames(frames: number): number;
    benchSplit(frames: number): Split;
    frames(): number;
  };
  threeCrowd: { setCrowd(n: number): void; benchFrames(k: number): number; benchSplit(k: number): Split; drawCalls(): number };
};

const READY_TIMEOUT_MS = 180_000;

/** The heap window's model: the default Walker, the page a user first sees. */
const HEAP_MODEL = 'default';

/** The crowd figures' character (a built-in id the three.js peer page also loads). */
const CROWD_MODEL = 'tiny';

interface Split {
  frameMs: number;
  submitMs: number;
}

async function waitReady(page: Page, what: string): Promise<void> {
  await page.waitForFunction(() => ['ready', 'error'].includes(document.documentElement.dataset.state ?? ''), undefined, { timeout: READY_TIMEOUT_MS });
  const state = await page.evaluate(() => document.documentElement.dataset.state);
  if (state !== 'ready') {
    const text = (await page.locator('#error').textContent().catch(() => null))?.trim();
    throw new Error(`${what}: the page reported an error: ${text || '(no message)'}`);
  }
}

function round(x: number, digits = 3): number {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
}

export async function runBrowserBench(opts: BrowserBenchOptions): Promise<Metric[]> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const dist = resolve(opts.dist ?? process.env.SKINLAB_DIST ?? 'dist');
  if (!existsSync(join(dist, 'index.html')) || !existsSync(join(dist, 'bench', 'three-crowd.html'))) {
    throw new Error(`${dist} has no build with the three.js peer page (bench/three-crowd.html): build it first with npx vite build`);
  }
  const launch = playwrightConfig.use?.launchOptions ?? {};
  const executablePath = launch.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no browser at ${executablePath}`);
  const viewport = playwrightConfig.use?.viewport ?? { width: 800, height: 600 };

  const parts = new Set(opts.parts ?? (process.env.SKINLAB_BENCH_PARTS ? process.env.SKINLAB_BENCH_PARTS.split(',').map((x) => x.trim()) : BROWSER_PARTS));
  for (const p of parts) if (!(BROWSER_PARTS as readonly string[]).includes(p)) throw new Error(`unknown browser bench part "${p}" (parts: ${BROWSER_PARTS.join(', ')})`);

  const metrics: Metric[] = [];
  const server: ShotsServer = await startShotsServer(dist, { kind: 'builtin', id: 'default' });
  const browser: Browser = await chromium.launch({ ...launch, executablePath, headless: true });
  const t0 = performance.now();
  try {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const open = async (query: string, what: string, path = ''): Promise<Page> => {
      const page = await context.newPage();
      page.on('pageerror', (e) => log(`page error (${what}): ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error' && !/^Failed to load resource: .* 404/.test(m.text())) log(`page error (${what}): ${m.text()}`);
      });
      await page.goto(`${server.url}${path}?${query}`);
      await waitReady(page, what);
      return page;
    };

    // (b) Crowds first, of tiny.x (35 bones, 6,841 triangles, textured): a character light enough that
    // 1000 of them (6.8 million triangles) still rasterise in seconds on SwiftShader. Both pages stay open; the
    // one not being measured is frozen (CDP Page.setWebLifecycleState) so our render loop never competes with
    // the peer for SwiftShader's threads, and the two are measured alternately, `reps` times, so load from
    // elsewhere on the machine hits both.
    const sizes = opts.quick ? [1, 10, 100] : [1, 10, 100, 1000];
    const framesFor = (n: number): number => (n >= 1000 ? 1 : n >= 100 ? (opts.quick ? 1 : 3) : opts.quick ? 3 : 8);
    const repsFor = (n: number): number => (opts.quick ? 1 : n >= 1000 ? 2 : 3);
    if (parts.has('crowds')) {
      const page = await open(`gui=0&shadows=0&model=${CROWD_MODEL}`, 'crowd (skinlab)');
      const peer = await open(`model=${CROWD_MODEL}`, 'crowd (three.js)', 'bench/three-crowd.html');
      const ourCdp = await page.context().newCDPSession(page);
      const peerCdp = await peer.context().newCDPSession(peer);
      const freeze = (cdp: typeof ourCdp, frozen: boolean): Promise<unknown> => cdp.send('Page.setWebLifecycleState', { state: frozen ? 'frozen' : 'active' });
      await freeze(peerCdp, true);
      for (const n of sizes) {
        // set() applies the state at once and then waits for the render loop's frame: the first bench frame
        // is drawn with the new crowd already, and a 1000-figure frame is not drawn twice. Stats are copied on
        // that frame (the technique label changes with N).
        const mine: Split[] = [];
        const theirs: Split[] = [];
        let stats = { drawCalls: 0 };
        let peerDraws = 0;
        for (let r = 0; r < repsFor(n); r++) {
          await freeze(ourCdp, false);
          const got = await page.evaluate(
            ([c, k]) => {
              const s = (window as unknown as SkinlabWindow).skinlab;
              void s.set({ crowd: c });
              const split = s.benchSplit(k);
              const stats = s.stats();
              // Back to one figure before the render loop's next frame, so no crowd frame runs beside the peer's.
              void s.set({ crowd: 1 });
              return { split, stats };
            },
            [n, framesFor(n)] as const,
          );
          await freeze(ourCdp, true);
          mine.push(got.split);
          stats = { drawCalls: Number(got.stats.drawCalls) };
          await freeze(peerCdp, false);
          const peerGot = await peer.evaluate(
            ([c, k]) => {
              const p = (window as unknown as SkinlabWindow).threeCrowd;
              p.setCrowd(c);
              return { split: p.benchSplit(k), draws: p.drawCalls() };
            },
            [n, framesFor(n)] as const,
          );
          await freeze(peerCdp, true);
          theirs.push(peerGot.split);
          peerDraws = peerGot.draws;
        }
        const ms = Math.min(...mine.map((x) => x.frameMs));
        const peerMs = Math.min(...theirs.map((x) => x.frameMs));
        const submit = Math.min(...mine.map((x) => x.submitMs));
        const peerSubmit = Math.min(...theirs.map((x) => x.submitMs));
        const how = `best of ${repsFor(n)} medians of ${framesFor(n)} frames, alternating with the peer, SwiftShader 800x600 MSAA`;
        const what = `${n} × ${CROWD_MODEL}`;
        metrics.push({ name: `crowd_${n}_frame_ms`, value: round(ms), unit: 'ms', note: `${what}, ${n > 1 ? 'crowd mode (instanced, texture palette)' : 'single model (vs-hlsl)'}; ${how}` });
        metrics.push({ name: `crowd_${n}_submit_ms`, value: round(submit), unit: 'ms', note: 'CPU side of the same frames: until every command is issued (animation, palettes, uploads, draws)' });
        metrics.push({ name: `crowd_${n}_draw_calls`, value: stats.drawCalls, unit: 'draws', note: 'per frame, floor grid included' });
        metrics.push({ name: `crowd_threejs_${n}_frame_ms`, value: round(peerMs), unit: 'ms', note: `three.js: ${n} SkeletonUtils clones + AnimationMixers; ${how}` });
        metrics.push({ name: `crowd_threejs_${n}_submit_ms`, value: round(peerSubmit), unit: 'ms', note: 'three.js CPU side: mixers, matrices, bone textures, draws' });
        metrics.push({ name: `crowd_threejs_${n}_draw_calls`, value: peerDraws, unit: 'draws', note: 'three.js renderer.info.render.calls' });
        if (n >= 100) {
          metrics.push({ name: `crowd_${n}_ratio_vs_threejs`, value: round(peerMs / ms), unit: 'x', note: 'three.js frame time / ours (higher is better for us); SwiftShader rasterises on the CPU, so the shared pixel work dilutes it' });
          metrics.push({ name: `crowd_${n}_submit_ratio_vs_threejs`, value: round(peerSubmit / submit), unit: 'x', note: 'three.js CPU submit time / ours: what instancing saves the page' });
        }
        log(`crowd ${n}: ours ${ms.toFixed(1)} ms (submit ${submit.toFixed(1)}, ${stats.drawCalls} draws), three.js ${peerMs.toFixed(1)} ms (submit ${peerSubmit.toFixed(1)}, ${peerDraws} draws) (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      }
      await page.close();
      await peer.close();
    }

    // (a) Techniques on tiny and on Dawn.
    const models: [string, string][] = [
      ['tiny', 'model=tiny'],
      ['dawn', 'model=dawn&detail=medium'],
    ];
    // Rounds: every technique gets `frames` frames per round, techniques in turn, so a burst of load from
    // elsewhere on the machine hits one round of every technique rather than all rounds of one; each figure
    // is the best round's median. The CPU part (the stats box's one-second averages) is read in the last round,
    // when every technique's per-model state has been built (the first frame after a first switch builds it).
    const rounds = opts.quick ? 1 : 3;
    for (const [label, query] of parts.has('techniques') ? models : []) {
      const page = await open(`gui=0&shadows=0&${query}`, `techniques (${label})`);
      const info = await page.evaluate(() => (window as unknown as SkinlabWindow).skinlab.info());
      const support = info.techniqueSupport as Record<string, string | null>;
      const frames = opts.quick ? 3 : label === 'tiny' ? 6 : 3;
      const ids: string[] = [];
      for (const id of info.techniques as string[]) {
        if (support[id]) log(`techniques ${label}: ${id} skipped (${support[id]})`);
        else ids.push(id);
      }
      const best = new Map<string, Split>();
      const cpu = new Map<string, number>();
      for (let r = 0; r < rounds; r++) {
        for (const id of ids) {
          await page.evaluate((t) => (window as unknown as SkinlabWindow).skinlab.set({ technique: t }), id);
          const split = await page.evaluate((k) => (window as unknown as SkinlabWindow).skinlab.benchSplit(k), frames);
          const was = best.get(id);
          best.set(id, { frameMs: Math.min(split.frameMs, was?.frameMs ?? Infinity), submitMs: Math.min(split.submitMs, was?.submitMs ?? Infinity) });
          if (r === rounds - 1) {
            // The stats box averages over a second of the render loop: let one pass, then read the CPU part.
            await page.waitForTimeout(opts.quick ? 600 : 1100);
            const stats = await page.evaluate(() => (window as unknown as SkinlabWindow).skinlab.stats());
            cpu.set(id, Number(stats.cpuAnimUs) + Number(stats.cpuSkinUs));
          }
        }
      }
      for (const id of ids) {
        const { frameMs: ms, submitMs } = best.get(id)!;
        const cpuUs = cpu.get(id)!;
        metrics.push({ name: `gpu_${label}_${id}_frame_ms`, value: round(ms), unit: 'ms', note: `best of ${rounds} rounds' medians of ${frames} frames, techniques in turn; SwiftShader (a CPU rasteriser) 800x600 MSAA` });
        metrics.push({ name: `gpu_${label}_${id}_cpu_us`, value: round(cpuUs, 1), unit: 'µs', note: 'CPU part of a frame: animation + technique work (palette, CPU skinning, uploads)' });
        metrics.push({ name: `gpu_${label}_${id}_submit_ms`, value: round(submitMs), unit: 'ms', note: 'the page\'s side of a frame: CPU part + issuing every GL command (the rest of frame_ms is drawing)' });
        log(`techniques ${label}: ${id} ${ms.toFixed(1)} ms/frame, submit ${submitMs.toFixed(2)} ms, CPU ${cpuUs.toFixed(0)} µs`);
      }
      const base = best.get('vs-hlsl')?.frameMs;
      if (base !== undefined) {
        for (const id of ids) {
          if (id === 'vs-hlsl') continue;
          metrics.push({ name: `gpu_${label}_${id}_ratio_vs_vs-hlsl`, value: round(base / best.get(id)!.frameMs), unit: 'x', note: 'vs-hlsl frame time / this technique\'s (higher is faster than vs-hlsl)' });
        }
      }
      log(`techniques ${label}: done (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      await page.close();
    }

    // (d) Shadows: Dawn high, every technique, on and off; a crowd of 100 on and off.
    if (parts.has('shadows')) {
      const shadowOpts = { quick: opts.quick, open: (query: string, what: string) => open(query, what), log };
      metrics.push(...(await benchDawnShadows(shadowOpts)));
      metrics.push(...(await benchCrowdShadows(shadowOpts, CROWD_MODEL)));
      log(`shadows: done (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
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
  } finally {
    await browser.close();
    await server.close();
  }
  log(`browser bench: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return metrics;
}
