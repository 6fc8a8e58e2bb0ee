import { AXES_IDENTITY, type Op, type Primitive, type Vec3 } from './sdf-primitives.ts';
import { add, buildRig, cross, normalize, scale, type BoneSpec, type Rig } from './rig.ts';
import type { JointBlend } from './weights.ts';

/**
 * The default skinlab character ("walker") as data: skeleton, implicit body, regions and joint
 * blends. No meshing or animation here (see humanoid.ts and humanoid-motion.ts).
 *
 * Space: bind model space, metres, right-handed, +Y up, facing +Z; feet on y = 0, about 1.8 tall.
 * The character's left side is +X. Arms hang in an A-pose ARM_DROP_DEG below horizontal, palms
 * toward the thighs, thumbs forward. Bones carry no bind rotation (see rig.ts).
 *
 * Left-side parts are written once and mirrored (x → −x) for the right side; names end in _l / _r.
 */

export const ARM_DROP_DEG = 42;

/** Material slots, in the order of `HUMANOID_MATERIALS` in humanoid.ts. */
export const Region = { Skin: 0, Shirt: 1, Trousers: 2, Shoes: 3, Hair: 4, Eyes: 5, Lips: 6 } as const;
export type Region = (typeof Region)[keyof typeof Region];

export type Side = 'l' | 'r';

const mirror = (v: Vec3): Vec3 => [-v[0], v[1], v[2]];

/** Geometry of one (left) arm in bind space, shared by the skeleton and the body. */
export interface ArmLayout {
  readonly clavicle: Vec3;
  readonly shoulder: Vec3;
  readonly elbow: Vec3;
  readonly wrist: Vec3;
  /** Unit directions: upper arm, forearm/hand (toward fingers), hand width (toward thumb), palm normal. */
  readonly upperDir: Vec3;
  readonly foreDir: Vec3;
  readonly handWidth: Vec3;
  readonly palm: Vec3;
  readonly knuckle: Vec3;
  /** Finger joints: [base, middle, tip] per finger (thumb, index, middle, ring, pinky). */
  readonly fingers: readonly (readonly [Vec3, Vec3, Vec3])[];
  readonly fingerRadius: readonly number[];
}

export const FINGERS = ['thumb', 'index', 'middle', 'ring', 'pinky'] as const;

export function leftArmLayout(): ArmLayout {
  const drop = (ARM_DROP_DEG * Math.PI) / 180;
  const clavicle: Vec3 = [0.022, 1.44, 0.008];
  const shoulder: Vec3 = [0.172, 1.432, -0.018];
  const upperDir = normalize([Math.cos(drop), -Math.sin(drop), -0.01]);
  const elbow = add(shoulder, scale(upperDir, 0.28));
  // A relaxed arm: the forearm leans slightly forward so the elbow hinge is well defined.
  const foreDir = normalize(add(upperDir, [0, 0, 0.14]));
  const wrist = add(elbow, scale(foreDir, 0.25));
  // Palm faces the thigh: perpendicular to the forearm in the arm's plane, pointing down and in.
  const palm0: Vec3 = [-Math.sin(drop), -Math.cos(drop), 0];
  const handWidth = normalize(cross(palm0, foreDir)); // ≈ +Z, toward the thumb
  const palm = normalize(cross(foreDir, handWidth));
  const at = (along: number, width: number, normal: number): Vec3 =>
    add(add(add(wrist, scale(foreDir, along)), scale(handWidth, width)), scale(palm, normal));
  const knuckle = at(0.086, 0, 0);
  // The four fingers form one relaxed "mitten" mass (the mesh grid cannot resolve separate
  // fingers): parallel chains with their joints on lines across the hand, so that equal curls move
  // them as one rigid piece, gently cupped toward the palm. Only the tip lengths differ (taper).
  const d1 = normalize(add(foreDir, scale(palm, 0.1)));
  const d2 = normalize(add(foreDir, scale(palm, 0.42)));
  const finger = (width: number, tipLength: number): [Vec3, Vec3, Vec3] => {
    const base = at(0.086, width, 0.001);
    const mid = add(base, scale(d1, 0.04));
    return [base, mid, add(mid, scale(d2, tipLength))];
  };
  const thumbBase = at(0.022, 0.024, 0.012);
  const thumbDir1 = normalize(add(add(scale(foreDir, 0.7), scale(handWidth, 0.58)), scale(palm, 0.42)));
  const thumbMid = add(thumbBase, scale(thumbDir1, 0.04));
  const thumbDir2 = normalize(add(add(scale(foreDir, 0.85), scale(handWidth, 0.3)), scale(palm, 0.45)));
  const fingers: [Vec3, Vec3, Vec3][] = [
    [thumbBase, thumbMid, add(thumbMid, scale(thumbDir2, 0.036))],
    finger(0.026, 0.036),
    finger(0.009, 0.044),
    finger(-0.009, 0.04),
    finger(-0.026, 0.028),
  ];
  return {
    clavicle, shoulder, elbow, wrist, upperDir, foreDir, handWidth, palm, knuckle, fingers,
    fingerRadius: [0.0148, 0.0138, 0.0142, 0.0138, 0.013],
  };
}

