/**
 * Clip cursors: the per-clip, per-player state sampleClip (sample-clip.ts) reads — the cached segment keys
 * and the clip's channels sorted out once, at load.
 *
 * Contract
 * - createClipCursor(clip, restLocal?) allocates (once per clip, at load); resetClipCursor allocates nothing.
 * - Constant channels (one key, or every key bitwise equal to the first) are stored pre-sampled (rotations
 *   renormalised with slerpShortestAt at weight 0, as slerp would), and baked into a copy of `restLocal`
 *   (`base`) when it is given; the live channels are flattened into per-channel tables sharing one timeline
 *   per distinct key-time array. The cursor depends on the clip's key values: make a new one if they are
 *   edited. When two tracks name one node no channel is treated as constant (track order decides).
 * - The rules these tables must keep so that sampling is identical with a fresh, stale or shared cursor are
 *   stated in sample-clip.ts's contract; this file only builds them. It must not import sample-clip.ts.
 */

import type { Channel, Clip } from '../model/types.ts';
import { TRS_STRIDE } from '../model/types.ts';
import { interpWeight, slerpShortestAt } from './quat-interp.ts';

export interface ClipCursor {
  /** The clip this cursor was made for. */
  readonly clip: Clip;
  /** 3 per track (translation, rotation, scale): index of the key starting the last segment used. */
  readonly keys: Uint32Array;
  /** Indices of the tracks that have at least one changing channel, ascending. */
  readonly live: Uint32Array;
  /** Per track, bit 0/1/2 set when its translation/rotation/scale channel changes and must be sampled. */
  readonly liveMask: Uint8Array;
  /** Pre-sampled constant channels: outLocals[constOffsets[i]] = constValues[i]. */
  readonly constOffsets: Int32Array;
  readonly constValues: Float32Array;
  /** restLocal with every constant channel applied, or null; valid for `baseRest` only. */
  readonly base: Float32Array | null;
  readonly baseRest: Float32Array | null;
  /**
   * The live channels flattened in track order (t, r, s within a track), for the per-frame loop.
   * chanKind: 0 translation, 1 rotation, 2 scale. chanOffset: node · TRS_STRIDE + 0 / 3 / 7.
   * chanNodeOffset: node · TRS_STRIDE (skipped when not below nodeCount · TRS_STRIDE). chanSlot: index
   * into `keys`. chanTimeline: index into `timelines`. chanValues: the channel's key values.
   */
  readonly chanKind: Uint8Array;
  readonly chanOffset: Int32Array;
  readonly chanNodeOffset: Int32Array;
  readonly chanSlot: Int32Array;
  readonly chanTimeline: Int32Array;
  readonly chanValues: readonly Float32Array[];
  /**
   * The distinct key-time arrays of the live channels (equal content counts as one): a frame finds its
   * segment once per timeline, not once per channel. timelineKey: its cached segment start (the hint);
   * timelineWeight: the blend factor of the current frame (scratch).
   */
  readonly timelines: readonly Float32Array[];
  readonly timelineKey: Uint32Array;
  readonly timelineWeight: Float64Array;
}

const _q = new Float32Array(4);

/** True when the channel has no keys, one key, or every key equals the first (bitwise, as floats). */
function isConstant(ch: Channel, stride: number): boolean {
  const v = ch.values;
  const n = ch.times.length * stride;
  for (let i = stride; i < n; i++) if (v[i] !== v[i % stride]) return false;
  return true;
}

