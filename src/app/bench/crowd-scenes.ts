import type { Metric } from '../../bench/metric.ts';
import type { GpuTimer } from '../../gpu/gpu-timer.ts';
import type { App } from '../app.ts';
import type { BenchPlan } from './options.ts';
import { windowRows, type RunNote } from './rows.ts';
import { bestOf, measureWindow, type WindowResult } from './window.ts';

/**
 * The crowd scenes of the in-page benchmark (`parts: 'scenes'`): whole crowd pages as a user opens them —
 * 10,000 tiny.x on the grid framed whole, with the generated detail levels and at full detail (`lod=0`), and
 * 10,000 mixed characters on the plaza seen from a person's height, each with shadows off and on. Unlike the crowd part (crowd.ts, which sweeps N against three.js), a scene
 * waits until its detail levels are ready (`info().lod.status` leaves 'loading': they are built in a
 * worker) before its windows, and records what the frame drew: the triangles of the crowd's instanced draws
 * (every pass: with shadows the casters' too), the instances per level (summed over the models: a level
 * index is each model's own, the impostors last) and per model, of the last frame, and the draw calls. Rows: `scene_<label>[_shadows]_{gpu_ms, frame_ms,
 * submit_ms, triangles, instances_drawn, level<L>_instances, model<M>_instances, draw_calls}`.
 */

export interface CrowdScene {
  /** Row label (lower-case letters, digits, `_`). */
  readonly label: string;
  /** Page parameters (app.set) that open the scene. */
  readonly params: Readonly<Record<string, string | number | boolean>>;
  /** In words, for the rows' notes. */
  readonly what: string;
}

const PLAZA_MIXED = { model: 'tiny', crowd: 10000, crowdPath: 'baked', lod: true, camera: 'auto', crowdLayout: 'plaza', crowdModels: 'walker,fox,robot' } as const;
const PLAZA_WHAT = '10,000 on the plaza from a person\'s height: tiny.x, the Walker, the Fox and the glTF Robot mixed, detail levels on';

/** Each scene with the far field as impostors (the default) and, `_mesh_far`, as the lightest level: the two ways to draw it, measured side by side. */
export const CROWD_SCENES: readonly CrowdScene[] = [
  { label: 'grid_tiny_10000', params: { model: 'tiny', crowd: 10000, crowdPath: 'baked', lod: true, impostors: 'far', camera: 'auto', crowdLayout: 'grid', crowdModels: '' }, what: '10,000 tiny.x on the grid, framed whole, detail levels on, impostors far' },
  { label: 'grid_tiny_10000_mesh_far', params: { model: 'tiny', crowd: 10000, crowdPath: 'baked', lod: true, impostors: 'off', camera: 'auto', crowdLayout: 'grid', crowdModels: '' }, what: '10,000 tiny.x on the grid, framed whole, detail levels on, no impostors (the far field at the lightest level)' },
  { label: 'grid_tiny_10000_lod0', params: { model: 'tiny', crowd: 10000, crowdPath: 'baked', lod: false, camera: 'auto', crowdLayout: 'grid', crowdModels: '' }, what: '10,000 tiny.x on the grid, framed whole, full detail (lod=0)' },
  { label: 'plaza_mixed_10000', params: { ...PLAZA_MIXED, impostors: 'far' }, what: `${PLAZA_WHAT}, impostors far` },
  { label: 'plaza_mixed_10000_mesh_far', params: { ...PLAZA_MIXED, impostors: 'off' }, what: `${PLAZA_WHAT}, no impostors (the far field at the lightest level)` },
];

export interface SceneResult {
  readonly label: string;
  readonly shadows: boolean;
  readonly what: string;
  readonly w: WindowResult;
  /** Triangles the crowd's instanced draws rasterised in the last frame (casters and camera pass). */
  readonly triangles: number;
  /** Instances per drawn level, nearest first (the loaded model's), and per model (a mixed crowd). */
  readonly perLevel: number[];
  readonly perModel: number[];
  /** The level table the frame drew from (info().lodLevels), or null without levels. */
  readonly levels: { detail: string; triangles: number; error: number }[] | null;
}

/** Steps the scenes part takes: each scene with shadows off and on. */
export function sceneSteps(plan: BenchPlan): number {
  return plan.scenes ? CROWD_SCENES.length * 2 : 0;
}

