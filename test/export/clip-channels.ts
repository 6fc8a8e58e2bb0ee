import { strictTimes } from '../../src/export/animations.ts';
import type { Channel, Clip, MorphTrack, Scene } from '../../src/model/types.ts';

/**
 * Test helper of the glTF export: a clip read back from glTF (skinlab's own reader) compared with the
 * Scene's clip channel by channel. Pure; allocates freely.
 *
 * What the exporter legitimately changes, and so what the comparison allows (src/export/animations.ts):
 * - key times are the source's with strictTimes applied (a repeated key time moves one float32 step later);
 * - a rotation key is made unit and may come back negated (glTF's hemisphere rule): q and −q compare equal;
 * - one channel per clip may end with one more key, at the clip's duration, holding its last value;
 * - morph tracks come back as one track per target of a morphed mesh keyed at the union of that mesh's track
 *   times: every source key must be there, and every key read back must equal the source track sampled
 *   linearly at its time (or the target's rest weight where the source has no track).
 * Nodes and morph targets are matched by name (the Scene's node names must be unique where tracks sit).
 * Times and values agree within `tolerance` (absolute, times 1 ≥ |value|, else relative).
 */

export type ChannelPath = 'translation' | 'rotation' | 'scale' | 'weights';

export interface ClipComparison {
  /** One line per disagreement; empty when the clips agree. */
  readonly mismatches: string[];
  /** Channels compared, by path (weights: one per morph target). */
  readonly compared: Record<ChannelPath, number>;
}

const PATHS = ['translation', 'rotation', 'scale'] as const;

function keyCount(ch: Channel | null, stride: number): number {
  return ch ? Math.min(ch.times.length, Math.floor(ch.values.length / stride)) : 0;
}

function close(a: number, b: number, tolerance: number): boolean {
  return Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(a));
}

function unit(v: ArrayLike<number>, o: number): number[] {
  const l = Math.hypot(v[o]!, v[o + 1]!, v[o + 2]!, v[o + 3]!);
  return [v[o]! / l, v[o + 1]! / l, v[o + 2]! / l, v[o + 3]! / l];
}

function sampleTrack(track: MorphTrack, t: number): number {
  const { times, values } = track;
  const n = Math.min(times.length, values.length);
  if (!(t > times[0]!)) return values[0]!;
  if (t >= times[n - 1]!) return values[n - 1]!;
  let k = 1;
  while (times[k]! <= t) k++;
  const span = times[k]! - times[k - 1]!;
  return values[k - 1]! + (values[k]! - values[k - 1]!) * (span > 0 ? (t - times[k - 1]!) / span : 0);
}

/** Node index of `back` for each node of `src` with the same name (−1: none, or the name is not unique). */
function nodeMap(src: Scene, back: Scene): Int32Array {
  const byName = new Map<string, number>();
  const repeated = new Set<string>();
  back.skeleton.names.forEach((n, i) => (byName.has(n) ? repeated.add(n) : byName.set(n, i)));
  return Int32Array.from(src.skeleton.names, (n) => (repeated.has(n) ? -1 : byName.get(n) ?? -1));
}

