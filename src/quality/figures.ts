import type { PoseSource } from '../anim/posed-bounds.ts';
import { MAX_INFLUENCES, type Scene } from '../model/types.ts';
import { CPU_REFERENCE_IDS, cpuReferenceOf, noCpuReference, type CpuReference } from './cpu-skin.ts';
import { QualityProbe, round, type AreaFigures, type VolumeFigures } from './probe.ts';

/**
 * The artifact figures of techniques at one pose, as `inspect --quality` and `skinlab.quality()` report them
 * (docs/quality.md): per technique, the volume ratio (per mesh and whole model, with the open flag), the
 * area change and the deviation from a second technique. Each technique is posed with its own CPU reference
 * (cpu-skin.ts); techniques that share a reference are skinned once. Allocates (a report, not a frame job).
 */

export interface DeviationFigures {
  /** The technique compared with. */
  vs: string;
  /** |A − B| per vertex as a share of the model height (probe.ts `height`). */
  p95: number;
  max: number;
}

export interface TechniqueFigures {
  technique: string;
  /** The CPU maths that posed it: 'linear' (linear blend skinning) or 'dual-quat'. */
  reference: CpuReference;
  /** Other technique ids with the same reference maths (and so the same figures), when this entry stands for them. */
  sameAs?: string[];
  volume: VolumeFigures;
  area: AreaFigures;
  deviation: DeviationFigures;
}

export interface QualityReport {
  /** Largest side of the bind-pose bounding box (model units): the unit of `deviation`. */
  modelHeight: number;
  influences: number;
  techniques: TechniqueFigures[];
}

export interface QualityOptions {
  /** Bone influences per vertex (1..4; default 4). */
  influences?: number;
  /** Morph weights applied before skinning (indexed like Scene.morphTargets); default none. */
  morphWeights?: Float32Array;
  /** Technique B of the deviation (default `software`, linear blend skinning). */
  vs?: string;
  /** A probe of this scene to reuse (its buffers); default a new one. */
  probe?: QualityProbe;
}

/**
 * Default technique list: one entry per reference maths, the first id with it standing for the others
 * (`software` for every linear-blend technique, with `sameAs` listing them).
 */
export function defaultTechniques(): { technique: string; sameAs: string[] }[] {
  const byReference = new Map<CpuReference, string[]>();
  for (const id of CPU_REFERENCE_IDS) {
    const ref = cpuReferenceOf(id)!;
    byReference.set(ref, [...(byReference.get(ref) ?? []), id]);
  }
  return [...byReference.values()].map(([technique, ...sameAs]) => ({ technique: technique!, sameAs }));
}

const NONE = new Float32Array(0);

/**
 * Figures of `techniques` (ids; empty: defaultTechniques()) at the pose `pose` (evaluated by the caller).
 * Throws an Error naming the first id without a CPU reference.
 */
export function qualityFigures(scene: Scene, pose: PoseSource, techniques: readonly string[], options: QualityOptions = {}): QualityReport {
  const influences = Math.min(MAX_INFLUENCES, Math.max(1, Math.floor(options.influences ?? MAX_INFLUENCES)));
  const weights = options.morphWeights ?? pose.morphWeights ?? NONE;
  const vs = options.vs ?? 'software';
  const entries = techniques.length > 0 ? techniques.map((technique) => ({ technique, sameAs: [] as string[] })) : defaultTechniques();
  for (const id of [vs, ...entries.map((e) => e.technique)]) if (!cpuReferenceOf(id)) throw new Error(noCpuReference(id));
  const probe = options.probe ?? new QualityProbe(scene);

  // Skin each reference once (the probe keeps one buffer set per reference).
  const posed = new Map<CpuReference, readonly Float32Array[]>();
  const skinned = (id: string): readonly Float32Array[] => {
    const ref = cpuReferenceOf(id)!;
    let p = posed.get(ref);
    if (!p) {
      p = probe.skin(ref, pose, weights, influences);
      posed.set(ref, p);
    }
    return p;
  };
  const b = skinned(vs);
  return {
    modelHeight: round(probe.height),
    influences,
    techniques: entries.map(({ technique, sameAs }) => {
      const a = skinned(technique);
      const { volume, area } = probe.measure(cpuReferenceOf(technique)!, a, influences);
      const d = probe.deviation(a, b);
      return {
        technique,
        reference: cpuReferenceOf(technique)!,
        ...(sameAs.length > 0 ? { sameAs } : {}),
        volume,
        area,
        deviation: { vs, p95: round(d.p95), max: round(d.max) },
      };
    }),
  };
}

/** The readable table of a report (inspect without --json). */
export function qualityTable(report: QualityReport): string {
  const lines: string[] = [];
  const pct = (r: number | null): string => (r === null ? 'n/a' : `${((r - 1) * 100).toFixed(2)} %`);
  lines.push(`quality     model height ${report.modelHeight}, ${report.influences} influences; area change = |log2(posed/rest one-ring area)|`);
  lines.push(`technique        volume ratio          area p50   area p95   area max   deviation p95 / max (of height)`);
  for (const t of report.techniques) {
    const vol = `${t.volume.ratio === null ? 'n/a' : t.volume.ratio.toFixed(4)} (${pct(t.volume.ratio)})${t.volume.open ? ' open' : ''}`;
    lines.push(
      `${t.technique.padEnd(16)} ${vol.padEnd(21)} ${t.area.p50.toFixed(4).padStart(8)}   ${t.area.p95.toFixed(4).padStart(8)}   ${t.area.max.toFixed(4).padStart(8)}   ` +
        `${t.deviation.p95.toFixed(5)} / ${t.deviation.max.toFixed(5)} vs ${t.deviation.vs}`,
    );
    if (t.sameAs) lines.push(`                 (same maths: ${t.sameAs.join(', ')})`);
    if (t.volume.meshes.length > 1) {
      for (const m of t.volume.meshes) lines.push(`                 mesh ${m.mesh}: volume ratio ${m.ratio === null ? 'n/a' : m.ratio.toFixed(4)}${m.open ? ` (open mesh, ${m.boundaryEdges} boundary edges)` : ''}`);
    } else if (t.volume.open) {
      lines.push(`                 open mesh (${t.volume.meshes[0]?.boundaryEdges ?? 0} boundary edges): the ratio is not a closed body's volume`);
    }
    const w = t.area.worstVertex;
    if (w) lines.push(`                 worst vertex ${w.mesh}#${w.vertex}: log2 ${w.log2} (${w.log2 < 0 ? 'shrinks' : 'grows'}), bones ${w.bones.join(', ')}; most shrunk ${t.area.shrink}, most grown ${t.area.grow}`);
  }
  return lines.join('\n');
}
