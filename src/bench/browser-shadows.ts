import type { Page } from '@playwright/test';
import type { Metric } from './metric.ts';

/**
 * The shadows part of the browser bench (src/bench/browser.ts opens the pages): what the key light's shadow
 * map costs each technique on Dawn at `detail=high` (214k triangles: the caster pass draws them once more),
 * and a crowd of 100 with shadows.
 *
 * Dawn: every technique the page lists, with `shadows=1` and `shadows=0`, in rounds (each round every
 * technique with shadows on, then off, in turn; a figure is the best round's median of `frames` frames timed
 * by `skinlab.benchSplit`), the CPU part read from the stats box in the last round. Metrics:
 * `gpu_dawn_high_shadows_<id>_frame_ms` / `_submit_ms` / `_cpu_us` / `_passes` / `_skinned_per_vertex` (vertex
 * skinnings per frame / technique vertices: the scene's and the copies its partitioning made), the same `gpu_dawn_high_noshadows_<id>_*`, the shadow pass's cost
 * `gpu_dawn_high_<id>_shadow_cost_ms` (on − off), and `gpu_dawn_high_shadows_<id>_ratio_vs_vs-hlsl` (vs-hlsl
 * ms / this technique's ms, both with shadows): with `stream-out` listed, its ratio is the one that says
 * whether skinning once pays off when two passes draw the mesh.
 *
 * Crowd: `crowd_100_shadows_frame_ms` / `_submit_ms` / `_draw_calls` and `crowd_100_noshadows_*` of tiny.x
 * (the crowd part's character), alternating on and off.
 */

interface Split {
  frameMs: number;
  submitMs: number;
}

type SkinlabWindow = Window & {
  skinlab: {
    set(p: Record<string, unknown>): Promise<void>;
    info(): Record<string, unknown>;
    stats(): Record<string, number | string | null>;
    benchSplit(frames: number): Split;
  };
};

export interface ShadowBenchOptions {
  quick: boolean;
  /** Opens the page at `query` and waits for it to be ready. */
  open(query: string, what: string): Promise<Page>;
  log(line: string): void;
}

function round(x: number, digits = 3): number {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
}

const HOW = 'SwiftShader (a CPU rasteriser) 800x600 MSAA';

/** Dawn high, every technique, shadows on and off. */
export async function benchDawnShadows(o: ShadowBenchOptions): Promise<Metric[]> {
  const metrics: Metric[] = [];
  const page = await o.open('gui=0&model=dawn&detail=high', 'shadows (dawn high)');
  const info = await page.evaluate(() => (window as unknown as SkinlabWindow).skinlab.info());
  const support = info.techniqueSupport as Record<string, string | null>;
  const ids = (info.techniques as string[]).filter((id) => {
    if (support[id]) o.log(`shadows dawn high: ${id} skipped (${support[id]})`);
    return !support[id];
  });
  const rounds = o.quick ? 1 : 2;
  const frames = o.quick ? 2 : 3;
  const settings = [1, 0] as const;
  const key = (id: string, s: number): string => `${s ? 'shadows' : 'noshadows'}_${id}`;
  const best = new Map<string, Split>();
  const cpu = new Map<string, { us: number; passes: number; perVertex: number }>();
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const id of ids) {
      for (const s of settings) {
        await page.evaluate(([t, sh]) => (window as unknown as SkinlabWindow).skinlab.set({ technique: t, shadows: sh }), [id, s] as const);
        // A first frame of a new setting may compile or build: one untimed frame first.
        await page.evaluate(() => (window as unknown as SkinlabWindow).skinlab.benchSplit(1));
        const split = await page.evaluate((k) => (window as unknown as SkinlabWindow).skinlab.benchSplit(k), frames);
        const was = best.get(key(id, s));
        best.set(key(id, s), { frameMs: Math.min(split.frameMs, was?.frameMs ?? Infinity), submitMs: Math.min(split.submitMs, was?.submitMs ?? Infinity) });
        if (r === rounds - 1) {
          await page.waitForTimeout(o.quick ? 600 : 1100);
          const st = await page.evaluate(() => (window as unknown as SkinlabWindow).skinlab.stats());
          // The technique's vertices: the scene's plus the copies its partitioning made.
          const vertices = Number(info.vertices) + Number(st.duplicatedVertices ?? 0);
          const skinned = Number(st.skinnedVerticesPerFrame ?? 0);
          cpu.set(key(id, s), { us: Number(st.cpuAnimUs) + Number(st.cpuSkinUs), passes: Number(st.passes ?? 0), perVertex: vertices > 0 ? skinned / vertices : NaN });
        }
      }
    }
    o.log(`shadows dawn high: round ${r + 1} of ${rounds} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  for (const id of ids) {
    for (const s of settings) {
      const k = key(id, s);
      const { frameMs, submitMs } = best.get(k)!;
      const c = cpu.get(k)!;
      const name = `gpu_dawn_high_${k}`;
      metrics.push({ name: `${name}_frame_ms`, value: round(frameMs), unit: 'ms', note: `Dawn high (214k triangles), shadows=${s}; best of ${rounds} rounds' medians of ${frames} frames, techniques in turn; ${HOW}` });
      metrics.push({ name: `${name}_submit_ms`, value: round(submitMs), unit: 'ms', note: 'the page\'s side of those frames: CPU work + issuing every GL command' });
      metrics.push({ name: `${name}_cpu_us`, value: round(c.us, 1), unit: 'µs', note: 'animation + technique work inside a frame (stats box cpuAnimUs + cpuSkinUs)' });
      metrics.push({ name: `${name}_passes`, value: c.passes, unit: 'passes', note: 'passes that drew the meshes (stats().passes)' });
      if (Number.isFinite(c.perVertex)) metrics.push({ name: `${name}_skinned_per_vertex`, value: round(c.perVertex, 2), unit: 'x', note: 'vertex skinnings per frame / the technique\'s vertices' });
    }
    const on = best.get(key(id, 1))!;
    const off = best.get(key(id, 0))!;
    metrics.push({ name: `gpu_dawn_high_${id}_shadow_cost_ms`, value: round(on.frameMs - off.frameMs), unit: 'ms', note: 'frame time with shadows − without: the caster pass and the receivers\' PCF' });
    o.log(`shadows dawn high: ${id} on ${on.frameMs.toFixed(1)} ms (submit ${on.submitMs.toFixed(2)}), off ${off.frameMs.toFixed(1)} ms (submit ${off.submitMs.toFixed(2)})`);
  }
  const base = best.get(key('vs-hlsl', 1))?.frameMs;
  if (base !== undefined) {
    for (const id of ids) {
      if (id === 'vs-hlsl') continue;
      const note = id === 'stream-out' ? 'vs-hlsl frame time / stream-out\'s, both with shadows (two passes draw the mesh: vs-hlsl skins it in each, stream-out once)' : 'vs-hlsl frame time / this technique\'s, both with shadows';
      metrics.push({ name: `gpu_dawn_high_shadows_${id}_ratio_vs_vs-hlsl`, value: round(base / best.get(key(id, 1))!.frameMs), unit: 'x', note });
    }
  }
  await page.close();
  return metrics;
}

