import { decomposeTRS } from '../../model/build.ts';
import { mirrorMat4, mirrorQuat, mirrorVec3 } from '../../model/handedness.ts';
import { TRS_STRIDE, type Channel, type Clip, type Track } from '../../model/types.ts';
import type { mat4 } from 'gl-matrix';
import { quoted } from '../../model/message.ts';
import type { NodeList } from './scene-nodes.ts';
import { MORPH_TRACK_TEMPLATE, readMorphTrack, toMorphTracks, type FileMorphTrack } from './scene-morph.ts';
import { collectClipMarkers, toClipMarkers, warnUnclaimedMarkers, type FileMarker } from './scene-markers.ts';
import { NumberCursor, UniqueNames, describeObject, isTemplate, noteSkipped, objectError, type XContext } from './scene-read.ts';
import type { XObject } from './xnode.ts';

/**
 * .x animation → Clips.
 *
 *   AnimTicksPerSecond { DWORD AnimTicksPerSecond; }
 *   AnimationSet { [Animation] }                  → one Clip
 *   Animation { [AnimationKey, AnimationOptions, { frameName }] }   → one Track
 *   AnimationKey { DWORD keyType; DWORD nKeys; TimedFloatKeys keys[nKeys]; }
 *   TimedFloatKeys { DWORD time; FloatKeys { DWORD nValues; FLOAT values[nValues]; } }
 *
 * keyType 0 rotation, stored w, x, y, z; D3DX applies the conjugate of that quaternion (the track's first
 * key then reproduces the FrameTransformMatrix), so (−x, −y, −z, w) is taken. 1 scale, 2 position,
 * 4 a 4x4 matrix per key, decomposed into translation, rotation and scale keys. Every key is mirrored
 * into skinlab's frame exactly as the rest matrices are (handedness.ts).
 *
 * Tick rate: a set uses the latest AnimTicksPerSecond before it in the file (one inside the set wins);
 * with none before it, the file's first one; with none at all D3DX's default of 4800 ticks per second.
 * Key times become seconds; a clip's duration is its last key time. Unnamed sets are called `Anim-k`,
 * k being the set's 1-based position among the file's sets. Animation objects outside any set form one
 * more clip. AnimationOptions (open/closed, position quality) are informational and not read.
 *
 * SkinlabMorphTrack children of a set (scene-morph.ts) become the clip's morph tracks, their key times
 * converted and shifted with the set's other keys; they count towards the clip's duration.
 * Top-level SkinlabClipMarker objects naming a set (scene-markers.ts) become its clip's markers, converted
 * and shifted the same way; they do not lengthen the clip.
 */

export const DEFAULT_TICKS_PER_SECOND = 4800;

const VALUES_PER_KEY: Record<number, number> = { 0: 4, 1: 3, 2: 3, 4: 16 };

interface TrackBuild {
  node: number;
  translation: Channel | null;
  rotation: Channel | null;
  scale: Channel | null;
}

function readTicks(ctx: XContext, obj: XObject): number {
  const v = new NumberCursor(ctx, obj).next('the tick rate');
  if (!(v > 0) || !Number.isFinite(v)) {
    ctx.warnings.push(`AnimTicksPerSecond ${v} is not a positive rate; ignored`);
    return 0;
  }
  return v;
}

/** `morphTargets`: Scene.morphTargets by name → index, for SkinlabMorphTrack. */
export function buildClips(ctx: XContext, nodes: NodeList, morphTargets: ReadonlyMap<string, number> = new Map()): Clip[] {
  const objects = ctx.file.objects;
  let firstTicks = 0;
  for (const o of objects) {
    if (isTemplate(o, 'AnimTicksPerSecond')) {
      firstTicks = readTicks(ctx, o);
      if (firstTicks > 0) break;
    }
  }
  let ticks = 0;
  let setIndex = 0;
  const clips: Clip[] = [];
  const names = new UniqueNames();
  const loose: XObject[] = [];
  const markers = collectClipMarkers(ctx);
  const claimed = new Set<string>();
  for (const o of objects) {
    if (isTemplate(o, 'AnimTicksPerSecond')) {
      const t = new NumberCursor(ctx, o).next('the tick rate');
      if (t > 0 && Number.isFinite(t)) ticks = t;
    } else if (isTemplate(o, 'AnimationSet')) {
      setIndex++;
      let rate = ticks || firstTicks || DEFAULT_TICKS_PER_SECOND;
      for (const c of o.children) if (isTemplate(c, 'AnimTicksPerSecond')) rate = readTicks(ctx, c) || rate;
      const name = names.make(o.name !== '' ? o.name : `Anim-${setIndex}`);
      const animations: XObject[] = [];
      const morphTracks: FileMorphTrack[] = [];
      for (const c of o.children) {
        if (isTemplate(c, 'Animation')) animations.push(c);
        else if (isTemplate(c, MORPH_TRACK_TEMPLATE)) morphTracks.push(readMorphTrack(ctx, c, morphTargets));
        else if (c.kind === 'object' && !isTemplate(c, 'AnimTicksPerSecond')) noteSkipped(ctx, c);
      }
      // Markers name the set as the file writes it (an unnamed set has none).
      const own = o.name !== '' ? markers.get(o.name) : undefined;
      if (own) claimed.add(o.name);
      clips.push(buildClip(ctx, nodes, name, animations, rate, morphTracks, own));
    } else if (isTemplate(o, 'Animation')) {
      loose.push(o);
    }
  }
  warnUnclaimedMarkers(ctx, markers, claimed);
  if (loose.length > 0) {
    const rate = ticks || firstTicks || DEFAULT_TICKS_PER_SECOND;
    const name = names.make(`Anim-${setIndex + 1}`);
    ctx.warnings.push(`${loose.length} Animation objects outside any AnimationSet gathered into clip ${quoted(name)}`);
    clips.push(buildClip(ctx, nodes, name, loose, rate));
  }
  return clips;
}

