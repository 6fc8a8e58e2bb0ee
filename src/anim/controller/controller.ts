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
import { EV_ENABLE, EV_POSITION, EV_PRIORITY_BLEND, EV_SPEED, EV_WEIGHT, EventPool, type EventHost } from './events.ts';
import { FiredRing, MarkerTable, markerSpan, passMarkers, type MarkerSink } from './markers.ts';
import { PoseBlender } from './pose-blender.ts';
import { BlendSpace, SyncGroups } from './sync.ts';
import { TrackTable } from './tracks.ts';

export type Priority = 'low' | 'high';
/** ease = ease-in-ease-out (smoothstep 3u² − 2u³). */
export type Transition = 'linear' | 'ease';

/** Runs at the end of evaluate(), after localToModel; may rewrite locals and model (look-at plugs in here). */
export interface PosePostProcess {
  apply(parents: Int16Array, locals: Float32Array, model: Float32Array): void;
}

/** [0] = the step advanceAt() takes, for callers that compute it per frame (no boxed double argument). */
export const controllerStep = new Float64Array(1);

// Slots of AnimController.state.
const TIME = 0;
const PRIORITY_BLEND = 1;
const STEP = 2;
const BLEND_VALUE = 3;

export class AnimController implements EventHost, MarkerSink {
  readonly skeleton: Skeleton;
  readonly clips: readonly Clip[];
  readonly nodeCount: number;
  readonly trackCount: number;
  readonly locals: Float32Array;
  readonly model: Float32Array;
  readonly morphTrackWeights: Float32Array;
  postProcess: PosePostProcess | null = null;
  /** [0] = the controller clock (read-only view), for per-frame callers: the `time` getter returns a double V8 may box. */
  readonly timeSlot: Float64Array;
  onMarker: ((track: number, clip: number, marker: number) => void) | null = null;

  private readonly tracks: TrackTable;
  private readonly events: EventPool;
  private readonly markers: MarkerTable;
  private readonly fired = new FiredRing();
  private readonly groups: SyncGroups;
  private readonly space: BlendSpace;
  private readonly state = new Float64Array(4);
  private readonly blender: PoseBlender;

