/**
 * Track table of the animation controller: the per-track state as parallel typed arrays, plus the per-clip
 * lookup tables every track shares (which nodes and morph targets a clip animates, its pose at time 0).
 *
 * Contract
 * - Owns one slot per track (trackCount, fixed at construction) in each array below; the controller reads
 *   and writes them directly, the other controller jobs (events.ts, sync.ts, mixer.ts) receive the table.
 * - Times are clip seconds. placeTrackTime keeps a time inside [0, duration] exactly (t = duration is kept),
 *   wraps one outside into [0, duration) when the track loops, clamps it when it does not; a clip of
 *   duration 0 (or none) holds 0.
 * - `contrib` row t (nodeCount bytes at t · nodeCount) is 1 where track t may write the node: the node is in
 *   the track's mask subtree (mask -1: every node) and the track's clip has a Track for it. Rebuilt by
 *   refreshContrib whenever the clip or the mask changes; never per frame.
 * - Clip cursors are made per (track, clip) pair the first time a track is given that clip (setup-time
 *   allocation), so two tracks playing one clip keep separate key caches. The pose at clip time 0 (the
 *   reference of additive tracks) is sampled once per clip, on first use.
 * - Nothing here allocates after setup; nothing here imports WebGL.
 */

import type { Clip, Skeleton } from '../../model/types.ts';
import { TRS_STRIDE } from '../../model/types.ts';
import { createClipCursor, sampleClip, sampleClipAt, sampleTime, type ClipCursor } from '../sample-clip.ts';
import { sampleMorphTracksAt } from '../morph.ts';

const NO_MORPH_TRACKS: readonly never[] = [];

/** Places times[slot] into [0, duration] for a clip of `duration` seconds (see the file contract). */
export function placeTrackTime(times: Float64Array, slot: number, duration: number, loop: boolean): void {
  const t = times[slot];
  if (!(duration > 0) || !Number.isFinite(duration) || Number.isNaN(t)) {
    times[slot] = 0;
  } else if (t >= 0 && t <= duration) {
    // Inside: kept exactly.
  } else if (!loop) {
    times[slot] = t < 0 ? 0 : duration;
  } else if (!Number.isFinite(t)) {
    times[slot] = 0;
  } else {
    const r = t % duration;
    times[slot] = r < 0 ? r + duration : r;
  }
}

export class TrackTable {
  readonly count: number;
  readonly nodeCount: number;
  readonly targetCount: number;
  /** Clip index, -1 none. */
  readonly clip: Int32Array;
  readonly weight: Float64Array;
  readonly speed: Float64Array;
  /** Clip seconds. */
  readonly time: Float64Array;
  /** The position last set (setTrackPosition, a position event): seek(t) places the track at start + t · speed. */
  readonly startPos: Float64Array;
  readonly enabled: Uint8Array;
  /** 1 = high priority. */
  readonly high: Uint8Array;
  /** Mask root node, -1 = whole skeleton. */
  readonly mask: Int32Array;
  readonly additive: Uint8Array;
  /** Sync group, -1 none. */
  readonly sync: Int32Array;
  readonly loop: Uint8Array;
  /** 1: the next advance also fires markers at exactly the current time (the track was just placed there). */
  readonly inclusive: Uint8Array;
  /** Controller time from which the track moves in the advance in progress (a position event sets it). */
  readonly moveFrom: Float64Array;
  /** nodeCount bytes per track, see the file contract. */
  readonly contrib: Uint8Array;
  /** nodeCount bytes per track: the mask subtree alone. */
  private readonly maskRows: Uint8Array;
  /** Per track, the sampled local pose (TRS_STRIDE per node). */
  readonly sampled: readonly Float32Array[];
  /** Per track, the sampled morph-track weights (one per target). */
  readonly sampledMorph: readonly Float32Array[];

  /** Per clip: 1 where the clip has a Track for the node. */
  readonly clipNodes: readonly Uint8Array[];
  /** Per clip: 1 where the clip has a morph track for the target. */
  readonly clipTargets: readonly Uint8Array[];
  private readonly cursors: (ClipCursor | null)[];
  private readonly morphCursors: (Uint32Array | null)[];
  private readonly pose0: (Float32Array | null)[];
  private readonly morph0: (Float32Array | null)[];

