import type { App } from '../app.ts';
import type { GpuTimer } from '../../gpu/gpu-timer.ts';
import type { BenchPlan } from './options.ts';
import type { TechniqueResult } from './rows.ts';
import { bestOf, measureWindow, type WindowResult } from './window.ts';

/**
 * The techniques part of the in-page benchmark: for each planned model, every technique the page lists and the
 * model can use, with shadows off and (where the plan says) on. Per setting: the frame set() draws first (a
 * first switch compiles or builds the technique's mesh state; one-time work never lands in a window), in a
 * full run a warm-up frame whose wall time sets K, then `windows` windows of K frames (2 in a quick run), in rounds — every setting's first
 * window, then every setting's second … — so a burst of load from elsewhere hits one round of each rather
 * than all of one; the best window is kept, figure by figure. Drives the app only through `set` and its
 * benchmark probe.
 */

export interface ModelTechniques {
  readonly label: string;
  readonly what: string;
  readonly results: TechniqueResult[];
  /** Techniques the model cannot use, with the page's reason. */
  readonly skipped: { id: string; why: string }[];
}

/** Reports progress: `advance` false for a line that starts no new step (a model loading). */
export type Step = (text: string, advance?: boolean) => void;

/** How many steps the part will report for `techniqueCount` techniques (the progress line's total). */
export function techniqueSteps(plan: BenchPlan, techniqueCount: number): number {
  if (!plan.techniques) return 0;
  return plan.models.reduce((sum, m) => sum + techniqueCount * (plan.shadowsFor(m.label) ? 2 : 1), 0);
}

export async function benchTechniques(app: App, timer: GpuTimer, plan: BenchPlan, step: Step): Promise<ModelTechniques[]> {
  const out: ModelTechniques[] = [];
  for (const model of plan.models) {
    step(`techniques: loading ${model.label}`, false);
    await app.set({ ...model.params, crowd: 1, shadows: false, view: 'shaded' });
    if (app.current === null || app.state.model !== model.params.model) throw new Error(`bench: ${model.label} did not load`);
    const info = app.info();
    const support = (info.techniqueSupport ?? {}) as Record<string, string | null>;
    const listed = (info.techniques as string[]).filter((id) => plan.techniqueIds === null || plan.techniqueIds.includes(id));
    const ids = listed.filter((id) => !support[id]);
    const skipped = listed.filter((id) => support[id]).map((id) => ({ id, why: support[id]! }));
    const settings: { id: string; shadows: boolean }[] = [];
    for (const id of ids) {
      settings.push({ id, shadows: false });
      if (plan.shadowsFor(model.label)) settings.push({ id, shadows: true });
    }
    const windows = new Map<string, WindowResult[]>();
    const frames = new Map<string, number>();
    const key = (s: { id: string; shadows: boolean }): string => `${s.id}:${s.shadows ? 1 : 0}`;
    for (let round = 0; round < plan.windows; round++) {
      for (const s of settings) {
        if (round === 0) step(`techniques: ${model.label}, ${s.id}${s.shadows ? ' (shadows on)' : ''}`);
        await app.set({ technique: s.id, shadows: s.shadows });
        const probe = app.benchProbe();
        let k = frames.get(key(s)) ?? plan.fixedFrames;
        if (plan.framesFor && !frames.has(key(s))) {
          // Warm-up: set() drew the setting's first frame (one-time work); one more says how long a frame takes.
          const warm = await measureWindow(app.gl, timer, probe, 1);
          k = plan.framesFor(warm.wallMs);
          frames.set(key(s), k);
        }
        const w = await measureWindow(app.gl, timer, probe, k);
        const list = windows.get(key(s)) ?? [];
        list.push(w);
        windows.set(key(s), list);
      }
    }
    const results: TechniqueResult[] = ids.map((id) => ({
      id,
      off: bestOf(windows.get(`${id}:0`)!),
      on: windows.has(`${id}:1`) ? bestOf(windows.get(`${id}:1`)!) : null,
    }));
    out.push({ label: model.label, what: model.what, results, skipped });
  }
  return out;
}
