/**
 * Sampling job: one clip at one time → a local pose.
 *
 * Contract
 * - Output: `outLocals` holds TRS_STRIDE (10) floats per node — t (3), r (4, xyzw, unit), s (3) — in
 *   the node's parent space, the layout of `Skeleton.restLocal`. Length ≥ nodeCount · 10; the caller
 *   owns it. Every node is written: first the whole rest pose is copied in, then each track overwrites
 *   the channels it has. Nodes without a track, and missing (null or zero-key) channels, keep the rest.
 * - Time in seconds, key times as in the clip. Before the first key a channel holds its first key, after
 *   the last key its last key (clamp; looping is the caller's business). A one-key channel is constant.
 *   NaN time samples the first key.
 * - Interpolation: translation and scale linear; rotation shortest-path slerp with an nlerp fallback
 *   for nearly equal keys (see quat-interp.ts), renormalised.
 * - Tracks naming a node outside [0, nodeCount) are ignored. When two tracks name one node the later wins.
 * - `ClipCursor` (built by createClipCursor in clip-cursor.ts, re-exported here) caches, per channel, the
 *   key that started the last segment used. Forward playback then finds its segment in O(1) (same or next
 *   segment); a miss — a backward jump, a loop wrap, a big step, random access — falls back to binary search. The cache is only a hint: results are
 *   identical with a fresh cursor, a stale one, or one shared between two players of the same clip.
 * - Constant channels (one key, or every key bitwise equal to the first) are found once, in
 *   createClipCursor, and stored pre-sampled (rotations renormalised, as slerp would): per frame they cost a
 *   float copy, not a key search and a slerp. Only tracks with a changing channel are visited. So the cursor
 *   also depends on the clip's key values: make a new one if they are edited. When two tracks name one node
 *   this is switched off for the whole clip (every channel is sampled in track order, so the later wins).
 *   Given the skeleton's restLocal, createClipCursor also bakes the constants into a copy of it (`base`), so a
 *   frame starts with one memcpy of the base instead of the rest copy plus the constant scatter. That copy is
 *   used only while sampleClip receives that very restLocal array, which must not change afterwards
 *   (skeletons are immutable after load).
 * - The live channels are also flattened at createClipCursor into per-channel tables, and channels whose
 *   key times are equal (the same array or the same values: a baked clip usually keys every channel at
 *   the same frames) share one timeline. A frame finds its segment once per timeline, then interpolates
 *   each live channel with that timeline's key and weight. Segment search depends only on the times, so
 *   the results are those of a search per channel, bit for bit.
 * - Where WebAssembly SIMD runs (pose-simd.ts; usePoseSimd(false) turns it off), the channel loop of a
 *   cursor with its base runs in a WebAssembly kernel (pose-simd.wat): float32 arithmetic, so the pose
 *   agrees with this file's loop to float32 rounding, not bit for bit; rotations whose keys are too far
 *   apart for nlerp are still slerped here (slerpShortestAt, the same bits). On that path the per-channel
 *   hints in `keys` are not updated (the timelines' are; results never depend on either). The other paths
 *   (no base, another restLocal, a cursor of another clip) are this file's loops.
 * - Allocation: createClipCursor allocates (once per clip, at load); sampleClip allocates nothing, except
 *   the first call with a cursor on the kernel path, which copies the cursor's tables into the kernel's
 *   memory.
 *   Inside, doubles cross calls through typed-array slots (sampleTime, interpWeight) because V8 boxes a
 *   double argument of a call it does not inline. sampleClipAt takes the time from sampleTime[0] for
 *   callers that keep their clock in a typed array (AnimPlayer).
 */

import type { Channel, Clip, Track } from '../model/types.ts';
import { TRS_STRIDE } from '../model/types.ts';
import type { ClipCursor } from './clip-cursor.ts';
import { sampleChannelsSimd, simdSlerpChannel } from './pose-simd.ts';
import { interpWeight, NLERP_DOT, slerpShortestAt } from './quat-interp.ts';

export { createClipCursor, resetClipCursor, type ClipCursor } from './clip-cursor.ts';

// Doubles cross the per-channel calls through typed-array slots, never as arguments, returns or module
// `let`s: V8 boxes those (a heap allocation per channel per frame) unless it inlines the call.
/** [0] = the time sampleClipAt samples at (seconds). Module scratch (single-threaded). */
export const sampleTime = new Float64Array(1);

/**
 * Returns the key i starting the segment [times[i], times[i + 1]) that contains t = sampleTime[0], and sets
 * interpWeight[0] to the blend factor in [0, 1). At or beyond the ends it returns the end key with
 * weight 0. `hint` is the cached key from the cursor.
 */
