/**
 * Phase sync and the 1D blend space of the animation controller (beyond D3DX).
 *
 * Contract
 * - Sync groups: the tracks of one group share a normalised phase φ ∈ [0, 1); a member's time is φ · its clip
 *   duration. Per advance of dt controller seconds, φ += dt · Σ(wᵢ · speedᵢ / durᵢ) / Σwᵢ over the group's
 *   enabled members with wᵢ > 0 and a clip of positive duration; when that set is empty, the first member's
 *   speed / duration drives it. φ always wraps (a synced track loops whatever its loop flag). So blending
 *   Walk (1 s) and Jog (3 s) keeps both feet in step. Markers fire per member as in markers.ts, with the
 *   member's displacement Δφ · durᵢ.
 * - A track joining a group adopts the group's φ; the first member gives the group its own phase
 *   (time / duration). A position set on a member (setTrackPosition, a position event) sets the group's φ.
 * - Blend space: points (track, value) sorted by value; apply(v) sets the weights of the two points around
 *   v to (1 − a, a), a = (v − v₀) / (v₁ − v₀), and every other point's to 0; v outside the points clamps to
 *   the end point (weight 1). All points' tracks are put in one sync group by set().
 * - Doubles travel in typed-array slots; advance, seek and apply allocate nothing.
 */

import type { TrackTable } from './tracks.ts';
import { markerSpan, passMarkers, type MarkerSink, type MarkerTable } from './markers.ts';

export class SyncGroups {
  /** φ per group, in [0, 1). */
  readonly phase: Float64Array;
  /** [0] = the rate (φ per second) computed by rate(). */
  private readonly scratch = new Float64Array(1);

  constructor(
    private readonly tracks: TrackTable,
    readonly groupCount: number,
  ) {
    this.phase = new Float64Array(groupCount);
  }

  /** First track (lowest index) in group g other than `except`, or -1. */
  first(g: number, except = -1): number {
    const sync = this.tracks.sync;
    for (let t = 0; t < sync.length; t++) if (sync[t] === g && t !== except) return t;
    return -1;
  }

  /** Track t has just joined group g (tracks.sync[t] === g). */
  join(t: number): void {
    const tr = this.tracks;
    const g = tr.sync[t];
    if (this.first(g, t) >= 0) this.place(g);
    else this.setPhaseFrom(t);
  }

  /** Sets t's group φ from t's time, and places every member. */
  setPhaseFrom(t: number): void {
    const tr = this.tracks;
    const g = tr.sync[t];
    const c = tr.clip[t];
    const D = c < 0 ? 0 : tr.clips[c].duration;
    let p = D > 0 ? tr.time[t] / D : 0;
    p -= Math.floor(p);
    this.phase[g] = p >= 1 ? 0 : p;
    this.place(g);
  }

  /** Every member's time = φ · duration. */
  place(g: number): void {
    const tr = this.tracks;
    const p = this.phase[g];
    for (let t = 0; t < tr.count; t++) {
      if (tr.sync[t] !== g) continue;
      const c = tr.clip[t];
      tr.time[t] = c < 0 ? 0 : p * tr.clips[c].duration;
    }
  }

  /** Writes the group's φ rate (per second) to scratch[0]. */
  private rate(g: number): void {
    const tr = this.tracks;
    let sw = 0;
    let swr = 0;
    let firstRate = 0;
    let seenFirst = false;
    for (let t = 0; t < tr.count; t++) {
      if (tr.sync[t] !== g) continue;
      const c = tr.clip[t];
      const D = c < 0 ? 0 : tr.clips[c].duration;
      const r = D > 0 ? tr.speed[t] / D : 0;
      if (!seenFirst) {
        firstRate = r;
        seenFirst = true;
      }
      const w = tr.weight[t];
      if (tr.enabled[t] === 1 && w > 0 && D > 0) {
        sw += w;
        swr += w * r;
      }
    }
    this.scratch[0] = sw > 0 ? swr / sw : firstRate;
  }

  /**
   * Advances group g by state[dtSlot] controller seconds, firing markers of its enabled members with weight
   * > 0 through `sink` (in track order, each in the order passed).
   */
  advance(g: number, state: Float64Array, dtSlot: number, markers: MarkerTable, sink: MarkerSink): void {
    const tr = this.tracks;
    this.rate(g);
    const dp = state[dtSlot] * this.scratch[0];
    const p0 = this.phase[g];
    for (let t = 0; t < tr.count; t++) {
      if (tr.sync[t] !== g) continue;
      const c = tr.clip[t];
      if (c >= 0 && tr.enabled[t] === 1 && tr.weight[t] > 0) {
        const D = tr.clips[c].duration;
        markerSpan[0] = p0 * D;
        markerSpan[1] = dp * D;
        markerSpan[2] = D;
        passMarkers(markers.timesOf(c), 1, tr.inclusive[t], sink, t, c);
      }
      tr.inclusive[t] = 0;
    }
    let p = p0 + dp;
    if (!Number.isFinite(p)) p = 0;
    p -= Math.floor(p);
    this.phase[g] = p >= 1 ? 0 : p;
    this.place(g);
  }

  /** seek: φ = frac(φ_start + state[timeSlot] · rate), φ_start from the first member's start position. */
  seek(g: number, state: Float64Array, timeSlot: number): void {
    const tr = this.tracks;
    const f = this.first(g);
    if (f < 0) return;
    this.rate(g);
    const c = tr.clip[f];
    const D = c < 0 ? 0 : tr.clips[c].duration;
    let p = (D > 0 ? tr.startPos[f] / D : 0) + state[timeSlot] * this.scratch[0];
    if (!Number.isFinite(p)) p = 0;
    p -= Math.floor(p);
    this.phase[g] = p >= 1 ? 0 : p;
    this.place(g);
  }
}

export class BlendSpace {
  count = 0;
  group = -1;
  readonly track: Int32Array;
  readonly value: Float64Array;

  constructor(trackCount: number) {
    this.track = new Int32Array(trackCount);
    this.value = new Float64Array(trackCount);
  }

  /** Setup: stores the points sorted by value (allocation allowed). */
  set(points: readonly { track: number; value: number }[], group: number): void {
    if (points.length > this.track.length) throw new RangeError(`setBlendSpace: ${points.length} points, at most ${this.track.length}`);
    const sorted = [...points].sort((a, b) => a.value - b.value);
    this.count = sorted.length;
    this.group = group;
    sorted.forEach((p, i) => {
      this.track[i] = p.track;
      this.value[i] = p.value;
    });
  }

  /** Sets the point tracks' weights for the value in state[slot]. */
  apply(tracks: TrackTable, state: Float64Array, slot: number): void {
    const n = this.count;
    if (n === 0) return;
    const v = state[slot];
    const w = tracks.weight;
    for (let i = 0; i < n; i++) w[this.track[i]] = 0;
    if (!(v > this.value[0]) || n === 1) {
      w[this.track[0]] = 1;
      return;
    }
    if (v >= this.value[n - 1]) {
      w[this.track[n - 1]] = 1;
      return;
    }
    let i = 0;
    while (i < n - 2 && v >= this.value[i + 1]) i++;
    const v0 = this.value[i];
    const v1 = this.value[i + 1];
    const a = v1 > v0 ? (v - v0) / (v1 - v0) : 1;
    w[this.track[i]] = 1 - a;
    w[this.track[i + 1]] = a;
  }
}
