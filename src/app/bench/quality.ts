import type { Metric } from '../../bench/metric.ts';
import type { App } from '../app.ts';
import type { BenchPlan } from './options.ts';
import { rankTime } from './rows.ts';
import type { ModelTechniques, Step } from './techniques.ts';

/**
 * The quality part of the in-page benchmark: how each deformation maths shapes fixed poses, next to what the
 * techniques part measured it costs. Per pose (QUALITY_POSES) and technique (QUALITY_TECHNIQUES: linear blend
 * through `vs-hlsl`, `dual-quat`, `cor`, `ddm`), `skinlab.quality(id)` on this browser's GPU (the technique's
 * transform-feedback readback, its CPU agreement checked there): the whole model's volume ratio and the p95 of
 * |log₂ one-ring area change|. A quick run measures the twist rig's two poses only. Drives the app through
 * `set` and its checks; the runner puts the page back.
 *
 * Rows: `quality_<pose>_<technique>_volume` (ratio) and `quality_<pose>_<technique>_area_p95` (log2), the
 * technique named `linear` for vs-hlsl (every matrix-palette technique draws the same shape).
 */

export const QUALITY_POSES: readonly { label: string; bench: string | null; params: Record<string, string | number> }[] = [
  { label: 'twist_twist', bench: null, params: { model: 'twist', clip: 'twist', t: 2 } },
  { label: 'twist_bend', bench: null, params: { model: 'twist', clip: 'bend', t: 2 } },
  { label: 'walker', bench: 'walker', params: { model: 'default', clip: 'walk', t: 0.3 } },
  { label: 'dawn', bench: 'dawn', params: { model: 'dawn', detail: 'medium', clip: 'idle', t: 4 } },
  { label: 'fox', bench: 'fox', params: { model: 'fox', clip: 'Run', t: 0.3 } },
];

export const QUALITY_TECHNIQUES: readonly { id: string; label: string }[] = [
  { id: 'vs-hlsl', label: 'linear' },
  { id: 'dual-quat', label: 'dual-quat' },
  { id: 'cor', label: 'cor' },
  { id: 'ddm', label: 'ddm' },
];

/** One pose × technique: the figures and, where the techniques part measured this model, its time per frame. */
export interface QualityCell {
  readonly technique: string;
  readonly volume: number | null;
  readonly areaP95: number;
  readonly open: boolean;
  /** GPU ms per frame (wall ms without a trusted GPU figure) from the techniques part, shadows off; null when not measured. */
  readonly ms: number | null;
  readonly msKind: 'gpu' | 'wall' | null;
}

export interface QualityPoseResult {
  readonly label: string;
  readonly cells: QualityCell[];
}

export function qualitySteps(plan: BenchPlan): number {
  return plan.techniques ? posesFor(plan).length : 0;
}

function posesFor(plan: BenchPlan): typeof QUALITY_POSES {
  return plan.quick ? QUALITY_POSES.filter((p) => p.bench === null) : QUALITY_POSES;
}

export async function benchQuality(app: App, plan: BenchPlan, step: Step, measured: readonly ModelTechniques[]): Promise<QualityPoseResult[]> {
  const out: QualityPoseResult[] = [];
  for (const pose of posesFor(plan)) {
    step(`quality: ${pose.label}`);
    await app.set({ ...pose.params, crowd: 1, compare: null, view: 'shaded' });
    const times = measured.find((m) => m.label === pose.bench);
    const cells: QualityCell[] = [];
    for (const t of QUALITY_TECHNIQUES) {
      // set() waits for cor's and ddm's load-time data (the readback builds the technique's state).
      await app.set({ technique: t.id });
      const q = app.checks.quality(t.id).techniques[0]!;
      const r = times?.results.find((x) => x.id === t.id);
      const time = r ? rankTime(r.off) : null;
      cells.push({ technique: t.label, volume: q.volume.ratio, areaP95: q.area.p95, open: q.volume.open, ms: time ? time.ms : null, msKind: time ? time.kind : null });
    }
    out.push({ label: pose.label, cells });
  }
  return out;
}

/** The rows of the quality part (see the file's contract). */
export function qualityRows(results: readonly QualityPoseResult[]): Metric[] {
  const rows: Metric[] = [];
  for (const p of results) {
    for (const c of p.cells) {
      if (c.volume !== null) rows.push({ name: `quality_${p.label}_${c.technique}_volume`, value: c.volume, unit: 'ratio', note: `posed/rest volume${c.open ? ' (open mesh)' : ''}, GPU readback` });
      rows.push({ name: `quality_${p.label}_${c.technique}_area_p95`, value: c.areaP95, unit: 'log2', note: 'p95 of |log2 one-ring area change|, GPU readback' });
    }
  }
  return rows;
}
