import type { Metric } from '../../bench/metric.ts';
import type { WindowResult } from './window.ts';

/**
 * The in-page benchmark's rows (bench-results.json, docs/api.md#bench-resultsjson) and its rules, as pure functions of the
 * measured windows: no DOM, no GL (unit-tested in Node).
 *
 * Names (compatible with the rows `npm run bench` wrote before the page measured itself):
 * - techniques, per model label L and technique id T, shadows off: `gpu_L_T_{gpu_ms, frame_ms, submit_ms,
 *   cpu_us, anim_us, skin_us, draw_calls}`; the same with shadows on as `gpu_L_shadows_T_*`; the shadow map
 *   pass as on − off: `gpu_L_T_shadow_gpu_ms` (GPU) and `gpu_L_T_shadow_cost_ms` (wall); ranks and ratios:
 *   `gpu_L_T_ratio_vs_vs-hlsl` (= vs-hlsl time / T's time), `gpu_L_T_rank` (1 = fastest).
 * - crowds, per path P (`baked`, `cpu`) and size N: `crowd_P_N_{frame_ms, submit_ms, gpu_ms, draw_calls}`,
 *   the three.js peer `crowd_threejs_N_*`, and `crowd_P_N_ratio_vs_threejs` (frame), `_submit_ratio_vs_threejs`,
 *   `_gpu_ratio_vs_threejs` (peer time / ours: higher is better for us).
 *
 * The timer-vs-wall rule (timerFlag): the K frames of a window are one span of wall time that ends only when
 * the GPU has finished them, so their GPU time cannot exceed it: GPU > wall × 1.25 means the query counted
 * something else (or the driver's clock is off) and is flagged. The other way round, when the window was
 * GPU bound — the page spent under half of the wall time issuing commands (submit < wall / 2), so the rest
 * was waiting for the GPU — a GPU time under wall / 50 means the query missed the work and is flagged too.
 * Flagged GPU figures are still written, with the flag in their note, but ranks and ratios use wall time.
 */

export const TIMER_RULE = { over: 1.25, under: 50, gpuBoundShare: 0.5 } as const;

/** Why a GPU figure disagrees with the wall time of the same frames, or null when it is plausible. */
export function timerFlag(gpuMs: number | null, wallMs: number, submitMs: number): string | null {
  if (gpuMs === null || !Number.isFinite(gpuMs) || !Number.isFinite(wallMs) || wallMs <= 0) return null;
  if (gpuMs > wallMs * TIMER_RULE.over) return `GPU ${fmt(gpuMs)} ms > wall ${fmt(wallMs)} ms × ${TIMER_RULE.over}: the timer query disagrees with the wall clock`;
  if (submitMs < wallMs * TIMER_RULE.gpuBoundShare && gpuMs < wallMs / TIMER_RULE.under) {
    return `GPU ${fmt(gpuMs)} ms < wall ${fmt(wallMs)} ms / ${TIMER_RULE.under} although the frames were GPU bound (submit ${fmt(submitMs)} ms): the timer query missed work`;
  }
  return null;
}

/** The time a window is ranked by: its GPU time when present and unflagged, else its wall time. */
export function rankTime(w: WindowResult): { ms: number; kind: 'gpu' | 'wall' } {
  if (w.gpuMs !== null && timerFlag(w.gpuMs, w.wallMs, w.submitMs) === null) return { ms: w.gpuMs, kind: 'gpu' };
  return { ms: w.wallMs, kind: 'wall' };
}

/**
 * base / other on one kind of time for both: GPU when both have a trusted GPU figure, else wall. Higher is
 * better for `other` (docs/api.md#bench-resultsjson: peer-time / our-time).
 */
export function ratioOf(base: WindowResult, other: WindowResult): { value: number; kind: 'gpu' | 'wall' } {
  const a = rankTime(base);
  const b = rankTime(other);
  if (a.kind === 'gpu' && b.kind === 'gpu') return { value: a.ms / b.ms, kind: 'gpu' };
  return { value: base.wallMs / other.wallMs, kind: 'wall' };
}

export function round(x: number, digits = 4): number {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
}

function fmt(x: number): string {
  return x >= 10 ? x.toFixed(1) : x >= 0.1 ? x.toFixed(2) : x.toPrecision(2);
}

/** How the figures were taken: the note every row of a run shares. */
export interface RunNote {
  /** `Renderer (WxH)` and the timing method in words. */
  readonly how: string;
  /** The GPU timer extension was there (else every GPU figure is missing and the rows say so). */
  readonly timer: boolean;
}

export const NO_TIMER_NOTE = 'no GPU timer (EXT_disjoint_timer_query_webgl2 absent): wall time only';

/** The rows of one window under `prefix` (`gpu_L_T`, `crowd_P_N`, …). */
export function windowRows(prefix: string, w: WindowResult, what: string, run: RunNote, cpu = true): Metric[] {
  const rows: Metric[] = [];
  const flag = timerFlag(w.gpuMs, w.wallMs, w.submitMs);
  if (w.gpuMs !== null) {
    rows.push({ name: `${prefix}_gpu_ms`, value: round(w.gpuMs), unit: 'ms', note: `${what}: GPU time per frame, one timer query over ${w.frames} frames / ${w.frames}; ${run.how}${flag ? `; FLAGGED: ${flag}` : ''}` });
  }
  rows.push({ name: `${prefix}_frame_ms`, value: round(w.wallMs), unit: 'ms', note: `${what}: wall time per frame, ${w.frames} frames back to back ended by one readPixels / ${w.frames}; ${run.how}${run.timer ? '' : `; ${NO_TIMER_NOTE}`}` });
  rows.push({ name: `${prefix}_submit_ms`, value: round(w.submitMs), unit: 'ms', note: 'median time to issue one frame\'s commands (CPU: animation, palettes, uploads, draw calls)' });
  if (cpu && Number.isFinite(w.cpuAnimUs)) {
    rows.push({ name: `${prefix}_cpu_us`, value: round(w.cpuAnimUs + w.skinUs, 1), unit: 'µs', note: 'CPU animation + technique work per frame (stats cpuAnimUs + cpuSkinUs)' });
    rows.push({ name: `${prefix}_anim_us`, value: round(w.cpuAnimUs, 1), unit: 'µs', note: 'CPU animation per frame (stats cpuAnimUs)' });
    rows.push({ name: `${prefix}_skin_us`, value: round(w.skinUs, 1), unit: 'µs', note: 'technique work per frame: palette, CPU skinning, uploads (stats cpuSkinUs)' });
  }
  rows.push({ name: `${prefix}_draw_calls`, value: w.drawCalls, unit: 'draws', note: 'per frame, floor included' });
  return rows;
}

