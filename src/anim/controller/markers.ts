/**
 * Markers (D3DX callback keys) of the animation controller: per-clip named times, the rule that finds the
 * markers a track passes in one advance, and the ring of the last fired ones.
 *
 * Contract
 * - MarkerTable holds, per clip, the clip's own markers (Clip.markers) plus those added with add(), ascending
 *   by time (equal times: file markers first, then in the order added). add() allocates (setup time).
 * - passMarkers: a track at clip time a moving by the signed displacement d (clip seconds) in one advance,
 *   in a clip of duration D, fires every marker it passes exactly once per pass, in the order passed:
 *     forward (d > 0): (a, a + d] when a + d ≤ D or the track does not loop (then up to D);
 *                      looping past D: (a, D], then [0, D] for each whole loop, then [0, b] (b the wrapped end);
 *     backward (d < 0): [a + d, a) descending; looping below 0: [0, a), [0, D] per whole loop, then [b, D],
 *                      each descending.
 *   At most MAX_WHOLE_LOOPS whole loops fire per advance (a huge step would otherwise fire without bound).
 *   With `inclusive` (the track was just placed at a: setTrackPosition, seek, a new clip) the start a itself
 *   is included, so a marker at the start time fires on the first advance (also with d = 0).
 * - The span (a, d, D) is passed in `markerSpan` (Float64Array slots: V8 boxes double arguments of calls it
 *   does not inline); nothing here allocates. Fired markers go to a MarkerSink in the order passed.
 */

import type { Clip, ClipMarker } from '../../model/types.ts';

export const MAX_WHOLE_LOOPS = 8;
/** Slots of the last fired markers kept by FiredRing. */
export const FIRED_RING = 32;

/** [0] = a (clip seconds), [1] = d (signed clip seconds), [2] = D (duration). */
export const markerSpan = new Float64Array(3);
/** Scratch: [0] lo, [1] hi of the range fireRange visits. */
const range = new Float64Array(2);

export interface MarkerSink {
  fireMarker(track: number, clip: number, marker: number): void;
}

export class MarkerTable {
  private readonly lists: ClipMarker[][];
  private readonly times: Float64Array[];

  constructor(clips: readonly Clip[]) {
    this.lists = clips.map((c) => [...(c.markers ?? [])].sort((a, b) => a.time - b.time));
    this.times = this.lists.map((l) => Float64Array.from(l, (m) => m.time));
  }

  add(clip: number, time: number, name: string): void {
    const list = this.lists[clip];
    let i = list.length;
    while (i > 0 && list[i - 1].time > time) i--;
    list.splice(i, 0, { time, name });
    this.times[clip] = Float64Array.from(list, (m) => m.time);
  }

  count(clip: number): number {
    return clip < 0 || clip >= this.lists.length ? 0 : this.lists[clip].length;
  }

  marker(clip: number, i: number): ClipMarker {
    return this.lists[clip][i];
  }

  timesOf(clip: number): Float64Array {
    return this.times[clip];
  }
}

/**
 * Visits markers with range[0] (lo) ≤ or < time ≤ or < range[1] (hi), ascending or descending.
 * loOpen/hiOpen: 1 excludes that end.
 */
function fireRange(times: Float64Array, loOpen: number, hiOpen: number, descending: number, sink: MarkerSink, track: number, clip: number): void {
  const lo = range[0];
  const hi = range[1];
  const n = times.length;
  if (descending === 0) {
    for (let i = 0; i < n; i++) {
      const m = times[i];
      if (m < lo || (loOpen === 1 && m === lo)) continue;
      if (m > hi || (hiOpen === 1 && m === hi)) break;
      sink.fireMarker(track, clip, i);
    }
  } else {
    for (let i = n - 1; i >= 0; i--) {
      const m = times[i];
      if (m > hi || (hiOpen === 1 && m === hi)) continue;
      if (m < lo || (loOpen === 1 && m === lo)) break;
      sink.fireMarker(track, clip, i);
    }
  }
}

/** Fires the markers a track passes (span in markerSpan); see the file contract. */
export function passMarkers(times: Float64Array, loop: number, inclusive: number, sink: MarkerSink, track: number, clip: number): void {
  if (times.length === 0) return;
  const a = markerSpan[0];
  const d = markerSpan[1];
  const D = markerSpan[2] > 0 ? markerSpan[2] : 0;
  const open = inclusive === 1 ? 0 : 1;
  const end = a + d;
  if (d > 0 || (d === 0 && inclusive === 1)) {
    if (loop === 0 || D === 0 || end <= D) {
      range[0] = a;
      range[1] = end < D || loop === 1 ? end : D;
      fireRange(times, open, 0, 0, sink, track, clip);
      return;
    }
    range[0] = a;
    range[1] = D;
    fireRange(times, open, 0, 0, sink, track, clip);
    const k = Math.floor(end / D);
    const whole = k - 1 < MAX_WHOLE_LOOPS ? k - 1 : MAX_WHOLE_LOOPS;
    range[0] = 0;
    for (let i = 0; i < whole; i++) {
      range[1] = D;
      fireRange(times, 0, 0, 0, sink, track, clip);
    }
    range[1] = end - k * D;
    fireRange(times, 0, 0, 0, sink, track, clip);
    return;
  }
  if (d >= 0) return;
  if (loop === 0 || D === 0 || end >= 0) {
    range[0] = end > 0 || loop === 1 ? end : 0;
    range[1] = a;
    fireRange(times, 0, open, 1, sink, track, clip);
    return;
  }
  range[0] = 0;
  range[1] = a;
  fireRange(times, 0, open, 1, sink, track, clip);
  const loops = Math.ceil(-end / D);
  const whole = loops - 1 < MAX_WHOLE_LOOPS ? loops - 1 : MAX_WHOLE_LOOPS;
  for (let i = 0; i < whole; i++) {
    range[0] = 0;
    range[1] = D;
    fireRange(times, 0, 0, 1, sink, track, clip);
  }
  const r = end + loops * D;
  range[0] = r < D ? r : 0;
  range[1] = D;
  fireRange(times, 0, 0, 1, sink, track, clip);
}

/** The last FIRED_RING fired markers; k = 0 is the newest. */
export class FiredRing {
  total = 0;
  readonly track = new Int32Array(FIRED_RING);
  readonly clip = new Int32Array(FIRED_RING);
  readonly marker = new Int32Array(FIRED_RING);
  readonly at = new Float64Array(FIRED_RING);

  /** Records a firing at controller time clock[slot]. */
  push(track: number, clip: number, marker: number, clock: Float64Array, slot: number): void {
    const i = this.total % FIRED_RING;
    this.track[i] = track;
    this.clip[i] = clip;
    this.marker[i] = marker;
    this.at[i] = clock[slot];
    this.total++;
  }

  /** Ring index of the k-th newest, or -1 when k is out of range. */
  index(k: number): number {
    if (!(k >= 0) || k >= FIRED_RING || k >= this.total) return -1;
    return (this.total - 1 - k) % FIRED_RING;
  }
}
