import type { Channel, Clip, Track } from '../model/types.ts';
import type { Vec3 } from './sdf-primitives.ts';
import { add, dot, normalize, qFromTo, qMul, scale, sub, type Pose } from './rig.ts';

/**
 * Keyframed clip building for procedural rigs: a pose function sampled at a fixed rate and baked
 * into model Tracks, plus authoring helpers (periodic key curves, two-bone IK).
 *
 * Contract
 * - `bakeLoop` calls `spec.pose(t, pose)` on a pose reset to rest, at t = i / fps for i = 0..N with
 *   N = round(duration · fps); key times are seconds. The clip loops: the last key (t = duration) is
 *   an exact copy of the first. The pose function is expected to be periodic with that duration.
 * - A track is emitted for every node whose local rotation or translation leaves rest at any key:
 *   rotation (xyzw, kept in one hemisphere from key to key, first key with w ≥ 0) when the rotation
 *   moves, translation when it moves; both on the same time list; scale is never animated (null).
 * - Poses are local TRS relative to the parent (rig.ts conventions: bind frames carry no rotation).
 */

export interface LoopSpec {
  readonly name: string;
  /** Seconds. */
  readonly duration: number;
  /** Keys per second. */
  readonly fps: number;
  readonly pose: (t: number, pose: Pose) => void;
}

export function bakeLoop(pose: Pose, spec: LoopSpec): Clip {
  const n = pose.rig.count;
  const keys = Math.max(1, Math.round(spec.duration * spec.fps));
  const count = keys + 1;
  const times = new Float32Array(count);
  const rot = new Float32Array(n * count * 4);
  const trans = new Float32Array(n * count * 3);
  for (let k = 0; k < count; k++) {
    const src = k === keys ? 0 : k;
    times[k] = k === keys ? spec.duration : k / spec.fps;
    if (k === keys) {
      for (let b = 0; b < n; b++) {
        for (let c = 0; c < 4; c++) rot[(b * count + k) * 4 + c] = rot[(b * count + src) * 4 + c]!;
        for (let c = 0; c < 3; c++) trans[(b * count + k) * 3 + c] = trans[(b * count + src) * 3 + c]!;
      }
      continue;
    }
    pose.reset();
    spec.pose(times[k]!, pose);
    for (let b = 0; b < n; b++) {
      let q = [pose.rot[b * 4]!, pose.rot[b * 4 + 1]!, pose.rot[b * 4 + 2]!, pose.rot[b * 4 + 3]!];
      const l = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
      q = q.map((x) => x / l);
      if (k === 0) {
        if (q[3]! < 0) q = q.map((x) => -x);
      } else {
        const o = (b * count + k - 1) * 4;
        const d = q[0]! * rot[o]! + q[1]! * rot[o + 1]! + q[2]! * rot[o + 2]! + q[3]! * rot[o + 3]!;
        if (d < 0) q = q.map((x) => -x);
      }
      rot.set(q, (b * count + k) * 4);
      for (let c = 0; c < 3; c++) trans[(b * count + k) * 3 + c] = pose.trans[b * 3 + c]!;
    }
  }
  const rest = pose.rig.skeleton.restLocal;
  const tracks: Track[] = [];
  for (let b = 0; b < n; b++) {
    let rotMoves = false;
    let transMoves = false;
    for (let k = 0; k < count && !rotMoves; k++) {
      const o = (b * count + k) * 4;
      rotMoves = Math.abs(rot[o]!) > 1e-7 || Math.abs(rot[o + 1]!) > 1e-7 || Math.abs(rot[o + 2]!) > 1e-7;
    }
    for (let k = 0; k < count && !transMoves; k++) {
      for (let c = 0; c < 3; c++) if (Math.abs(trans[(b * count + k) * 3 + c]! - rest[b * 10 + c]!) > 1e-7) transMoves = true;
    }
    if (!rotMoves && !transMoves) continue;
    const channel = (values: Float32Array): Channel => ({ times: times.slice(), values });
    tracks.push({
      node: b,
      translation: transMoves ? channel(trans.slice(b * count * 3, (b + 1) * count * 3)) : null,
      rotation: rotMoves ? channel(rot.slice(b * count * 4, (b + 1) * count * 4)) : null,
      scale: null,
    });
  }
  return { name: spec.name, duration: spec.duration, ticksPerSecond: 0, tracks };
}

