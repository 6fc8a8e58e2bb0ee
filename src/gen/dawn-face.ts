import type { MorphDeltas, MorphKind } from '../model/types.ts';
import { FACE, MORPH_FLOOR } from './dawn-body.ts';
import type { Vec3 } from './sdf-primitives.ts';

/**
 * Dawn's 50 facial morph targets (GPU Gems ch. 4 §4.3: "approximately 30 … emotions … and 20 more
 * modifiers"), built from smooth deformation fields ("muscles") around the landmarks of dawn-body.ts
 * `FACE`, so they fit any detail level of the head mesh.
 *
 * Contract
 * - `DAWN_TARGETS` fixes names (snake_case), kinds and order (= Scene.morphTargets order): the 30
 *   emotions first, then the 20 modifiers. Character's left = +X (`_left` targets move +X features).
 * - A target is a weighted sum of muscles. Every muscle displacement is multiplied by the face mask:
 *   0 below MORPH_FLOOR (so the head's border with the body and the strip joining them never move),
 *   1 from MORPH_FLOOR + 3 cm up. Vertices flagged not movable (the eyeballs) never move.
 * - `computeMorphs` returns one MorphDeltas per target, in bind space, sparse: the vertices whose
 *   position moves by more than 1e-6 m or whose normal changes by more than 1e-5, strictly ascending.
 *   Normal delta = (vertex normal of the displaced mesh) − (vertex normal of the neutral mesh), both
 *   area-weighted over incident triangles, so untouched regions have exactly zero delta.
 * - Pure and deterministic (no randomness).
 */

type Side = 1 | -1;
type Muscle = (p: Vec3, n: Vec3, out: number[]) => void;

const smooth = (e0: number, e1: number, x: number): number => {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};
/** Compact smooth bump: 1 at the centre, 0 from radius `rho` on. */
const bump = (p: Vec3, c: Vec3, rho: number): number => {
  const r2 = ((p[0] - c[0]) ** 2 + (p[1] - c[1]) ** 2 + (p[2] - c[2]) ** 2) / (rho * rho);
  return r2 >= 1 ? 0 : (1 - r2) * (1 - r2);
};
const sideV = (s: Side, v: Vec3): Vec3 => [v[0] * s, v[1], v[2]];
const DEG = Math.PI / 180;

/** Rotation of point p about an axis through `pivot` along +X (positive tips +Y toward +Z) by `angle`. */
function rotX(p: Vec3, pivot: Vec3, angle: number, out: number[], w = 1): void {
  const y = p[1] - pivot[1];
  const z = p[2] - pivot[2];
  const c = Math.cos(angle), s = Math.sin(angle);
  out[1] += w * (y * c - z * s - y);
  out[2] += w * (y * s + z * c - z);
}

// ---------------------------------------------------------------------------------------------
// Muscles. Each adds `amount` × its unit displacement at p to out.

/** Jaw drop: rotation about the hinge of everything below the mouth slit, fading to the sides, back and neck. */
function jaw(amount: number): Muscle {
  const m = FACE.mouth;
  return (p, _n, out) => {
    const ax = Math.abs(p[0]);
    const cw = smooth(0.016, 0.04, ax);
    const below = smooth(m[1] + 0.0012 + 0.012 * cw, m[1] - 0.0016 - 0.012 * cw, p[1]);
    const region = (1 - smooth(0.045, 0.072, ax)) * smooth(-0.015, 0.03, p[2]) * (1 - smooth(1.7, 1.72, p[1]));
    const w = below * region;
    if (w > 0) rotX(p, FACE.jawPivot, amount * 15 * DEG, out, w);
  };
}

/** Upper lid of one eye rotating down over the eyeball (negative: up, eyes wide). */
function upperLid(s: Side, amount: number): Muscle {
  const e = sideV(s, FACE.eye);
  const R = FACE.eyeRadius;
  return (p, _n, out) => {
    const qx = p[0] - e[0], qy = p[1] - e[1], qz = p[2] - e[2];
    if (qz < -0.004) return;
    const r = Math.hypot(qx, qy, qz);
    const phi = Math.atan2(qy, Math.max(qz, 1e-6));
    const w = (1 - smooth(R + 0.0035, R + 0.011, r)) * (1 - smooth(0.015, 0.023, Math.abs(qx))) * smooth(-0.12, 0.06, phi);
    if (w <= 0) return;
    rotX(p, e, amount * 1.15 * w, out);
  };
}

