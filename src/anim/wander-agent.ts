/**
 * WanderAgents: the agents of a wander crowd (wander.ts) — their records, their controllers and the state
 * machine that drives each one. Pure (no WebGL). Steering (wander-steer.ts) moves the agents; the crowd
 * (wander.ts, a subclass) steps them and writes their palettes.
 *
 * Contract
 * - Records: per agent AGENT_F doubles in `agent` (X, Z: position in standing model space; HEADING, radians,
 *   facing (sin h, cos h); GOAL_X, GOAL_Z; TIMER; SPEED), plus `state`, `gaitTrack`, `waves`. Shared doubles
 *   of the crowd live in `d` at the D_* slots (the area, the step's dt, steering scratch, the footstep window).
 *   Fields are read and written by wander-steer.ts and wander.ts only; callers outside use WanderCrowd's API.
 * - State machine per agent: LOITER for 2–6 s → MOVE (walk or jog) to a random goal → LOITER on arrival
 *   (or after a time limit). One agent in three that walks a long enough way waves for one cycle of the wave
 *   clip on the way. Without walk and jog clips (IN_PLACE) an agent cross-fades between the model's clips on
 *   tracks 0 and 1; without clips it holds the rest pose.
 * - Controllers: tracks 0 loiter, 1 walk, 2 jog (walk and jog in sync group 0 when their clips have as many
 *   footsteps, so a walk↔jog blend keeps the feet in step; loiter is not synced: it has no steps, and in the
 *   group its 13 s cycle would race during a fade), 3 wave (high priority, masked to the subtree the wave clip
 *   animates). State changes are keyTrackWeight events (smoothstep, FADE seconds) plus enable events at the
 *   ends of the fades; weights are never set directly after setup.
 * - Footsteps: footstep markers (footsteps.ts) added to the walk and jog clips of every controller; one counts
 *   (`footsteps`, `windowSteps`) when it fires on a track of weight ≥ 0.5.
 * - Random numbers: mulberry32 (as gen/random.ts) on `rng`, drawn in a fixed order, so a seed fixes the run.
 * - Allocation: the constructor and grow() allocate; think(), inPlace() and place() allocate nothing but the
 *   boxed doubles of the controller's keyTrack* calls on a state change (see wander.ts).
 */

import type { Scene } from '../model/types.ts';
import { AnimController } from './controller/controller.ts';
import { footstepMarkers, groundSpeed } from './footsteps.ts';
import { analyseWanderGait, type WanderGait } from './wander-gait.ts';

export const T_LOITER = 0;
export const T_WALK = 1;
export const T_JOG = 2;
export const T_WAVE = 3;
export const TRACKS = 4;

export const LOITER = 0;
export const MOVE = 1;
export const IN_PLACE = 2;

/** Weight fade of a state change, s. */
export const FADE = 0.4;
const WAVE_FADE = 0.3;

// Per-agent doubles, AGENT_F slots each.
export const X = 0;
export const Z = 1;
export const HEADING = 2;
export const GOAL_X = 3;
export const GOAL_Z = 4;
/** LOITER / IN_PLACE: seconds left; MOVE: seconds left before giving up. */
export const TIMER = 5;
export const SPEED = 6;
export const AGENT_F = 7;

// Shared double slots (this.d).
export const D_EXTENT = 0;
export const D_SPACING = 1;
export const D_FLOOR = 2;
export const D_RATE = 3;
export const D_WINDOW = 4;
export const D_TIME = 5;
export const D_DIR_X = 6;
export const D_DIR_Z = 7;
/** avoidance()'s inputs: the agent's place and facing. */
export const D_AX = 8;
export const D_AZ = 9;
export const D_FX = 10;
export const D_FZ = 11;
/** The step's dt (s). */
export const D_DT = 12;
const D_SLOTS = 13;

/** 2⁻²⁴: rand24() · U24 is uniform in [0, 1). */
const U24 = 1 / 16777216;