const ARM_LAYOUT = leftArmLayout();

export interface LegLayout {
  readonly hip: Vec3;
  readonly knee: Vec3;
  readonly ankle: Vec3;
  readonly ball: Vec3;
  readonly toeTip: Vec3;
  /** Points under the shoe that touch the ground at rest (heel, ball, toe), bind space. */
  readonly heelPoint: Vec3;
  readonly ballPoint: Vec3;
  readonly toePoint: Vec3;
}

export function leftLegLayout(): LegLayout {
  return {
    hip: [0.089, 0.925, 0.0],
    knee: [0.094, 0.505, 0.012],
    ankle: [0.092, 0.088, -0.018],
    ball: [0.097, 0.03, 0.11],
    toeTip: [0.1, 0.026, 0.178],
    heelPoint: [0.092, 0.0, -0.058],
    ballPoint: [0.097, 0.0, 0.11],
    toePoint: [0.1, 0.0, 0.17],
  };
}

/** Bone list, parents before children. */
export function humanoidBones(): BoneSpec[] {
  const arm = leftArmLayout();
  const leg = leftLegLayout();
  const bones: BoneSpec[] = [
    { name: 'hips', parent: null, head: [0, 0.97, 0.0] },
    { name: 'spine_01', parent: 'hips', head: [0, 1.055, -0.004] },
    { name: 'spine_02', parent: 'spine_01', head: [0, 1.17, -0.01] },
    { name: 'spine_03', parent: 'spine_02', head: [0, 1.29, -0.012] },
    { name: 'neck', parent: 'spine_03', head: [0, 1.468, -0.018] },
    { name: 'head', parent: 'neck', head: [0, 1.578, -0.004], tail: [0, 1.8, -0.004] },
    { name: 'jaw', parent: 'head', head: [0, 1.615, 0.012], tail: [0, 1.57, 0.078] },
  ];
  for (const side of ['l', 'r'] as const) {
    const m = side === 'l' ? (v: Vec3) => v : mirror;
    const s = (n: string): string => `${n}_${side}`;
    bones.push(
      { name: s('clavicle'), parent: 'spine_03', head: m(arm.clavicle) },
      { name: s('upper_arm'), parent: s('clavicle'), head: m(arm.shoulder) },
      { name: s('forearm'), parent: s('upper_arm'), head: m(arm.elbow) },
      { name: s('hand'), parent: s('forearm'), head: m(arm.wrist), tail: m(arm.knuckle) },
    );
    FINGERS.forEach((f, i) => {
      const [b, mid, tip] = arm.fingers[i]!;
      bones.push(
        { name: s(`${f}_01`), parent: s('hand'), head: m(b) },
        { name: s(`${f}_02`), parent: s(`${f}_01`), head: m(mid), tail: m(tip) },
      );
    });
  }
  for (const side of ['l', 'r'] as const) {
    const m = side === 'l' ? (v: Vec3) => v : mirror;
    const s = (n: string): string => `${n}_${side}`;
    bones.push(
      { name: s('thigh'), parent: 'hips', head: m(leg.hip) },
      { name: s('calf'), parent: s('thigh'), head: m(leg.knee) },
      { name: s('foot'), parent: s('calf'), head: m(leg.ankle) },
      { name: s('toe'), parent: s('foot'), head: m(leg.ball), tail: m(leg.toeTip) },
    );
  }
  return bones;
}

export function humanoidRig(): Rig {
  return buildRig(humanoidBones());
}

