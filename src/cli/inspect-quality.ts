import { applyTracksSpec, formatTracksSpec, parseTracksSpec } from '../anim/controller/track-spec.ts';
import { AnimPlayer } from '../anim/player.ts';
import type { Scene } from '../model/types.ts';
import { cpuReferenceOf, noCpuReference } from '../quality/cpu-skin.ts';
import { qualityFigures, qualityTable, type QualityReport } from '../quality/figures.ts';
import { UsageError } from './inspect-args.ts';

/**
 * `inspect FILE --clip C --t T --quality [--techniques a,b,…] [--json]`: the artifact figures
 * (src/quality/figures.ts, docs/quality.md) of techniques at one pose, posed as `inspect --t` poses the model
 * (the clip, or the tracks, sampled at T; morph targets at their rest weights with the clip's morph tracks
 * playing) with 4 influences. The JSON is the report with the pose added: `{clip | tracks, t, modelHeight,
 * influences, techniques: [...]}`. No I/O: inspect.ts writes what this returns.
 */

export interface QualityPose extends QualityReport {
  clip?: string;
  tracks?: string;
  t: number;
}

export function inspectQuality(scene: Scene, clipArg: string | null, tracksArg: string | null, times: readonly number[], techniques: readonly string[]): QualityPose {
  if (times.length !== 1) throw new UsageError(`--quality measures one pose: give one time with --t (got ${times.length})`);
  for (const id of techniques) if (!cpuReferenceOf(id)) throw new UsageError(`--techniques: ${noCpuReference(id)}`);
  const t = times[0]!;
  const player = AnimPlayer.forScene(scene);
  const pose: { clip?: string; tracks?: string } = {};
  if (tracksArg !== null) {
    const { specs, errors } = parseTracksSpec(tracksArg);
    if (errors.length > 0) throw new UsageError(`--tracks ${tracksArg}: ${errors.join('; ')}`);
    if (scene.clips.length === 0) throw new UsageError('--tracks: this model has no clips');
    const problems = applyTracksSpec(player.controller, specs);
    player.useTracks();
    if (problems.length > 0) throw new UsageError(`--tracks ${tracksArg}: ${problems.join('; ')}`);
    pose.tracks = formatTracksSpec(specs);
  } else if (scene.clips.length > 0) {
    const index = clipIndex(scene, clipArg);
    player.play(index, 0);
    pose.clip = scene.clips[index]!.name;
  }
  player.setTime(t);
  player.evaluate();
  const report = qualityFigures(scene, player, techniques);
  return { ...pose, t, ...report };
}

function clipIndex(scene: Scene, clipArg: string | null): number {
  if (clipArg === null) return 0;
  let index = scene.clips.findIndex((c) => c.name === clipArg);
  if (index < 0 && /^\d+$/.test(clipArg)) index = Number(clipArg);
  if (index < 0 || index >= scene.clips.length) throw new UsageError(`--clip ${clipArg}: no such clip (clips: ${scene.clips.map((c) => c.name).join(', ')})`);
  return index;
}

/** The readable form: the pose line, then qualityTable. */
export function inspectQualityTable(q: QualityPose): string {
  const what = q.tracks ? `tracks ${q.tracks}` : q.clip ? `clip ${q.clip}` : 'rest pose';
  return `pose        ${what}, t = ${q.t}\n${qualityTable(q)}`;
}