/** One model's technique windows: shadows off, and on where measured. */
export interface TechniqueResult {
  readonly id: string;
  readonly off: WindowResult;
  readonly on: WindowResult | null;
}

/** Every row of one model's techniques (see the naming above), ranks and ratios included. */
export function techniqueRows(label: string, what: string, results: readonly TechniqueResult[], run: RunNote): Metric[] {
  const rows: Metric[] = [];
  for (const r of results) {
    rows.push(...windowRows(`gpu_${label}_${r.id}`, r.off, `${what}, ${r.id}, shadows off`, run));
    if (r.on) {
      rows.push(...windowRows(`gpu_${label}_shadows_${r.id}`, r.on, `${what}, ${r.id}, shadows on`, run));
      if (r.on.gpuMs !== null && r.off.gpuMs !== null) {
        rows.push({ name: `gpu_${label}_${r.id}_shadow_gpu_ms`, value: round(r.on.gpuMs - r.off.gpuMs), unit: 'ms', note: 'the shadow map pass on the GPU: GPU ms with shadows − without (the caster pass and the receivers\' filtering)' });
      }
      rows.push({ name: `gpu_${label}_${r.id}_shadow_cost_ms`, value: round(r.on.wallMs - r.off.wallMs), unit: 'ms', note: 'wall ms with shadows − without' });
    }
  }
  for (const shadows of [false, true]) {
    const set = results.filter((r) => (shadows ? r.on : r.off)).map((r) => ({ id: r.id, w: (shadows ? r.on : r.off)! }));
    const mid = shadows ? 'shadows_' : '';
    const ranked = rankOrder(set);
    ranked.forEach((x, i) => rows.push({ name: `gpu_${label}_${mid}${x.id}_rank`, value: i + 1, unit: 'rank', note: `1 = fastest of ${ranked.length} techniques by ${x.kind} time per frame` }));
    const base = set.find((x) => x.id === 'vs-hlsl');
    if (!base) continue;
    for (const x of set) {
      if (x.id === 'vs-hlsl') continue;
      const r = ratioOf(base.w, x.w);
      rows.push({ name: `gpu_${label}_${mid}${x.id}_ratio_vs_vs-hlsl`, value: round(r.value, 3), unit: 'x', note: `vs-hlsl ${r.kind} time / this technique's (higher is faster than vs-hlsl)` });
    }
  }
  return rows;
}

/** Techniques fastest first, by rankTime (wall for all when any lacks a trusted GPU figure). */
export function rankOrder(set: readonly { id: string; w: WindowResult }[]): { id: string; ms: number; kind: 'gpu' | 'wall' }[] {
  const allGpu = set.every((x) => rankTime(x.w).kind === 'gpu');
  return set
    .map((x) => ({ id: x.id, ms: allGpu ? rankTime(x.w).ms : x.w.wallMs, kind: (allGpu ? 'gpu' : 'wall') as 'gpu' | 'wall' }))
    .sort((a, b) => a.ms - b.ms);
}

/** One crowd size: our windows by path, the peer's (null when it could not be measured). */
export function crowdRows(n: number, ours: readonly { path: string; w: WindowResult; label: string }[], peer: WindowResult | null, run: RunNote, tag = ''): Metric[] {
  const rows: Metric[] = [];
  const t = tag === '' ? '' : `${tag}_`;
  for (const o of ours) {
    rows.push(...windowRows(`crowd_${t}${o.path}_${n}`, o.w, `${n} × tiny, ${o.label}`, run, false));
    if (o.w.instances >= 0) rows.push({ name: `crowd_${t}${o.path}_${n}_instances_drawn`, value: o.w.instances, unit: 'count', note: 'instances drawn in the last frame (after culling)' });
  }
  if (!peer) return rows;
  rows.push(...windowRows(`crowd_threejs_${n}`, peer, `three.js: ${n} SkeletonUtils clones + AnimationMixers`, run, false));
  for (const o of ours) {
    const p = `crowd_${t}${o.path}_${n}`;
    rows.push({ name: `${p}_ratio_vs_threejs`, value: round(peer.wallMs / o.w.wallMs, 3), unit: 'x', note: 'three.js wall time per frame / ours (higher is better for us)' });
    // A submit under the browser clock's tick reads 0: no ratio then (it would be infinite), the rows say both times.
    if (o.w.submitMs > 0) rows.push({ name: `${p}_submit_ratio_vs_threejs`, value: round(peer.submitMs / o.w.submitMs, 3), unit: 'x', note: 'three.js CPU submit time / ours' });
    const g = ratioOf(peer, o.w);
    if (g.kind === 'gpu') rows.push({ name: `${p}_gpu_ratio_vs_threejs`, value: round(g.value, 3), unit: 'x', note: 'three.js GPU time per frame / ours' });
  }
  return rows;
}