/** Lower lid of one eye rotating up (squint). */
function lowerLid(s: Side, amount: number): Muscle {
  const e = sideV(s, FACE.eye);
  const R = FACE.eyeRadius;
  return (p, _n, out) => {
    const qx = p[0] - e[0], qy = p[1] - e[1], qz = p[2] - e[2];
    if (qz < -0.004) return;
    const r = Math.hypot(qx, qy, qz);
    const phi = Math.atan2(qy, Math.max(qz, 1e-6));
    const w = (1 - smooth(R + 0.003, R + 0.012, r)) * (1 - smooth(0.015, 0.023, Math.abs(qx))) * (1 - smooth(-0.2, -0.05, phi));
    if (w <= 0) return;
    rotX(p, e, -amount * 0.22 * w, out);
  };
}

/** Moves a brow point (inner / mid / outer) by d (metres); the forehead follows, the eye does not. */
function brow(s: Side, where: 'inner' | 'mid' | 'outer', d: Vec3): Muscle {
  const c = sideV(s, where === 'inner' ? FACE.browInner : where === 'mid' ? FACE.browMid : FACE.browOuter);
  return (p, _n, out) => {
    if (p[2] < 0.03) return;
    const w = bump(p, c, 0.024) * smooth(FACE.eye[1] + 0.006, FACE.eye[1] + 0.017, p[1]);
    if (w <= 0) return;
    out[0] += w * d[0] * s;
    out[1] += w * d[1];
    out[2] += w * d[2];
  };
}

/** A mouth corner moved by d (x outward on its side), lips and cheek following. */
function corner(s: Side, d: Vec3, rho = 0.024): Muscle {
  const c = sideV(s, FACE.corner);
  return (p, _n, out) => {
    if (p[2] < 0.03) return;
    const w = bump(p, c, rho);
    if (w <= 0) return;
    out[0] += w * d[0] * s;
    out[1] += w * d[1];
    out[2] += w * d[2];
  };
}

/** Cheek raised (smile, squint). */
function cheekRaise(s: Side, amount: number): Muscle {
  const c = sideV(s, FACE.cheek);
  return (p, _n, out) => {
    const w = bump(p, c, 0.024) * amount;
    out[1] += w * 0.0035;
    out[2] += w * 0.0018;
  };
}

/** Cheek blown out along the surface normal. */
function cheekPuff(s: Side, amount: number): Muscle {
  const c = sideV(s, FACE.cheekPuff);
  return (p, n, out) => {
    const w = bump(p, c, 0.03) * amount * 0.009;
    out[0] += w * n[0];
    out[1] += w * n[1];
    out[2] += w * n[2];
  };
}

/** Upper lip (dy > 0 up) or lower lip (dy < 0 down) away from the slit, by |dy|. */
function lip(which: 'upper' | 'lower', d: Vec3): Muscle {
  const m = FACE.mouth;
  const c: Vec3 = [m[0], m[1] + (which === 'upper' ? 0.005 : -0.006), m[2] - 0.002];
  return (p, _n, out) => {
    const side = which === 'upper' ? smooth(m[1] - 0.001, m[1] + 0.0015, p[1]) : 1 - smooth(m[1] - 0.0015, m[1] + 0.001, p[1]);
    const w = bump(p, c, 0.02) * side;
    if (w <= 0) return;
    out[0] += w * d[0];
    out[1] += w * d[1];
    out[2] += w * d[2];
  };
}

/** Lips pushed forward and gathered toward the middle. */
function pucker(amount: number): Muscle {
  const m = FACE.mouth;
  return (p, _n, out) => {
    const w = bump(p, [0, m[1], m[2] - 0.004], 0.03) * amount;
    if (w <= 0) return;
    out[0] += -w * p[0] * 0.42;
    out[2] += w * 0.0075;
  };
}

/** Sides of the nose pulled up, skin between the brows down. */
function noseWrinkle(amount: number): Muscle {
  return (p, _n, out) => {
    const w = (bump(p, FACE.noseSide, 0.014) + bump(p, sideV(-1, FACE.noseSide), 0.014)) * amount;
    out[1] += w * 0.0032;
    out[2] += w * 0.001;
    const g = bump(p, [0, 1.724, 0.095], 0.014) * amount;
    out[1] -= g * 0.002;
  };
}