/** The frame an Animation drives: its `{ name }` reference, else a nested Frame's name, else its own name. */
function animationTarget(anim: XObject, nodes: NodeList): string | null {
  for (const c of anim.children) if (c.kind === 'ref') return c.name;
  for (const c of anim.children) if (isTemplate(c, 'Frame') && c.name !== '') return c.name;
  if (anim.name !== '' && nodes.byName.has(anim.name)) return anim.name;
  return null;
}

function buildClip(
  ctx: XContext,
  nodes: NodeList,
  name: string,
  animations: readonly XObject[],
  ticksPerSecond: number,
  morphTracks: readonly FileMorphTrack[] = [],
  markers: readonly FileMarker[] = [],
): Clip {
  const tracks = new Map<number, TrackBuild>();
  const missing: string[] = [];
  let untargeted = 0;
  let merged = 0;
  let reordered = 0;
  let minTime = Infinity;
  let maxTime = 0;
  for (const anim of animations) {
    const target = animationTarget(anim, nodes);
    if (target === null) {
      untargeted++;
      continue;
    }
    const node = nodes.byName.get(target);
    if (node === undefined || node >= nodes.frameCount) {
      missing.push(target);
      continue;
    }
    let track = tracks.get(node);
    if (track === undefined) {
      track = { node, translation: null, rotation: null, scale: null };
      tracks.set(node, track);
    } else merged++;
    for (const c of anim.children) {
      if (isTemplate(c, 'AnimationKey')) {
        reordered += readKey(ctx, c, track, ticksPerSecond);
      } else if (c.kind === 'object' && !isTemplate(c, 'AnimationOptions') && !isTemplate(c, 'Frame')) noteSkipped(ctx, c);
    }
    for (const ch of [track.translation, track.rotation, track.scale]) {
      if (ch === null || ch.times.length === 0) continue;
      minTime = Math.min(minTime, ch.times[0]!);
      maxTime = Math.max(maxTime, ch.times[ch.times.length - 1]!);
    }
  }
  for (const t of morphTracks) {
    if (t.ticks.length === 0) continue;
    minTime = Math.min(minTime, t.ticks[0]! / ticksPerSecond);
    maxTime = Math.max(maxTime, t.ticks[t.ticks.length - 1]! / ticksPerSecond);
  }
  if (missing.length > 0) {
    const list = missing.slice(0, 5).map((m) => `${quoted(m)}`).join(', ');
    ctx.warnings.push(`clip ${quoted(name)}: ${missing.length} animations drive frames the file does not have (${list}${missing.length > 5 ? ', ...' : ''}); skipped`);
  }
  if (untargeted > 0) ctx.warnings.push(`clip ${quoted(name)}: ${untargeted} animations name no frame; skipped`);
  if (merged > 0) ctx.warnings.push(`clip ${quoted(name)}: ${merged} animations drive a frame another animation already drives; their keys replace the earlier ones`);
  if (reordered > 0) ctx.warnings.push(`clip ${quoted(name)}: ${reordered} keys were out of order or at a repeated time; sorted, repeats dropped (the later kept)`);
  if (minTime < 0) {
    ctx.warnings.push(`clip ${quoted(name)}: keys start at ${minTime.toFixed(4)} s; shifted to start at 0`);
    for (const t of tracks.values()) {
      for (const ch of [t.translation, t.rotation, t.scale]) if (ch) for (let k = 0; k < ch.times.length; k++) ch.times[k] = ch.times[k]! - minTime;
    }
    maxTime -= minTime;
  }
  const list: Track[] = [...tracks.values()].sort((a, b) => a.node - b.node);
  const shift = Math.min(0, minTime);
  const marked = markers.length > 0 ? { markers: toClipMarkers(markers, ticksPerSecond, shift) } : {};
  if (morphTracks.length === 0) return { name, duration: maxTime, ticksPerSecond, tracks: list, ...marked };
  const morph = toMorphTracks(ctx, name, morphTracks, ticksPerSecond, shift);
  return { name, duration: maxTime, ticksPerSecond, tracks: list, morphTracks: morph, ...marked };
}