/**
 * Periodic curve through keys (phase in [0, 1), value), sorted by phase, evaluated with uniform
 * Catmull-Rom segments that wrap around 1 → 0. Returns a function of phase (any real; wraps).
 */
export function periodicCurve(keys: readonly (readonly [number, number])[]): (phase: number) => number {
  const n = keys.length;
  const at = (i: number): readonly [number, number] => {
    const w = Math.floor(i / n);
    const k = keys[((i % n) + n) % n]!;
    return [k[0] + w, k[1]];
  };
  return (phase: number): number => {
    const p = phase - Math.floor(phase);
    let i = n - 1;
    for (let j = 0; j < n; j++) {
      if (keys[j]![0] > p) {
        i = j - 1;
        break;
      }
    }
    const p0 = at(i - 1);
    const p1 = at(i);
    const p2 = at(i + 1);
    const p3 = at(i + 2);
    let x = p;
    if (x < p1[0]) x += 1;
    const u = (x - p1[0]) / (p2[0] - p1[0]);
    // Non-uniform spacing: scale tangents by the segment length (finite-difference Catmull-Rom).
    const h = p2[0] - p1[0];
    const m1 = ((p2[1] - p0[1]) / (p2[0] - p0[0])) * h;
    const m2 = ((p3[1] - p1[1]) / (p3[0] - p1[0])) * h;
    const u2 = u * u;
    const u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * p1[1] + (u3 - 2 * u2 + u) * m1 + (-2 * u3 + 3 * u2) * p2[1] + (u3 - u2) * m2;
  };
}

/**
 * Two-bone IK for a chain upper → lower → end (e.g. thigh → calf → foot), all in model space.
 * Sets the local rotations of `upper` and `lower` so that the end joint reaches `target` (clamped to
 * reach), bending toward `pole` (a direction, e.g. +Z for knees). Each bone turns by the shortest
 * rotation from its current direction, so twist is inherited. Requires `pose.solve()` to be current
 * for the chain's parents; leaves the pose solved.
 */
export function solveTwoBone(pose: Pose, upper: string, lower: string, end: string, target: Vec3, pole: Vec3): void {
  pose.solve();
  const iu = pose.bone(upper);
  const il = pose.bone(lower);
  const ie = pose.bone(end);
  const wp = (i: number): Vec3 => [pose.worldPos[i * 3]!, pose.worldPos[i * 3 + 1]!, pose.worldPos[i * 3 + 2]!];
  const a = wp(iu);
  const b = wp(il);
  const c = wp(ie);
  const l1 = Math.hypot(...sub(b, a));
  const l2 = Math.hypot(...sub(c, b));
  const toT = sub(target, a);
  let d = Math.hypot(...toT);
  d = Math.min(Math.max(d, Math.abs(l1 - l2) + 1e-4), l1 + l2 - 1e-4);
  const axis = normalize(toT);
  const along = (l1 * l1 - l2 * l2 + d * d) / (2 * d);
  const h = Math.sqrt(Math.max(0, l1 * l1 - along * along));
  const pp = sub(pole, scale(axis, dot(pole, axis)));
  const side = normalize(pp);
  const knee = add(add(a, scale(axis, along)), scale(side, h));
  const endPos = add(a, scale(axis, d));
  // Upper bone: rotate its current world direction onto a → knee.
  const qu = qFromTo(sub(b, a), sub(knee, a));
  pose.setWorldRot(upper, qMul(qu, pose.worldQuat(iu)));
  pose.solve();
  const b2 = wp(il);
  const c2 = wp(ie);
  const ql = qFromTo(sub(c2, b2), sub(endPos, b2));
  pose.setWorldRot(lower, qMul(ql, pose.worldQuat(il)));
  pose.solve();
}