/** Ear bent back and up about its base (the static half of a wiggle). */
function ear(s: Side, amount: number): Muscle {
  const base = sideV(s, FACE.earBase);
  const tip = sideV(s, FACE.earTip);
  const d = [tip[0] - base[0], tip[1] - base[1], tip[2] - base[2]];
  const len = Math.hypot(d[0]!, d[1]!, d[2]!);
  return (p, _n, out) => {
    if (Math.abs(p[0]) < 0.066) return;
    const qx = p[0] - base[0], qy = p[1] - base[1], qz = p[2] - base[2];
    const along = (qx * d[0]! + qy * d[1]! + qz * d[2]!) / len;
    const w = smooth(0.002, 0.03, along) * (1 - smooth(0.018, 0.03, Math.hypot(qx, qy, qz) - along)) * amount;
    if (w <= 0) return;
    // Rotate about the vertical through the base (tip swings back), and lift.
    const a = 0.42 * w * s;
    const c = Math.cos(a), sn = Math.sin(a);
    out[0] += qx * c - qz * sn - qx;
    out[2] += qx * sn + qz * c - qz;
    out[1] += 0.004 * w * smooth(0, len, along);
  };
}

// ---------------------------------------------------------------------------------------------
// Named building blocks (amount 1 = the modifier at full weight).

const B = {
  jawOpen: (a: number) => [jaw(a)],
  blink: (s: Side, a: number) => [upperLid(s, a), lowerLid(s, 0.5 * a)],
  squint: (s: Side, a: number) => [lowerLid(s, a), upperLid(s, 0.18 * a), cheekRaise(s, 0.6 * a)],
  eyesWide: (s: Side, a: number) => [upperLid(s, -0.32 * a), lowerLid(s, -0.3 * a)],
  browUp: (s: Side, a: number) => [brow(s, 'inner', [0, 0.0055 * a, 0.0005 * a]), brow(s, 'mid', [0, 0.0065 * a, 0]), brow(s, 'outer', [0, 0.005 * a, 0])],
  browDown: (s: Side, a: number) => [brow(s, 'inner', [-0.003 * a, -0.0045 * a, 0.0012 * a]), brow(s, 'mid', [0, -0.003 * a, 0.0008 * a]), brow(s, 'outer', [0, -0.0012 * a, 0])],
  browSad: (s: Side, a: number) => [brow(s, 'inner', [-0.0012 * a, 0.0065 * a, 0.0006 * a]), brow(s, 'outer', [0, -0.0028 * a, 0])],
  smile: (s: Side, a: number) => [corner(s, [0.0075 * a, 0.0115 * a, -0.004 * a], 0.027), cheekRaise(s, a)],
  frown: (s: Side, a: number) => [corner(s, [0.0015 * a, -0.0085 * a, -0.001 * a], 0.024)],
  wide: (s: Side, a: number) => [corner(s, [0.0075 * a, 0, -0.0022 * a])],
  press: (a: number) => [lip('upper', [0, -0.0014 * a, -0.0008 * a]), lip('lower', [0, 0.0016 * a, -0.0008 * a])],
  part: (a: number) => [lip('upper', [0, 0.0022 * a, 0]), lip('lower', [0, -0.003 * a, 0.0005 * a])],
  upperLipUp: (a: number) => [lip('upper', [0, 0.0038 * a, 0.0008 * a])],
  lowerLipOut: (a: number) => [lip('lower', [0, 0.0006 * a, 0.0035 * a])],
  pucker: (a: number) => [pucker(a)],
  puff: (s: Side, a: number) => [cheekPuff(s, a)],
  nose: (a: number) => [noseWrinkle(a)],
  ear: (s: Side, a: number) => [ear(s, a)],
};
const both = (f: (s: Side, a: number) => Muscle[], a: number): Muscle[] => [...f(1, a), ...f(-1, a)];

export interface MorphTargetSpec {
  readonly name: string;
  readonly kind: MorphKind;
  readonly muscles: readonly Muscle[];
}

const L: Side = 1;
const Rt: Side = -1;

