/**
 * WanderCrowd: N agents of one model walking about a square of floor, each with its own AnimController.
 * Pure (no WebGL); the page, the tests and the benchmark run this code. This file composes the jobs — the
 * agents' records, controllers and state machine (wander-agent.ts), their steering (wander-steer.ts) — and
 * owns the area, the step order, the footstep rate and the palette writing.
 *
 * Contract
 * - Agents: position (x, z) in standing model space (wander-gait.ts: the model turned onto +y), inside the
 *   square [−E, E]² with E = wanderHalfExtent(count, spacing); heading h (radians; the agent faces
 *   (sin h, cos h)). State machine per agent (wander-agent.ts): LOITER for 2–6 s → MOVE (walk or jog) to a
 *   random goal, turning at most TURN_RATE rad/s → LOITER on arrival (or after a time limit). One agent in
 *   three that walks a long enough way waves for one cycle of the wave clip on the way.
 * - Tracks of every controller: 0 loiter, 1 walk, 2 jog, 3 wave; state changes are fades by events, never
 *   direct weight sets after setup (wander-agent.ts states the rules).
 * - Travel speed follows the controllers' blended ground speed so the feet do not slide; avoidance over a
 *   grid rebuilt per step; positions clamped to the area (wander-steer.ts states the rules).
 * - A step: (with walk or jog clips) grid rebuilt, every agent's state machine, then every agent steered, in
 *   index order; (without) every agent's in-place cross-fade; then every controller advanced by dt.
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
import { controllerStep } from './controller/controller.ts';
import { AGENT_F, D_DT, D_EXTENT, D_FLOOR, D_RATE, D_SPACING, D_TIME, D_WINDOW, HEADING, SPEED, WanderAgents, X, Z } from './wander-agent.ts';
import { wanderHalfExtent } from './wander-gait.ts';
import { WanderSteer } from './wander-steer.ts';

export { FADE, T_JOG, T_LOITER, T_WALK, T_WAVE } from './wander-agent.ts';
export { TURN_RATE } from './wander-steer.ts';

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

export class WanderCrowd extends WanderAgents {
  private readonly steering = new WanderSteer();

  constructor(scene: Scene, options: WanderOptions = {}) {
    super(scene, options.seed ?? 1);
    this.configure(options.count ?? 1, options.spacing ?? this.gait.spacing, options.floorY ?? 0);
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
    this.steering.resize(this.capacity, side);
    this.place();
  }

  /** Advances every agent by dt seconds (≥ 0). No allocation. */
  step(dt: number): void {
    const d = this.d;
    const n = this.count;
    d[D_DT] = dt;
    if (this.locomotion) {
      this.steering.build(this);
      for (let i = 0; i < n; i++) this.think(i);
      for (let i = 0; i < n; i++) this.steering.steer(this, i);
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