  constructor(skeleton: Skeleton, clips: readonly Clip[], options: { tracks?: number; morphTargetCount?: number } = {}) {
    const nodes = skeleton.parents.length;
    if (skeleton.restLocal.length !== nodes * TRS_STRIDE) {
      throw new Error(`AnimController: restLocal has ${skeleton.restLocal.length} floats, expected ${nodes * TRS_STRIDE}`);
    }
    const n = Math.max(4, Math.floor(options.tracks ?? 8) || 8);
    const targets = Math.max(0, (options.morphTargetCount ?? 0) | 0);
    this.skeleton = skeleton;
    this.clips = clips;
    this.nodeCount = nodes;
    this.trackCount = n;
    this.locals = new Float32Array(nodes * TRS_STRIDE);
    this.model = new Float32Array(nodes * 16);
    this.morphTrackWeights = new Float32Array(targets);
    this.blender = new PoseBlender(nodes, targets);
    this.tracks = new TrackTable(skeleton, clips, n, targets);
    this.state[PRIORITY_BLEND] = 1;
    this.timeSlot = this.state.subarray(TIME, TIME + 1);
    this.events = new EventPool(this.tracks, this.state, TIME, PRIORITY_BLEND, this);
    this.markers = new MarkerTable(clips);
    this.groups = new SyncGroups(this.tracks, Math.max(16, n));
    this.space = new BlendSpace(n);
    for (let t = 0; t < n; t++) this.tracks.refreshContrib(t);
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

  private check(t: number, what: string): void {
    if (!Number.isInteger(t) || t < 0 || t >= this.trackCount) {
      throw new RangeError(`AnimController.${what}: track ${t} out of range (${this.trackCount} tracks)`);
    }
  }

  // ---- track setters -------------------------------------------------------------------------------------

  /** Gives track t clip c (-1: none). The time is kept (placed in the new clip); markers at it fire next advance. */
  setTrackClip(t: number, clip: number): void {
    this.check(t, 'setTrackClip');
    if (clip !== -1 && (!Number.isInteger(clip) || clip < 0 || clip >= this.clips.length)) {
      throw new RangeError(`AnimController.setTrackClip: clip ${clip} out of range (${this.clips.length} clips)`);
    }
    const tr = this.tracks;
    tr.clip[t] = clip;
    if (clip >= 0) {
      tr.prepare(t, clip);
      if (tr.additive[t] === 1) this.prepareAdditive(clip);
    }
    tr.place(t);
    tr.inclusive[t] = 1;
    tr.refreshContrib(t);
    if (tr.sync[t] >= 0) this.groups.join(t);
  }

  setTrackWeight(t: number, weight: number): void {
    this.check(t, 'setTrackWeight');
    this.tracks.weight[t] = Number.isFinite(weight) ? weight : 0;
  }

  setTrackSpeed(t: number, speed: number): void {
    this.check(t, 'setTrackSpeed');
    this.tracks.speed[t] = Number.isFinite(speed) ? speed : 0;
  }

  /** Places track t at `seconds` (wrapped or clamped); it becomes the start position seek() measures from. */
  setTrackPosition(t: number, seconds: number): void {
    this.check(t, 'setTrackPosition');
    this.positionEvent(t, seconds);
  }

  setTrackEnable(t: number, on: boolean): void {
    this.check(t, 'setTrackEnable');
    this.tracks.enabled[t] = on ? 1 : 0;
  }

  setTrackPriority(t: number, p: Priority): void {
    this.check(t, 'setTrackPriority');
    if (p !== 'low' && p !== 'high') throw new RangeError(`AnimController.setTrackPriority: "${String(p)}" is not low or high`);
    this.tracks.high[t] = p === 'high' ? 1 : 0;
  }

  /** -1: whole skeleton; else node's subtree only. */
  setTrackMask(t: number, node: number): void {
    this.check(t, 'setTrackMask');
    if (node !== -1 && (!Number.isInteger(node) || node < 0 || node >= this.nodeCount)) {
      throw new RangeError(`AnimController.setTrackMask: node ${node} out of range (${this.nodeCount} nodes)`);
    }
    this.tracks.mask[t] = node;
    this.tracks.setMaskRow(t, node);
    this.tracks.refreshContrib(t);
  }

  setTrackAdditive(t: number, on: boolean): void {
    this.check(t, 'setTrackAdditive');
    this.tracks.additive[t] = on ? 1 : 0;
    if (on && this.tracks.clip[t] >= 0) this.prepareAdditive(this.tracks.clip[t]);
  }

  /** -1: none; else group 0..groupCount-1 (at least 16). The track adopts the group's phase. */
  setTrackSync(t: number, group: number): void {
    this.check(t, 'setTrackSync');
    if (group !== -1 && (!Number.isInteger(group) || group < 0 || group >= this.groups.groupCount)) {
      throw new RangeError(`AnimController.setTrackSync: group ${group} out of range (-1, 0..${this.groups.groupCount - 1})`);
    }
    this.tracks.sync[t] = group;
    if (group >= 0) this.groups.join(t);
  }

  setTrackLoop(t: number, on: boolean): void {
    this.check(t, 'setTrackLoop');
    this.tracks.loop[t] = on ? 1 : 0;
  }

  // ---- track getters -------------------------------------------------------------------------------------

  trackClip(t: number): number {
    return this.tracks.clip[t];
  }
  trackWeight(t: number): number {
    return this.tracks.weight[t];
  }
  trackSpeed(t: number): number {
    return this.tracks.speed[t];
  }
  trackTime(t: number): number {
    return this.tracks.time[t];
  }
  trackEnabled(t: number): boolean {
    return this.tracks.enabled[t] === 1;
  }
  trackPriority(t: number): Priority {
    return this.tracks.high[t] === 1 ? 'high' : 'low';
  }
  trackMask(t: number): number {
    return this.tracks.mask[t];
  }
  trackAdditive(t: number): boolean {
    return this.tracks.additive[t] === 1;
  }
  trackSync(t: number): number {
    return this.tracks.sync[t];
  }
  trackLoop(t: number): boolean {
    return this.tracks.loop[t] === 1;
  }
  trackDuration(t: number): number {
    return this.tracks.duration(t);
  }

  // ---- events --------------------------------------------------------------------------------------------

  keyTrackSpeed(t: number, speed: number, start: number, duration: number, transition: Transition): void {
    this.check(t, 'keyTrackSpeed');
    this.events.schedule(EV_SPEED, t, speed, start, duration, transition === 'ease');
  }
  keyTrackWeight(t: number, weight: number, start: number, duration: number, transition: Transition): void {
    this.check(t, 'keyTrackWeight');
    this.events.schedule(EV_WEIGHT, t, weight, start, duration, transition === 'ease');
  }
  keyTrackPosition(t: number, position: number, start: number): void {
    this.check(t, 'keyTrackPosition');
    this.events.schedule(EV_POSITION, t, position, start, 0, false);
  }
  keyTrackEnable(t: number, on: boolean, start: number): void {
    this.check(t, 'keyTrackEnable');
    this.events.schedule(EV_ENABLE, t, on ? 1 : 0, start, 0, false);
  }
  keyPriorityBlend(blend: number, start: number, duration: number, transition: Transition): void {
    this.events.schedule(EV_PRIORITY_BLEND, -1, blend > 1 ? 1 : blend > 0 ? blend : 0, start, duration, transition === 'ease');
  }
  unkeyTrackEvents(t: number): void {
    this.check(t, 'unkeyTrackEvents');
    this.events.unkeyTrack(t);
  }
  unkeyAllEvents(): void {
    this.events.clear();
  }
  get pendingEvents(): number {
    return this.events.count;
  }

  /** EventHost: a position event (or setTrackPosition) puts track t at `seconds`, or at tracks.time[t]. */
  positionEvent(t: number, seconds?: number): void {
    const tr = this.tracks;
    if (seconds !== undefined) tr.time[t] = seconds;
    tr.place(t);
    tr.startPos[t] = tr.time[t];
    tr.inclusive[t] = 1;
    if (tr.sync[t] >= 0) this.groups.setPhaseFrom(t);
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

  private prepareAdditive(clip: number): void {
    this.tracks.pose0Of(clip);
    if (this.morphTrackWeights.length > 0) this.tracks.morph0Of(clip);
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
