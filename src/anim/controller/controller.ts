/**
 * AnimController: D3DX's ID3DXAnimationController for one skeleton — a fixed set of tracks, each playing a
 * clip with its own weight, speed, time, priority, mask, additive flag, loop flag and sync group; a global
 * clock with scheduled events; clip markers (callback keys); phase sync and a 1D blend space.
 *
 * Contract
 * - Owns `locals` (TRS_STRIDE floats per node, parent space), `model` (16 floats per node, column-major,
 *   node → model space) and `morphTrackWeights` (one per morph target), sized in the constructor and valid
 *   after evaluate(); callers read them and must not write them (postProcess may rewrite locals and model).
 * - Tracks (default 8, at least 4) start disabled, without a clip, weight 1, speed 1, time 0, low priority,
 *   mask -1 (whole skeleton), not additive, no sync group, looping. Track time is in clip seconds: looping
 *   wraps into [0, duration), non-looping clamps to [0, duration]; speed may be negative.
 * - advance(dt): clock += dt (dt < 0 or NaN ignored); then the events the clock reached act (events.ts);
 *   then every track moves by (its move span) · speed — synced tracks by their group's phase (sync.ts) —
 *   firing the markers it passes when enabled with weight > 0 (markers.ts), in track order (a sync group at
 *   its first member). onMarker is called synchronously for each; the ring keeps the last 32.
 * - seek(t): clock = t; each track's time = its start position (the last setTrackPosition / position event)
 *   + t · speed, wrapped or clamped; sync groups: φ = φ(first member's start) + t · rate. Events stay in the
 *   pool as they are (those whose start ≤ t act at the next advance); no marker fires, but the next advance
 *   fires markers at exactly each track's new time.
 * - evaluate(): blend (pose-blender.ts, rules in mixer.ts) → locals → localToModel → postProcess. Fast path: exactly one non-additive
 *   track active, weight 1, mask -1 (and low priority, or priorityBlend 1) samples straight into `locals`,
 *   the cost of a single-clip player. Masked tracks do not drive morph weights.
 * - Nothing allocates in advance/advanceAt, seek, evaluate, writePalette, setBlendValue, the track setters or
 *   event scheduling; setup calls (setTrackClip the first time a track gets a clip, setTrackAdditive,
 *   addMarker, setBlendSpace) may. Doubles reach the jobs through typed-array slots (see sample-clip.ts).
 */

import type { Clip, ClipMarker, Skeleton, SkinnedMesh } from '../../model/types.ts';
import { TRS_STRIDE } from '../../model/types.ts';
import { localToModel } from '../local-to-model.ts';
import { buildPalette } from '../palette.ts';
import { FiredRing, MarkerTable, markerSpan, passMarkers, type MarkerSink } from './markers.ts';
import { PoseBlender } from './pose-blender.ts';
import { BlendSpace } from './sync.ts';
import { BLEND_VALUE, PRIORITY_BLEND, STEP, TIME, TrackControls, type ControllerOptions } from './track-controls.ts';

export type { ControllerOptions, Priority, Transition } from './track-controls.ts';

/** Runs at the end of evaluate(), after localToModel; may rewrite locals and model (look-at plugs in here). */
export interface PosePostProcess {
  apply(parents: Int16Array, locals: Float32Array, model: Float32Array): void;
}

/** [0] = the step advanceAt() takes, for callers that compute it per frame (no boxed double argument). */
export const controllerStep = new Float64Array(1);

/**
 * The track setters, getters and event scheduling (setTrack*, track*, keyTrack*, unkey*) are inherited from
 * TrackControls (track-controls.ts); this class adds the clock, the pose, markers and the blend space.
 */
export class AnimController extends TrackControls implements MarkerSink {
  readonly locals: Float32Array;
  readonly model: Float32Array;
  postProcess: PosePostProcess | null = null;
  /** [0] = the controller clock (read-only view), for per-frame callers: the `time` getter returns a double V8 may box. */
  readonly timeSlot: Float64Array;
  onMarker: ((track: number, clip: number, marker: number) => void) | null = null;

  private readonly markers: MarkerTable;
  private readonly fired = new FiredRing();
  private readonly space: BlendSpace;
  private readonly blender: PoseBlender;

  constructor(skeleton: Skeleton, clips: readonly Clip[], options: ControllerOptions = {}) {
    super(skeleton, clips, options);
    const nodes = this.nodeCount;
    this.locals = new Float32Array(nodes * TRS_STRIDE);
    this.model = new Float32Array(nodes * 16);
    this.blender = new PoseBlender(nodes, this.morphDefaults);
    this.timeSlot = this.state.subarray(TIME, TIME + 1);
    this.markers = new MarkerTable(clips);
    this.space = new BlendSpace(this.trackCount);
    this.evaluate();
  }

  /** Global controller clock, seconds. */
  get time(): number {
    return this.state[TIME];
  }

  /** 0..1: how much the high-priority group overrides the low one where it animates (default 1). */
  get priorityBlend(): number {
    return this.state[PRIORITY_BLEND];
  }

  set priorityBlend(v: number) {
    this.state[PRIORITY_BLEND] = v > 1 ? 1 : v > 0 ? v : 0;
  }

  // ---- clock ---------------------------------------------------------------------------------------------

  advance(dt: number): void {
    controllerStep[0] = dt;
    this.advanceAt();
  }

