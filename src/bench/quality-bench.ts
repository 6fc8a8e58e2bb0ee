import { readFileSync } from 'node:fs';
import { inspectQuality } from '../cli/inspect-quality.ts';
import { loadModelAsync } from '../loaders/load-model.ts';
import type { Metric } from './metric.ts';

/**
 * `npm run bench`'s quality part: how each deformation technique's maths shapes the same poses (src/quality,
 * docs/quality.md), next to the GPU cost the in-page benchmark measures. Per pose × technique (linear blend for
 * every matrix-palette technique, `dual-quat`, `cor`, `ddm`): the whole model's volume ratio (posed / rest)
 * and the p95 of |log₂ one-ring area change|, as rows `quality_<pose>_<technique>_volume` (ratio) and
 * `quality_<pose>_<technique>_area_p95` (log2), and a printed table. Also the load-time precompute of `cor`
 * and `ddm` per model (`precompute_<model>_<kind>_ms`, CPU time of this thread, the first use's cost).
 * Not timed otherwise: the figures are maths, the same on every machine.
 */

/** The poses of the table (the issue's: twist rig at its twist and bend peaks, Walker mid-walk, Dawn, Fox). */
export const QUALITY_POSES: readonly { label: string; file: string; clip: string; t: number }[] = [
  { label: 'twist_twist', file: 'public/models/generated/twist.m3d', clip: 'twist', t: 2 },
  { label: 'twist_bend', file: 'public/models/generated/twist.m3d', clip: 'bend', t: 2 },
  { label: 'walker', file: 'public/models/generated/walker.m3d', clip: 'walk', t: 0.3 },
  { label: 'dawn', file: 'public/models/generated/dawn-medium.m3d', clip: 'idle', t: 4 },
  { label: 'fox', file: 'public/models/fox/Fox.glb', clip: 'Run', t: 0.3 },
];

/** The techniques compared: one per deformation maths (every matrix-palette technique is linear blending). */
export const QUALITY_TECHNIQUES: readonly { id: string; label: string }[] = [
  { id: 'software', label: 'linear' },
  { id: 'dual-quat', label: 'dual-quat' },
  { id: 'cor', label: 'cor' },
  { id: 'ddm', label: 'ddm' },
];

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

export async function runQualityBench(opts: { quick: boolean; log: (line: string) => void }): Promise<Metric[]> {
  const out: Metric[] = [];
  const lines: string[] = [];
  const poses = opts.quick ? QUALITY_POSES.filter((p) => p.label !== 'dawn') : QUALITY_POSES;
  for (const pose of poses) {
    const scene = await loadModelAsync(pose.file, new Uint8Array(readFileSync(pose.file)));
    // The first quality call computes cor's centres and ddm's Ω: time them apart, once per model file.
    if (!pose.label.endsWith('_bend')) {
      for (const id of ['cor', 'ddm']) {
        const t0 = cpuMs();
        inspectQuality(scene, pose.clip, null, [pose.t], [id]);
        out.push({ name: `precompute_${pose.label.replace(/_twist$/, '')}_${id}_ms`, value: Math.round(cpuMs() - t0), unit: 'ms', note: `${id} load-time data, first use (includes one pose)` });
      }
    }
    const report = inspectQuality(scene, pose.clip, null, [pose.t], QUALITY_TECHNIQUES.map((t) => t.id));
    const row: string[] = [];
    for (const t of report.techniques) {
      const label = QUALITY_TECHNIQUES.find((q) => q.id === t.technique)!.label;
      const where = `${pose.clip} t=${pose.t}`;
      if (t.volume.ratio !== null) out.push({ name: `quality_${pose.label}_${label}_volume`, value: t.volume.ratio, unit: 'ratio', note: `posed/rest volume, ${where}${t.volume.open ? ', open mesh' : ''}` });
      out.push({ name: `quality_${pose.label}_${label}_area_p95`, value: t.area.p95, unit: 'log2', note: `p95 |log2 one-ring area change|, ${where}` });
      row.push(`${(t.volume.ratio ?? NaN).toFixed(4)} / ${t.area.p95.toFixed(3)}`.padEnd(18));
    }
    lines.push(`${pose.label.padEnd(12)} ${row.join(' ')}`);
  }
  opts.log(`quality: volume ratio / area p95 per technique`);
  opts.log(`${'pose'.padEnd(12)} ${QUALITY_TECHNIQUES.map((t) => t.label.padEnd(18)).join(' ')}`);
  for (const l of lines) opts.log(l);
  return out;
}
