/**
 * WanderSteer: moves a wander crowd's agents (wander-agent.ts records) — travel speed from the controllers'
 * weights, turning towards the goal, avoidance over a uniform grid, the area's edges. Pure (no WebGL).
 *
 * Contract
 * - Travel speed = Σ wᵢ · groundSpeedᵢ · rateᵢ / Σ wᵢ over the enabled loiter, walk and jog tracks (the
 *   normalised blend the controller applies to the legs; rateᵢ the track's clip-time rate, from the sync
 *   rule), so the feet do not slide. Position += speed · dt along the heading (d[D_DT] seconds).
 * - Heading turns at most TURN_RATE rad/s, and only in MOVE; an agent still fading out of a move keeps going
 *   straight.
 * - Avoidance: a uniform grid of cells `spacing` wide over the area [−E, E]², rebuilt by build() once per step
 *   before any steer(); an agent steers away from agents within one spacing (a sideways push for one ahead,
 *   so two facing agents pass) and from the area's edges; overlapping agents (closer than half a spacing) are
 *   pushed apart; positions are clamped to the area. Agents are steered in index order, each seeing the
 *   positions the earlier ones were moved to (results depend on that order).
 * - Reads and writes the agents' records and d[] slots (D_DIR_*, D_A*, D_F* are its scratch); owns only the
 *   grid. Allocation: resize() may; build() and steer() allocate nothing (doubles cross calls in d[]).
 */

import type { AnimController } from './controller/controller.ts';
import {
  AGENT_F,
  D_AX,
  D_AZ,
  D_DIR_X,
  D_DIR_Z,
  D_DT,
  D_EXTENT,
  D_FX,
  D_FZ,
  D_SPACING,
  GOAL_X,
  GOAL_Z,
  HEADING,
  MOVE,
  SPEED,
  T_JOG,
  T_LOITER,
  T_WALK,
  X,
  Z,
  type WanderAgents,
} from './wander-agent.ts';

/** Largest turn rate while moving, rad/s. */
export const TURN_RATE = 2.4;

export class WanderSteer {
  /** Per agent: the next agent in its cell, or -1. */
  private next = new Int32Array(0);
  /** Per cell (side · side, row z): the first agent in it, or -1. */
  private cellHead = new Int32Array(0);
  /** Cells per side. */
  private cells = 1;

  /** Room for `capacity` agents and a grid of side · side cells; grows only (allocates then). */
  resize(capacity: number, side: number): void {
    if (capacity > this.next.length) this.next = new Int32Array(capacity);
    if (side * side > this.cellHead.length) this.cellHead = new Int32Array(side * side);
    this.cells = side;
  }

  /** Files agents 0..w.count−1 into the grid cells by position. */
  build(w: WanderAgents): void {
    const side = this.cells;
    const head = this.cellHead;
    head.fill(-1, 0, side * side);
    const s = w.d[D_SPACING]!;
    const E = w.d[D_EXTENT]!;
    const a = w.agent;
    for (let i = 0; i < w.count; i++) {
      const cx = Math.min(side - 1, Math.max(0, Math.floor((a[i * AGENT_F + X]! + E) / s)));
      const cz = Math.min(side - 1, Math.max(0, Math.floor((a[i * AGENT_F + Z]! + E) / s)));
      const k = cz * side + cx;
      this.next[i] = head[k]!;
      head[k] = i;
    }
  }

  /** Travel speed of an agent from its controller's weights (see the contract), into d[D_DIR_X]. */
  private travelSpeed(w: WanderAgents, c: AnimController): void {
    const gs = w.groundSpeed;
    const dur = w.duration;
    let sw = 0;
    let wl = 0, ww = 0, wj = 0;
    if (dur[T_LOITER]! > 0 && c.trackEnabled(T_LOITER)) wl = c.trackWeight(T_LOITER);
    if (dur[T_WALK]! > 0 && c.trackEnabled(T_WALK)) ww = c.trackWeight(T_WALK);
    if (dur[T_JOG]! > 0 && c.trackEnabled(T_JOG)) wj = c.trackWeight(T_JOG);
    sw = wl + ww + wj;
    let rw = 1, rj = 1;
    if (w.synced && ww + wj > 0) {
      const phi = (ww / dur[T_WALK]! + wj / dur[T_JOG]!) / (ww + wj);
      rw = phi * dur[T_WALK]!;
      rj = phi * dur[T_JOG]!;
    }
    w.d[D_DIR_X] = sw > 0 ? (ww * gs[T_WALK]! * rw + wj * gs[T_JOG]! * rj) / sw : 0;
  }

  /** Turns agent i towards its goal (avoiding others and the edges) and moves it at its travel speed. */
  steer(w: WanderAgents, i: number): void {
    const dt = w.d[D_DT]!;
    const a = w.agent;
    const o = i * AGENT_F;
    const c = w.controllers[i]!;
    this.travelSpeed(w, c);
    const v = w.d[D_DIR_X]!;
    a[o + SPEED] = v;
    const s = w.d[D_SPACING]!;
    const E = w.d[D_EXTENT]!;
    const x = a[o + X]!;
    const z = a[o + Z]!;
    let h = a[o + HEADING]!;
    if (w.state[i] === MOVE || v > 0) {
      let dx = a[o + GOAL_X]! - x;
      let dz = a[o + GOAL_Z]! - z;
      const len = Math.sqrt(dx * dx + dz * dz);
      if (len > 1e-9) {
        dx /= len;
        dz /= len;
      }
      const d = w.d;
      d[D_AX] = x;
      d[D_AZ] = z;
      d[D_FX] = Math.sin(h);
      d[D_FZ] = Math.cos(h);
      this.avoidance(w, i);
      dx += w.d[D_DIR_X]!;
      dz += w.d[D_DIR_Z]!;
      // Edges: steer back in within a spacing of them.
      if (x > E - s) dx -= (x - (E - s)) / s;
      if (x < -E + s) dx += (-E + s - x) / s;
      if (z > E - s) dz -= (z - (E - s)) / s;
      if (z < -E + s) dz += (-E + s - z) / s;
      if (w.state[i] === MOVE && (dx !== 0 || dz !== 0)) {
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
  private avoidance(w: WanderAgents, i: number): void {
    const a = w.agent;
    const x = w.d[D_AX]!;
    const z = w.d[D_AZ]!;
    const fx = w.d[D_FX]!;
    const fz = w.d[D_FZ]!;
    const s = w.d[D_SPACING]!;
    const E = w.d[D_EXTENT]!;
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
          const wt = (s - dist) / s;
          ax += (rx / dist) * wt * 1.5;
          az += (rz / dist) * wt * 1.5;
          // One ahead: also step to the right (both do, so facing agents pass).
          if (-(rx * fx + rz * fz) > 0) {
            ax += fz * wt;
            az -= fx * wt;
          }
          if (dist < 0.5 * s) {
            const push = (0.5 * s - dist) * 0.25;
            a[i * AGENT_F + X] += (rx / dist) * push;
            a[i * AGENT_F + Z] += (rz / dist) * push;
          }
        }
      }
    }
    w.d[D_DIR_X] = ax;
    w.d[D_DIR_Z] = az;
  }
}
