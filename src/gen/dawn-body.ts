import type { Material } from '../model/types.ts';
import { humanoidBones, humanoidBlends, humanoidPrimitives, Region as WalkerRegion, FINGERS, leftArmLayout } from './humanoid-body.ts';
import { material } from './humanoid.ts';
import { AXES_IDENTITY, type Op, type Primitive, type Vec3 } from './sdf-primitives.ts';
import { add, buildRig, cross, normalize, scale, sub, type BoneSpec, type Rig } from './rig.ts';
import type { JointBlend } from './weights.ts';

/**
 * "Dawn", skinlab's fairy (after NVIDIA's Dawn demo, GPU Gems ch. 4) as data: a 100-bone skeleton, the
 * implicit body and head, the hair as its own implicit solid, facial landmarks shared with the morph
 * targets (dawn-face.ts), wing layout, materials. No meshing or animation here (dawn.ts, dawn-motion.ts).
 *
 * Space: the Walker's (humanoid-body.ts): bind model space, metres, +Y up, facing +Z, character's left
 * at +X, feet on y = 0. Dawn reuses the Walker's body below the neck (its skeleton, arms, legs and
 * clothes, re-coloured as a leaf dress, leggings and bark boots) and adds: a second neck bone and a
 * longer neck, a new head with shaped features (eye sockets and lids around separate eyeballs, a mouth
 * slit into a mouth cavity, lips, nose, cheekbones, brows, pointed ears), a bust, a third bone per
 * finger, face bones, hair chains and two pairs of wings.
 *
 * NECK_CUT: the body mesh ends at y = NECK_CUT and the head mesh starts there (dawn.ts joins them);
 * MORPH_FLOOR: no morph target moves anything below it (dawn-face.ts), well above the cut.
 */

export const NECK_CUT = 1.55;
/** Height of the strip joining the body's cut to the head's own cut (head mesh starts at NECK_CUT + this). */
export const NECK_ZIP = 0.008;
export const MORPH_FLOOR = 1.566;

/** Material slots: the Walker's seven (re-coloured) then Dawn's own. */
export const DawnRegion = {
  ...WalkerRegion,
  Sclera: 7,
  Pupil: 8,
  Mouth: 9,
  Wing: 10,
  WingVein: 11,
} as const;

/** Materials in DawnRegion order. Diffuse is linear (from the sRGB picks). */
export const DAWN_MATERIALS: readonly Material[] = [
  material('skin', [240, 204, 186], 0.14, 24),
  material('dress', [86, 140, 62], 0.06, 12),
  material('leggings', [92, 122, 74], 0.05, 10),
  material('boots', [96, 66, 42], 0.2, 30),
  material('hair', [142, 70, 40], 0.22, 40),
  material('iris', [58, 140, 104], 0.6, 80),
  material('lips', [196, 110, 116], 0.25, 40),
  material('sclera', [244, 240, 234], 0.5, 80),
  material('pupil', [14, 12, 16], 0.7, 90),
  material('mouth', [118, 44, 52], 0.1, 16),
  material('wing', [176, 222, 226], 0.7, 96),
  material('wing_vein', [96, 150, 118], 0.4, 48),
];

/** Facial landmarks (left side; mirror x for the right), bind space. */
export const FACE = {
  /** Eyeball centre and radius. */
  eye: [0.032, 1.708, 0.071] as Vec3,
  eyeRadius: 0.0125,
  /** Mouth centre (middle of the slit between the lips) and half width of the slit. */
  mouth: [0, 1.654, 0.095] as Vec3,
  mouthHalfWidth: 0.02,
  corner: [0.021, 1.654, 0.088] as Vec3,
  /** Jaw hinge (the axis is +X through this point). */
  jawPivot: [0, 1.69, -0.004] as Vec3,
  browInner: [0.014, 1.733, 0.092] as Vec3,
  browMid: [0.032, 1.739, 0.089] as Vec3,
  browOuter: [0.05, 1.734, 0.079] as Vec3,
  noseSide: [0.011, 1.69, 0.1] as Vec3,
  noseBridge: [0, 1.722, 0.094] as Vec3,
  cheek: [0.04, 1.682, 0.072] as Vec3,
  cheekPuff: [0.038, 1.654, 0.066] as Vec3,
  chin: [0, 1.618, 0.078] as Vec3,
  earBase: [0.072, 1.712, -0.012] as Vec3,
  earTip: [0.122, 1.772, -0.044] as Vec3,
} as const;