/** `restLocal` (optional): the skeleton's rest pose the cursor will sample over, to bake the constant channels into. */
export function createClipCursor(clip: Clip, restLocal: Float32Array | null = null): ClipCursor {
  const tracks = clip.tracks;
  const liveMask = new Uint8Array(tracks.length);
  const seen = new Set<number>();
  let shared = false;
  for (const t of tracks) {
    if (seen.has(t.node)) shared = true;
    seen.add(t.node);
  }
  const offsets: number[] = [];
  const values: number[] = [];
  const live: number[] = [];
  for (let i = 0; i < tracks.length; i++) {
    const { node, translation: tr, rotation: rot, scale: sc } = tracks[i];
    if (node < 0) continue;
    const o = node * TRS_STRIDE;
    let mask = 0;
    if (tr !== null && tr.times.length > 0) {
      if (!shared && isConstant(tr, 3)) for (let c = 0; c < 3; c++) offsets.push(o + c), values.push(tr.values[c]);
      else mask |= 1;
    }
    if (rot !== null && rot.times.length > 0) {
      if (!shared && isConstant(rot, 4)) {
        interpWeight[0] = 0;
        slerpShortestAt(rot.values, 0, rot.values, 0, _q, 0);
        for (let c = 0; c < 4; c++) offsets.push(o + 3 + c), values.push(_q[c]);
      } else mask |= 2;
    }
    if (sc !== null && sc.times.length > 0) {
      if (!shared && isConstant(sc, 3)) for (let c = 0; c < 3; c++) offsets.push(o + 7 + c), values.push(sc.values[c]);
      else mask |= 4;
    }
    liveMask[i] = mask;
    if (mask !== 0) live.push(i);
  }
  let base: Float32Array | null = null;
  if (restLocal !== null) {
    base = Float32Array.from(restLocal);
    for (let i = 0; i < offsets.length; i++) if (offsets[i] < base.length) base[offsets[i]] = values[i];
  }
  const kinds: number[] = [];
  const chanOffset: number[] = [];
  const chanNodeOffset: number[] = [];
  const chanSlot: number[] = [];
  const chanTimeline: number[] = [];
  const chanValues: Float32Array[] = [];
  const timelines: Float32Array[] = [];
  for (const i of live) {
    const track = tracks[i];
    const o = track.node * TRS_STRIDE;
    const channels = [track.translation, track.rotation, track.scale];
    for (let c = 0; c < 3; c++) {
      if ((liveMask[i] & (1 << c)) === 0) continue;
      const ch = channels[c]!;
      kinds.push(c);
      chanOffset.push(o + (c === 0 ? 0 : c === 1 ? 3 : 7));
      chanNodeOffset.push(o);
      chanSlot.push(i * 3 + c);
      chanTimeline.push(timelineOf(timelines, ch.times));
      chanValues.push(ch.values);
    }
  }
  return {
    clip,
    keys: new Uint32Array(tracks.length * 3),
    live: Uint32Array.from(live),
    liveMask,
    constOffsets: Int32Array.from(offsets),
    constValues: Float32Array.from(values),
    base,
    baseRest: base === null ? null : restLocal,
    chanKind: Uint8Array.from(kinds),
    chanOffset: Int32Array.from(chanOffset),
    chanNodeOffset: Int32Array.from(chanNodeOffset),
    chanSlot: Int32Array.from(chanSlot),
    chanTimeline: Int32Array.from(chanTimeline),
    chanValues,
    timelines,
    timelineKey: new Uint32Array(timelines.length),
    timelineWeight: new Float64Array(timelines.length),
  };
}

/** Index of `times` in `timelines` (the same object or equal content), appending it when new. */
function timelineOf(timelines: Float32Array[], times: Float32Array): number {
  search: for (let j = 0; j < timelines.length; j++) {
    const other = timelines[j];
    if (other === times) return j;
    if (other.length !== times.length) continue;
    for (let k = 0; k < times.length; k++) if (!(other[k] === times[k])) continue search;
    return j;
  }
  timelines.push(times);
  return timelines.length - 1;
}

/** Forgets the cached keys. Never changes results (the cache is only a hint); use it to start a replay cold. */
export function resetClipCursor(cursor: ClipCursor): void {
  cursor.keys.fill(0);
  cursor.timelineKey.fill(0);
}