  /** advance(controllerStep[0]). */
  advanceAt(): void {
    const dt = controllerStep[0];
    if (!(dt >= 0) || !Number.isFinite(dt)) return;
    const st = this.state;
    const tr = this.tracks;
    const prev = st[TIME];
    st[TIME] = prev + dt;
    st[STEP] = dt;
    for (let t = 0; t < tr.count; t++) tr.moveFrom[t] = prev;
    this.events.process();
    const now = st[TIME];
    for (let t = 0; t < tr.count; t++) {
      const g = tr.sync[t];
      if (g >= 0) {
        if (this.groups.first(g) === t) this.groups.advance(g, st, STEP, this.markers, this);
        continue;
      }
      const c = tr.clip[t];
      if (c < 0) {
        tr.inclusive[t] = 0;
        continue;
      }
      const d = (now - tr.moveFrom[t]) * tr.speed[t];
      if (tr.enabled[t] === 1 && tr.weight[t] > 0) {
        markerSpan[0] = tr.time[t];
        markerSpan[1] = d;
        markerSpan[2] = this.clips[c].duration;
        passMarkers(this.markers.timesOf(c), tr.loop[t], tr.inclusive[t], this, t, c);
      }
      tr.time[t] += d;
      tr.place(t);
      tr.inclusive[t] = 0;
    }
  }

  seek(time: number): void {
    const st = this.state;
    const tr = this.tracks;
    st[TIME] = Number.isFinite(time) ? time : 0;
    const now = st[TIME];
    for (let t = 0; t < tr.count; t++) {
      tr.inclusive[t] = 1;
      const g = tr.sync[t];
      if (g >= 0) {
        if (this.groups.first(g) === t) this.groups.seek(g, st, TIME);
        continue;
      }
      tr.time[t] = tr.startPos[t] + now * tr.speed[t];
      tr.place(t);
    }
  }

  // ---- pose ----------------------------------------------------------------------------------------------

  evaluate(): void {
    this.blender.blend(this.tracks, this.state, PRIORITY_BLEND, this.locals, this.morphTrackWeights);
    localToModel(this.skeleton.parents, this.locals, this.model);
    if (this.postProcess !== null) this.postProcess.apply(this.skeleton.parents, this.locals, this.model);
  }

  /** Writes mesh's palette (model[bones[k]] · invBind[k], 16 floats per slot) at out[offsetFloats..]. */
  writePalette(mesh: SkinnedMesh, out: Float32Array, offsetFloats = 0): void {
    buildPalette(this.model, mesh.bones, mesh.invBind, out, offsetFloats);
  }

  // ---- markers -------------------------------------------------------------------------------------------

  /** Setup: adds a marker to clip (kept sorted by time). */
  addMarker(clip: number, time: number, name: string): void {
    if (!Number.isInteger(clip) || clip < 0 || clip >= this.clips.length) {
      throw new RangeError(`AnimController.addMarker: clip ${clip} out of range (${this.clips.length} clips)`);
    }
    if (!Number.isFinite(time)) throw new RangeError(`AnimController.addMarker: time ${time} is not finite`);
    this.markers.add(clip, time, name);
  }
  markerCount(clip: number): number {
    return this.markers.count(clip);
  }
  marker(clip: number, i: number): ClipMarker {
    return this.markers.marker(clip, i);
  }

  /** MarkerSink. */
  fireMarker(track: number, clip: number, marker: number): void {
    this.fired.push(track, clip, marker, this.state, TIME);
    if (this.onMarker !== null) this.onMarker(track, clip, marker);
  }

  /** Total markers fired so far (monotonic). */
  get firedCount(): number {
    return this.fired.total;
  }
  /** k = 0 newest .. min(31, firedCount − 1); -1 (NaN for firedAt) outside. */
  firedTrack(k: number): number {
    const i = this.fired.index(k);
    return i < 0 ? -1 : this.fired.track[i];
  }
  firedClip(k: number): number {
    const i = this.fired.index(k);
    return i < 0 ? -1 : this.fired.clip[i];
  }
  firedMarker(k: number): number {
    const i = this.fired.index(k);
    return i < 0 ? -1 : this.fired.marker[i];
  }
  /** Controller time of the k-th newest firing. */
  firedAt(k: number): number {
    const i = this.fired.index(k);
    return i < 0 ? NaN : this.fired.at[i];
  }

  // ---- blend space ---------------------------------------------------------------------------------------

  /** Setup: a 1D blend space over `points` (sorted by value), every point's track put in `syncGroup` (default 0). */
  setBlendSpace(points: readonly { track: number; value: number }[], syncGroup = 0): void {
    for (const p of points) {
      this.check(p.track, 'setBlendSpace');
      if (!Number.isFinite(p.value)) throw new RangeError(`AnimController.setBlendSpace: value ${p.value} is not finite`);
    }
    this.space.set(points, syncGroup);
    for (const p of points) this.setTrackSync(p.track, syncGroup);
    this.space.apply(this.tracks, this.state, BLEND_VALUE);
  }

  setBlendValue(v: number): void {
    this.state[BLEND_VALUE] = Number.isFinite(v) ? v : 0;
    this.space.apply(this.tracks, this.state, BLEND_VALUE);
  }

  get blendValue(): number {
    return this.state[BLEND_VALUE];
  }
}