const mirror = (v: Vec3): Vec3 => [-v[0], v[1], v[2]];
const onSide = (side: 'l' | 'r', v: Vec3): Vec3 => (side === 'l' ? v : mirror(v));

/** Wing layout (left side): root on the upper back, long direction, width direction, sizes. */
export interface WingLayout {
  readonly name: 'upper' | 'lower';
  readonly root: Vec3;
  readonly dir: Vec3;
  readonly width: Vec3;
  readonly normal: Vec3;
  readonly length: number;
  readonly maxWidth: number;
  /** Joint positions along the wing (metres from the root) of its bones, first = the wing's first bone. */
  readonly joints: readonly number[];
}

export function leftWings(): WingLayout[] {
  const root: Vec3 = [0.03, 1.37, -0.1];
  const make = (name: 'upper' | 'lower', dir0: Vec3, length: number, maxWidth: number, joints: number[]): WingLayout => {
    const dir = normalize(dir0);
    const n0 = normalize([0.35, 0.05, -1]);
    const width = normalize(cross(n0, dir));
    const normal = normalize(cross(dir, width));
    return { name, root, dir, width, normal, length, maxWidth, joints };
  };
  return [
    make('upper', [1, 0.95, -0.32], 0.6, 0.2, [0.03, 0.22, 0.42]),
    make('lower', [1, -0.62, -0.28], 0.4, 0.13, [0.03, 0.22]),
  ];
}

const HAIR_CHAINS: readonly { name: string; points: readonly Vec3[]; radii: readonly number[] }[] = [
  { name: 'hair_back', points: [[0, 1.71, -0.09], [0, 1.62, -0.092], [0, 1.53, -0.086], [0, 1.45, -0.08], [0, 1.39, -0.078]], radii: [0.052, 0.046, 0.036, 0.022, 0.008] },
  { name: 'hair_back_l', points: [[0.052, 1.69, -0.07], [0.064, 1.6, -0.072], [0.066, 1.51, -0.068], [0.06, 1.44, -0.06]], radii: [0.032, 0.027, 0.018, 0.006] },
  { name: 'hair_side_l', points: [[0.07, 1.75, 0.045], [0.078, 1.68, 0.05], [0.07, 1.62, 0.046]], radii: [0.016, 0.013, 0.005] },
];

/** Hair chains on both sides (names without the side for the centre chain). */
function hairChains(): { name: string; points: Vec3[]; radii: readonly number[] }[] {
  const out: { name: string; points: Vec3[]; radii: readonly number[] }[] = [];
  for (const c of HAIR_CHAINS) {
    if (c.name.endsWith('_l')) {
      out.push({ name: c.name, points: [...c.points], radii: c.radii });
      out.push({ name: c.name.replace(/_l$/, '_r'), points: c.points.map(mirror), radii: c.radii });
    } else out.push({ name: c.name, points: [...c.points], radii: c.radii });
  }
  return out;
}