export class WanderAgents {
  readonly gait: WanderGait;
  /** Active agents. */
  count = 0;
  capacity = 0;
  controllers: AnimController[] = [];
  /** Footsteps fired since construction (or the last configure). */
  footsteps = 0;
  /** Per agent: LOITER, MOVE or IN_PLACE. */
  state: Uint8Array = new Uint8Array(0);
  /** Per agent: the moving gait's track (T_WALK / T_JOG), or in place the track holding the current clip. */
  gaitTrack: Uint8Array = new Uint8Array(0);
  /** Per agent: times it started a wave. */
  waves = new Uint32Array(0);
  /** Per-agent records, AGENT_F doubles each (internal to the wander files). */
  agent = new Float64Array(0);
  /** Shared double slots D_* (internal to the wander files). */
  readonly d = new Float64Array(D_SLOTS);
  /** mulberry32 state. */
  readonly rng = new Uint32Array(1);
  /** groundSpeed per track 0..2 (0 where absent), and duration per track 0..3. */
  readonly groundSpeed = new Float64Array(3);
  readonly duration = new Float64Array(TRACKS);
  /** Walk and jog share sync group 0. */
  readonly synced: boolean;
  /** The model has a walk or a jog clip (else the agents play their clips in place). */
  readonly locomotion: boolean;
  /** Footsteps counted since the footstep-rate window opened (wander.ts). */
  windowSteps = 0;
  /** One ClipMarker list per clip (footsteps on walk and jog). */
  private readonly markers: ReturnType<typeof footstepMarkers>[];

  constructor(
    readonly scene: Scene,
    seed: number,
  ) {
    const g = (this.gait = analyseWanderGait(scene));
    this.rng[0] = seed;
    this.markers = scene.clips.map((_, c) => (c === g.walk || c === g.jog ? footstepMarkers(scene, c) : []));
    this.locomotion = g.walk >= 0 || g.jog >= 0;
    const roles = [g.loiter, g.walk, g.jog, g.wave];
    for (let t = 0; t < TRACKS; t++) this.duration[t] = roles[t]! >= 0 ? scene.clips[roles[t]!]!.duration : 0;
    for (let t = 0; t < 3; t++) this.groundSpeed[t] = roles[t]! >= 0 && t !== T_LOITER ? groundSpeed(scene, roles[t]!) : 0;
    this.synced = g.walk >= 0 && g.jog >= 0 && this.markers[g.walk]!.length > 0 && this.markers[g.walk]!.length === this.markers[g.jog]!.length;
  }

  /** Grows the records and controllers to at least n agents (allocates); capacity is the new size. */
  protected grow(n: number): void {
    const cap = Math.max(n, Math.min(this.capacity * 2, 1 << 20));
    const old = this.controllers;
    const controllers = old.slice();
    for (let i = old.length; i < cap; i++) controllers.push(this.createController());
    this.controllers = controllers;
    const agent = new Float64Array(cap * AGENT_F);
    agent.set(this.agent);
    this.agent = agent;
    const grow8 = (a: Uint8Array): Uint8Array => {
      const b = new Uint8Array(cap);
      b.set(a);
      return b;
    };
    this.state = grow8(this.state);
    this.gaitTrack = grow8(this.gaitTrack);
    const waves = new Uint32Array(cap);
    waves.set(this.waves);
    this.waves = waves;
    this.capacity = cap;
  }

  /** One agent's controller: its tracks, sync group, wave mask and footstep markers (see the contract). */
  private createController(): AnimController {
    const g = this.gait;
    const clips = this.scene.clips;
    const c = new AnimController(this.scene.skeleton, clips, { tracks: TRACKS });
    for (let k = 0; k < clips.length; k++) for (const m of this.markers[k]!) c.addMarker(k, m.time, m.name);
    if (this.locomotion) {
      c.setTrackClip(T_LOITER, g.loiter);
      c.setTrackClip(T_WALK, g.walk);
      c.setTrackClip(T_JOG, g.jog);
      c.setTrackClip(T_WAVE, g.wave);
      if (this.synced) {
        c.setTrackSync(T_WALK, 0);
        c.setTrackSync(T_JOG, 0);
      }
      c.setTrackPriority(T_WAVE, 'high');
      c.setTrackMask(T_WAVE, g.waveMask);
    } else {
      c.setTrackClip(0, clips.length > 0 ? 0 : -1);
      c.setTrackClip(1, -1);
      c.setTrackClip(2, -1);
      c.setTrackClip(3, -1);
    }
    c.onMarker = (track: number): void => {
      if (c.trackWeight(track) >= 0.5) {
        this.footsteps++;
        this.windowSteps++;
      }
    };
    return c;
  }