function findSegment(times: Float32Array, hint: number): number {
  const t = sampleTime[0];
  const n = times.length;
  const last = n - 1;
  if (!(t > times[0]) || n === 1) {
    interpWeight[0] = 0;
    return 0;
  }
  if (t >= times[last]) {
    interpWeight[0] = 0;
    return last;
  }
  // Here times[0] < t < times[last], so a segment i with times[i] <= t < times[i + 1], i < last, exists.
  let i: number;
  if (hint < last && times[hint] <= t && t < times[hint + 1]) {
    i = hint;
  } else if (hint + 1 < last && times[hint + 1] <= t && t < times[hint + 2]) {
    i = hint + 1;
  } else {
    // Largest i with times[i] <= t: invariant times[lo] <= t < times[hi].
    let lo = 0;
    let hi = last;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (times[mid] <= t) lo = mid;
      else hi = mid;
    }
    i = lo;
  }
  const t0 = times[i];
  interpWeight[0] = (t - t0) / (times[i + 1] - t0);
  return i;
}

function sampleLinear3(ch: Channel, keys: Uint32Array, slot: number, out: Float32Array, o: number): void {
  const k = findSegment(ch.times, keys[slot]);
  keys[slot] = k;
  const v = ch.values;
  const a = k * 3;
  const w = interpWeight[0];
  if (w === 0) {
    out[o] = v[a];
    out[o + 1] = v[a + 1];
    out[o + 2] = v[a + 2];
    return;
  }
  out[o] = v[a] + (v[a + 3] - v[a]) * w;
  out[o + 1] = v[a + 1] + (v[a + 4] - v[a + 1]) * w;
  out[o + 2] = v[a + 2] + (v[a + 5] - v[a + 2]) * w;
}

function sampleRotation(ch: Channel, keys: Uint32Array, slot: number, out: Float32Array, o: number): void {
  const k = findSegment(ch.times, keys[slot]);
  keys[slot] = k;
  const a = k * 4;
  // With weight 0 (an end key) this still renormalises the key, so every output is unit length.
  slerpShortestAt(ch.values, a, ch.values, interpWeight[0] === 0 ? a : a + 4, out, o);
}

/**
 * Samples `clip` at time `t` (seconds) into `outLocals`, starting from `restLocal`. See the file contract.
 * `cursor` should come from createClipCursor(clip); one made for another clip with at least as many tracks
 * also works, on the slower path that samples every channel.
 */
export function sampleClip(
  clip: Clip,
  t: number,
  cursor: ClipCursor,
  restLocal: Float32Array,
  outLocals: Float32Array,
): void {
  sampleTime[0] = t;
  sampleClipAt(clip, cursor, restLocal, outLocals);
}

/**
 * sampleClip at the time in sampleTime[0], for callers that keep their clock in a typed array: passing a
 * computed double to a call V8 does not inline allocates a box for it.
 */