/**
 * Reads one AnimationKey into `track`; returns how many keys had to be reordered or dropped. A later key
 * object of the same kind replaces an earlier one.
 */
function readKey(ctx: XContext, obj: XObject, track: TrackBuild, ticksPerSecond: number): number {
  const c = new NumberCursor(ctx, obj);
  const type = c.next('the key type');
  const stride = VALUES_PER_KEY[type];
  if (stride === undefined) {
    ctx.warnings.push(`${describeObject(obj)} of unknown key type ${type} (expected 0 rotation, 1 scale, 2 position or 4 matrix); ignored`);
    return 0;
  }
  const n = c.count('keys', 2 + stride);
  const ticks = new Float64Array(n);
  const raw = new Float64Array(n * stride);
  for (let k = 0; k < n; k++) {
    ticks[k] = c.next(`time of key ${k}`);
    const values = c.next(`value count of key ${k}`);
    if (values !== stride) c.fail(`key ${k} has ${values} values; key type ${type} needs ${stride}`);
    c.read(raw, k * stride, stride, `key ${k}`);
  }
  // Ascending, unique times: stable sort when needed, a repeated time keeps the later key.
  let order: number[] | null = null;
  for (let k = 1; k < n; k++) {
    if (!(ticks[k]! > ticks[k - 1]!)) {
      order = Array.from({ length: n }, (_, i) => i).sort((a, b) => ticks[a]! - ticks[b]! || a - b);
      break;
    }
  }
  let keep: number[];
  if (order === null) keep = Array.from({ length: n }, (_, i) => i);
  else {
    keep = [];
    for (const i of order) {
      if (!Number.isFinite(ticks[i]!)) continue;
      if (keep.length > 0 && ticks[keep[keep.length - 1]!] === ticks[i]) keep[keep.length - 1] = i;
      else keep.push(i);
    }
  }
  const m = keep.length;
  const times = new Float32Array(m);
  for (let k = 0; k < m; k++) times[k] = ticks[keep[k]!]! / ticksPerSecond;
  const problems = order === null ? 0 : n - m + countMoved(keep);

  if (type === 0) {
    const values = new Float32Array(m * 4);
    for (let k = 0; k < m; k++) {
      const o = keep[k]! * 4;
      const w = raw[o]!, x = raw[o + 1]!, y = raw[o + 2]!, z = raw[o + 3]!;
      const len = Math.hypot(w, x, y, z);
      if (!Number.isFinite(len)) throw objectError(ctx, obj, `rotation key ${keep[k]} has NaN or infinite values`);
      // A zero-length rotation stays zero: validateScene replaces it with the identity and warns.
      if (!(len > 1e-12)) continue;
      values[k * 4] = -x / len;
      values[k * 4 + 1] = -y / len;
      values[k * 4 + 2] = -z / len;
      values[k * 4 + 3] = w / len;
      mirrorQuat(values, k * 4);
    }
    track.rotation = { times, values };
  } else if (type === 1 || type === 2) {
    const values = new Float32Array(m * 3);
    for (let k = 0; k < m; k++) {
      for (let i = 0; i < 3; i++) values[k * 3 + i] = raw[keep[k]! * 3 + i]!;
      // Scale is a magnitude per axis; only positions change sign under the mirror.
      if (type === 2) mirrorVec3(values, k * 3);
    }
    if (type === 1) track.scale = { times, values };
    else track.translation = { times, values };
  } else {
    const t = new Float32Array(m * 3);
    const r = new Float32Array(m * 4);
    const s = new Float32Array(m * 3);
    const mat = new Float32Array(16);
    const trs = new Float32Array(TRS_STRIDE);
    for (let k = 0; k < m; k++) {
      for (let i = 0; i < 16; i++) mat[i] = raw[keep[k]! * 16 + i]!;
      mirrorMat4(mat);
      decomposeTRS(mat as unknown as mat4, trs, 0);
      t.set(trs.subarray(0, 3), k * 3);
      r.set(trs.subarray(3, 7), k * 4);
      s.set(trs.subarray(7, 10), k * 3);
    }
    track.translation = { times, values: t };
    track.rotation = { times, values: r };
    track.scale = { times, values: s };
  }
  return problems;
}

/** Keys not at their original position after sorting. */
function countMoved(keep: readonly number[]): number {
  let moved = 0;
  for (let k = 1; k < keep.length; k++) if (keep[k]! < keep[k - 1]!) moved++;
  return moved;
}