  constructor(
    readonly skeleton: Skeleton,
    readonly clips: readonly Clip[],
    trackCount: number,
    targetCount: number,
  ) {
    const n = trackCount;
    const nodes = skeleton.parents.length;
    this.count = n;
    this.nodeCount = nodes;
    this.targetCount = targetCount;
    this.clip = new Int32Array(n).fill(-1);
    this.weight = new Float64Array(n).fill(1);
    this.speed = new Float64Array(n).fill(1);
    this.time = new Float64Array(n);
    this.startPos = new Float64Array(n);
    this.enabled = new Uint8Array(n);
    this.high = new Uint8Array(n);
    this.mask = new Int32Array(n).fill(-1);
    this.additive = new Uint8Array(n);
    this.sync = new Int32Array(n).fill(-1);
    this.loop = new Uint8Array(n).fill(1);
    this.inclusive = new Uint8Array(n);
    this.moveFrom = new Float64Array(n);
    this.contrib = new Uint8Array(n * nodes);
    this.maskRows = new Uint8Array(n * nodes).fill(1);
    this.sampled = Array.from({ length: n }, () => new Float32Array(nodes * TRS_STRIDE));
    this.sampledMorph = Array.from({ length: n }, () => new Float32Array(targetCount));
    this.clipNodes = clips.map((c) => {
      const row = new Uint8Array(nodes);
      for (const t of c.tracks) if (t.node >= 0 && t.node < nodes) row[t.node] = 1;
      return row;
    });
    this.clipTargets = clips.map((c) => {
      const row = new Uint8Array(targetCount);
      for (const m of c.morphTracks ?? NO_MORPH_TRACKS) if (m.target >= 0 && m.target < targetCount && m.times.length > 0) row[m.target] = 1;
      return row;
    });
    this.cursors = new Array<ClipCursor | null>(n * clips.length).fill(null);
    this.morphCursors = new Array<Uint32Array | null>(n * clips.length).fill(null);
    this.pose0 = new Array<Float32Array | null>(clips.length).fill(null);
    this.morph0 = new Array<Float32Array | null>(clips.length).fill(null);
  }

  /** Places time[t] into its clip's [0, duration] (placeTrackTime with the track's loop flag, inlined: no double crosses a call). */
  place(t: number): void {
    const c = this.clip[t];
    const times = this.time;
    const tt = times[t];
    const duration = c < 0 ? 0 : this.clips[c].duration;
    if (!(duration > 0) || !Number.isFinite(duration) || Number.isNaN(tt)) {
      times[t] = 0;
    } else if (tt >= 0 && tt <= duration) {
      // Inside: kept exactly.
    } else if (this.loop[t] === 0) {
      times[t] = tt < 0 ? 0 : duration;
    } else if (!Number.isFinite(tt)) {
      times[t] = 0;
    } else {
      const r = tt % duration;
      times[t] = r < 0 ? r + duration : r;
    }
  }

  /** Clip duration of track t in seconds (0 without a clip). */
  duration(t: number): number {
    const c = this.clip[t];
    return c < 0 ? 0 : this.clips[c].duration;
  }

  /** Makes the (track, clip) cursors when first needed (setup-time allocation). */
  prepare(t: number, c: number): void {
    const k = t * this.clips.length + c;
    if (this.cursors[k] === null) {
      this.cursors[k] = createClipCursor(this.clips[c], this.skeleton.restLocal);
      this.morphCursors[k] = new Uint32Array(this.clips[c].morphTracks?.length ?? 0);
    }
  }

  cursor(t: number): ClipCursor {
    return this.cursors[t * this.clips.length + this.clip[t]]!;
  }

  morphCursor(t: number): Uint32Array {
    return this.morphCursors[t * this.clips.length + this.clip[t]]!;
  }

  /** Samples track t's clip at time[t] into sampled[t] (and, with targets, sampledMorph[t]). */
  sample(t: number, morphs: boolean): void {
    const c = this.clip[t];
    const clip = this.clips[c];
    sampleTime[0] = this.time[t];
    sampleClipAt(clip, this.cursor(t), this.skeleton.restLocal, this.sampled[t]);
    if (morphs && this.targetCount > 0) {
      sampleTime[0] = this.time[t];
      sampleMorphTracksAt(clip.morphTracks ?? NO_MORPH_TRACKS, this.morphCursor(t), this.sampledMorph[t]);
    }
  }

  /** The pose of clip c at time 0 (the additive reference), sampled on first use. */
  pose0Of(c: number): Float32Array {
    let p = this.pose0[c];
    if (p === null) {
      p = new Float32Array(this.nodeCount * TRS_STRIDE);
      sampleClip(this.clips[c], 0, createClipCursor(this.clips[c]), this.skeleton.restLocal, p);
      this.pose0[c] = p;
    }
    return p;
  }

  /** Clip c's morph-track weights at time 0, sampled on first use. */
  morph0Of(c: number): Float32Array {
    let m = this.morph0[c];
    if (m === null) {
      m = new Float32Array(this.targetCount);
      sampleTime[0] = 0;
      const tracks = this.clips[c].morphTracks ?? NO_MORPH_TRACKS;
      sampleMorphTracksAt(tracks, new Uint32Array(tracks.length), m);
      this.morph0[c] = m;
    }
    return m;
  }

  /** Sets track t's mask subtree row: node m and every descendant (parents before children). */
  setMaskRow(t: number, m: number): void {
    const nodes = this.nodeCount;
    const row = this.maskRows;
    const o = t * nodes;
    if (m < 0) {
      row.fill(1, o, o + nodes);
      return;
    }
    row.fill(0, o, o + nodes);
    const parents = this.skeleton.parents;
    row[o + m] = 1;
    for (let n = m + 1; n < nodes; n++) {
      const p = parents[n];
      if (p >= m && row[o + p] === 1) row[o + n] = 1;
    }
  }

  /** Rebuilds contrib row t from the mask row and the clip's node table. */
  refreshContrib(t: number): void {
    const nodes = this.nodeCount;
    const o = t * nodes;
    const c = this.clip[t];
    if (c < 0) {
      this.contrib.fill(0, o, o + nodes);
      return;
    }
    const has = this.clipNodes[c];
    for (let n = 0; n < nodes; n++) this.contrib[o + n] = this.maskRows[o + n] & has[n];
  }
}