export function sampleClipAt(clip: Clip, cursor: ClipCursor, restLocal: Float32Array, outLocals: Float32Array): void {
  const tracks = clip.tracks;
  const keys = cursor.keys;
  if (keys.length < tracks.length * 3) {
    throw new Error(`sampleClip: cursor has room for ${keys.length / 3} tracks, clip "${clip.name}" has ${tracks.length}`);
  }
  const nodeCount = (restLocal.length / TRS_STRIDE) | 0;
  if (cursor.clip !== clip) {
    outLocals.set(restLocal);
    sampleEveryChannel(tracks, keys, nodeCount, outLocals);
    return;
  }
  // One segment search per distinct key-time array, then every live channel reads its segment.
  const timelines = cursor.timelines;
  const timelineKey = cursor.timelineKey;
  const timelineWeight = cursor.timelineWeight;
  for (let j = 0; j < timelines.length; j++) {
    timelineKey[j] = findSegment(timelines[j], timelineKey[j]);
    timelineWeight[j] = interpWeight[0];
  }
  const base = cursor.base;
  if (base !== null && cursor.baseRest === restLocal) {
    const slerps = sampleChannelsSimd(cursor, outLocals);
    if (slerps >= 0) {
      finishSlerps(cursor, slerps, outLocals);
      return;
    }
    outLocals.set(base);
  } else {
    outLocals.set(restLocal);
    const limit = nodeCount * TRS_STRIDE;
    const constOffsets = cursor.constOffsets;
    const constValues = cursor.constValues;
    for (let i = 0; i < constOffsets.length; i++) {
      const o = constOffsets[i];
      if (o < limit) outLocals[o] = constValues[i];
    }
  }
  const limit = nodeCount * TRS_STRIDE;
  const kinds = cursor.chanKind;
  const offsets = cursor.chanOffset;
  const nodeOffsets = cursor.chanNodeOffset;
  const slots = cursor.chanSlot;
  const chanTimeline = cursor.chanTimeline;
  const chanValues = cursor.chanValues;
  for (let c = 0; c < kinds.length; c++) {
    if (nodeOffsets[c] >= limit) continue;
    const tl = chanTimeline[c];
    const k = timelineKey[tl];
    keys[slots[c]] = k;
    const w = timelineWeight[tl];
    const v = chanValues[c];
    const o = offsets[c];
    if (kinds[c] !== 1) {
      const a = k * 3;
      if (w === 0) {
        outLocals[o] = v[a];
        outLocals[o + 1] = v[a + 1];
        outLocals[o + 2] = v[a + 2];
      } else {
        const x = v[a], y = v[a + 1], z = v[a + 2];
        outLocals[o] = x + (v[a + 3] - x) * w;
        outLocals[o + 1] = y + (v[a + 4] - y) * w;
        outLocals[o + 2] = z + (v[a + 5] - z) * w;
      }
      continue;
    }
    const a = k * 4;
    if (w === 0) {
      // An end key (or exactly on a key): renormalised, as slerp with weight 0 would.
      normalizeInto(v, a, outLocals, o);
      continue;
    }
    // nlerp inline for the common case of nearly equal keys (slerpShortestAt's NLERP_DOT branch, same
    // arithmetic); the rest goes through slerpShortestAt.
    const ax = v[a], ay = v[a + 1], az = v[a + 2], aw = v[a + 3];
    const bx = v[a + 4], by = v[a + 5], bz = v[a + 6], bw = v[a + 7];
    const dot = ax * bx + ay * by + az * bz + aw * bw;
    if (!(dot > NLERP_DOT || dot < -NLERP_DOT)) {
      interpWeight[0] = w;
      slerpShortestAt(v, a, v, a + 4, outLocals, o);
      continue;
    }
    const ka = 1 - w;
    const kb = dot < 0 ? -w : w;
    const x = ka * ax + kb * bx;
    const y = ka * ay + kb * by;
    const z = ka * az + kb * bz;
    const qw = ka * aw + kb * bw;
    const inv = 1 / Math.sqrt(x * x + y * y + z * z + qw * qw);
    outLocals[o] = x * inv;
    outLocals[o + 1] = y * inv;
    outLocals[o + 2] = z * inv;
    outLocals[o + 3] = qw * inv;
  }
}

/** The rotations the kernel left (keys too far apart for nlerp): slerped here, into outLocals. */
function finishSlerps(cursor: ClipCursor, count: number, outLocals: Float32Array): void {
  for (let i = 0; i < count; i++) {
    const c = simdSlerpChannel(i);
    const tl = cursor.chanTimeline[c];
    const a = cursor.timelineKey[tl] * 4;
    const v = cursor.chanValues[c];
    interpWeight[0] = cursor.timelineWeight[tl];
    slerpShortestAt(v, a, v, a + 4, outLocals, cursor.chanOffset[c]);
  }
}

/** out[oo..oo+4] = q / |q| for q at v[a..a+4]; identity for a zero quaternion (slerpShortestAt's rule). */
function normalizeInto(v: Float32Array, a: number, out: Float32Array, oo: number): void {
  const x = v[a], y = v[a + 1], z = v[a + 2], w = v[a + 3];
  const len2 = x * x + y * y + z * z + w * w;
  if (len2 > 0) {
    const inv = 1 / Math.sqrt(len2);
    out[oo] = x * inv;
    out[oo + 1] = y * inv;
    out[oo + 2] = z * inv;
    out[oo + 3] = w * inv;
  } else {
    out[oo] = 0;
    out[oo + 1] = 0;
    out[oo + 2] = 0;
    out[oo + 3] = 1;
  }
}

/** The path for a cursor made for another clip (same track count): every channel, in track order. */
function sampleEveryChannel(tracks: readonly Track[], keys: Uint32Array, nodeCount: number, outLocals: Float32Array): void {
  for (let i = 0; i < tracks.length; i++) {
    const track = tracks[i];
    const node = track.node;
    if (node < 0 || node >= nodeCount) continue;
    const o = node * TRS_STRIDE;
    const slot = i * 3;
    const tr = track.translation;
    if (tr !== null && tr.times.length > 0) sampleLinear3(tr, keys, slot, outLocals, o);
    const rot = track.rotation;
    if (rot !== null && rot.times.length > 0) sampleRotation(rot, keys, slot + 1, outLocals, o + 3);
    const sc = track.scale;
    if (sc !== null && sc.times.length > 0) sampleLinear3(sc, keys, slot + 2, outLocals, o + 7);
  }
}
