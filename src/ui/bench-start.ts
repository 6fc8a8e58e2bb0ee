import type { App } from '../app/app.ts';
import { BENCH_PARTS, type BenchOptions, type BenchPart } from '../app/bench/options.ts';
import { runBench, type BenchReport } from '../app/bench/runner.ts';
import { BenchView } from './bench-view.ts';

/**
 * Starting the in-page benchmark: from a script (`window.skinlab.bench`, no overlay), from the panel's
 * Benchmark… button and from `?bench=techniques|crowd|all` (both with the overlay, bench-view.ts). Every run
 * sets `document.documentElement.dataset.bench` to "running", then "done" (or "error", the message in the
 * overlay and the console). The panel and the URL start a full run on a hardware GPU and a quick one on a
 * software renderer (SwiftShader, llvmpipe), where a full run takes many minutes.
 */
export interface BenchStarter {
  run(options?: BenchOptions): Promise<BenchReport>;
  /** Runs with the overlay showing progress, then the report; null when one is already running or it failed. */
  withView(options?: BenchOptions): Promise<BenchReport | null>;
  /** `?bench=` after the page is ready: runs that part with the overlay; a bad value is reported as an error. */
  fromUrl(value: string | undefined): Promise<void>;
}

export function isSoftwareRenderer(renderer: string): boolean {
  return /swiftshader|llvmpipe|softpipe|software/i.test(renderer);
}

export function startBench(app: App): BenchStarter {
  let view: BenchView | null = null;
  let busy = false;
  const run = async (options: BenchOptions = {}): Promise<BenchReport> => {
    const root = document.documentElement;
    root.dataset.bench = 'running';
    try {
      const report = await runBench(app, options);
      root.dataset.bench = 'done';
      return report;
    } catch (e) {
      root.dataset.bench = 'error';
      throw e;
    }
  };
  const withView = async (options: BenchOptions = {}): Promise<BenchReport | null> => {
    if (busy) return null;
    busy = true;
    view ??= new BenchView(document.body);
    const v = view;
    const quick = options.quick ?? isSoftwareRenderer(app.renderer.rendererName);
    v.progress({ step: 0, steps: 0, text: 'starting' });
    try {
      const report = await run({
        ...options,
        quick,
        onProgress: (p) => {
          v.progress(p);
          options.onProgress?.(p);
        },
      });
      v.show(report);
      return report;
    } catch (e) {
      const message = (e as Error).message;
      console.error(`bench: ${message}`);
      v.error(message);
      return null;
    } finally {
      busy = false;
    }
  };
  return {
    run,
    withView,
    async fromUrl(value) {
      if (value === undefined) return;
      if (!(BENCH_PARTS as readonly string[]).includes(value)) {
        app.fail(`bench=${value}: expected one of ${BENCH_PARTS.join(', ')}`);
        document.documentElement.dataset.bench = 'error';
        return;
      }
      if (document.documentElement.dataset.state !== 'ready') {
        document.documentElement.dataset.bench = 'error';
        return;
      }
      await withView({ parts: value as BenchPart });
    },
  };
}
