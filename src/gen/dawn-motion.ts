import type { Clip, MorphTrack } from '../model/types.ts';
import { bakeLoop } from './clips.ts';
import { DAWN_TARGETS } from './dawn-face.ts';
import { idleBody, loopNoise, type IdleOptions } from './humanoid-motion.ts';
import type { Vec3 } from './sdf-primitives.ts';
import { createRandom } from './random.ts';
import { Pose, qAxisAngle, qMul, type Quat, type Rig } from './rig.ts';
import { FINGERS } from './humanoid-body.ts';

/**
 * Dawn's clips: `idle` (16 s: the Walker's standing idle — breathing in chest and shoulders, weight
 * shift and sway, a slow look left and right — plus eye saccades, ear twitches, hair sway, wing
 * flutter, and an expression track) and `breathe` (6 s, the same body motion without expressions,
 * head look or flutter bursts). Both loop exactly (clips.ts `bakeLoop`).
 *
 * Expression track (Dawn §4.3.2: at most five targets active at once): `idle` blends
 * neutral → happy → surprised (+ blink) → thoughtful → sad → angry → smirk → neutral, with periodic
 * blinks and an ear wiggle. Weights are linear between keys, 0 at t = 0 and t = duration. At most
 * `MAX_ACTIVE_TARGETS` weights are non-zero at any time (tested).
 * Authoring conventions as humanoid-motion.ts (rotations about model axes in the parent's frame;
 * the right side mirrors the left as (x, −y, −z, w)).
 */

export const IDLE_DURATION = 16;
export const BREATHE_DURATION = 6;
export const MAX_ACTIVE_TARGETS = 5;
/** Keys per second of Dawn's clips (fewer than the Walker's 30: 100 bones of text keys add up). */
export const DAWN_CLIP_FPS = 20;
/** Wing and ear flutter frequency (Hz), well under the key rate's Nyquist limit. */
const FLUTTER_HZ = 4;

const DEG = Math.PI / 180;
const TAU = Math.PI * 2;
const X: Vec3 = [1, 0, 0];
const Y: Vec3 = [0, 1, 0];
const Z: Vec3 = [0, 0, 1];
const mirrorQ = (side: 'l' | 'r', q: Quat): Quat => (side === 'l' ? q : [q[0], -q[1], -q[2], q[3]]);

/** Smooth bump in time: 0 outside [t0, t1], 1 in the middle half, smoothstep ramps. */
function envelope(t: number, t0: number, t1: number): number {
  if (t <= t0 || t >= t1) return 0;
  const r = (t1 - t0) * 0.25;
  const a = Math.min(1, (t - t0) / r, (t1 - t) / r);
  return a * a * (3 - 2 * a);
}

interface Extras {
  readonly duration: number;
  /** Flutter bursts (start, end) in seconds. */
  readonly bursts: readonly (readonly [number, number])[];
  /** Ear twitches (start, end). */
  readonly twitches: readonly (readonly [number, number])[];
  /** Eye look keys: (time, yaw°, pitch°), held and eased between. */
  readonly looks: readonly (readonly [number, number, number])[];
}

/** Eyes, ears, hair, wings and third finger segments on top of idleBody. */
function extras(pose: Pose, t: number, e: Extras): void {
  const ph = t / e.duration;
  // Wings: a slow sweep with the breath, fast flutters in bursts; outer segments lag.
  let burst = 0;
  for (const [a, b] of e.bursts) burst += envelope(t, a, b);
  const slow = Math.sin(TAU * Math.round(e.duration / 4) * ph);
  const fast = Math.sin(TAU * Math.round(e.duration * FLUTTER_HZ) * ph);
  const fastLag = Math.sin(TAU * Math.round(e.duration * FLUTTER_HZ) * ph - 0.9);
  for (const side of ['l', 'r'] as const) {
    const sweep = (4 * slow + 16 * burst * fast) * DEG;
    const lift = (2 * slow + 5 * burst) * DEG;
    pose.setRot(`wing_root_${side}`, mirrorQ(side, qMul(qAxisAngle(Y, sweep), qAxisAngle(Z, lift))));
    const bend = (2.5 * slow + 8 * burst * fastLag) * DEG;
    for (const w of ['upper_02', 'upper_03', 'lower_02']) pose.setRot(`wing_${w}_${side}`, mirrorQ(side, qAxisAngle(Y, bend)));
  }
  // Ears: quick twitches (8 Hz flicks under an envelope) plus a faint constant quiver.
  let twitch = 0;
  for (const [a, b] of e.twitches) twitch += envelope(t, a, b);
  const flick = Math.sin(TAU * Math.round(e.duration * FLUTTER_HZ) * ph);
  for (const side of ['l', 'r'] as const) {
    const a = (twitch * 9 * flick + 1.2 * Math.sin(TAU * Math.round(e.duration / 2) * ph + (side === 'l' ? 0 : 1))) * DEG;
    pose.setRot(`ear_${side}`, mirrorQ(side, qAxisAngle(Y, a)));
    pose.setRot(`ear_tip_${side}`, mirrorQ(side, qAxisAngle(Y, 0.6 * a)));
  }
  // Eyes: saccades between held looks.
  const [yaw, pitch] = lookAt(e.looks, t, e.duration);
  for (const side of ['l', 'r'] as const) pose.setRot(`eye_${side}`, qMul(qAxisAngle(Y, yaw * DEG), qAxisAngle(X, -pitch * DEG)));
  // Hair: a lagging sway down each chain.
  const swayPeriods = Math.max(1, Math.round(e.duration / 4));
  for (const [chain, n] of [['hair_back', 4], ['hair_back_l', 3], ['hair_back_r', 3], ['hair_side_l', 2], ['hair_side_r', 2]] as const) {
    for (let k = 1; k <= n; k++) {
      const s = Math.sin(TAU * swayPeriods * ph - 0.5 * k);
      const c = Math.cos(TAU * swayPeriods * ph - 0.4 * k);
      pose.setRot(`${chain}_0${k}`, qMul(qAxisAngle(Z, 2.2 * k * s * DEG), qAxisAngle(X, 1.2 * k * c * DEG)));
    }
  }
  // Third finger segments follow the second (relaxed curl).
  for (const side of ['l', 'r'] as const) {
    for (const f of FINGERS) {
      const q = pose.getRot(`${f}_02_${side}`);
      pose.setRot(`${f}_03_${side}`, [q[0] * 0.7, q[1] * 0.7, q[2] * 0.7, q[3]]);
    }
  }
}

