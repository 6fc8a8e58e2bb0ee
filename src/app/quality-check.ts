import { effectiveWeights, MORPH_SLOTS } from '../anim/morph.ts';
import { cpuReferenceOf, noCpuReference } from '../quality/cpu-skin.ts';
import { qualityFigures, type TechniqueFigures } from '../quality/figures.ts';
import { liveQuality } from '../quality/live.ts';
import { round } from '../quality/probe.ts';
import { clampPalette, findTechnique } from '../techniques/index.ts';
import type { AppContext } from './context.ts';

/**
 * `skinlab.quality(technique?)`: the artifact figures (src/quality, docs/quality.md) of the technique(s) on
 * screen at the current pose, from the GPU: each technique's transform-feedback readback
 * (Renderer.readbackSkin, as gpu-checks.ts skinCheck reads it) scattered back to mesh vertices and measured
 * like the CPU reference, with the CPU reference's own figures and the largest CPU/GPU position difference
 * beside them. Reads the context; owns nothing between calls; allocates (a report, never per frame).
 *
 * - Techniques: the one asked for, else the ones on screen (both halves in compare mode, state `compare`).
 * - Deviation: from `software` (linear blend skinning, CPU), or in compare mode from the other half's CPU
 *   reference.
 * - agreement: max over the vertices the technique draws exactly of |gpu − cpu| (largest coordinate) as a
 *   share of the model size (the framing sphere's diameter, as skinCheck's modelSize). Vertices the
 *   technique deliberately approximates (ff-nonindexed's reduced triangles) keep the CPU position in the
 *   GPU figures and are counted in `approximatedVertices`.
 */

export interface QualityEntry extends TechniqueFigures {
  /** Where the figures come from: 'gpu' (transform-feedback readback). */
  source: 'gpu';
  /** Largest |gpu − cpu| position difference as a share of the model size (must stay ≤ 1e-4). */
  agreement: number;
  approximatedVertices: number;
  /** The same figures from the technique's CPU reference alone. */
  cpu: Pick<TechniqueFigures, 'volume' | 'area' | 'deviation'>;
}

export interface QualityResult {
  clip: string | null;
  t: number;
  influences: number;
  modelHeight: number;
  modelSize: number;
  techniques: QualityEntry[];
}

/** The techniques on screen: both halves in compare mode (one character), else the technique. */
function onScreen(ctx: AppContext): string[] {
  const pair = ctx.state.compare;
  return pair !== null && ctx.state.crowd <= 1 ? [pair.a, pair.b] : [ctx.state.technique];
}

export function qualityCheck(ctx: AppContext, id?: string): QualityResult {
  const m = ctx.current;
  if (!m) throw new Error('quality: no model loaded');
  const ids = id !== undefined ? [id] : onScreen(ctx);
  for (const t of ids) {
    if (!findTechnique(t)) throw new Error(`quality: no technique ${t}`);
    if (!cpuReferenceOf(t)) throw new Error(`quality: ${noCpuReference(t)}`);
  }
  const influences = ctx.state.influences;
  const palette = clampPalette(m.scene, ctx.renderer.caps, influences, ctx.state.palette);
  m.player.evaluate();
  const weights = new Float32Array(m.player.morphWeights.length);
  effectiveWeights(ctx.state.morphs, m.player.morphWeights, weights, new Int32Array(MORPH_SLOTS));
  const probe = liveQuality(m.scene).probe;
  const modelSize = m.framing.radius * 2;
  const entries = ids.map((technique, k) => {
    const vs = ids.length === 2 ? ids[1 - k]! : 'software';
    const report = qualityFigures(m.scene, m.player, [technique], { influences, morphWeights: weights, vs, probe });
    const cpuFigures = report.techniques[0]!;
    const reference = cpuReferenceOf(technique)!;
    // Copies: the probe's buffers are reused by the next skin() call.
    const cpu = probe.skin(reference, m.player, weights, influences).map((p) => p.slice());
    const other = probe.skin(cpuReferenceOf(vs)!, m.player, weights, influences).map((p) => p.slice());
    const readbacks = ctx.renderer.readbackSkin(m.gpu, m.player, findTechnique(technique)!, influences, palette, ctx.state.morphs);
    const gpu = cpu.map((p) => p.slice());
    let maxError = 0;
    let approximatedVertices = 0;
    readbacks.forEach((r, i) => {
      const out = gpu[i]!;
      const ref = cpu[i]!;
      for (let v = 0; v < r.sourceVertex.length; v++) {
        if (r.approximated && r.approximated[v]) {
          approximatedVertices++;
          continue;
        }
        const s = r.sourceVertex[v]!;
        for (let c = 0; c < 3; c++) {
          const g = r.positions[v * 3 + c]!;
          out[s * 3 + c] = g;
          const e = Math.abs(g - ref[s * 3 + c]!);
          maxError = Math.max(maxError, Number.isFinite(e) ? e : Infinity);
        }
      }
    });
    const { volume, area } = probe.measure(reference, gpu, influences);
    const d = probe.deviation(gpu, other);
    const entry: QualityEntry = {
      technique,
      reference,
      volume,
      area,
      deviation: { vs, p95: round(d.p95), max: round(d.max) },
      source: 'gpu',
      agreement: modelSize > 0 ? maxError / modelSize : maxError,
      approximatedVertices,
      cpu: { volume: cpuFigures.volume, area: cpuFigures.area, deviation: cpuFigures.deviation },
    };
    return entry;
  });
  const clip = m.scene.clips[m.player.clipIndex]?.name ?? null;
  return { clip, t: m.player.clockTime, influences, modelHeight: round(probe.height), modelSize, techniques: entries };
}