  /** mulberry32 (gen/random.ts) on this.rng: 24 random bits as an integer (a small integer crosses calls unboxed; × U24 gives [0, 1)). */
  private rand24(): number {
    let a = (this.rng[0]! + 0x6d2b79f5) >>> 0;
    this.rng[0] = a;
    a = Math.imul(a ^ (a >>> 15), a | 1);
    a ^= a + Math.imul(a ^ (a >>> 7), a | 61);
    return (a ^ (a >>> 14)) >>> 8;
  }

  /** Every agent on a jittered grid over the area (d[D_EXTENT]), random heading, loitering with a random timer. */
  protected place(): void {
    const n = this.count;
    const d = this.d;
    const E = d[D_EXTENT]!;
    const cols = Math.ceil(Math.sqrt(n));
    const cell = (2 * E) / cols;
    const a = this.agent;
    for (let i = 0; i < n; i++) {
      const o = i * AGENT_F;
      a[o + X] = -E + cell * ((i % cols) + 0.3 + 0.4 * (this.rand24() * U24));
      a[o + Z] = -E + cell * (Math.floor(i / cols) + 0.3 + 0.4 * (this.rand24() * U24));
      a[o + HEADING] = ((this.rand24() * U24) * 2 - 1) * Math.PI;
      a[o + SPEED] = 0;
      this.waves[i] = 0;
      const c = this.controllers[i]!;
      c.seek(0);
      for (let t = 0; t < TRACKS; t++) {
        c.unkeyTrackEvents(t);
        c.setTrackEnable(t, false);
        c.setTrackWeight(t, 0);
      }
      if (this.locomotion) {
        const first = this.gait.loiter >= 0 ? T_LOITER : this.gait.walk >= 0 ? T_WALK : T_JOG;
        c.setTrackEnable(first, true);
        c.setTrackWeight(first, 1);
        c.setTrackPosition(first, (this.rand24() * U24) * this.duration[first]!);
        this.state[i] = LOITER;
        this.gaitTrack[i] = first;
        a[o + TIMER] = this.gait.loiter >= 0 ? 0.2 + 4 * (this.rand24() * U24) : 0;
      } else {
        this.state[i] = IN_PLACE;
        this.gaitTrack[i] = 0;
        const clips = this.scene.clips;
        if (clips.length > 0) {
          const k = Math.floor((this.rand24() * U24) * clips.length);
          c.setTrackClip(0, k);
          c.setTrackEnable(0, true);
          c.setTrackWeight(0, 1);
          c.setTrackPosition(0, (this.rand24() * U24) * clips[k]!.duration);
          a[o + TIMER] = this.inPlaceTime(k);
        }
      }
    }
  }

  private inPlaceTime(clip: number): number {
    const D = this.scene.clips[clip]!.duration;
    return Math.max(2, D * (1 + Math.floor((this.rand24() * U24) * 3)));
  }

  /** The state machine's transitions for agent i, d[D_DT] seconds on. */
  think(i: number): void {
    const dt = this.d[D_DT]!;
    const a = this.agent;
    const o = i * AGENT_F;
    a[o + TIMER] -= dt;
    if (this.state[i] === LOITER) {
      if (a[o + TIMER]! <= 0) this.startMove(i);
      return;
    }
    const dx = a[o + GOAL_X]! - a[o + X]!;
    const dz = a[o + GOAL_Z]! - a[o + Z]!;
    const arrive = 0.5 * this.d[D_SPACING]!;
    if (dx * dx + dz * dz < arrive * arrive || a[o + TIMER]! <= 0) {
      if (this.gait.loiter >= 0) this.startLoiter(i);
      else this.startMove(i);
    }
  }

  /** Fades track `to` in and every other locomotion track out, from the controller's now. */
  private fadeTo(c: AnimController, to: number): void {
    const now = c.time;
    for (let t = T_LOITER; t <= T_JOG; t++) {
      if (this.duration[t] === 0 && t !== to) continue;
      c.unkeyTrackEvents(t);
      if (t === to) {
        c.keyTrackEnable(t, true, now);
        c.keyTrackWeight(t, 1, now, FADE, 'ease');
      } else if (c.trackEnabled(t)) {
        c.keyTrackWeight(t, 0, now, FADE, 'ease');
        c.keyTrackEnable(t, false, now + FADE);
      }
    }
  }