/** Joint blends (width, reach) by bone name pattern; see weights.ts. */
export function humanoidBlends(rig: Rig): JointBlend[] {
  const table: [RegExp, JointBlend][] = [
    [/^spine_0[123]$/, { width: 0.055, reach: 0.3 }],
    [/^neck$/, { width: 0.035, reach: 0.14 }],
    [/^head$/, { width: 0.03, reach: 0.14 }],
    [/^jaw$/, { width: 0.018, reach: 0.09 }],
    [/^clavicle_/, { width: 0.04, reach: 0.14 }],
    [/^upper_arm_/, { width: 0.055, reach: 0.13 }],
    [/^forearm_/, { width: 0.04, reach: 0.09 }],
    [/^hand_/, { width: 0.025, reach: 0.07, smooth: 0.6 }],
    [/^thumb_01_/, { width: 0.016, reach: 0.05, smooth: 0.4 }],
    [/_0[12]_[lr]$/, { width: 0.016, reach: 0.04, smooth: 0.3 }],
    [/^thigh_/, { width: 0.065, reach: 0.19 }],
    [/^calf_/, { width: 0.045, reach: 0.11 }],
    [/^foot_/, { width: 0.03, reach: 0.09 }],
    [/^toe_/, { width: 0.018, reach: 0.07 }],
  ];
  return rig.skeleton.names.map((n) => table.find(([re]) => re.test(n))?.[1] ?? { width: 0.03, reach: 0.1 });
}

// ---------------------------------------------------------------------------------------------
// The body as implicit primitives.

/** Orthonormal axes with the first along `a` and the second as close as possible to `b`. */
function frame(a: Vec3, b: Vec3): [Vec3, Vec3, Vec3] {
  const x = normalize(a);
  const z = normalize(cross(x, b));
  const y = cross(z, x);
  return [x, y, z];
}

/**
 * Primitives in evaluation order. `bone` indexes `rig`; `tag` is the default Region of the surface
 * a primitive generates (refined by `regionAt`).
 */