/** A crowd of 100 tiny.x with shadows on and off (alternating, `reps` times; best of each). */
export async function benchCrowdShadows(o: ShadowBenchOptions, model: string): Promise<Metric[]> {
  const metrics: Metric[] = [];
  const page = await o.open(`gui=0&model=${model}`, 'shadows (crowd)');
  const n = 100;
  const reps = o.quick ? 1 : 3;
  const frames = o.quick ? 1 : 3;
  const best = [{ frameMs: Infinity, submitMs: Infinity, draws: 0 }, { frameMs: Infinity, submitMs: Infinity, draws: 0 }];
  for (let r = 0; r < reps; r++) {
    for (const s of [1, 0] as const) {
      const got = await page.evaluate(
        async ([c, k, sh]) => {
          const w = (window as unknown as SkinlabWindow).skinlab;
          await w.set({ crowd: c, shadows: sh });
          w.benchSplit(1);
          const split = w.benchSplit(k);
          return { split, draws: Number(w.stats().drawCalls) };
        },
        [n, frames, s] as const,
      );
      const b = best[s]!;
      b.frameMs = Math.min(b.frameMs, got.split.frameMs);
      b.submitMs = Math.min(b.submitMs, got.split.submitMs);
      b.draws = got.draws;
    }
  }
  for (const s of [1, 0] as const) {
    const b = best[s]!;
    const name = `crowd_${n}_${s ? 'shadows' : 'noshadows'}`;
    metrics.push({ name: `${name}_frame_ms`, value: round(b.frameMs), unit: 'ms', note: `${n} × ${model}, crowd mode, shadows=${s}; best of ${reps} medians of ${frames} frames, on and off alternating; ${HOW}` });
    metrics.push({ name: `${name}_submit_ms`, value: round(b.submitMs), unit: 'ms', note: 'CPU side of the same frames' });
    metrics.push({ name: `${name}_draw_calls`, value: b.draws, unit: 'draws', note: 'per frame: floor, the instanced caster pass (one draw per subset) and the shaded pass' });
  }
  o.log(`shadows crowd ${n}: on ${best[1]!.frameMs.toFixed(1)} ms (submit ${best[1]!.submitMs.toFixed(2)}, ${best[1]!.draws} draws), off ${best[0]!.frameMs.toFixed(1)} ms (submit ${best[0]!.submitMs.toFixed(2)}, ${best[0]!.draws} draws)`);
  await page.close();
  return metrics;
}