/** Draws frames until the crowd's models and their detail levels stop loading (at most `timeoutMs`); throws if one failed. */
export async function settleLevels(app: App, timeoutMs: number): Promise<void> {
  const probe = app.benchProbe();
  const t0 = performance.now();
  for (;;) {
    probe.draw(1 / 60, performance.now());
    const info = app.info();
    const lod = info.lod as { status: string; error: string };
    if (lod.status === 'failed') throw new Error(`bench: the crowd's detail levels failed: ${lod.error}`);
    const models = (info.crowdModels as { id: string; status: string; lod?: string; error?: string }[] | undefined) ?? [];
    const failed = models.find((m) => m.status === 'failed');
    if (failed) throw new Error(`bench: crowd model ${failed.id} failed: ${failed.error ?? ''}`);
    if (lod.status !== 'loading' && models.every((m) => m.status !== 'loading' && m.lod !== 'loading')) break;
    if (performance.now() - t0 > timeoutMs) throw new Error(`bench: the crowd's detail levels were still loading after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  // One more frame uploads the levels handed over (one-time work, never inside a window).
  probe.draw(1 / 60, performance.now());
}

export async function benchScenes(app: App, timer: GpuTimer, plan: BenchPlan, step: (text: string) => void): Promise<SceneResult[]> {
  const out: SceneResult[] = [];
  for (const scene of CROWD_SCENES) {
    for (const shadows of [false, true]) {
      step(`scenes: ${scene.what}${shadows ? ', shadows on' : ''}`);
      await app.set({ ...scene.params, shadows, view: 'shaded', wander: false });
      await settleLevels(app, 30000);
      const probe = app.benchProbe();
      const windows: WindowResult[] = [];
      let k = plan.fixedFrames;
      if (plan.framesFor) k = plan.framesFor((await measureWindow(app.gl, timer, probe, 1)).wallMs);
      for (let r = 0; r < plan.windows; r++) windows.push(await measureWindow(app.gl, timer, probe, k));
      const table = (app.info().lodLevels as { levels: { detail: string; triangles: number; error: number }[] } | null)?.levels ?? null;
      const best = bestOf(windows);
      // The last frame's own counts (the stats box's window may still hold an earlier scene's).
      const counts = probe.crowdCounts?.() ?? { perLevel: [], perModel: [] };
      out.push({ label: scene.label, shadows, what: scene.what, w: best, triangles: best.triangles, perLevel: counts.perLevel, perModel: counts.perModel, levels: table });
    }
  }
  await app.set({ crowd: 1, shadows: false, crowdModels: '', crowdLayout: 'grid', impostors: 'far' });
  return out;
}

/** The rows of the scenes part (see the file's contract). */
export function sceneRows(results: readonly SceneResult[], run: RunNote): Metric[] {
  const rows: Metric[] = [];
  for (const s of results) {
    const p = `scene_${s.label}${s.shadows ? '_shadows' : ''}`;
    const what = `${s.what}${s.shadows ? ', shadows on' : ''}`;
    rows.push(...windowRows(p, s.w, what, run, false));
    rows.push({ name: `${p}_triangles`, value: s.triangles, unit: 'count', note: 'triangles of the crowd\'s instanced draws in the last frame, every pass (shadow casters included)' });
    rows.push({ name: `${p}_instances_drawn`, value: s.w.instances, unit: 'count', note: 'instances drawn in the last frame (after culling)' });
    s.perLevel.forEach((n, l) =>
      rows.push({
        name: `${p}_level${l}_instances`, value: n, unit: 'count',
        note: s.levels && l >= s.levels.length ? 'instances drawn as impostors' : `instances drawn at level ${s.levels?.[l]?.detail ?? l} (error ${s.levels?.[l]?.error ?? 0} model units)`,
      }),
    );
    if (s.perModel.length > 1) s.perModel.forEach((n, m) => rows.push({ name: `${p}_model${m}_instances`, value: n, unit: 'count', note: 'camera-pass instances of model M (0: the loaded model, then crowdModels in order)' }));
    rows.push({ name: `${p}_draw_calls`, value: s.w.drawCalls, unit: 'count', note: 'draw calls per frame, floor and shadow casters included' });
  }
  return rows;
}