export const DAWN_TARGETS: readonly MorphTargetSpec[] = [
  // Emotions (30): whole faces.
  { name: 'happy', kind: 'emotion', muscles: [...both(B.smile, 1.05), ...both(B.squint, 0.3), ...both(B.browUp, 0.25), ...B.part(0.5), ...both(B.wide, 0.2)] },
  { name: 'sad', kind: 'emotion', muscles: [...both(B.frown, 1), ...both(B.browSad, 1), ...both(B.blink, 0.22), ...B.lowerLipOut(0.4), ...B.press(0.3)] },
  { name: 'angry', kind: 'emotion', muscles: [...both(B.browDown, 1.1), ...both(B.squint, 0.45), ...B.nose(0.5), ...B.press(0.9), ...both(B.frown, 0.35), ...both(B.wide, 0.25)] },
  { name: 'surprised', kind: 'emotion', muscles: [...both(B.browUp, 1.1), ...both(B.eyesWide, 1), ...B.jawOpen(0.55), ...B.pucker(0.2)] },
  { name: 'thoughtful', kind: 'emotion', muscles: [...B.browDown(Rt, 0.45), ...B.browUp(L, 0.45), ...B.smile(L, 0.2), ...B.frown(Rt, 0.2), ...B.press(0.5), ...both(B.squint, 0.25), ...B.pucker(0.15)] },
  { name: 'afraid', kind: 'emotion', muscles: [...both(B.browSad, 0.8), ...both(B.browUp, 0.5), ...both(B.eyesWide, 0.9), ...both(B.wide, 0.7), ...B.jawOpen(0.25), ...both(B.frown, 0.3)] },
  { name: 'disgusted', kind: 'emotion', muscles: [...B.nose(1), ...B.upperLipUp(0.9), ...both(B.squint, 0.5), ...both(B.browDown, 0.5), ...B.frown(Rt, 0.5), ...B.frown(L, 0.25)] },
  { name: 'bored', kind: 'emotion', muscles: [...both(B.blink, 0.42), ...both(B.frown, 0.25), ...B.press(0.2)] },
  { name: 'confused', kind: 'emotion', muscles: [...B.browUp(L, 0.85), ...B.browDown(Rt, 0.55), ...B.frown(Rt, 0.3), ...B.pucker(0.25), ...B.squint(Rt, 0.3)] },
  { name: 'smug', kind: 'emotion', muscles: [...B.smile(L, 0.75), ...both(B.blink, 0.28), ...B.browUp(L, 0.3), ...B.press(0.4)] },
  { name: 'sleepy', kind: 'emotion', muscles: [...both(B.blink, 0.66), ...B.jawOpen(0.08), ...both(B.browUp, 0.18)] },
  { name: 'laughing', kind: 'emotion', muscles: [...both(B.smile, 1.25), ...both(B.squint, 0.75), ...B.jawOpen(0.7), ...both(B.wide, 0.4), ...B.part(0.6)] },
  { name: 'crying', kind: 'emotion', muscles: [...both(B.browSad, 1.2), ...both(B.frown, 1), ...both(B.squint, 0.7), ...B.jawOpen(0.3), ...B.lowerLipOut(0.5), ...both(B.wide, 0.35)] },
  { name: 'worried', kind: 'emotion', muscles: [...both(B.browSad, 0.85), ...B.press(0.45), ...both(B.wide, 0.25), ...both(B.frown, 0.35)] },
  { name: 'determined', kind: 'emotion', muscles: [...both(B.browDown, 0.65), ...both(B.squint, 0.35), ...B.press(0.75), ...both(B.wide, 0.15)] },
  { name: 'shy', kind: 'emotion', muscles: [...both(B.smile, 0.4), ...both(B.blink, 0.36), ...B.press(0.35), ...both(B.browSad, 0.25)] },
  { name: 'proud', kind: 'emotion', muscles: [...both(B.smile, 0.4), ...both(B.browUp, 0.22), ...both(B.blink, 0.18), ...B.press(0.3)] },
  { name: 'excited', kind: 'emotion', muscles: [...both(B.smile, 1), ...both(B.eyesWide, 0.6), ...both(B.browUp, 0.7), ...B.jawOpen(0.4), ...B.part(0.4)] },
  { name: 'calm', kind: 'emotion', muscles: [...both(B.smile, 0.2), ...both(B.blink, 0.3)] },
  { name: 'annoyed', kind: 'emotion', muscles: [...both(B.browDown, 0.5), ...B.frown(Rt, 0.5), ...both(B.squint, 0.3), ...B.nose(0.2), ...B.press(0.4)] },
  { name: 'skeptical', kind: 'emotion', muscles: [...B.browUp(L, 1), ...B.browDown(Rt, 0.6), ...B.squint(Rt, 0.45), ...B.smile(L, 0.3), ...B.press(0.3)] },
  { name: 'pout', kind: 'emotion', muscles: [...B.pucker(0.8), ...B.lowerLipOut(0.6), ...both(B.frown, 0.4), ...both(B.browSad, 0.3)] },
  { name: 'grin', kind: 'emotion', muscles: [...both(B.smile, 1.15), ...both(B.wide, 0.8), ...B.part(0.8), ...both(B.squint, 0.35)] },
  { name: 'shocked', kind: 'emotion', muscles: [...B.jawOpen(1), ...both(B.eyesWide, 1), ...both(B.browUp, 1.05), ...both(B.wide, 0.3)] },
  { name: 'tired', kind: 'emotion', muscles: [...both(B.blink, 0.55), ...both(B.browSad, 0.3), ...both(B.frown, 0.3), ...B.jawOpen(0.05)] },
  { name: 'flirty', kind: 'emotion', muscles: [...B.smile(L, 0.65), ...B.smile(Rt, 0.25), ...B.blink(L, 0.5), ...B.browUp(Rt, 0.35), ...B.press(0.2)] },
  { name: 'pain', kind: 'emotion', muscles: [...both(B.browDown, 0.7), ...both(B.browSad, 0.5), ...both(B.squint, 1), ...B.nose(0.5), ...both(B.wide, 0.6), ...B.jawOpen(0.2), ...B.upperLipUp(0.5)] },
  { name: 'relieved', kind: 'emotion', muscles: [...both(B.smile, 0.4), ...both(B.blink, 0.36), ...both(B.browSad, 0.4), ...B.jawOpen(0.12)] },
  { name: 'suspicious', kind: 'emotion', muscles: [...both(B.squint, 0.7), ...both(B.browDown, 0.4), ...B.browDown(Rt, 0.3), ...B.frown(L, 0.3), ...B.press(0.5)] },
  { name: 'dreamy', kind: 'emotion', muscles: [...both(B.smile, 0.35), ...both(B.blink, 0.4), ...both(B.browUp, 0.4), ...B.part(0.3)] },
  // Modifiers (20): one feature each.
  { name: 'jaw_open', kind: 'modifier', muscles: B.jawOpen(1) },
  { name: 'blink', kind: 'modifier', muscles: both(B.blink, 1) },
  { name: 'blink_left', kind: 'modifier', muscles: B.blink(L, 1) },
  { name: 'blink_right', kind: 'modifier', muscles: B.blink(Rt, 1) },
  { name: 'smirk', kind: 'modifier', muscles: [...B.smile(L, 0.75), ...B.wide(L, 0.3), ...B.frown(Rt, 0.15)] },
  { name: 'brow_up_left', kind: 'modifier', muscles: B.browUp(L, 1) },
  { name: 'brow_up_right', kind: 'modifier', muscles: B.browUp(Rt, 1) },
  { name: 'brow_down_left', kind: 'modifier', muscles: B.browDown(L, 1) },
  { name: 'brow_down_right', kind: 'modifier', muscles: B.browDown(Rt, 1) },
  { name: 'ear_wiggle', kind: 'modifier', muscles: both(B.ear, 1) },
  { name: 'mouth_wide', kind: 'modifier', muscles: both(B.wide, 1) },
  { name: 'lips_pucker', kind: 'modifier', muscles: B.pucker(1) },
  { name: 'cheek_puff', kind: 'modifier', muscles: both(B.puff, 1) },
  { name: 'nose_wrinkle', kind: 'modifier', muscles: B.nose(1) },
  { name: 'eyes_wide', kind: 'modifier', muscles: both(B.eyesWide, 1) },
  { name: 'squint', kind: 'modifier', muscles: both(B.squint, 1) },
  { name: 'smile_left', kind: 'modifier', muscles: B.smile(L, 1) },
  { name: 'smile_right', kind: 'modifier', muscles: B.smile(Rt, 1) },
  { name: 'frown', kind: 'modifier', muscles: both(B.frown, 1) },
  { name: 'lips_part', kind: 'modifier', muscles: B.part(1) },
];

