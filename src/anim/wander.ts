/**
 * WanderCrowd: N agents of one model walking about a square of floor, each with its own AnimController.
 * Pure (no WebGL); the page, the tests and the benchmark run this code.
 *
 * Contract
 * - Agents: position (x, z) in standing model space (wander-gait.ts: the model turned onto +y), inside the
 *   square [−E, E]² with E = wanderHalfExtent(count, spacing); heading h (radians; the agent faces
 *   (sin h, cos h)). State machine per agent: LOITER for 2–6 s → MOVE (walk or jog) to a random goal,
 *   turning at most TURN_RATE rad/s → LOITER on arrival (or after a time limit). One agent in three that
 *   walks a long enough way waves for one cycle of the wave clip on the way.
 * - Tracks of every controller: 0 loiter, 1 walk, 2 jog (walk and jog in sync group 0 when their clips have
 *   as many footsteps, so a walk↔jog blend keeps the feet in step; loiter is not synced: it has no steps, and
 *   in the group its 13 s cycle would race during a fade), 3 wave (high priority, masked to the subtree the
 *   wave clip animates). State changes are keyTrackWeight events (smoothstep, FADE seconds) plus enable
 *   events at the ends of the fades; weights are never set directly after setup.
 * - Travel speed = Σ wᵢ · groundSpeedᵢ · rateᵢ / Σ wᵢ over the enabled loiter, walk and jog tracks (the
 *   normalised blend the controller applies to the legs; rateᵢ the track's clip-time rate, from the sync
 *   rule), so the feet do not slide. Position += speed · dt along the heading.
 * - Avoidance: a uniform grid of cells `spacing` wide, rebuilt per step; an agent steers away from agents
 *   within one spacing (a sideways push for one ahead, so two facing agents pass) and from the area's edges;
 *   overlapping agents (closer than half a spacing) are pushed apart; positions are clamped to the area.
 * - Footsteps: footstep markers (footsteps.ts) added to the walk and jog clips of every controller; one
 *   counts when it fires on a track of weight ≥ 0.5. `footsteps` counts them all, `footstepRate` per second
 *   over the last whole second of wander time.
 * - Without walk and jog clips agents stay on a jittered grid and cross-fade between the model's clips
 *   in place (tracks 0 and 1); without clips they hold the rest pose.
 * - Deterministic for a seed (mulberry32, as gen/random.ts, kept in a typed array).
 * - Allocation: buffers and controllers in the constructor and configure() (when N outgrows the
 *   capacity). A step without a state change and writePalettes() allocate nothing (doubles cross calls in
 *   typed-array slots; no Math.hypot, whose arguments V8 boxes). A state change hands clock times to the
 *   controller's keyTrack* calls as double arguments, which V8 boxes: about 100 bytes per change, a few
 *   changes per agent per 10 s (wander.test.ts bounds it per agent and step).
 */

import type { Scene, SkinnedMesh } from '../model/types.ts';
import { AnimController, controllerStep } from './controller/controller.ts';
import { footstepMarkers, groundSpeed } from './footsteps.ts';
import { analyseWanderGait, wanderHalfExtent, type WanderGait } from './wander-gait.ts';

export const T_LOITER = 0;
export const T_WALK = 1;
export const T_JOG = 2;
export const T_WAVE = 3;
const TRACKS = 4;

const LOITER = 0;
const MOVE = 1;
const IN_PLACE = 2;

/** Weight fade of a state change, s. */
export const FADE = 0.4;
const WAVE_FADE = 0.3;
/** Largest turn rate while moving, rad/s. */
export const TURN_RATE = 2.4;

// Per-agent doubles, AGENT_F slots each.
const X = 0;
const Z = 1;
const HEADING = 2;
const GOAL_X = 3;
const GOAL_Z = 4;
/** LOITER / IN_PLACE: seconds left; MOVE: seconds left before giving up. */
const TIMER = 5;
const SPEED = 6;
const AGENT_F = 7;

