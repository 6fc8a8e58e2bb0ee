import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import playwrightConfig from '../../playwright.config.ts';
import { startShotsServer, type ShotsServer } from '../cli/shots-server.ts';
import type { Metric } from './metric.ts';

/**
 * The browser part of `npm run bench` (CONTRACT section 4 metrics). Builds nothing: it serves an existing
 * build (`npx vite build`; folder SKINLAB_DIST or dist/) on 127.0.0.1 with the screenshots CLI's server,
 * opens headless Chromium with the browser tests' flags (playwright.config.ts: SwiftShader WebGL2, an
 * 800x600 page) and measures:
 *
 * (a) techniques: median frame time of every technique on `tiny` and on Dawn (`detail=medium`), timed by
 *     the page's `skinlab.benchFrames(k)` (frames drawn back to back, each finished with a 1-pixel
 *     readPixels so the GPU work is inside), and the CPU part (stats cpuAnimUs + cpuSkinUs). SwiftShader
 *     rasterises on the CPU: the absolute figures are this machine's, the ratios between techniques
 *     (`*_ratio_vs_vs-hlsl` = vs-hlsl time / technique time) are the point.
 * (b) crowds: N = 1, 10, 100, 1000 Walkers in our crowd mode (N = 1 is the single-model view) and the peer
 *     in the same run, three.js drawing N SkeletonUtils clones with AnimationMixers (bench/three-crowd.html,
 *     same canvas size, layout, phases and framing), timed the same way → `crowd_<N>_frame_ms`,
 *     `crowd_threejs_<N>_frame_ms`, `crowd_<N>_draw_calls`, `crowd_threejs_<N>_draw_calls`, and
 *     `crowd_<N>_ratio_vs_threejs` (three.js time / ours) for N = 100 and 1000.
 * (c) heap: the app's render loop running the Walker for a window (10 s; 3 s with --quick): JS heap
 *     after a forced GC before and after (CDP HeapProfiler.collectGarbage + Runtime.getHeapUsage) →
 *     `browser_heap_growth_bytes`, and the garbage collections V8 ran in the window, counted from a
 *     trace (`browser_gc_count`) when tracing works.
 *
 * --quick: fewer frames per figure, no N = 1000 crowd, a shorter heap window.
 */

export interface BrowserBenchOptions {
  quick: boolean;
  /** Built site; default SKINLAB_DIST or dist/ under the working directory. */
  dist?: string;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
}

type SkinlabWindow = Window & {
  skinlab: {
    set(p: Record<string, unknown>): Promise<void>;
    info(): Record<string, unknown>;
    stats(): Record<string, number | string | null>;
    benchFrames(frames: number): number;
  };
  threeCrowd: { setCrowd(n: number): void; benchFrames(k: number): number; drawCalls(): number };
};