/** Bone list, parents before children: the Walker's 43 (head moved up a longer neck) + 57. */
export function dawnBones(): BoneSpec[] {
  const walker = humanoidBones();
  const bones: BoneSpec[] = [];
  for (const b of walker) {
    if (b.name === 'head') {
      bones.push({ name: 'neck_02', parent: 'neck', head: [0, 1.54, -0.016] });
      bones.push({ name: 'head', parent: 'neck_02', head: [0, 1.62, -0.008], tail: [0, 1.83, -0.008] });
    } else if (b.name === 'jaw') {
      bones.push({ name: 'jaw', parent: 'head', head: [0, 1.69, -0.004], tail: [0, 1.62, 0.07] });
    } else bones.push(b);
  }
  // A third segment per finger, continuing the second.
  const arm = leftArmLayout();
  for (const side of ['l', 'r'] as const) {
    FINGERS.forEach((f, i) => {
      const [, mid, tip] = arm.fingers[i]!;
      const d = sub(tip, mid);
      const j3 = add(mid, scale(d, 0.55));
      bones.push({ name: `${f}_03_${side}`, parent: `${f}_02_${side}`, head: onSide(side, j3), tail: onSide(side, add(tip, scale(d, 0.05))) });
    });
  }
  // Face.
  for (const side of ['l', 'r'] as const) {
    const m = (v: Vec3): Vec3 => onSide(side, v);
    const s = (n: string): string => `${n}_${side}`;
    const eye = FACE.eye;
    const mid = scale(add(FACE.earBase, FACE.earTip), 0.5);
    bones.push(
      { name: s('eye'), parent: 'head', head: m(eye), tail: m(add(eye, [0, 0, 0.03])) },
      { name: s('ear'), parent: 'head', head: m(FACE.earBase), tail: m(mid) },
      { name: s('ear_tip'), parent: s('ear'), head: m(mid), tail: m(FACE.earTip) },
      { name: s('brow'), parent: 'head', head: m(FACE.browMid), tail: m(add(FACE.browMid, [0, 0.02, 0])) },
      { name: s('lid_upper'), parent: 'head', head: m(eye), tail: m(add(eye, [0, 0.008, 0.014])) },
      { name: s('lid_lower'), parent: 'head', head: m(eye), tail: m(add(eye, [0, -0.008, 0.014])) },
      { name: s('cheek'), parent: 'head', head: m(FACE.cheek), tail: m(add(FACE.cheek, [0, 0, 0.02])) },
      { name: s('lip_corner'), parent: 'head', head: m(FACE.corner), tail: m(add(FACE.corner, [0.01, 0, 0])) },
    );
  }
  bones.push(
    { name: 'lip_upper', parent: 'head', head: add(FACE.mouth, [0, 0.005, 0]), tail: add(FACE.mouth, [0, 0.005, 0.015]) },
    { name: 'lip_lower', parent: 'jaw', head: add(FACE.mouth, [0, -0.006, 0]), tail: add(FACE.mouth, [0, -0.006, 0.015]) },
    { name: 'nose', parent: 'head', head: FACE.noseBridge, tail: [0, 1.683, 0.118] },
    { name: 'tongue', parent: 'jaw', head: [0, 1.65, 0.055], tail: [0, 1.65, 0.085] },
  );
  // Hair chains: one bone per segment.
  for (const c of hairChains()) {
    for (let k = 0; k + 1 < c.points.length; k++) {
      bones.push({
        name: `${c.name}_0${k + 1}`,
        parent: k === 0 ? 'head' : `${c.name}_0${k}`,
        head: c.points[k]!,
        tail: c.points[k + 1]!,
      });
    }
  }
  // Wings: a root on the upper back, then a chain per wing.
  for (const side of ['l', 'r'] as const) {
    const m = (v: Vec3): Vec3 => onSide(side, v);
    const wings = leftWings();
    bones.push({ name: `wing_root_${side}`, parent: 'spine_03', head: m(wings[0]!.root), tail: m(add(wings[0]!.root, [0.03, 0, -0.01])) });
    for (const w of wings) {
      w.joints.forEach((a, k) => {
        const end = k + 1 < w.joints.length ? w.joints[k + 1]! : w.length;
        bones.push({
          name: `wing_${w.name}_0${k + 1}_${side}`,
          parent: k === 0 ? `wing_root_${side}` : `wing_${w.name}_0${k}_${side}`,
          head: m(add(w.root, scale(w.dir, a))),
          tail: m(add(w.root, scale(w.dir, end))),
        });
      });
    }
  }
  return bones;
}