// Shared double slots (this.d).
const D_EXTENT = 0;
const D_SPACING = 1;
const D_FLOOR = 2;
const D_RATE = 3;
const D_WINDOW = 4;
const D_TIME = 5;
const D_DIR_X = 6;
const D_DIR_Z = 7;
/** avoidance()'s inputs: the agent's place and facing. */
const D_AX = 8;
const D_AZ = 9;
const D_FX = 10;
const D_FZ = 11;
/** The step's dt (s). */
const D_DT = 12;
const D_SLOTS = 13;

/** 2⁻²⁴: rand24() · U24 is uniform in [0, 1). */
const U24 = 1 / 16777216;

/** The subset of a pose source the bind-pose toggle passes (techniques' PoseSource). */
export interface WanderPoseSource {
  writePalette(mesh: SkinnedMesh, out: Float32Array, offsetFloats?: number): void;
}

export interface WanderOptions {
  /** Agents to place at once (default 1); configure() changes it. */
  count?: number;
  /** Agent spacing, model units (default: the gait's, from the joints). */
  spacing?: number;
  /** Floor height a model turned upright stands on (default 0). */
  floorY?: number;
  seed?: number;
}

export class WanderCrowd {
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
  private agent = new Float64Array(0);
  private next = new Int32Array(0);
  private cellHead = new Int32Array(0);
  private cells = 1;
  private readonly d = new Float64Array(D_SLOTS);
  /** mulberry32 state. */
  private readonly rng = new Uint32Array(1);
  /** groundSpeed per track 0..2 (0 where absent), and duration per track 0..3. */
  private readonly groundSpeed = new Float64Array(3);
  private readonly duration = new Float64Array(TRACKS);
  private readonly synced: boolean;
  private readonly locomotion: boolean;
  private windowSteps = 0;
  /** One ClipMarker list per clip (footsteps on walk and jog). */
  private readonly markers: ReturnType<typeof footstepMarkers>[];

  constructor(
    readonly scene: Scene,
    options: WanderOptions = {},
  ) {
    const g = (this.gait = analyseWanderGait(scene));
    this.rng[0] = options.seed ?? 1;
    this.markers = scene.clips.map((_, c) => (c === g.walk || c === g.jog ? footstepMarkers(scene, c) : []));
    this.locomotion = g.walk >= 0 || g.jog >= 0;
    const roles = [g.loiter, g.walk, g.jog, g.wave];
    for (let t = 0; t < TRACKS; t++) this.duration[t] = roles[t]! >= 0 ? scene.clips[roles[t]!]!.duration : 0;
    for (let t = 0; t < 3; t++) this.groundSpeed[t] = roles[t]! >= 0 && t !== T_LOITER ? groundSpeed(scene, roles[t]!) : 0;
    this.synced = g.walk >= 0 && g.jog >= 0 && this.markers[g.walk]!.length > 0 && this.markers[g.walk]!.length === this.markers[g.jog]!.length;
    this.configure(options.count ?? 1, options.spacing ?? g.spacing, options.floorY ?? 0);
  }

  /** Half the side of the square the agents wander in (model units). */
  get extent(): number {
    return this.d[D_EXTENT]!;
  }

  /** Footsteps per second over the last whole second of wander time. */
  get footstepRate(): number {
    return this.d[D_RATE]!;
  }

  /** Seconds of wander time stepped since the last configure. */
  get time(): number {
    return this.d[D_TIME]!;
  }

  agentX(i: number): number {
    return this.agent[i * AGENT_F + X]!;
  }
  agentZ(i: number): number {
    return this.agent[i * AGENT_F + Z]!;
  }
  agentHeading(i: number): number {
    return this.agent[i * AGENT_F + HEADING]!;
  }
  /** Travel speed of the last step (model units per second). */
  agentSpeed(i: number): number {
    return this.agent[i * AGENT_F + SPEED]!;
  }