  private startLoiter(i: number): void {
    const c = this.controllers[i]!;
    this.fadeTo(c, T_LOITER);
    this.state[i] = LOITER;
    this.gaitTrack[i] = T_LOITER;
    this.agent[i * AGENT_F + TIMER] = 2 + 4 * (this.rand24() * U24);
  }

  private startMove(i: number): void {
    const a = this.agent;
    const o = i * AGENT_F;
    const g = this.gait;
    const E = this.d[D_EXTENT]!;
    const s = this.d[D_SPACING]!;
    const margin = Math.min(0.5 * s, 0.5 * E);
    // A goal at least two spacings away where the area allows (a few tries, then the last one).
    let gx = 0, gz = 0;
    for (let k = 0; k < 4; k++) {
      gx = -E + margin + (2 * E - 2 * margin) * (this.rand24() * U24);
      gz = -E + margin + (2 * E - 2 * margin) * (this.rand24() * U24);
      const dx = gx - a[o + X]!, dz = gz - a[o + Z]!;
      if (dx * dx + dz * dz > 4 * s * s) break;
    }
    a[o + GOAL_X] = gx;
    a[o + GOAL_Z] = gz;
    const jog = g.jog >= 0 && (g.walk < 0 || (this.rand24() * U24) < 0.35);
    const track = jog ? T_JOG : T_WALK;
    const c = this.controllers[i]!;
    this.fadeTo(c, track);
    this.state[i] = MOVE;
    this.gaitTrack[i] = track;
    const ddx = gx - a[o + X]!, ddz = gz - a[o + Z]!;
    const dist = Math.sqrt(ddx * ddx + ddz * ddz);
    const v = Math.max(this.groundSpeed[track]!, 1e-6 * s);
    const walkTime = dist / v;
    a[o + TIMER] = 3 + 2.5 * walkTime;
    // Wave on the way: one cycle, when the walk is long enough to hold it.
    const W = this.duration[T_WAVE]!;
    if (g.wave >= 0 && (track === T_WALK || g.walk < 0) && walkTime > W + 1.5 && (this.rand24() * U24) < 0.35) {
      const start = c.time + 0.5 + (walkTime - W - 1.5) * (this.rand24() * U24);
      c.unkeyTrackEvents(T_WAVE);
      c.keyTrackPosition(T_WAVE, 0, start);
      c.keyTrackEnable(T_WAVE, true, start);
      c.keyTrackWeight(T_WAVE, 1, start, WAVE_FADE, 'ease');
      c.keyTrackWeight(T_WAVE, 0, start + W - WAVE_FADE - 0.05, WAVE_FADE, 'ease');
      c.keyTrackEnable(T_WAVE, false, start + W - 0.05);
      this.waves[i]++;
    }
  }

  /** In-place mode: cross-fades agent i to another clip when its timer runs out (d[D_DT] seconds on). */
  inPlace(i: number): void {
    const dt = this.d[D_DT]!;
    const a = this.agent;
    const o = i * AGENT_F;
    const clips = this.scene.clips;
    if (clips.length === 0) return;
    a[o + TIMER] -= dt;
    if (a[o + TIMER]! > 0) return;
    const c = this.controllers[i]!;
    const from = this.gaitTrack[i]!;
    const to = 1 - from;
    const k = Math.floor((this.rand24() * U24) * clips.length);
    const now = c.time;
    c.unkeyTrackEvents(from);
    c.unkeyTrackEvents(to);
    c.setTrackClip(to, k);
    c.keyTrackPosition(to, 0, now);
    c.keyTrackEnable(to, true, now);
    c.keyTrackWeight(to, 1, now, FADE, 'ease');
    c.keyTrackWeight(from, 0, now, FADE, 'ease');
    c.keyTrackEnable(from, false, now + FADE);
    this.gaitTrack[i] = to;
    a[o + TIMER] = this.inPlaceTime(k);
  }
}