export function dawnRig(): Rig {
  return buildRig(dawnBones());
}

/**
 * Joint blends per bone for one mesh. Bones that do not deform that mesh get a zero reach, so the
 * weights never leak onto them through the "nearest child" rule of weights.ts (face bones are driven by
 * morph targets, hair and wing bones deform only their own meshes).
 */
export function dawnBlends(rig: Rig, mesh: 'skin' | 'hair'): JointBlend[] {
  const walker = new Map<string, JointBlend>();
  const walkerRig = buildRig(humanoidBones());
  humanoidBlends(walkerRig).forEach((b, i) => walker.set(walkerRig.skeleton.names[i]!, b));
  const none: JointBlend = { width: 0.001, reach: 1e-4 };
  return rig.skeleton.names.map((n) => {
    if (n.startsWith('hair_')) return mesh === 'hair' ? { width: 0.035, reach: 0.12 } : none;
    if (mesh === 'hair') return none;
    if (n.startsWith('wing_')) return none;
    if (/^(eye|brow|lid_|cheek|lip_|nose|tongue)/.test(n)) return none;
    if (n === 'neck_02') return { width: 0.03, reach: 0.12 };
    if (n === 'head') return { width: 0.028, reach: 0.14 };
    if (n === 'jaw') return { width: 0.015, reach: 0.08 };
    if (/^ear_tip_/.test(n)) return { width: 0.012, reach: 0.05 };
    if (/^ear_/.test(n)) return { width: 0.008, reach: 0.05 };
    if (/_03_[lr]$/.test(n)) return { width: 0.01, reach: 0.03, smooth: 0.3 };
    return walker.get(n) ?? { width: 0.03, reach: 0.1 };
  });
}

function frame(a: Vec3, b: Vec3): [Vec3, Vec3, Vec3] {
  const x = normalize(a);
  const z = normalize(cross(x, b));
  const y = cross(z, x);
  return [x, y, z];
}

/**
 * The skin solid: the Walker's body without its neck and head, a bust, a longer neck, Dawn's head.
 * `bone` indexes `rig`, `tag` is a DawnRegion (refined for the body by humanoid-body.ts `regionAt`).
 */
