import type { Clip } from '../model/types.ts';
import { bakeLoop, periodicCurve, solveTwoBone } from './clips.ts';
import { FINGERS, leftArmLayout, leftLegLayout, type Side } from './humanoid-body.ts';
import type { Vec3 } from './sdf-primitives.ts';
import { createRandom } from './random.ts';
import {
  Pose, cross, normalize, qAxisAngle, qBend, qFrame, qFromTo, qIdentity, qMul, qRotate, sub, dot,
  type Quat, type Rig,
} from './rig.ts';

/**
 * The walker's clips: `idle`, `walk`, `wave`, `run`, authored as periodic pose functions and baked at
 * 30 keys per second (clips.ts). All loop exactly.
 *
 * Authoring conventions (rig.ts: bind frames are model-aligned, so a local rotation at rest is a
 * rotation about model axes in the parent's frame):
 * - Pitch is a rotation about +X: a positive angle tips +Y toward +Z (leans forward) and swings −Y
 *   toward −Z (a hanging limb goes back). Hip flexion (thigh forward) is therefore −X; knee flexion
 *   is +X on the calf, always ≥ 0 so knees never bend backwards.
 * - Yaw about +Y: positive turns the face (+Z) toward the character's left (+X).
 * - Left-side rotations are authored once; the right side uses the mirror image (x, −y, −z, w).
 * - `seed` only changes small secondary motions of idle and wave (phases of sway noise), never the gaits.
 */

const DEG = Math.PI / 180;
const TAU = Math.PI * 2;
const X: Vec3 = [1, 0, 0];
const Y: Vec3 = [0, 1, 0];
const Z: Vec3 = [0, 0, 1];
export const CLIP_FPS = 30;

const mirrorVec = (v: Vec3): Vec3 => [-v[0], v[1], v[2]];
const onSide = (side: Side, v: Vec3): Vec3 => (side === 'l' ? v : mirrorVec(v));
const quatOnSide = (side: Side, q: Quat): Quat => (side === 'l' ? q : [q[0], -q[1], -q[2], q[3]]);
const sideName = (n: string, side: Side): string => `${n}_${side}`;
const angleBetween = (a: Vec3, b: Vec3): number => Math.acos(Math.max(-1, Math.min(1, dot(normalize(a), normalize(b)))));

const ARM = leftArmLayout();
const LEG = leftLegLayout();

export interface ArmHang {
  /** Upper arm angle below horizontal (degrees). */
  readonly drop: number;
  /** Forward swing of the upper arm about the shoulder (degrees, negative = back). */
  readonly swing: number;
  readonly elbow: number;
  /** Wrist flexion toward the palm (degrees). */
  readonly wrist: number;
  /** Finger curl per segment (degrees). */
  readonly curl: number;
}

/** A relaxed arm hanging at `drop` below horizontal, swung, with elbow/wrist/finger flexion. */
export function hangArm(pose: Pose, side: Side, a: ArmHang): void {
  const target = normalize([Math.cos(a.drop * DEG), -Math.sin(a.drop * DEG), 0.02]);
  const lower = qFromTo(ARM.upperDir, target);
  const upper = qMul(qAxisAngle(X, -a.swing * DEG), lower);
  pose.setRot(sideName('upper_arm', side), quatOnSide(side, upper));
  pose.setRot(sideName('forearm', side), quatOnSide(side, qBend(ARM.foreDir, Z, a.elbow * DEG)));
  pose.setRot(sideName('hand', side), quatOnSide(side, qBend(ARM.foreDir, ARM.palm, a.wrist * DEG)));
  curlFingers(pose, side, a.curl, 0);
}

/** Curls every finger toward the palm by `curl` degrees per joint; `spread` swings the thumb out (degrees). */
export function curlFingers(pose: Pose, side: Side, curl: number, spread: number): void {
  FINGERS.forEach((f, i) => {
    const [b, mid, tip] = ARM.fingers[i]!;
    const d1 = sub(mid, b);
    const d2 = sub(tip, mid);
    const thumb = i === 0;
    const c1 = (thumb ? 0.35 : 1) * curl * DEG;
    const c2 = (thumb ? 0.6 : 1.35) * curl * DEG;
    // The four fingers are one mass: the same bend for all (no fan), so it stays in one piece.
    const fan = qBend(d1, ARM.handWidth, (thumb ? spread * 1.5 : 0) * DEG);
    pose.setRot(sideName(`${f}_01`, side), quatOnSide(side, qMul(fan, qBend(d1, ARM.palm, c1))));
    pose.setRot(sideName(`${f}_02`, side), quatOnSide(side, qBend(d2, ARM.palm, c2)));
  });
}