/** Face mask: 0 below MORPH_FLOOR, 1 from 3 cm above it. */
export function faceMask(y: number): number {
  return smooth(MORPH_FLOOR, MORPH_FLOOR + 0.03, y);
}

/** Area-weighted vertex normals of a triangle mesh (unit; (0, 1, 0) for a vertex no triangle uses). */
export function meshNormals(positions: Float32Array | Float64Array, indices: Uint32Array, out: Float64Array): void {
  out.fill(0);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3, b = indices[t + 1]! * 3, c = indices[t + 2]! * 3;
    const ux = positions[b]! - positions[a]!, uy = positions[b + 1]! - positions[a + 1]!, uz = positions[b + 2]! - positions[a + 2]!;
    const vx = positions[c]! - positions[a]!, vy = positions[c + 1]! - positions[a + 1]!, vz = positions[c + 2]! - positions[a + 2]!;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    for (const v of [a, b, c]) {
      out[v] += nx;
      out[v + 1] += ny;
      out[v + 2] += nz;
    }
  }
  for (let v = 0; v < out.length; v += 3) {
    const l = Math.hypot(out[v]!, out[v + 1]!, out[v + 2]!);
    if (l > 0) {
      out[v] /= l;
      out[v + 1] /= l;
      out[v + 2] /= l;
    } else out[v + 1] = 1;
  }
}

