import { DawnRegion, type WingLayout } from './dawn-body.ts';
import type { Vec3 } from './sdf-primitives.ts';

/**
 * Dawn's parametric parts: eyeballs and wings, as indexed triangle pieces with per-triangle material
 * slots and per-vertex bone influences, for dawn.ts to merge into the head and wing meshes.
 *
 * Contract
 * - Pieces are closed (a UV sphere; a wing is a flattened closed shell with poles at root and tip),
 *   wound counter-clockwise seen from outside, in bind space (metres).
 * - Influences: up to 2 bones per vertex (`joints`/`weights`, 4 slots, descending, summing to 1).
 * - uvs: 2 floats per vertex in [0, 1]; tangents: 4 floats (unit xyz along increasing u, w = ±1).
 */

export interface Piece {
  positions: number[];
  normals: number[];
  uvs: number[];
  tangents: number[];
  joints: number[];
  weights: number[];
  indices: number[];
  /** Material slot per triangle. */
  triMaterial: number[];
}

export function emptyPiece(): Piece {
  return { positions: [], normals: [], uvs: [], tangents: [], joints: [], weights: [], indices: [], triMaterial: [] };
}

const norm = (v: number[]): Vec3 => {
  const l = Math.hypot(v[0]!, v[1]!, v[2]!) || 1;
  return [v[0]! / l, v[1]! / l, v[2]! / l];
};

/**
 * Eyeball: a sphere of `radius` at `center`, pole looking along +Z. Rings at the pupil and iris edges
 * (angles from the front pole) so the materials meet on ring lines. All weight on `bone`.
 */
export function eyeball(piece: Piece, center: Vec3, radius: number, bone: number, segments: number): void {
  const pupil = 0.2;
  const iris = 0.5;
  const rings: number[] = [0, pupil * 0.5, pupil, (pupil + iris) / 2, iris];
  const rest = Math.max(4, Math.round(segments / 2));
  for (let i = 1; i <= rest; i++) rings.push(iris + ((Math.PI - iris) * i) / rest);
  const base = piece.positions.length / 3;
  const ringStart: number[] = [];
  // Pole vertex, then each ring of `segments` vertices, then the back pole.
  const push = (theta: number, phi: number): void => {
    const s = Math.sin(theta);
    const n: Vec3 = [s * Math.cos(phi), s * Math.sin(phi), Math.cos(theta)];
    piece.positions.push(center[0] + radius * n[0], center[1] + radius * n[1], center[2] + radius * n[2]);
    piece.normals.push(...n);
    piece.uvs.push(phi / (2 * Math.PI), theta / Math.PI);
    const t = norm([-Math.sin(phi), Math.cos(phi), 0]);
    piece.tangents.push(t[0], t[1], t[2], 1);
    piece.joints.push(bone, 0, 0, 0);
    piece.weights.push(1, 0, 0, 0);
  };
  push(0, 0);
  for (let r = 1; r < rings.length - 1; r++) {
    ringStart.push(piece.positions.length / 3);
    for (let k = 0; k < segments; k++) push(rings[r]!, (2 * Math.PI * k) / segments);
  }
  const back = piece.positions.length / 3;
  push(Math.PI, 0);
  const mat = (r: number): number => {
    const mid = (rings[r]! + rings[r + 1]!) / 2;
    return mid < pupil ? DawnRegion.Pupil : mid < iris ? DawnRegion.Eyes : DawnRegion.Sclera;
  };
  // Counter-clockwise from outside: with the pole along +Z and phi increasing counter-clockwise seen from +Z.
  for (let k = 0; k < segments; k++) {
    const k1 = (k + 1) % segments;
    piece.indices.push(base, ringStart[0]! + k, ringStart[0]! + k1);
    piece.triMaterial.push(mat(0));
  }
  for (let r = 0; r + 1 < ringStart.length; r++) {
    const a = ringStart[r]!, b = ringStart[r + 1]!;
    for (let k = 0; k < segments; k++) {
      const k1 = (k + 1) % segments;
      piece.indices.push(a + k, b + k, b + k1, a + k, b + k1, a + k1);
      piece.triMaterial.push(mat(r + 1), mat(r + 1));
    }
  }
  const last = ringStart[ringStart.length - 1]!;
  for (let k = 0; k < segments; k++) {
    const k1 = (k + 1) % segments;
    piece.indices.push(back, last + k1, last + k);
    piece.triMaterial.push(DawnRegion.Sclera);
  }
}

/** Width profile of a wing at s ∈ [0, 1] from root to tip (0 at both ends). */
function wingProfile(s: number): number {
  return Math.sin(Math.PI * Math.pow(s, 0.62)) * (1 - 0.25 * s);
}

/**
 * One wing as a thin closed shell: s along the wing (root → tip), phi around its thin cross-section.
 * Bones: `bones[k]` covers [joints[k], joints[k+1]) metres from the root (the first from 0), blended
 * linearly over ±2.5 cm at each joint. `mirror` mirrors x for the right side (winding kept outward).
 * Veins: triangles along the centre line and the rim use the vein material.
 */