/** Sum of small sines with whole cycles per loop: periodic noise in [−1, 1]. */
export function loopNoise(random: () => number, terms: number): (phase: number) => number {
  const parts = Array.from({ length: terms }, (_, i) => ({ cycles: i + 1 + Math.floor(random() * 2), phase: random() * TAU, amp: 1 / (i + 1) }));
  const norm = parts.reduce((s, p) => s + p.amp, 0);
  return (ph: number): number => parts.reduce((s, p) => s + p.amp * Math.sin(TAU * p.cycles * ph + p.phase), 0) / norm;
}

export interface IdleOptions {
  readonly duration: number;
  /** Head yaw amplitude (degrees) of the slow look left/right; 0 keeps the head still. */
  readonly look: number;
  /** Extra head yaw / roll (degrees), e.g. toward a waving hand. */
  readonly headYaw: number;
  readonly headRoll: number;
  /** Weight-shift amplitude (metres). */
  readonly shift: number;
  /** Sides whose arm hangs relaxed. */
  readonly arms: readonly Side[];
}

export type Noise = (phase: number) => number;

/** Standing, breathing, shifting weight with feet planted (leg IK), looking around. */
export function idleBody(pose: Pose, t: number, o: IdleOptions, noise: readonly Noise[]): void {
  const ph = t / o.duration;
  const breaths = Math.max(1, Math.round(o.duration / 3));
  const breath = 0.5 - 0.5 * Math.cos(TAU * breaths * ph);
  const sway = Math.sin(TAU * ph);
  const n = (i: number): number => noise[i]!(ph);

  pose.translate('hips', [o.shift * sway, -0.006 - 0.002 * breath, 0.003 * n(0)]);
  pose.setRot('hips', qMul(qAxisAngle(Z, (1.6 * sway + 0.3 * n(1)) * DEG), qAxisAngle(Y, (1.5 * n(2)) * DEG)));
  pose.setRot('spine_01', qAxisAngle(Z, -0.9 * sway * DEG));
  pose.setRot('spine_02', qMul(qAxisAngle(Z, -0.6 * sway * DEG), qAxisAngle(X, (-0.8 * breath + 0.4 * n(3)) * DEG)));
  pose.setRot('spine_03', qMul(qAxisAngle(Y, -1.2 * n(2) * DEG), qAxisAngle(X, -1.3 * breath * DEG)));
  for (const side of ['l', 'r'] as const) {
    const clav = sub(ARM.shoulder, ARM.clavicle);
    pose.setRot(sideName('clavicle', side), quatOnSide(side, qBend(clav, Y, 1.8 * breath * DEG)));
  }
  for (const side of o.arms) {
    const s = side === 'l' ? 1 : -1;
    hangArm(pose, side, {
      drop: 77 + 1.2 * breath + 0.8 * s * sway,
      swing: 3 + 1.5 * n(side === 'l' ? 4 : 5),
      elbow: 13 + 2 * n(side === 'l' ? 5 : 4),
      wrist: 6,
      curl: 8,
    });
  }
  // Head: a slow look left then right with holds, a small nod; the neck takes part of the turn.
  const lookShape = Math.tanh(2.4 * Math.sin(TAU * ph)) / Math.tanh(2.4);
  const yaw = (o.look * lookShape + o.headYaw + 2 * n(6)) * DEG;
  const nod = (1.5 * Math.sin(TAU * 2 * ph + 0.7) + 1.2 * breath) * DEG;
  pose.setRot('neck', qMul(qAxisAngle(Y, 0.35 * yaw), qAxisAngle(X, 0.5 * breath * DEG)));
  pose.solve();
  pose.setWorldRot('head', qMul(qAxisAngle(Y, yaw), qMul(qAxisAngle(Z, o.headRoll * DEG), qAxisAngle(X, nod))));
  // Feet stay planted and flat.
  plantFeet(pose);
}

/** Leg IK: ankles back on their bind positions, knees toward +Z, feet flat and straight. */
function plantFeet(pose: Pose): void {
  for (const side of ['l', 'r'] as const) {
    solveTwoBone(pose, sideName('thigh', side), sideName('calf', side), sideName('foot', side), onSide(side, LEG.ankle), Z);
    pose.setWorldRot(sideName('foot', side), qIdentity());
  }
  pose.solve();
}

// ---------------------------------------------------------------------------------------------
// Gait curves, phase 0 = this leg's heel strike. Degrees: hip flexion (thigh forward), knee
// flexion, foot pitch in the world (toes up positive), toe bend (toes up relative to the foot).

interface Gait {
  readonly hip: (p: number) => number;
  readonly knee: (p: number) => number;
  readonly foot: (p: number) => number;
  readonly toe: (p: number) => number;
}