const READY_TIMEOUT_MS = 180_000;

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

    // (b) Crowds first. Both pages stay open; the one not being measured is frozen (CDP
    // Page.setWebLifecycleState) so our render loop never competes with the peer for SwiftShader's threads,
    // and the two are measured alternately, `reps` times, so load from elsewhere on the machine hits both.
    const sizes = opts.quick ? [1, 10, 100] : [1, 10, 100, 1000];
    const framesFor = (n: number): number => (n >= 1000 ? 1 : n >= 100 ? (opts.quick ? 1 : 2) : opts.quick ? 3 : 6);
    const repsFor = (n: number): number => (n >= 1000 ? 1 : opts.quick ? 1 : 2);
    {
      const page = await open('gui=0&model=default', 'crowd (skinlab)');
      const peer = await open('model=default', 'crowd (three.js)', 'bench/three-crowd.html');
      const ourCdp = await page.context().newCDPSession(page);
      const peerCdp = await peer.context().newCDPSession(peer);
      const freeze = (cdp: typeof ourCdp, frozen: boolean): Promise<unknown> => cdp.send('Page.setWebLifecycleState', { state: frozen ? 'frozen' : 'active' });
      await freeze(peerCdp, true);
      for (const n of sizes) {
        // set() applies the state at once and then waits for the render loop's frame: the first bench frame
        // is drawn with the new crowd already, and a 1000-figure frame (a minute and more on SwiftShader) is
        // not drawn twice. Stats are copied on that frame (the technique label changes with N).
        const mine: number[] = [];
        const theirs: number[] = [];
        let stats = { drawCalls: 0, cpuAnimUs: 0 };
        let peerDraws = 0;
        for (let r = 0; r < repsFor(n); r++) {
          await freeze(ourCdp, false);
          const got = await page.evaluate(
            ([c, k]) => {
              const s = (window as unknown as SkinlabWindow).skinlab;
              void s.set({ crowd: c });
              const ms = s.benchFrames(k);
              const stats = s.stats();
              // Back to one figure before the render loop's next frame, so no crowd frame runs beside the peer's.
              void s.set({ crowd: 1 });
              return { ms, stats };
            },
            [n, framesFor(n)] as const,
          );
          await freeze(ourCdp, true);
          mine.push(got.ms);
          stats = { drawCalls: Number(got.stats.drawCalls), cpuAnimUs: Number(got.stats.cpuAnimUs) };
          await freeze(peerCdp, false);
          const peerGot = await peer.evaluate(
            ([c, k]) => {
              const p = (window as unknown as SkinlabWindow).threeCrowd;
              p.setCrowd(c);
              return { ms: p.benchFrames(k), draws: p.drawCalls() };
            },
            [n, framesFor(n)] as const,
          );
          await freeze(peerCdp, true);
          theirs.push(peerGot.ms);
          peerDraws = peerGot.draws;
        }
        const ms = Math.min(...mine);
        const peerMs = Math.min(...theirs);
        const how = `best of ${repsFor(n)} medians of ${framesFor(n)} frames, alternating with the peer, SwiftShader 800x600`;
        metrics.push({ name: `crowd_${n}_frame_ms`, value: round(ms), unit: 'ms', note: `${n} Walker${n > 1 ? 's' : ''}, ${n > 1 ? 'crowd mode (instanced, texture palette)' : 'single model (vs-hlsl)'}; ${how}` });
        metrics.push({ name: `crowd_${n}_draw_calls`, value: stats.drawCalls, unit: 'draws', note: 'per frame, floor grid included' });
        metrics.push({ name: `crowd_${n}_cpu_anim_us`, value: round(stats.cpuAnimUs, 1), unit: 'µs', note: 'CPU animation of every instance in the first frame at this N (stats cpuAnimUs)' });
        metrics.push({ name: `crowd_threejs_${n}_frame_ms`, value: round(peerMs), unit: 'ms', note: `three.js ${n} SkeletonUtils clones + AnimationMixers; ${how}` });
        metrics.push({ name: `crowd_threejs_${n}_draw_calls`, value: peerDraws, unit: 'draws', note: 'three.js renderer.info.render.calls' });
        if (n >= 100) metrics.push({ name: `crowd_${n}_ratio_vs_threejs`, value: round(peerMs / ms), unit: 'x', note: 'three.js frame time / ours (higher is better for us)' });
        log(`crowd ${n}: ours ${ms.toFixed(1)} ms (${stats.drawCalls} draws), three.js ${peerMs.toFixed(1)} ms (${peerDraws} draws) (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      }
      await page.close();
      await peer.close();
    }

    // (a) Techniques on tiny and on Dawn.
    const models: [string, string][] = [
      ['tiny', 'model=tiny'],
      ['dawn', 'model=dawn&detail=medium'],
    ];
    for (const [label, query] of models) {
      const page = await open(`gui=0&${query}`, `techniques (${label})`);
      const info = await page.evaluate(() => (window as unknown as SkinlabWindow).skinlab.info());
      const support = info.techniqueSupport as Record<string, string | null>;
      const frames = opts.quick ? 3 : label === 'tiny' ? 12 : 6;
      const times = new Map<string, number>();
      for (const id of info.techniques as string[]) {
        if (support[id]) {
          log(`techniques ${label}: ${id} skipped (${support[id]})`);
          continue;
        }
        await page.evaluate((t) => (window as unknown as SkinlabWindow).skinlab.set({ technique: t }), id);
        const ms = await page.evaluate((k) => (window as unknown as SkinlabWindow).skinlab.benchFrames(k), frames);
        // The stats box averages over a second of the render loop: let one pass, then read the CPU part.
        await page.waitForTimeout(opts.quick ? 600 : 1100);
        const stats = await page.evaluate(() => (window as unknown as SkinlabWindow).skinlab.stats());
        const cpuUs = Number(stats.cpuAnimUs) + Number(stats.cpuSkinUs);
        times.set(id, ms);
        metrics.push({ name: `gpu_${label}_${id}_frame_ms`, value: round(ms), unit: 'ms', note: `median of ${frames} frames, SwiftShader (a CPU rasteriser) 800x600` });
        metrics.push({ name: `gpu_${label}_${id}_cpu_us`, value: round(cpuUs, 1), unit: 'µs', note: 'CPU part of a frame: animation + technique work (palette, CPU skinning, uploads)' });
        log(`techniques ${label}: ${id} ${ms.toFixed(1)} ms/frame, CPU ${cpuUs.toFixed(0)} µs (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      }
      const base = times.get('vs-hlsl');
      if (base !== undefined) {
        for (const [id, ms] of times) {
          if (id === 'vs-hlsl') continue;
          metrics.push({ name: `gpu_${label}_${id}_ratio_vs_vs-hlsl`, value: round(base / ms), unit: 'x', note: 'vs-hlsl frame time / this technique\'s (higher is faster than vs-hlsl)' });
        }
      }
      await page.close();
    }

    // (c) Heap over the render loop.
    {
      const page = await open('gui=0&model=default', 'heap');
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('HeapProfiler.enable');
      const settle = async (): Promise<number> => {
        await cdp.send('HeapProfiler.collectGarbage');
        await cdp.send('HeapProfiler.collectGarbage');
        return (await cdp.send('Runtime.getHeapUsage')).usedSize;
      };
      await page.waitForTimeout(1000);
      const before = await settle();
      const gcEvents: string[] = [];
      let tracing = false;
      try {
        cdp.on('Tracing.dataCollected', (e: { value: { name?: string; cat?: string }[] }) => {
          for (const ev of e.value) if (ev.name && /^(MinorGC|MajorGC|V8\.GC_SCAVENGER|V8\.GC_MARK_COMPACTOR|V8\.GCScavenger|V8\.GCFinalizeMC)$/.test(ev.name)) gcEvents.push(ev.name);
        });
        await cdp.send('Tracing.start', { categories: 'devtools.timeline,v8', transferMode: 'ReportEvents' });
        tracing = true;
      } catch {
        tracing = false;
      }
      const windowMs = opts.quick ? 3000 : 10_000;
      const frames0 = await page.evaluate(() => new Promise<number>((r) => requestAnimationFrame((t) => r(t))));
      await page.waitForTimeout(windowMs);
      const frames1 = await page.evaluate(() => new Promise<number>((r) => requestAnimationFrame((t) => r(t))));
      if (tracing) {
        const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
        await cdp.send('Tracing.end');
        await done;
      }
      const after = await settle();
      const fps = Number((await page.evaluate(() => (window as unknown as SkinlabWindow).skinlab.stats())).fps);
      metrics.push({ name: 'browser_heap_growth_bytes', value: after - before, unit: 'bytes', note: `JS heap after a forced GC, after minus before ${((frames1 - frames0) / 1000).toFixed(1)} s of the Walker's render loop (~${fps.toFixed(0)} fps)` });
      if (tracing) {
        const major = gcEvents.filter((n) => /Major|MARK_COMPACTOR|FinalizeMC/.test(n)).length;
        metrics.push({ name: 'browser_gc_count', value: gcEvents.length - major, unit: 'GCs', note: `minor (scavenge) collections during the ${windowMs / 1000} s window, from a devtools.timeline trace; major: ${major}` });
      }
      log(`heap: ${after - before} B growth over ${windowMs / 1000} s${tracing ? `, ${gcEvents.length} GC events` : ''}`);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  log(`browser bench: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return metrics;
}
