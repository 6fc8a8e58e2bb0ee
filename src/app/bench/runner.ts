import type { Metric } from '../../bench/metric.ts';
import { GpuTimer } from '../../gpu/gpu-timer.ts';
import { MAX_CROWD } from '../../render/crowd-layout.ts';
import { TECHNIQUES } from '../../techniques/index.ts';
import type { App } from '../app.ts';
import { formatCamera } from '../state.ts';
import { benchCrowd, crowdPaths, crowdSteps, type CrowdResults } from './crowd.ts';
import { benchScenes, sceneRows, sceneSteps, type SceneResult } from './crowd-scenes.ts';
import { benchPlan, type BenchOptions, type BenchProgress } from './options.ts';
import { crowdRows, NO_TIMER_NOTE, techniqueRows, type RunNote } from './rows.ts';
import { benchQuality, qualityRows, qualitySteps, type QualityPoseResult } from './quality.ts';
import { benchTechniques, techniqueSteps, type ModelTechniques } from './techniques.ts';

/**
 * `window.skinlab.bench(options)`: the in-page benchmark on this browser's GPU (options.ts says what it
 * measures, window.ts how, rows.ts what it writes). Runs the parts in turn — techniques, then crowds, then the crowd scenes — and
 * puts the page back as it found it: model (and detail), clip or tracks, technique, crowd and crowd path,
 * shadows, view; the address bar follows the state, so it is back too. While it runs the render loop draws
 * only the frames set() waits for (App.loopOnDemand). One run at a time. Owns its GPU timer
 * for the run (disposed at the end).
 */

export interface BenchReport {
  readonly rows: Metric[];
  /** The WebGL renderer string (unmasked where the browser allows). */
  readonly renderer: string;
  /** ISO date and time of the start. */
  readonly date: string;
  readonly canvas: { width: number; height: number };
  /** The GPU timer extension was used (false: wall time only). */
  readonly timer: boolean;
  readonly quick: boolean;
  readonly techniques: ModelTechniques[];
  readonly crowd: CrowdResults | null;
  /** The crowd scenes part ([] when not run). */
  readonly scenes: SceneResult[];
  /** The quality part: figures per pose and technique with the techniques part's time per frame ([] when not run). */
  readonly quality: QualityPoseResult[];
  /** What was left out and why (sizes over the crowd limit, techniques a model cannot use, the peer). */
  readonly skipped: string[];
  readonly seconds: number;
}

let running = false;

export function benchRunning(): boolean {
  return running;
}

export async function runBench(app: App, options: BenchOptions = {}): Promise<BenchReport> {
  if (running) throw new Error('bench: a benchmark is already running');
  const plan = benchPlan(options, MAX_CROWD);
  running = true;
  const t0 = performance.now();
  const date = new Date().toISOString();
  const s = app.state;
  const info0 = app.info();
  const restore: Record<string, string | number | boolean | null> = {
    model: s.model,
    detail: s.detail,
    technique: s.technique,
    compare: s.compare === null ? null : `${s.compare.a},${s.compare.b}`,
    crowd: s.crowd,
    shadows: s.shadows,
    view: s.view,
    wander: s.wander,
    cull: s.cull,
    impostors: s.impostors,
    lod: s.lod,
    crowdLayout: s.crowdLayout,
    crowdTint: s.crowdTint,
    crowdModels: s.crowdModels.join(','),
    camera: s.camera === null ? 'auto' : formatCamera(s.camera),
  };
  if (typeof info0.crowdPathWanted === 'string') restore.crowdPath = info0.crowdPathWanted;
  else if (typeof info0.crowdPath === 'string') restore.crowdPath = info0.crowdPath;
  if (s.tracks !== '') restore.tracks = s.tracks;
  else if (s.clip !== '') restore.clip = s.clip;
  const timer = new GpuTimer(app.gl, plan.forceWall ? { force: 'wall' } : {});
  app.loopOnDemand = true;
  const techniqueCount = plan.techniqueIds ? plan.techniqueIds.length : TECHNIQUES.length;
  const steps = techniqueSteps(plan, techniqueCount) + qualitySteps(plan) + crowdSteps(plan, crowdPaths(info0).length) + sceneSteps(plan);
  let stepNo = 0;
  const step = (text: string, advance = true): void => {
    if (advance) stepNo++;
    const p: BenchProgress = { step: Math.min(Math.max(stepNo, 1), steps), steps, text };
    options.onProgress?.(p);
  };
  try {
    const how = `${app.renderer.rendererName} ${app.canvas.width}x${app.canvas.height}`;
    const run: RunNote = { how, timer: timer.available };
    const rows: Metric[] = [];
    const skipped: string[] = [];
    rows.push({ name: 'bench_gpu_timer', value: timer.available ? 1 : 0, unit: 'bool', note: timer.available ? `GPU figures from ${GpuTimer.EXTENSION} (TIME_ELAPSED_EXT); ${how}` : `${NO_TIMER_NOTE}${plan.forceWall ? ' (turned off by the timer: \'wall\' option)' : ''}; ${how}` });
    const techniques = plan.techniques ? await benchTechniques(app, timer, plan, step) : [];
    for (const m of techniques) {
      rows.push(...techniqueRows(m.label, m.what, m.results, run));
      for (const x of m.skipped) skipped.push(`${m.label}: ${x.id} (${x.why})`);
    }
    const quality = plan.techniques ? await benchQuality(app, plan, step, techniques) : [];
    rows.push(...qualityRows(quality));
    const crowd = plan.crowd ? await benchCrowd(app, timer, plan, step) : null;
    if (crowd) {
      for (const c of crowd.sizes) rows.push(...crowdRows(c.n, c.ours, c.peer, run, plan.crowdTag));
      if (crowd.peerError) skipped.push(`three.js peer: ${crowd.peerError}`);
      for (const o of crowd.overBudget) skipped.push(`crowd ${o.n}: a frame would take about ${(o.predictedMs / 1000).toFixed(1)} s, over a quick run's budget`);
    }
    const scenes = plan.scenes ? await benchScenes(app, timer, plan, step) : [];
    rows.push(...sceneRows(scenes, run));
    for (const n of plan.skippedSizes) skipped.push(`crowd ${n}: over the page's crowd limit (${MAX_CROWD})`);
    for (const line of skipped) console.warn(`bench: left out ${line}`);
    return {
      rows,
      renderer: app.renderer.rendererName,
      date,
      canvas: { width: app.canvas.width, height: app.canvas.height },
      timer: timer.available,
      quick: plan.quick,
      techniques,
      crowd,
      scenes,
      quality,
      skipped,
      seconds: (performance.now() - t0) / 1000,
    };
  } finally {
    timer.dispose();
    try {
      await app.set(restore);
    } finally {
      app.loopOnDemand = false;
      running = false;
    }
  }
}