export function dawnPrimitives(rig: Rig): Primitive[] {
  const B = (name: string): number => {
    const i = rig.index.get(name);
    if (i === undefined) throw new Error(`dawn: no bone '${name}'`);
    return i;
  };
  const headBones = new Set([B('head'), B('jaw'), B('neck')]);
  const body = humanoidPrimitives(rig).filter((p) => !headBones.has(p.bone));
  const out: Primitive[] = [];
  const cone = (bone: string, tag: number, a: Vec3, ra: number, b: Vec3, rb: number, k: number, op: Op = 'union'): void => {
    out.push({ kind: 'cone', a, b, ra, rb, k, op, bone: B(bone), tag });
  };
  const ell = (bone: string, tag: number, center: Vec3, radii: Vec3, k: number, axes = AXES_IDENTITY, op: Op = 'union', clip?: Primitive['clip']): void => {
    out.push({ kind: 'ellipsoid', center, radii, axes, k, op, bone: B(bone), tag, ...(clip ? { clip } : {}) });
  };
  const R = DawnRegion;
  // Body (the Walker's, in its order, paint decals last) with a slimmer waist.
  for (const p of body) {
    if (p.op === 'paint') continue;
    if (p.kind === 'ellipsoid' && p.bone === B('spine_01')) out.push({ ...p, radii: [p.radii[0] * 0.86, p.radii[1], p.radii[2] * 0.92] });
    else if (p.kind === 'ellipsoid' && p.bone === B('spine_02') && p.center[1] > 1.2 && p.center[1] < 1.23) out.push({ ...p, radii: [p.radii[0] * 0.9, p.radii[1], p.radii[2]] });
    else out.push(p);
  }
  for (const x of [0.056, -0.056]) ell('spine_03', R.Shirt, [x, 1.318, 0.062], [0.056, 0.05, 0.044], 0.035);
  // Neck.
  cone('neck', R.Skin, [0, 1.43, -0.022], 0.054, [0, 1.56, -0.014], 0.044, 0.03);
  cone('neck_02', R.Skin, [0, 1.54, -0.015], 0.044, [0, 1.66, -0.008], 0.043, 0.02);

  // Head: cranium, jaw and chin, cheekbones, brow ridge, nose.
  ell('head', R.Skin, [0, 1.722, -0.01], [0.077, 0.096, 0.098], 0.03);
  cone('jaw', R.Skin, [0, 1.676, 0.004], 0.05, [0, 1.622, 0.057], 0.019, 0.03);
  for (const x of [0.047, -0.047]) cone('jaw', R.Skin, [x, 1.674, -0.008], 0.02, [x * 0.22, 1.623, 0.054], 0.016, 0.025);
  for (const s of ['l', 'r'] as const) {
    ell('head', R.Skin, onSide(s, [0.036, 1.692, 0.048]), [0.025, 0.021, 0.036], 0.028);
  }
  cone('head', R.Skin, [-0.047, 1.734, 0.079], 0.0105, [0.047, 1.734, 0.079], 0.0105, 0.018);
  cone('head', R.Skin, [0, 1.716, 0.092], 0.0058, [0, 1.686, 0.106], 0.0085, 0.012);
  for (const s of ['l', 'r'] as const) ell('head', R.Skin, onSide(s, [0.0105, 1.682, 0.101]), [0.0075, 0.0058, 0.0068], 0.006);
  // Muzzle (the teeth's dome under the lips), upper half on the head, lower on the jaw.
  ell('head', R.Skin, [0, 1.664, 0.061], [0.029, 0.02, 0.026], 0.02);
  ell('jaw', R.Skin, [0, 1.645, 0.058], [0.026, 0.018, 0.024], 0.02);
  // Lips.
  ell('head', R.Lips, [0, 1.6586, 0.0836], [0.0188, 0.0062, 0.0085], 0.006);
  ell('jaw', R.Lips, [0, 1.6494, 0.082], [0.016, 0.0068, 0.0085], 0.006);
  // Eye sockets, opened around the eyeball, then the lids as caps over it.
  const R0 = FACE.eyeRadius;
  for (const s of ['l', 'r'] as const) {
    const e = onSide(s, FACE.eye);
    ell('head', R.Skin, add(e, [0, 0.0004, 0.0085]), [0.0162, 0.0108, 0.0125], 0.004, AXES_IDENTITY, 'subtract');
  }
  for (const s of ['l', 'r'] as const) {
    const e = onSide(s, FACE.eye);
    ell('head', R.Skin, e, [R0 + 0.0018, R0 + 0.0018, R0 + 0.0018], 0.003, AXES_IDENTITY, 'union',
      { point: add(e, [0, 0.0042, 0]), normal: normalize([0, -1, 0.32]) });
    ell('head', R.Skin, e, [R0 + 0.0013, R0 + 0.0013, R0 + 0.0013], 0.003, AXES_IDENTITY, 'union',
      { point: add(e, [0, -0.0062, 0]), normal: normalize([0, 1, 0.38]) });
  }
  // Mouth: a slit between the lips into a cavity.
  ell('head', R.Mouth, [0, FACE.mouth[1], 0.094], [FACE.mouthHalfWidth, 0.0012, 0.017], 0.001, AXES_IDENTITY, 'subtract');
  ell('head', R.Mouth, [0, FACE.mouth[1], 0.061], [0.018, 0.0095, 0.016], 0.003, AXES_IDENTITY, 'subtract');
  // Pointed ears: a thin leaf from the base up and back to a sharp tip.
  for (const s of ['l', 'r'] as const) {
    const base = onSide(s, FACE.earBase);
    const tip = onSide(s, FACE.earTip);
    const d = normalize(sub(tip, base));
    const out0 = normalize(onSide(s, [1, -0.15, 0.35]));
    const [ax, ay, az] = frame(d, cross(out0, d));
    const len = Math.hypot(...sub(tip, base));
    ell(`ear_${s}`, R.Skin, add(base, scale(d, len * 0.36)), [len * 0.42, 0.0135, 0.0052], 0.006, [ax, ay, az]);
    cone(`ear_tip_${s}`, R.Skin, add(base, scale(d, len * 0.55)), 0.0072, tip, 0.0012, 0.006);
  }
  // Paint: brows (hair colour), lips, the mouth's inside.
  for (const s of ['l', 'r'] as const) {
    const r = frame(onSide(s, [1, 0.1, -0.3]), [0, 1, 0]);
    ell('head', R.Hair, onSide(s, [0.031, 1.74, 0.09]), [0.02, 0.003, 0.03], 0, r, 'paint');
    const r2 = frame(onSide(s, [1, -0.35, -0.45]), [0, 1, 0]);
    ell('head', R.Hair, onSide(s, [0.047, 1.7365, 0.083]), [0.009, 0.0024, 0.03], 0, r2, 'paint');
  }
  ell('head', R.Lips, [0, 1.654, 0.089], [0.0205, 0.0102, 0.011], 0, AXES_IDENTITY, 'paint');
  ell('head', R.Mouth, [0, 1.654, 0.063], [0.0195, 0.011, 0.0185], 0, AXES_IDENTITY, 'paint');
  // The Walker's belt decal would sit on the dress: Dawn wears a sash instead.
  ell('spine_01', R.Shoes, [0, 1.02, 0.0], [0.3, 0.012, 0.3], 0, AXES_IDENTITY, 'paint');
  return out;
}