function lookAt(keys: Extras['looks'], t: number, duration: number): [number, number] {
  // Each look starts at its time and is reached in 0.12 s (a saccade); the last wraps to the first.
  let cur = keys[keys.length - 1]!;
  let prev = keys[keys.length - 2] ?? cur;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i]![0] <= t) {
      cur = keys[i]!;
      prev = keys[(i + keys.length - 1) % keys.length]!;
    }
  }
  let dt = t - cur[0];
  if (dt < 0) dt += duration;
  const a = Math.min(1, dt / 0.12);
  const s = a * a * (3 - 2 * a);
  return [prev[1] + (cur[1] - prev[1]) * s, prev[2] + (cur[2] - prev[2]) * s];
}

/** One morph track from (time, weight) keys, with 0 at both ends. */
function track(name: string, keys: readonly (readonly [number, number])[], duration: number): MorphTrack {
  const target = DAWN_TARGETS.findIndex((s) => s.name === name);
  if (target < 0) throw new Error(`dawn: no morph target '${name}'`);
  const all: [number, number][] = [[0, 0], ...keys.map(([t, v]) => [t, v] as [number, number]), [duration, 0]];
  return { target, times: new Float32Array(all.map((k) => k[0])), values: new Float32Array(all.map((k) => k[1])) };
}

/** An expression held at `w` from t0 + ramp to t1 − ramp. */
const hold = (t0: number, t1: number, w: number, ramp = 0.6): [number, number][] => [[t0, 0], [t0 + ramp, w], [t1 - ramp, w], [t1, 0]];

function blinks(times: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const t of times) out.push([t - 0.08, 0], [t, 1], [t + 0.14, 0]);
  return out;
}

export function idleMorphTracks(duration = IDLE_DURATION): MorphTrack[] {
  return [
    track('happy', hold(0.8, 4.2, 1, 0.6), duration),
    track('surprised', [[4.0, 0], [4.35, 1], [5.8, 1], [6.4, 0]], duration),
    track('thoughtful', hold(6.2, 9.2, 0.9, 0.7), duration),
    track('brow_up_left', hold(6.8, 8.8, 0.5, 0.5), duration),
    track('sad', hold(9.0, 12.0, 1, 0.7), duration),
    track('angry', hold(11.8, 14.2, 0.95, 0.5), duration),
    track('smirk', hold(14.0, 15.8, 0.8, 0.5), duration),
    track('ear_wiggle', [[12.6, 0], [12.75, 1], [12.9, 0.2], [13.05, 1], [13.3, 0]], duration),
    track('blink', blinks([2.6, 5.05, 7.6, 10.3, 13.7, 15.3]), duration),
    track('jaw_open', hold(4.6, 5.6, 0.25, 0.3), duration),
  ];
}

export function dawnClips(rig: Rig, seed: number): Clip[] {
  const random = createRandom(seed ^ 0xda3a);
  const noise = Array.from({ length: 7 }, () => loopNoise(random, 3));
  const pose = new Pose(rig);
  const idle: IdleOptions = { duration: IDLE_DURATION, look: 12, headYaw: 0, headRoll: 0, shift: 0.01, arms: ['l', 'r'] };
  const idleExtras: Extras = {
    duration: IDLE_DURATION,
    bursts: [[2.9, 4.4], [10.2, 11.3]],
    twitches: [[6.0, 6.5], [13.9, 14.3]],
    looks: [[0.5, 0, 0], [2.2, -6, 2], [3.6, 4, -1], [5.3, 0, 3], [7.0, 8, 6], [9.4, -3, -6], [12.2, 5, 0], [14.5, -4, 1], [15.6, 0, 0]],
  };
  const breathe: IdleOptions = { duration: BREATHE_DURATION, look: 0, headYaw: 0, headRoll: 0, shift: 0.006, arms: ['l', 'r'] };
  const breatheExtras: Extras = { duration: BREATHE_DURATION, bursts: [], twitches: [], looks: [[0, 0, 0]] };
  const idleClip = bakeLoop(pose, {
    name: 'idle', duration: IDLE_DURATION, fps: DAWN_CLIP_FPS,
    pose: (t, p) => {
      idleBody(p, t, idle, noise);
      extras(p, t, idleExtras);
    },
  });
  const breatheClip = bakeLoop(pose, {
    name: 'breathe', duration: BREATHE_DURATION, fps: DAWN_CLIP_FPS,
    pose: (t, p) => {
      idleBody(p, t, breathe, noise);
      extras(p, t, breatheExtras);
    },
  });
  return [{ ...idleClip, morphTracks: idleMorphTracks() }, breatheClip];
}