export function wing(piece: Piece, w: WingLayout, bones: readonly number[], mirror: boolean, along: number, around: number): void {
  const base = piece.positions.length / 3;
  const sx = mirror ? -1 : 1;
  const thickness = 0.0022;
  const point = (s: number, phi: number): { p: Vec3; n: Vec3 } => {
    const a = s * w.length;
    const prof = wingProfile(s);
    const half = w.maxWidth * 0.5 * prof;
    // The centre line bows toward the leading edge (+width) near the tip.
    const bow = w.maxWidth * 0.18 * Math.sin(Math.PI * s) * s;
    const c = Math.cos(phi), sn = Math.sin(phi);
    const droop = -0.04 * s * s;
    const p = [0, 1, 2].map(
      (k) => w.root[k]! + w.dir[k]! * a + w.width[k]! * (bow + half * c) + w.normal[k]! * (thickness * Math.max(prof, 0.15) * sn + droop),
    );
    const n = norm([0, 1, 2].map((k) => w.normal[k]! * sn * 1.0 + w.width[k]! * c * 0.08));
    return { p: [p[0]! * sx, p[1]!, p[2]!], n: [n[0] * sx, n[1], n[2]] };
  };
  const joints = [0, ...w.joints.slice(1)];
  const influence = (s: number): [number, number, number, number] => {
    const a = s * w.length;
    let k = 0;
    while (k + 1 < joints.length && a >= joints[k + 1]!) k++;
    const blend = 0.025;
    // Toward the next joint.
    if (k + 1 < joints.length && a > joints[k + 1]! - blend) {
      const t = (a - (joints[k + 1]! - blend)) / (2 * blend);
      return t < 0.5 ? [bones[k]!, bones[k + 1]!, 1 - t, t] : [bones[k + 1]!, bones[k]!, t, 1 - t];
    }
    if (k > 0 && a < joints[k]! + blend) {
      const t = (a - (joints[k]! - blend)) / (2 * blend);
      return t < 0.5 ? [bones[k - 1]!, bones[k]!, 1 - t, t] : [bones[k]!, bones[k - 1]!, t, 1 - t];
    }
    return [bones[k]!, bones[k]!, 1, 0];
  };
  const ringS: number[] = [];
  for (let i = 1; i < along; i++) ringS.push(Math.pow(i / along, 1.15));
  const pushVertex = (s: number, phi: number): void => {
    const { p, n } = point(s, phi);
    piece.positions.push(...p);
    piece.normals.push(...n);
    piece.uvs.push(s, 0.5 + 0.5 * Math.cos(phi));
    const t = norm([w.dir[0] * sx, w.dir[1], w.dir[2]]);
    piece.tangents.push(t[0], t[1], t[2], 1);
    const [b0, b1, w0, w1] = influence(s);
    if (w1 > 0) {
      piece.joints.push(b0, b1, 0, 0);
      piece.weights.push(w0, w1, 0, 0);
    } else {
      piece.joints.push(b0, 0, 0, 0);
      piece.weights.push(1, 0, 0, 0);
    }
  };
  pushVertex(0, 0);
  for (const s of ringS) for (let k = 0; k < around; k++) pushVertex(s, (2 * Math.PI * k) / around);
  const tip = piece.positions.length / 3;
  pushVertex(1, 0);
  const ring = (i: number): number => base + 1 + i * around;
  // Veins: a strip along the centre line on both faces and the rim (the leading and trailing edges).
  const veinAt = (s: number, phi: number): boolean => {
    const c = Math.cos(phi);
    return (Math.abs(c) < 0.12 && s < 0.9) || Math.abs(c) > 0.97;
  };
  // Winding: the shell's outward side depends on the frame's handedness; mirrored wings swap.
  const flip = mirror;
  const tri = (a: number, b: number, c: number, s: number, phi: number): void => {
    if (flip) piece.indices.push(a, c, b);
    else piece.indices.push(a, b, c);
    piece.triMaterial.push(veinAt(s, phi) ? DawnRegion.WingVein : DawnRegion.Wing);
  };
  const dphi = (2 * Math.PI) / around;
  for (let k = 0; k < around; k++) {
    const k1 = (k + 1) % around;
    tri(base, ring(0) + k1, ring(0) + k, ringS[0]! / 2, (k + 0.5) * dphi);
  }
  for (let i = 0; i + 1 < ringS.length; i++) {
    const sMid = (ringS[i]! + ringS[i + 1]!) / 2;
    for (let k = 0; k < around; k++) {
      const k1 = (k + 1) % around;
      tri(ring(i) + k, ring(i) + k1, ring(i + 1) + k1, sMid, (k + 0.5) * dphi);
      tri(ring(i) + k, ring(i + 1) + k1, ring(i + 1) + k, sMid, (k + 0.5) * dphi);
    }
  }
  const lastRing = ring(ringS.length - 1);
  for (let k = 0; k < around; k++) {
    const k1 = (k + 1) % around;
    tri(tip, lastRing + k, lastRing + k1, 1, (k + 0.5) * dphi);
  }
}