/** Displacement of every vertex for one target (3 floats per vertex, Float64). */
export function targetDisplacement(
  spec: MorphTargetSpec,
  positions: Float32Array,
  normals: Float32Array,
  movable: Uint8Array,
): Float64Array {
  const nv = positions.length / 3;
  const d = new Float64Array(nv * 3);
  const acc = [0, 0, 0];
  for (let v = 0; v < nv; v++) {
    if (!movable[v]) continue;
    const p: Vec3 = [positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!];
    const mask = faceMask(p[1]);
    if (mask <= 0) continue;
    const n: Vec3 = [normals[v * 3]!, normals[v * 3 + 1]!, normals[v * 3 + 2]!];
    acc[0] = acc[1] = acc[2] = 0;
    for (const m of spec.muscles) m(p, n, acc);
    d[v * 3] = acc[0]! * mask;
    d[v * 3 + 1] = acc[1]! * mask;
    d[v * 3 + 2] = acc[2]! * mask;
  }
  return d;
}

/** Sparse deltas of every target for a head mesh (see the contract above). */
export function computeMorphs(
  positions: Float32Array,
  normals: Float32Array,
  indices: Uint32Array,
  movable: Uint8Array,
  targets: readonly MorphTargetSpec[] = DAWN_TARGETS,
): MorphDeltas[] {
  const nv = positions.length / 3;
  const neutral = new Float64Array(nv * 3);
  meshNormals(positions, indices, neutral);
  const moved = new Float64Array(nv * 3);
  const n1 = new Float64Array(nv * 3);
  return targets.map((spec) => {
    const d = targetDisplacement(spec, positions, normals, movable);
    for (let i = 0; i < moved.length; i++) moved[i] = positions[i]! + d[i]!;
    meshNormals(moved, indices, n1);
    const verts: number[] = [];
    const dp: number[] = [];
    const dn: number[] = [];
    for (let v = 0; v < nv; v++) {
      const px = d[v * 3]!, py = d[v * 3 + 1]!, pz = d[v * 3 + 2]!;
      const nx = n1[v * 3]! - neutral[v * 3]!, ny = n1[v * 3 + 1]! - neutral[v * 3 + 1]!, nz = n1[v * 3 + 2]! - neutral[v * 3 + 2]!;
      if (Math.hypot(px, py, pz) <= 1e-6 && Math.hypot(nx, ny, nz) <= 1e-5) continue;
      verts.push(v);
      dp.push(px, py, pz);
      dn.push(nx, ny, nz);
    }
    return { vertices: new Uint32Array(verts), positions: new Float32Array(dp), normals: new Float32Array(dn) };
  });
}