export function humanoidPrimitives(rig: Rig): Primitive[] {
  const B = (name: string): number => {
    const i = rig.index.get(name);
    if (i === undefined) throw new Error(`body: no bone '${name}'`);
    return i;
  };
  const out: Primitive[] = [];
  const cone = (bone: string, tag: Region, a: Vec3, ra: number, b: Vec3, rb: number, k: number, op: Op = 'union'): void => {
    out.push({ kind: 'cone', a, b, ra, rb, k, op, bone: B(bone), tag });
  };
  const ell = (bone: string, tag: Region, center: Vec3, radii: Vec3, k: number, axes = AXES_IDENTITY, op: Op = 'union'): void => {
    out.push({ kind: 'ellipsoid', center, radii, axes, k, op, bone: B(bone), tag });
  };

  // Torso, bottom to top.
  ell('hips', Region.Trousers, [0, 0.972, -0.006], [0.152, 0.1, 0.102], 0);
  for (const x of [0.066, -0.066]) ell('hips', Region.Trousers, [x, 0.918, -0.044], [0.082, 0.092, 0.074], 0.035);
  ell('spine_01', Region.Shirt, [0, 1.1, 0.004], [0.132, 0.12, 0.094], 0.07);
  ell('spine_02', Region.Shirt, [0, 1.215, -0.004], [0.142, 0.115, 0.097], 0.07);
  ell('spine_03', Region.Shirt, [0, 1.33, -0.012], [0.158, 0.135, 0.104], 0.06);
  for (const x of [0.062, -0.062]) ell('spine_03', Region.Shirt, [x, 1.352, 0.042], [0.072, 0.058, 0.05], 0.04);
  // Upper back.
  ell('spine_03', Region.Shirt, [0, 1.37, -0.045], [0.13, 0.1, 0.07], 0.05);

  // Neck and head.
  cone('neck', Region.Skin, [0, 1.43, -0.02], 0.056, [0, 1.615, -0.016], 0.046, 0.03);
  ell('head', Region.Skin, [0, 1.692, -0.006], [0.08, 0.097, 0.1], 0.03);
  // Jaw: a tapering wedge from below the ears to the chin.
  cone('jaw', Region.Skin, [0, 1.642, 0.012], 0.058, [0, 1.596, 0.05], 0.028, 0.03);
  for (const x of [0.05, -0.05]) cone('jaw', Region.Skin, [x, 1.632, -0.004], 0.022, [x * 0.25, 1.59, 0.054], 0.02, 0.025);
  for (const x of [0.04, -0.04]) ell('head', Region.Skin, [x, 1.652, 0.04], [0.032, 0.026, 0.04], 0.03);
  cone('head', Region.Skin, [0, 1.676, 0.093], 0.0075, [0, 1.652, 0.104], 0.0115, 0.012);
  for (const x of [0.082, -0.082]) {
    ell('head', Region.Skin, [x, 1.666, -0.008], [0.011, 0.03, 0.019], 0.008,
      frame([0, 1, 0.15], [Math.sign(x), 0, 0]) as [Vec3, Vec3, Vec3]);
  }
  cone('head', Region.Skin, [-0.05, 1.7, 0.083], 0.011, [0.05, 1.7, 0.083], 0.011, 0.016);
  // Eyes: slightly proud lenses (their own surface is the eye region).
  for (const x of [0.033, -0.033]) ell('head', Region.Eyes, [x, 1.675, 0.079], [0.0125, 0.0095, 0.0105], 0.004);
  // Hair: a shell over the cranium, cut along the hairline, with a little volume on top.
  out.push({
    kind: 'ellipsoid', center: [0, 1.71, -0.014], radii: [0.089, 0.099, 0.106], axes: AXES_IDENTITY,
    k: 0.008, op: 'union', bone: B('head'), tag: Region.Hair,
    clip: { point: [0, 1.748, 0.09], normal: normalize([0, -1, 0.78]) },
  });
  out.push({
    kind: 'ellipsoid', center: [0, 1.755, 0.0], radii: [0.07, 0.05, 0.085], axes: AXES_IDENTITY,
    k: 0.03, op: 'union', bone: B('head'), tag: Region.Hair,
  });
  // A fringe swept toward the character's left.
  out.push({
    kind: 'ellipsoid', center: [0.01, 1.75, 0.058], radii: [0.078, 0.024, 0.042],
    axes: frame([1, -0.2, 0.12], [0, 1, 0.3]), k: 0.02, op: 'union', bone: B('head'), tag: Region.Hair,
  });
  // Painted details: eyebrows (hair), mouth (lips).
  for (const x of [0.034, -0.034]) {
    const r = frame([Math.sign(x), -0.12, -0.25], [0, 1, 0]) as [Vec3, Vec3, Vec3];
    ell('head', Region.Hair, [x, 1.697, 0.09], [0.02, 0.0055, 0.04], 0, r, 'paint');
  }
  ell('jaw', Region.Lips, [0, 1.616, 0.1], [0.024, 0.0095, 0.04], 0, AXES_IDENTITY, 'paint');
  // Belt (shoe leather).
  ell('spine_01', Region.Shoes, [0, 0.99, 0.0], [0.3, 0.016, 0.3], 0, AXES_IDENTITY, 'paint');

  for (const side of ['l', 'r'] as const) {
    const m = side === 'l' ? (v: Vec3) => v : mirror;
    const mAxes = (a: [Vec3, Vec3, Vec3]): [Vec3, Vec3, Vec3] => [m(a[0]), m(a[1]), m(a[2])];
    const s = (n: string): string => `${n}_${side}`;
    const arm = leftArmLayout();
    // Shoulder girdle: trapezius slope and the shoulder cap.
    cone(s('clavicle'), Region.Shirt, m([0.03, 1.475, -0.028]), 0.045, m([0.15, 1.44, -0.024]), 0.045, 0.04);
    cone(s('clavicle'), Region.Shirt, m([0.02, 1.435, 0.0]), 0.05, m([0.15, 1.425, -0.012]), 0.05, 0.04);
    cone(s('upper_arm'), Region.Shirt, m(add(arm.shoulder, [0, 0.008, 0])), 0.058, m(add(arm.shoulder, scale(arm.upperDir, 0.1))), 0.047, 0.03);
    cone(s('upper_arm'), Region.Shirt, m(arm.shoulder), 0.047, m(arm.elbow), 0.036, 0.02);
    const foreMid = add(arm.elbow, scale(arm.foreDir, 0.085));
    cone(s('forearm'), Region.Skin, m(arm.elbow), 0.035, m(foreMid), 0.038, 0.02);
    cone(s('forearm'), Region.Skin, m(foreMid), 0.038, m(arm.wrist), 0.025, 0.02);
    // Hand: palm, the merged finger mass (one heavily blended round cone per finger segment, so
    // each finger bone still owns its strip of the mass), thumb. Nothing thinner than ~2.5 cells of
    // the default grid.
    const palmAxes = frame(arm.foreDir, arm.handWidth);
    ell(s('hand'), Region.Skin, m(add(arm.wrist, scale(arm.foreDir, 0.048))), [0.054, 0.044, 0.0215], 0.018, mAxes(palmAxes));
    FINGERS.forEach((f, i) => {
      const [b, mid, tip] = arm.fingers[i]!;
      const r = arm.fingerRadius[i]!;
      if (i === 0) {
        cone(s(`${f}_01`), Region.Skin, m(b), r, m(mid), r * 0.92, 0.016);
        cone(s(`${f}_02`), Region.Skin, m(mid), r * 0.92, m(tip), r * 0.86, 0.008);
        return;
      }
      // Start inside the palm so the knuckles blend in without a ridge.
      const back = add(b, scale(arm.foreDir, -0.012));
      cone(s(`${f}_01`), Region.Skin, m(back), r, m(mid), r * 0.93, 0.018);
      cone(s(`${f}_02`), Region.Skin, m(mid), r * 0.93, m(tip), r * 0.74, 0.016);
    });
  }
  for (const side of ['l', 'r'] as const) {
    const m = side === 'l' ? (v: Vec3) => v : mirror;
    const s = (n: string): string => `${n}_${side}`;
    const leg = leftLegLayout();
    cone(s('thigh'), Region.Trousers, m(add(leg.hip, [-0.004, 0.012, -0.004])), 0.084, m(leg.knee), 0.054, 0.03);
    ell(s('thigh'), Region.Trousers, m([0.096, 0.75, 0.022]), [0.06, 0.14, 0.058], 0.03);
    cone(s('calf'), Region.Trousers, m(leg.knee), 0.052, m(add(leg.ankle, [0, 0.02, 0.004])), 0.034, 0.02);
    ell(s('calf'), Region.Trousers, m([0.094, 0.36, -0.022]), [0.048, 0.1, 0.046], 0.03);
    // Shoe: heel, instep, toe box.
    cone(s('foot'), Region.Shoes, m(add(leg.ankle, [0, 0.015, 0.004])), 0.038, m([0.092, 0.055, -0.02]), 0.043, 0.02);
    ell(s('foot'), Region.Shoes, m([0.092, 0.045, -0.035]), [0.044, 0.046, 0.055], 0.02);
    ell(s('foot'), Region.Shoes, m([0.094, 0.044, 0.045]), [0.049, 0.044, 0.09], 0.025);
    ell(s('toe'), Region.Shoes, m([0.098, 0.033, 0.13]), [0.047, 0.033, 0.056], 0.02);
  }
  // Flat soles: cut everything below the ground.
  out.push({
    kind: 'plane', point: [0, 0, 0], normal: [0, -1, 0], box: [[-1, -1, -1], [1, 0.06, 1]],
    k: 0.006, op: 'intersect', bone: -1, tag: Region.Shoes,
  });
  return out;
}

