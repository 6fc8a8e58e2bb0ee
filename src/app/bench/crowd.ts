import type { App } from '../app.ts';
import type { GpuTimer } from '../../gpu/gpu-timer.ts';
import type { BenchPlan } from './options.ts';
import { CrowdPeer } from './peer.ts';
import type { Step } from './techniques.ts';
import { settleLevels } from './crowd-scenes.ts';
import { bestOf, measureWindow, type WindowResult } from './window.ts';

/**
 * The crowd part of the in-page benchmark: N copies of tiny.x (35 bones, 6,841 triangles, textured) for each
 * planned N and each crowd path the page has, shadows off, and the three.js peer (peer.ts) at the same N.
 *
 * Paths: when `info().crowdPath` is defined the page has several (`crowdPath=baked|cpu`, set through
 * `set({crowdPath})`) and each is measured; otherwise the one path there is, labelled `cpu` (every instance's
 * palette built per frame). N = 1 is the single-model view (vs-hlsl), the same for every path.
 * Per N: ours per path and the peer, alternating, `windows` times; the best window of each is kept. Our first
 * frame at a new setting is the one set() draws (a new N builds instance state); the peer builds its clones in
 * setCrowd and draws one untimed frame; a full run adds a warm-up frame that sets K.
 */

export const CROWD_MODEL = 'tiny';
export const CROWD_PATHS = ['baked', 'cpu'] as const;

export interface CrowdSize {
  readonly n: number;
  readonly ours: { path: string; label: string; w: WindowResult }[];
  readonly peer: WindowResult | null;
}

export interface CrowdResults {
  readonly sizes: CrowdSize[];
  /** The paths measured (`cpu` alone when the page has no crowdPath). */
  readonly paths: string[];
  /** Why the peer was not measured, or null. */
  readonly peerError: string | null;
  /** Sizes left out for the quick run's time budget, with the predicted frame time. */
  readonly overBudget: { n: number; predictedMs: number }[];
}

/** Steps the part reports: one per size and path, one per size for the peer. */
export function crowdSteps(plan: BenchPlan, paths: number): number {
  return plan.crowd ? plan.sizes.length * (paths + (plan.peer ? 1 : 0)) : 0;
}

/** Paths the page offers: both when info() reports a crowdPath, else `cpu` (the only one). */
export function crowdPaths(info: Record<string, unknown>): string[] {
  return typeof info.crowdPathWanted === 'string' || typeof info.crowdPath === 'string' ? [...CROWD_PATHS] : ['cpu'];
}

export async function benchCrowd(app: App, timer: GpuTimer, plan: BenchPlan, step: Step): Promise<CrowdResults> {
  step(`crowd: loading ${CROWD_MODEL}`, false);
  // The camera frames each crowd (as the three.js peer frames its own) unless the options fix one.
  const view = { camera: typeof plan.crowdParams.camera === 'string' ? plan.crowdParams.camera : 'auto' };
  await app.set({ model: CROWD_MODEL, crowd: 1, shadows: false, technique: 'vs-hlsl', view: 'shaded', wander: false, ...plan.crowdParams });
  const paths = crowdPaths(app.info());
  const multi = paths.length > 1;
  let peer: CrowdPeer | null = null;
  let peerError: string | null = null;
  if (plan.peer) {
    step('crowd: loading the three.js peer page', false);
    try {
      peer = await CrowdPeer.open(CROWD_MODEL, app.canvas.width, app.canvas.height);
    } catch (e) {
      peerError = (e as Error).message;
    }
  }
  const timerMode = plan.forceWall ? 'wall' : 'auto';
  const sizes: CrowdSize[] = [];
  const overBudget: { n: number; predictedMs: number }[] = [];
  try {
    for (const n of plan.sizes) {
      const last = sizes[sizes.length - 1];
      if (last) {
        const slowest = Math.max(...last.ours.map((o) => o.w.wallMs), last.peer?.wallMs ?? 0);
        const predictedMs = (slowest * n) / last.n;
        if (predictedMs > plan.crowdFrameBudgetMs || overBudget.length > 0) {
          overBudget.push({ n, predictedMs });
          continue;
        }
      }
      const ours = new Map<string, WindowResult[]>();
      const theirs: WindowResult[] = [];
      const frames = new Map<string, number>();
      for (let round = 0; round < plan.windows; round++) {
        for (const path of paths) {
          if (round === 0) step(`crowd: ${n} × ${CROWD_MODEL}, ${multi ? `crowdPath=${path}` : 'the page\'s crowd path'}`);
          await app.set(multi ? { crowd: n, crowdPath: path, ...view } : { crowd: n, ...view });
          // The crowd's detail levels are built in a worker: measured once they are drawn, as a user sees the crowd.
          await settleLevels(app, 30000);
          const probe = app.benchProbe();
          let k = frames.get(path) ?? plan.fixedFrames;
          if (plan.framesFor && !frames.has(path)) {
            const warm = await measureWindow(app.gl, timer, probe, 1);
            k = plan.framesFor(warm.wallMs);
            frames.set(path, k);
          }
          const list = ours.get(path) ?? [];
          list.push(await measureWindow(app.gl, timer, probe, k));
          ours.set(path, list);
        }
        if (peer) {
          if (round === 0) step(`crowd: ${n} × ${CROWD_MODEL}, three.js`);
          peer.setCrowd(n);
          // The peer's first frame at a new N uploads its clones' state: always one untimed frame.
          let k = frames.get('threejs') ?? plan.fixedFrames;
          const warm = round === 0 ? await peer.measure(1, timerMode) : null;
          if (warm && plan.framesFor) {
            k = plan.framesFor(warm.wallMs);
            frames.set('threejs', k);
          }
          theirs.push(await peer.measure(k, timerMode));
        }
      }
      const label = n === 1 ? 'single model (vs-hlsl)' : multi ? '' : 'crowd mode';
      sizes.push({
        n,
        ours: paths.map((path) => ({ path, label: label || `crowd mode, crowdPath=${path}`, w: bestOf(ours.get(path)!) })),
        peer: theirs.length > 0 ? bestOf(theirs) : null,
      });
      // Back to one figure before the render loop's next frames.
      if (n >= 1000) await app.set({ crowd: 1 });
    }
  } finally {
    peer?.close();
  }
  return { sizes, paths, peerError, overBudget };
}