const WALK: Gait = {
  hip: periodicCurve([[0, 25], [0.1, 21], [0.3, 4], [0.5, -12], [0.6, -8], [0.72, 12], [0.86, 27]]),
  knee: periodicCurve([[0, 4], [0.1, 16], [0.3, 6], [0.5, 12], [0.62, 40], [0.72, 60], [0.84, 38], [0.94, 8]]),
  foot: periodicCurve([[0, 12], [0.08, 0], [0.42, 0], [0.52, -14], [0.62, -32], [0.72, -12], [0.86, 0], [0.95, 10]]),
  toe: periodicCurve([[0, 0], [0.42, 0], [0.52, 14], [0.62, 30], [0.7, 6], [0.8, 0]]),
};

const RUN: Gait = {
  hip: periodicCurve([[0, 30], [0.12, 20], [0.3, -4], [0.42, -18], [0.55, -5], [0.7, 28], [0.85, 42]]),
  knee: periodicCurve([[0, 18], [0.12, 38], [0.3, 20], [0.42, 22], [0.55, 70], [0.7, 105], [0.85, 70], [0.95, 30]]),
  foot: periodicCurve([[0, 6], [0.1, 0], [0.25, -4], [0.4, -30], [0.5, -40], [0.65, -18], [0.85, 2], [0.95, 6]]),
  toe: periodicCurve([[0, 0], [0.25, 6], [0.38, 28], [0.48, 12], [0.6, 0]]),
};

interface GaitStyle {
  readonly duration: number;
  readonly gait: Gait;
  readonly sway: number;
  readonly yaw: number;
  readonly roll: number;
  readonly lean: number;
  readonly armDrop: number;
  readonly armSwing: number;
  readonly elbow: number;
  readonly elbowSwing: number;
  readonly fist: number;
  /** Extra lift of the hips above ground contact, as a function of phase (metres); run flight. */
  readonly lift: (ph: number) => number;
}

/** In-place locomotion: legs from gait curves, hips height from ground contact, counter-swinging torso and arms. */
function gaitPose(pose: Pose, t: number, s: GaitStyle): void {
  const ph = t / s.duration;
  const swayX = s.sway * Math.sin(TAU * ph);
  const yaw = -s.yaw * Math.cos(TAU * ph) * DEG;
  const roll = s.roll * Math.sin(TAU * ph + 0.6) * DEG;
  pose.translate('hips', [swayX, 0, 0]);
  pose.setRot('hips', qMul(qAxisAngle(Y, yaw), qMul(qAxisAngle(Z, roll), qAxisAngle(X, s.lean * 0.4 * DEG))));
  pose.solve();
  const legLength = 0.84;
  for (const side of ['l', 'r'] as const) {
    const p = ph + (side === 'r' ? 0.5 : 0);
    const hip = s.gait.hip(p) * DEG;
    const knee = Math.max(0, s.gait.knee(p)) * DEG;
    const foot = s.gait.foot(p) * DEG;
    const toe = Math.max(0, s.gait.toe(p)) * DEG;
    // Keep the foot under its rest position sideways while the pelvis sways.
    const legRoll = -swayX / legLength;
    const thighWorld = qMul(qAxisAngle(Y, yaw * 0.7), qMul(qAxisAngle(Z, legRoll), qAxisAngle(X, -hip)));
    pose.setWorldRot(sideName('thigh', side), thighWorld);
    pose.setRot(sideName('calf', side), qAxisAngle(X, knee));
    pose.solve();
    pose.setWorldRot(sideName('foot', side), qMul(qAxisAngle(Y, yaw * 0.3), qAxisAngle(X, -foot)));
    pose.setRot(sideName('toe', side), qAxisAngle(X, -toe));
  }
  pose.solve();
  // Hips height: the lowest sole point of either foot touches the ground.
  let minY = Infinity;
  for (const side of ['l', 'r'] as const) {
    const footI = pose.bone(sideName('foot', side));
    const toeI = pose.bone(sideName('toe', side));
    minY = Math.min(
      minY,
      pose.worldPoint(footI, onSide(side, LEG.heelPoint))[1],
      pose.worldPoint(footI, onSide(side, LEG.ballPoint))[1],
      pose.worldPoint(toeI, onSide(side, LEG.ballPoint))[1],
      pose.worldPoint(toeI, onSide(side, LEG.toePoint))[1],
    );
  }
  pose.translate('hips', [0, -minY + s.lift(ph), 0]);

  // Torso counter-rotation: shoulders turn against the pelvis, chest stays level.
  pose.setRot('spine_01', qMul(qAxisAngle(Z, -roll * 0.6), qAxisAngle(X, s.lean * 0.3 * DEG)));
  pose.setRot('spine_02', qMul(qAxisAngle(Y, -yaw * 0.8), qMul(qAxisAngle(Z, -roll * 0.4), qAxisAngle(X, s.lean * 0.3 * DEG))));
  pose.setRot('spine_03', qAxisAngle(Y, -yaw * 0.8));
  for (const side of ['l', 'r'] as const) {
    // Left arm swings back while the left leg swings forward.
    const swing = (side === 'l' ? -1 : 1) * s.armSwing * Math.cos(TAU * ph);
    hangArm(pose, side, {
      drop: s.armDrop,
      swing,
      elbow: s.elbow + s.elbowSwing * Math.max(0, swing / s.armSwing),
      wrist: 5,
      curl: s.fist,
    });
  }
  pose.solve();
  // Head steady: faces forward, slight bob compensation.
  const bob = Math.cos(TAU * 2 * ph);
  pose.setWorldRot('neck', qMul(qAxisAngle(Y, yaw * 0.3), qAxisAngle(X, (s.lean * 0.5 + 0.8 * bob) * DEG)));
  pose.solve();
  pose.setWorldRot('head', qAxisAngle(X, (1.5 - 0.8 * bob) * DEG));
}

