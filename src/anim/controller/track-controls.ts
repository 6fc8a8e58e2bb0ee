/**
 * TrackControls: AnimController's track table and the calls that edit it — the track setters and getters and
 * the event scheduling (keyTrack*, unkey*). AnimController (controller.ts) extends it with the clock, the
 * pose, markers and the blend space; callers use AnimController, whose contract (controller.ts) covers these
 * calls too.
 *
 * Contract
 * - Owns the TrackTable, the EventPool, the SyncGroups and `state` (a Float64Array; the slots below), sized
 *   in the constructor, and allocates `morphTrackWeights` (one per morph target; evaluate() writes it) and
 *   `morphDefaults` (each target's rest weight, options.morphDefaults or 0: the weight of a target no track
 *   drives and the value a partial morph blend starts from). Tracks (at least 4) start disabled, without a clip, weight 1, speed 1, time 0, low
 *   priority, mask -1 (whole skeleton), not additive, no sync group, looping.
 * - Every track index is checked (RangeError naming the call); non-finite weights and speeds become 0.
 * - Nothing allocates in the setters, getters or event scheduling; setTrackClip the first time a track gets a
 *   clip and setTrackAdditive (pose0Of / morph0Of) may.
 */

import type { Clip, Skeleton } from '../../model/types.ts';
import { TRS_STRIDE } from '../../model/types.ts';
import { EV_ENABLE, EV_POSITION, EV_PRIORITY_BLEND, EV_SPEED, EV_WEIGHT, EventPool, type EventHost } from './events.ts';
import { SyncGroups } from './sync.ts';
import { TrackTable } from './tracks.ts';

export type Priority = 'low' | 'high';

/** Sizes of an AnimController: track count, morph target count and the targets' rest weights. */
export interface ControllerOptions {
  tracks?: number;
  morphTargetCount?: number;
  /** Per morph target, its rest weight (Scene.morphDefaults); missing entries are 0. */
  morphDefaults?: ArrayLike<number>;
}
/** ease = ease-in-ease-out (smoothstep 3u² − 2u³). */
export type Transition = 'linear' | 'ease';

// Slots of the controller's `state`.
export const TIME = 0;
export const PRIORITY_BLEND = 1;
export const STEP = 2;
export const BLEND_VALUE = 3;

export class TrackControls implements EventHost {
  readonly skeleton: Skeleton;
  readonly clips: readonly Clip[];
  readonly nodeCount: number;
  readonly trackCount: number;
  readonly morphTrackWeights: Float32Array;
  /** Rest weight per morph target (Scene.morphDefaults; 0 where absent). Read-only for callers. */
  readonly morphDefaults: Float32Array;

  protected readonly tracks: TrackTable;
  protected readonly events: EventPool;
  protected readonly groups: SyncGroups;
  protected readonly state = new Float64Array(4);

  constructor(skeleton: Skeleton, clips: readonly Clip[], options: ControllerOptions) {
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
    this.morphTrackWeights = new Float32Array(targets);
    this.morphDefaults = new Float32Array(targets);
    const defaults = options.morphDefaults;
    if (defaults) {
      for (let i = 0; i < targets && i < defaults.length; i++) {
        const d = defaults[i]!;
        this.morphDefaults[i] = Number.isFinite(d) ? d : 0;
      }
    }
    this.tracks = new TrackTable(skeleton, clips, n, targets);
    this.state[PRIORITY_BLEND] = 1;
    this.events = new EventPool(this.tracks, this.state, TIME, PRIORITY_BLEND, this);
    this.groups = new SyncGroups(this.tracks, Math.max(16, n));
    for (let t = 0; t < n; t++) this.tracks.refreshContrib(t);
  }

  protected check(t: number, what: string): void {
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

  private prepareAdditive(clip: number): void {
    this.tracks.pose0Of(clip);
    if (this.morphTrackWeights.length > 0) this.tracks.morph0Of(clip);
  }
}
