import { AnimPlayer } from '../anim/player.ts';
import { PosedBounds } from '../anim/posed-bounds.ts';
import { applyTracksSpec, formatTracksSpec, parseTracksSpec } from '../anim/controller/track-spec.ts';
import type { Scene } from '../model/types.ts';
import { UsageError } from './inspect-args.ts';

/**
 * What `inspect` prints of a loaded scene (docs/api.md#inspect): the summary object (`--json`) and its
 * readable table. `summarise` poses the scene at the given times as the page draws it — the clip (or the
 * tracks) sampled, morph targets at their rest weights with the clip's morph tracks playing, every mesh
 * morphed then skinned on the CPU — and reports model-space bounds per time. No I/O: the command's
 * entry point (inspect.ts) reads the file and writes what this returns; tests call it directly.
 */

export function summarise(scene: Scene, clipArg: string | null, times: readonly number[], tracksArg: string | null = null): Record<string, unknown> {
  const bones = new Set<number>();
  for (const m of scene.meshes) if (m.skinned) for (const b of m.bones) bones.add(b);
  const out: Record<string, unknown> = { format: scene.format };
  if (scene.format.startsWith('x-')) out.floatBits = scene.floatBits;
  // Morph facts are added only for models that have targets, so every other summary stays as it was.
  const morphed = scene.morphTargets.length > 0;
  out.meshes = scene.meshes.map((m) => ({
    name: m.name,
    vertices: m.vertexCount,
    triangles: m.indices.length / 3,
    subsets: m.subsets.length,
    skinned: m.skinned,
    bones: m.skinned ? m.bones.length : 0,
    maxInfluences: m.skinned ? m.maxInfluences : 0,
    ...(morphed ? { morphTargets: (m.morphs ?? []).filter((d) => d.vertices.length > 0).length } : {}),
    ...(m.colors ? { vertexColours: true } : {}),
  }));
  out.frames = scene.skeleton.parents.length;
  out.bones = bones.size;
  out.clips = scene.clips.map((c) => ({
    name: c.name,
    duration: round(c.duration),
    ticksPerSecond: c.ticksPerSecond,
    tracks: c.tracks.length,
    ...(morphed ? { morphTracks: c.morphTracks?.length ?? 0 } : {}),
    // Callback keys are listed only for clips that have them, so other summaries stay as they were.
    ...(c.markers && c.markers.length > 0 ? { markers: c.markers.map((m) => ({ time: round(m.time), name: m.name })) } : {}),
  }));
  out.materials = scene.materials.map((m) => ({ name: m.name, diffuseMap: m.diffuseMap }));
  out.morphTargets = scene.morphTargets;
  if (morphed) out.morphKinds = scene.morphTargets.map((_, i) => scene.morphKinds?.[i] ?? 'modifier');
  out.warnings = scene.warnings;
  if (times.length > 0) {
    // Posed as the page draws it: morph targets at their rest weights, the clip's morph tracks playing.
    const player = AnimPlayer.forScene(scene);
    if (tracksArg !== null) {
      const { specs, errors } = parseTracksSpec(tracksArg);
      if (errors.length > 0) throw new UsageError(`--tracks ${tracksArg}: ${errors.join('; ')}`);
      if (scene.clips.length === 0) throw new UsageError(`--tracks: this model has no clips`);
      const problems = applyTracksSpec(player.controller, specs);
      player.useTracks();
      if (problems.length > 0) throw new UsageError(`--tracks ${tracksArg}: ${problems.join('; ')}`);
      out.tracks = formatTracksSpec(specs);
    } else if (scene.clips.length > 0) {
      let index = 0;
      if (clipArg !== null) {
        index = scene.clips.findIndex((c) => c.name === clipArg);
        if (index < 0 && /^\d+$/.test(clipArg)) index = Number(clipArg);
        if (index < 0 || index >= scene.clips.length) {
          throw new UsageError(`--clip ${clipArg}: no such clip (clips: ${scene.clips.map((c) => c.name).join(', ')})`);
        }
      }
      player.play(index, 0);
      out.clip = scene.clips[index]!.name;
    }
    const bounds = new PosedBounds(scene);
    out.poses = times.map((t) => {
      // With --tracks the controller clock (every track at t × speed), else the clip's time.
      player.setTime(t);
      player.evaluate();
      const min = [0, 0, 0];
      const max = [0, 0, 0];
      bounds.measure(player, min, max);
      return { t, bounds: { min: min.map(round), max: max.map(round) } };
    });
  }
  return out;
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

export function table(s: Record<string, unknown>): string {
  const lines: string[] = [];
  lines.push(`format      ${s.format}${s.floatBits ? ` (${s.floatBits}-bit floats)` : ''}`);
  lines.push(`frames      ${s.frames}`);
  lines.push(`bones       ${s.bones}`);
  for (const m of s.meshes as Record<string, unknown>[]) {
    const moved = m.morphTargets === undefined ? '' : `, moved by ${m.morphTargets} morph target${m.morphTargets === 1 ? '' : 's'}`;
    lines.push(`mesh        ${m.name}: ${m.vertices} vertices, ${m.triangles} triangles, ${m.subsets} subsets, ${m.skinned ? `skinned by ${m.bones} bones, up to ${m.maxInfluences} influences` : 'rigid'}${moved}${m.vertexColours ? ', vertex colours' : ''}`);
  }
  for (const c of s.clips as Record<string, unknown>[]) {
    const morphTracks = c.morphTracks === undefined ? '' : `, ${c.morphTracks} morph tracks`;
    const markers = c.markers === undefined ? '' : `, markers ${(c.markers as { time: number; name: string }[]).map((m) => `${m.name}@${m.time}`).join(' ')}`;
    lines.push(`clip        ${c.name}: ${c.duration} s, ${c.tracks} tracks${morphTracks}${c.ticksPerSecond ? `, ${c.ticksPerSecond} ticks/s` : ''}${markers}`);
  }
  for (const m of s.materials as Record<string, unknown>[]) lines.push(`material    ${m.name}${m.diffuseMap ? ` (${m.diffuseMap})` : ''}`);
  const morphs = s.morphTargets as string[];
  if (morphs.length) {
    const kinds = s.morphKinds as string[];
    const count = (k: string): number => kinds.filter((x) => x === k).length;
    lines.push(`morphs      ${morphs.length} targets (${count('emotion')} emotions, ${count('modifier')} modifiers): ${morphs.map((n, i) => `${n} (${kinds[i]})`).join(', ')}`);
  }
  for (const w of s.warnings as string[]) lines.push(`warning     ${w}`);
  for (const p of (s.poses as { t: number; bounds: { min: number[]; max: number[] } }[] | undefined) ?? []) {
    lines.push(`t = ${p.t}${s.tracks ? ` (tracks ${s.tracks})` : s.clip ? ` (${s.clip})` : ''}  min ${p.bounds.min.join(' ')}  max ${p.bounds.max.join(' ')}`);
  }
  return lines.join('\n');
}