export function humanoidClips(rig: Rig, seed: number): Clip[] {
  const random = createRandom(seed ^ 0x5eed);
  const noise = Array.from({ length: 7 }, () => loopNoise(random, 3));
  const pose = new Pose(rig);

  const idle: IdleOptions = { duration: 6, look: 14, headYaw: 0, headRoll: 0, shift: 0.012, arms: ['l', 'r'] };
  const walk: GaitStyle = {
    duration: 1.1, gait: WALK, sway: 0.022, yaw: 5, roll: 3, lean: 4,
    armDrop: 80, armSwing: 17, elbow: 14, elbowSwing: 18, fist: 9, lift: () => 0,
  };
  const run: GaitStyle = {
    duration: 0.7, gait: RUN, sway: 0.012, yaw: 8, roll: 3, lean: 12,
    armDrop: 74, armSwing: 30, elbow: 80, elbowSwing: 15, fist: 30,
    // Two flight phases per cycle (after each toe-off).
    lift: (ph) => 0.045 * Math.max(0, Math.sin(TAU * 2 * (ph - 0.42))),
  };

  const WAVE_DURATION = 2.4;
  const WAVES = 6;
  const waveIdle: IdleOptions = { duration: WAVE_DURATION, look: 0, headYaw: -9, headRoll: -3, shift: 0.006, arms: ['l'] };

  return [
    bakeLoop(pose, { name: 'idle', duration: idle.duration, fps: CLIP_FPS, pose: (t, p) => idleBody(p, t, idle, noise) }),
    bakeLoop(pose, { name: 'walk', duration: walk.duration, fps: CLIP_FPS, pose: (t, p) => gaitPose(p, t, walk) }),
    bakeLoop(pose, {
      name: 'wave',
      duration: WAVE_DURATION,
      fps: CLIP_FPS,
      pose: (t, p) => {
        idleBody(p, t, waveIdle, noise);
        waveArm(p, 'r', (WAVES * t) / WAVE_DURATION);
      },
    }),
    bakeLoop(pose, { name: 'run', duration: run.duration, fps: CLIP_FPS, pose: (t, p) => gaitPose(p, t, run) }),
  ];
}

/** Raises the arm on `side` beside the head and waves the forearm and hand; `cycles` counts waves. */
function waveArm(pose: Pose, side: Side, cycles: number): void {
  const w = TAU * cycles;
  const clav = sub(ARM.shoulder, ARM.clavicle);
  pose.rotate(sideName('clavicle', side), quatOnSide(side, qBend(clav, Y, 11 * DEG)));
  pose.solve();
  const upperBind = onSide(side, ARM.upperDir);
  const foreBind = onSide(side, ARM.foreDir);
  const hingeBind = normalize(cross(upperBind, Z));
  const upperTarget = normalize(onSide(side, [0.93, 0.26, 0.2]));
  const foreTarget = normalize(onSide(side, [0.16, 0.97, 0.1]));
  const hingeTarget = normalize(cross(upperTarget, foreTarget));
  pose.setWorldRot(sideName('upper_arm', side), qFrame(upperBind, hingeBind, upperTarget, hingeTarget));
  const flex = angleBetween(upperTarget, foreTarget) + 20 * DEG * Math.sin(w) - angleBetween(upperBind, foreBind);
  pose.setRot(sideName('forearm', side), qAxisAngle(hingeBind, flex));
  pose.solve();
  const fi = pose.bone(sideName('forearm', side));
  const foreWorld = qRotate(pose.worldQuat(fi), foreBind);
  const handDir = qRotate(qAxisAngle(Z, (side === 'l' ? 1 : -1) * 14 * DEG * Math.sin(w - 0.9)), foreWorld);
  pose.setWorldRot(sideName('hand', side), qFrame(foreBind, onSide(side, ARM.palm), handDir, [0, 0.15, 1]));
  curlFingers(pose, side, 3, 6);
}