  /**
   * Places `count` agents afresh (deterministic for the seed) in the area for `spacing`. Grows the buffers
   * and controllers when count exceeds the capacity (allocates); otherwise reuses them. Not per frame.
   */
  configure(count: number, spacing: number, floorY = this.d[D_FLOOR]!): void {
    const n = Math.max(1, Math.floor(count));
    if (n > this.capacity) this.grow(n);
    this.count = n;
    const d = this.d;
    d[D_SPACING] = spacing > 0 ? spacing : this.gait.spacing;
    d[D_FLOOR] = floorY;
    d[D_EXTENT] = wanderHalfExtent(n, d[D_SPACING]!);
    d[D_RATE] = 0;
    d[D_WINDOW] = 0;
    d[D_TIME] = 0;
    this.windowSteps = 0;
    this.footsteps = 0;
    const side = Math.max(1, Math.ceil((2 * d[D_EXTENT]!) / d[D_SPACING]!));
    if (side * side > this.cellHead.length) this.cellHead = new Int32Array(side * side);
    this.cells = side;
    this.place();
  }

  private grow(n: number): void {
    const cap = Math.max(n, Math.min(this.capacity * 2, 1 << 20));
    const old = this.controllers;
    const g = this.gait;
    const clips = this.scene.clips;
    const controllers = old.slice();
    for (let i = old.length; i < cap; i++) {
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
      controllers.push(c);
    }
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
    this.next = new Int32Array(cap);
    this.capacity = cap;
  }

  /** mulberry32 (gen/random.ts) on this.rng: 24 random bits as an integer (a small integer crosses calls unboxed; × U24 gives [0, 1)). */
  private rand24(): number {
    let a = (this.rng[0]! + 0x6d2b79f5) >>> 0;
    this.rng[0] = a;
    a = Math.imul(a ^ (a >>> 15), a | 1);
    a ^= a + Math.imul(a ^ (a >>> 7), a | 61);
    return (a ^ (a >>> 14)) >>> 8;
  }