/** The hair solid (its own mesh): a cap cut at the hairline, volume, a fringe, locks on chains. */
export function dawnHairPrimitives(rig: Rig): Primitive[] {
  const B = (name: string): number => {
    const i = rig.index.get(name);
    if (i === undefined) throw new Error(`dawn hair: no bone '${name}'`);
    return i;
  };
  const out: Primitive[] = [];
  const H = DawnRegion.Hair;
  out.push({
    kind: 'ellipsoid', center: [0, 1.728, -0.014], radii: [0.0855, 0.1035, 0.1075], axes: AXES_IDENTITY,
    k: 0.008, op: 'union', bone: B('head'), tag: H,
    clip: { point: [0, 1.775, 0.082], normal: normalize([0, -1, 0.85]) },
  });
  out.push({ kind: 'ellipsoid', center: [0, 1.79, -0.012], radii: [0.074, 0.052, 0.088], axes: AXES_IDENTITY, k: 0.03, op: 'union', bone: B('head'), tag: H });
  out.push({
    kind: 'ellipsoid', center: [0.022, 1.782, 0.068], radii: [0.072, 0.02, 0.04],
    axes: frame([1, -0.32, 0.12], [0, 1, 0.3]), k: 0.02, op: 'union', bone: B('head'), tag: H,
  });
  for (const c of hairChains()) {
    for (let k = 0; k + 1 < c.points.length; k++) {
      out.push({
        kind: 'cone', a: c.points[k]!, b: c.points[k + 1]!, ra: c.radii[k]!, rb: c.radii[k + 1]!,
        k: 0.02, op: 'union', bone: B(`${c.name}_0${k + 1}`), tag: H,
      });
    }
  }
  // Tucked behind the ears: the hair leaves them free.
  for (const s of ['l', 'r'] as const) {
    out.push({
      kind: 'ellipsoid', center: onSide(s, [0.086, 1.708, 0.004]), radii: [0.024, 0.03, 0.03], axes: AXES_IDENTITY,
      k: 0.012, op: 'subtract', bone: B('head'), tag: H,
    });
  }
  return out;
}