/**
 * Region (material slot) of a surface point generated by primitive `prim` (bind space), before
 * paint decals. Sleeves, collar, waistband and trouser hems are cut by simple curves.
 */
export function regionAt(rig: Rig, prim: Primitive, p: Vec3): Region {
  const name = rig.skeleton.names[prim.bone] ?? '';
  const tag = prim.tag as Region;
  const [x, y, z] = p;
  if (tag === Region.Hair || tag === Region.Eyes || tag === Region.Shoes) return tag;
  if (name.startsWith('upper_arm') || name.startsWith('forearm')) {
    // Short sleeves, cut square to the upper arm 15 cm below the shoulder joint.
    const arm = ARM_LAYOUT;
    const along = (Math.abs(x) - arm.shoulder[0]) * arm.upperDir[0] + (y - arm.shoulder[1]) * arm.upperDir[1] + (z - arm.shoulder[2]) * arm.upperDir[2];
    return along < 0.15 ? Region.Shirt : Region.Skin;
  }
  if (name === 'neck' || tag === Region.Shirt) {
    // Crew neck: the shirt ends where the body surface enters an ellipsoid around the neck base,
    // which gives a round neckline, low in front and high at the back.
    const ex = x / 0.085;
    const ey = (y - 1.505) / 0.075;
    const ez = (z - 0.03) / 0.11;
    const skin = y > 1.505 || ex * ex + ey * ey + ez * ez < 1;
    if (name === 'neck' || skin) return skin ? Region.Skin : Region.Shirt;
  }
  if (tag === Region.Shirt || tag === Region.Trousers) {
    if (name.startsWith('calf') && y < 0.095) return Region.Shoes;
    if (name === 'hips' || name.startsWith('thigh') || name.startsWith('calf')) return Region.Trousers;
    // Waistband, slightly lower in front.
    return y < 0.995 - 0.012 * Math.max(0, Math.min(1, z / 0.08)) ? Region.Trousers : Region.Shirt;
  }
  return tag;
}