  /** Every agent on a jittered grid over the area, random heading, loitering with a random timer. */
  private place(): void {
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

  /** Advances every agent by dt seconds (≥ 0). No allocation. */
  step(dt: number): void {
    const d = this.d;
    const n = this.count;
    d[D_DT] = dt;
    if (this.locomotion) {
      this.buildGrid();
      for (let i = 0; i < n; i++) this.think(i);
      for (let i = 0; i < n; i++) this.steer(i);
    } else {
      for (let i = 0; i < n; i++) this.inPlace(i);
    }
    controllerStep[0] = dt;
    for (let i = 0; i < n; i++) this.controllers[i]!.advanceAt();
    d[D_TIME] += dt;
    d[D_WINDOW] += dt;
    if (d[D_WINDOW]! >= 1) {
      d[D_RATE] = this.windowSteps / d[D_WINDOW]!;
      d[D_WINDOW] = 0;
      this.windowSteps = 0;
    }
  }

  /** Evaluates every controller's pose (model matrices); writePalettes reads them. */
  evaluate(): void {
    for (let i = 0; i < this.count; i++) this.controllers[i]!.evaluate();
  }

  /** The state machine's transitions for agent i. */
  private think(i: number): void {
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

  /** In-place mode: cross-fades agent i to another clip when its timer runs out. */
  private inPlace(i: number): void {
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

  /** Travel speed of agent i from its controller's weights (see the contract), into d[D_DIR_X]. */
  private travelSpeed(c: AnimController): void {
    const gs = this.groundSpeed;
    const dur = this.duration;
    let sw = 0;
    let wl = 0, ww = 0, wj = 0;
    if (dur[T_LOITER]! > 0 && c.trackEnabled(T_LOITER)) wl = c.trackWeight(T_LOITER);
    if (dur[T_WALK]! > 0 && c.trackEnabled(T_WALK)) ww = c.trackWeight(T_WALK);
    if (dur[T_JOG]! > 0 && c.trackEnabled(T_JOG)) wj = c.trackWeight(T_JOG);
    sw = wl + ww + wj;
    let rw = 1, rj = 1;
    if (this.synced && ww + wj > 0) {
      const phi = (ww / dur[T_WALK]! + wj / dur[T_JOG]!) / (ww + wj);
      rw = phi * dur[T_WALK]!;
      rj = phi * dur[T_JOG]!;
    }
    this.d[D_DIR_X] = sw > 0 ? (ww * gs[T_WALK]! * rw + wj * gs[T_JOG]! * rj) / sw : 0;
  }

  /** Turns agent i towards its goal (avoiding others and the edges) and moves it at its travel speed. */
  private steer(i: number): void {
    const dt = this.d[D_DT]!;
    const a = this.agent;
    const o = i * AGENT_F;
    const c = this.controllers[i]!;
    this.travelSpeed(c);
    const v = this.d[D_DIR_X]!;
    a[o + SPEED] = v;
    const s = this.d[D_SPACING]!;
    const E = this.d[D_EXTENT]!;
    const x = a[o + X]!;
    const z = a[o + Z]!;
    let h = a[o + HEADING]!;
    if (this.state[i] === MOVE || v > 0) {
      let dx = a[o + GOAL_X]! - x;
      let dz = a[o + GOAL_Z]! - z;
      const len = Math.sqrt(dx * dx + dz * dz);
      if (len > 1e-9) {
        dx /= len;
        dz /= len;
      }
      const d = this.d;
      d[D_AX] = x;
      d[D_AZ] = z;
      d[D_FX] = Math.sin(h);
      d[D_FZ] = Math.cos(h);
      this.avoidance(i);
      dx += this.d[D_DIR_X]!;
      dz += this.d[D_DIR_Z]!;
      // Edges: steer back in within a spacing of them.
      if (x > E - s) dx -= (x - (E - s)) / s;
      if (x < -E + s) dx += (-E + s - x) / s;
      if (z > E - s) dz -= (z - (E - s)) / s;
      if (z < -E + s) dz += (-E + s - z) / s;
      if (this.state[i] === MOVE && (dx !== 0 || dz !== 0)) {
        let turn = Math.atan2(dx, dz) - h;
        if (turn > Math.PI) turn -= 2 * Math.PI;
        else if (turn < -Math.PI) turn += 2 * Math.PI;
        const max = TURN_RATE * dt;
        h += turn > max ? max : turn < -max ? -max : turn;
        if (h > Math.PI) h -= 2 * Math.PI;
        else if (h < -Math.PI) h += 2 * Math.PI;
        a[o + HEADING] = h;
      }
    }
    let nx = x + Math.sin(h) * v * dt;
    let nz = z + Math.cos(h) * v * dt;
    nx = nx > E ? E : nx < -E ? -E : nx;
    nz = nz > E ? E : nz < -E ? -E : nz;
    a[o + X] = nx;
    a[o + Z] = nz;
  }

  /**
   * Steering of agent i at (d[D_AX], d[D_AZ]) facing (d[D_FX], d[D_FZ]) away from agents within a spacing,
   * into d[D_DIR_X], d[D_DIR_Z]; pushes apart agents closer than half a spacing.
   */
  private avoidance(i: number): void {
    const a = this.agent;
    const x = this.d[D_AX]!;
    const z = this.d[D_AZ]!;
    const fx = this.d[D_FX]!;
    const fz = this.d[D_FZ]!;
    const s = this.d[D_SPACING]!;
    const E = this.d[D_EXTENT]!;
    const side = this.cells;
    const cx = Math.min(side - 1, Math.max(0, Math.floor((x + E) / s)));
    const cz = Math.min(side - 1, Math.max(0, Math.floor((z + E) / s)));
    let ax = 0, az = 0;
    for (let gz = Math.max(0, cz - 1); gz <= Math.min(side - 1, cz + 1); gz++) {
      for (let gx = Math.max(0, cx - 1); gx <= Math.min(side - 1, cx + 1); gx++) {
        for (let j = this.cellHead[gz * side + gx]!; j >= 0; j = this.next[j]!) {
          if (j === i) continue;
          const q = j * AGENT_F;
          const rx = x - a[q + X]!;
          const rz = z - a[q + Z]!;
          const d2 = rx * rx + rz * rz;
          if (d2 >= s * s) continue;
          const dist = Math.sqrt(d2) || 1e-6 * s;
          const w = (s - dist) / s;
          ax += (rx / dist) * w * 1.5;
          az += (rz / dist) * w * 1.5;
          // One ahead: also step to the right (both do, so facing agents pass).
          if (-(rx * fx + rz * fz) > 0) {
            ax += fz * w;
            az -= fx * w;
          }
          if (dist < 0.5 * s) {
            const push = (0.5 * s - dist) * 0.25;
            a[i * AGENT_F + X] += (rx / dist) * push;
            a[i * AGENT_F + Z] += (rz / dist) * push;
          }
        }
      }
    }
    this.d[D_DIR_X] = ax;
    this.d[D_DIR_Z] = az;
  }

  private buildGrid(): void {
    const side = this.cells;
    const head = this.cellHead;
    head.fill(-1, 0, side * side);
    const s = this.d[D_SPACING]!;
    const E = this.d[D_EXTENT]!;
    const a = this.agent;
    for (let i = 0; i < this.count; i++) {
      const cx = Math.min(side - 1, Math.max(0, Math.floor((a[i * AGENT_F + X]! + E) / s)));
      const cz = Math.min(side - 1, Math.max(0, Math.floor((a[i * AGENT_F + Z]! + E) / s)));
      const k = cz * side + cx;
      this.next[i] = head[k]!;
      head[k] = i;
    }
  }

  /**
   * Writes instances 0..count−1's palettes into `data` (the crowd palette texture's array): mesh m of
   * instance i at slot i · slotsPerInstance + meshBase[m], each slot = instanceWorld · model[bone] · invBind,
   * instanceWorld = translate(x, floor, z) · rotateY(yaw) · upright · translate(−pivot). evaluate() first.
   * `fixed`, when given, replaces the pose (the bind pose toggle) but keeps each agent's place.
   */
  writePalettes(scene: Scene, data: Float32Array, slotsPerInstance: number, meshBase: Int32Array, count: number, fixed: WanderPoseSource | null = null): void {
    const meshes = scene.meshes;
    const n = Math.min(count, this.count);
    for (let i = 0; i < n; i++) {
      const source: WanderPoseSource = fixed ?? this.controllers[i]!;
      for (let m = 0; m < meshes.length; m++) {
        const mesh = meshes[m]!;
        const offset = (i * slotsPerInstance + meshBase[m]!) * 16;
        source.writePalette(mesh, data, offset);
        this.placeSlots(i, data, offset, mesh.bones.length);
      }
    }
  }

  /** Pre-multiplies `slots` matrices at data[offset..] by agent i's instance transform. */
  private placeSlots(i: number, data: Float32Array, offset: number, slots: number): void {
    const g = this.gait;
    const B = g.upright;
    const a = this.agent;
    const o = i * AGENT_F;
    const yaw = a[o + HEADING]! - Math.atan2(g.forwardX, g.forwardZ);
    const cs = Math.cos(yaw);
    const sn = Math.sin(yaw);
    // A = rotateY(yaw) · B (column-major 3x3: aCR column C, row R).
    const a00 = cs * B[0]! + sn * B[2]!, a01 = B[1]!, a02 = -sn * B[0]! + cs * B[2]!;
    const a10 = cs * B[3]! + sn * B[5]!, a11 = B[4]!, a12 = -sn * B[3]! + cs * B[5]!;
    const a20 = cs * B[6]! + sn * B[8]!, a21 = B[7]!, a22 = -sn * B[6]! + cs * B[8]!;
    // t = (x, floor − groundY, z) − rotateY(yaw) · (pivotX, 0, pivotZ): the pivot is in standing space.
    const floor = g.turned ? this.d[D_FLOOR]! - g.groundY : 0;
    const tx = a[o + X]! - (cs * g.pivotX + sn * g.pivotZ);
    const tz = a[o + Z]! - (-sn * g.pivotX + cs * g.pivotZ);
    for (let k = 0; k < slots; k++) {
      const p = offset + k * 16;
      for (let col = 0; col < 4; col++) {
        const q = p + col * 4;
        const x = data[q]!, y = data[q + 1]!, z = data[q + 2]!;
        const w = col === 3 ? 1 : 0;
        data[q] = a00 * x + a10 * y + a20 * z + tx * w;
        data[q + 1] = a01 * x + a11 * y + a21 * z + floor * w;
        data[q + 2] = a02 * x + a12 * y + a22 * z + tz * w;
      }
    }
  }
}