/** Compares clip `c` of `src` with clip `c` of `back` (read back from the export of src). */
export function compareClip(src: Scene, back: Scene, c: number, tolerance = 1e-5): ClipComparison {
  const mismatches: string[] = [];
  const compared: Record<ChannelPath, number> = { translation: 0, rotation: 0, scale: 0, weights: 0 };
  const a: Clip = src.clips[c]!;
  const b: Clip | undefined = back.clips[c];
  if (!b || b.name !== a.name) return { mismatches: [`clip ${c} '${a.name}': read back as '${b?.name}'`], compared };
  const map = nodeMap(src, back);
  const names = src.skeleton.names;
  let extended = 0;
  const expectedBack = new Set<string>();
  for (const track of a.tracks) {
    for (const path of PATHS) {
      const stride = path === 'rotation' ? 4 : 3;
      const ch = track[path];
      const keys = keyCount(ch, stride);
      if (keys === 0) continue;
      const where = `${a.name}: ${names[track.node]} ${path}`;
      const node = map[track.node]!;
      if (node < 0) {
        mismatches.push(`${where}: node '${names[track.node]}' not found (by a unique name) in the file read back`);
        continue;
      }
      expectedBack.add(`${node}/${path}`);
      const got = b.tracks.find((t) => t.node === node)?.[path] ?? null;
      const gotKeys = keyCount(got, stride);
      if (!got || gotKeys === 0) {
        mismatches.push(`${where}: ${keys} keys in the source, no channel read back`);
        continue;
      }
      compared[path]++;
      const times = strictTimes(ch!.times.subarray(0, keys));
      let n = keys;
      if (gotKeys === keys + 1 && close(a.duration, got.times[keys]!, tolerance) && times[keys - 1]! < Math.fround(a.duration)) {
        extended++;
        for (let i = 0; i < stride; i++) {
          if (!close(got.values[(keys - 1) * stride + i]!, got.values[keys * stride + i]!, tolerance)) {
            mismatches.push(`${where}: the key added at the duration does not hold the last value`);
            break;
          }
        }
      } else if (gotKeys !== keys) {
        mismatches.push(`${where}: ${keys} keys in the source, ${gotKeys} read back`);
        n = Math.min(keys, gotKeys);
      }
      let bad = 0;
      let first = '';
      for (let k = 0; k < n; k++) {
        const tOk = close(times[k]!, got.times[k]!, tolerance);
        let vOk = true;
        let want: number[];
        let have: number[];
        if (path === 'rotation') {
          want = unit(ch!.values, k * 4);
          have = unit(got.values, k * 4);
          const same = want.every((x, i) => close(x, have[i]!, tolerance));
          const negated = want.every((x, i) => close(-x, have[i]!, tolerance));
          vOk = same || negated;
        } else {
          want = Array.from(ch!.values.subarray(k * 3, k * 3 + 3));
          have = Array.from(got.values.subarray(k * 3, k * 3 + 3));
          vOk = want.every((x, i) => close(x, have[i]!, tolerance));
        }
        if (!tOk || !vOk) {
          if (bad++ === 0) first = `key ${k}: t ${times[k]} → ${got.times[k]}, value [${want.map((x) => x.toPrecision(6))}] → [${have.map((x) => x.toPrecision(6))}]`;
        }
      }
      if (bad > 0) mismatches.push(`${where}: ${bad} of ${n} keys differ; first ${first}`);
    }
  }
  for (const t of b.tracks) {
    for (const path of PATHS) {
      if (keyCount(t[path], path === 'rotation' ? 4 : 3) > 0 && !expectedBack.has(`${t.node}/${path}`)) {
        mismatches.push(`${a.name}: ${back.skeleton.names[t.node]} ${path}: read back, but the source has no such channel`);
      }
    }
  }
  if (extended > 1) mismatches.push(`${a.name}: ${extended} channels gained a key at the duration (at most one may)`);
  compareMorphTracks(src, back, a, b, tolerance, mismatches, compared);
  return { mismatches, compared };
}

function compareMorphTracks(src: Scene, back: Scene, a: Clip, b: Clip, tolerance: number, mismatches: string[], compared: Record<ChannelPath, number>): void {
  const srcTracks = (a.morphTracks ?? []).filter((t) => t.times.length > 0);
  const backTracks = b.morphTracks ?? [];
  const lastFor = (target: number): MorphTrack | null => srcTracks.filter((t) => t.target === target).at(-1) ?? null;
  for (const tr of srcTracks) {
    const name = src.morphTargets[tr.target]!;
    const got = backTracks.find((t) => back.morphTargets[t.target] === name);
    if (!got) {
      mismatches.push(`${a.name}: weights of '${name}': no track read back`);
      continue;
    }
    if (tr !== lastFor(tr.target)) continue;
    compared.weights++;
    for (let k = 0; k < tr.times.length; k++) {
      if (!got.times.some((t) => close(tr.times[k]!, t, tolerance))) {
        mismatches.push(`${a.name}: weights of '${name}': source key at ${tr.times[k]} not read back`);
        break;
      }
    }
  }
  for (const got of backTracks) {
    const name = back.morphTargets[got.target]!;
    const target = src.morphTargets.indexOf(name);
    const tr = target >= 0 ? lastFor(target) : null;
    const rest = target >= 0 ? src.morphDefaults?.[target] ?? 0 : NaN;
    for (let k = 0; k < got.times.length; k++) {
      const want = tr ? sampleTrack(tr, got.times[k]!) : rest;
      if (!close(want, got.values[k]!, tolerance)) {
        mismatches.push(`${a.name}: weights of '${name}' at ${got.times[k]}: ${want} in the source, ${got.values[k]} read back`);
        break;
      }
    }
  }
}
