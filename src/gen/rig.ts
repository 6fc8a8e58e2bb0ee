import { TRS_STRIDE, type Skeleton } from '../model/types.ts';
import type { Vec3 } from './sdf-primitives.ts';

/**
 * Skeleton description → model Skeleton, bind matrices and a small forward-kinematics helper used
 * to author clips.
 *
 * Contract
 * - A BoneSpec gives the bone's joint position `head` in bind model space (metres, +Y up, facing +Z)
 *   and optionally `tail` (where the bone's segment ends, used for skin weights and UVs; default:
 *   the head of its first child, else head + 5 cm along the parent's direction).
 * - Bind frames carry no rotation or scale: bind model matrix = translation(head). So a bone's local
 *   axes at rest are the model axes, local rest TRS = (head − parent head, identity, 1), and
 *   invBind = translation(−head). Clips can therefore be authored with model-space directions.
 * - Specs must list parents before children; `buildRig` throws otherwise.
 * - Matrices are 16 floats, column-major; quaternions (x, y, z, w).
 */

export interface BoneSpec {
  readonly name: string;
  /** Parent bone name, or null for the root. */
  readonly parent: string | null;
  readonly head: Vec3;
  readonly tail?: Vec3;
}

export interface Rig {
  readonly skeleton: Skeleton;
  readonly count: number;
  readonly index: ReadonlyMap<string, number>;
  /** Joint positions, 3 floats per bone, bind model space. */
  readonly heads: Float64Array;
  /** Segment ends, 3 floats per bone, bind model space. */
  readonly tails: Float64Array;
  /** Bind model matrices, 16 floats per bone. */
  readonly bindModel: Float32Array;
  /** Inverse bind matrices, 16 floats per bone (palette slot k = node k). */
  readonly invBind: Float32Array;
  /** Children of each bone, in index order. */
  readonly children: readonly (readonly number[])[];
}

export function buildRig(specs: readonly BoneSpec[]): Rig {
  const n = specs.length;
  const index = new Map<string, number>();
  const parents = new Int16Array(n);
  specs.forEach((s, i) => {
    if (index.has(s.name)) throw new Error(`rig: duplicate bone '${s.name}'`);
    if (s.parent === null) parents[i] = -1;
    else {
      const p = index.get(s.parent);
      if (p === undefined) throw new Error(`rig: bone '${s.name}' names parent '${s.parent}', which does not come before it`);
      parents[i] = p;
    }
    index.set(s.name, i);
  });
  const children: number[][] = specs.map(() => []);
  for (let i = 0; i < n; i++) if (parents[i]! >= 0) children[parents[i]!]!.push(i);

  const heads = new Float64Array(n * 3);
  specs.forEach((s, i) => heads.set(s.head, i * 3));
  const tails = new Float64Array(n * 3);
  specs.forEach((s, i) => {
    let t: Vec3;
    if (s.tail) t = s.tail;
    else if (children[i]!.length > 0) {
      const c = children[i]![0]!;
      t = [heads[c * 3]!, heads[c * 3 + 1]!, heads[c * 3 + 2]!];
    } else {
      const p = parents[i]!;
      let d: Vec3 = [0, 1, 0];
      if (p >= 0) {
        const dx = s.head[0] - heads[p * 3]!;
        const dy = s.head[1] - heads[p * 3 + 1]!;
        const dz = s.head[2] - heads[p * 3 + 2]!;
        const l = Math.hypot(dx, dy, dz);
        if (l > 1e-9) d = [dx / l, dy / l, dz / l];
      }
      t = [s.head[0] + d[0] * 0.05, s.head[1] + d[1] * 0.05, s.head[2] + d[2] * 0.05];
    }
    tails.set(t, i * 3);
  });

  const restLocal = new Float32Array(n * TRS_STRIDE);
  const bindModel = new Float32Array(n * 16);
  const invBind = new Float32Array(n * 16);
  for (let i = 0; i < n; i++) {
    const p = parents[i]!;
    const o = i * TRS_STRIDE;
    for (let c = 0; c < 3; c++) restLocal[o + c] = heads[i * 3 + c]! - (p >= 0 ? heads[p * 3 + c]! : 0);
    restLocal[o + 6] = 1;
    restLocal[o + 7] = restLocal[o + 8] = restLocal[o + 9] = 1;
    const m = i * 16;
    bindModel[m] = bindModel[m + 5] = bindModel[m + 10] = bindModel[m + 15] = 1;
    invBind[m] = invBind[m + 5] = invBind[m + 10] = invBind[m + 15] = 1;
    for (let c = 0; c < 3; c++) {
      bindModel[m + 12 + c] = heads[i * 3 + c]!;
      invBind[m + 12 + c] = -heads[i * 3 + c]!;
    }
  }
  return {
    skeleton: { names: specs.map((s) => s.name), parents, restLocal },
    count: n,
    index,
    heads,
    tails,
    bindModel,
    invBind,
    children,
  };
}

// ---------------------------------------------------------------------------------------------
// Quaternion helpers (x, y, z, w), Float64, allocation-free where they take `out`.

export type Quat = [number, number, number, number];

export function qIdentity(): Quat {
  return [0, 0, 0, 1];
}

/** a · b (apply b first, then a). */
export function qMul(a: readonly number[], b: readonly number[]): Quat {
  const [ax, ay, az, aw] = a as Quat;
  const [bx, by, bz, bw] = b as Quat;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

export function qConj(q: readonly number[]): Quat {
  return [-q[0]!, -q[1]!, -q[2]!, q[3]!];
}

export function qNormalize(q: readonly number[]): Quat {
  const l = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!) || 1;
  return [q[0]! / l, q[1]! / l, q[2]! / l, q[3]! / l];
}

/** Rotation of `angle` radians about `axis` (need not be unit). */
export function qAxisAngle(axis: readonly number[], angle: number): Quat {
  const l = Math.hypot(axis[0]!, axis[1]!, axis[2]!);
  if (l < 1e-12) return qIdentity();
  const s = Math.sin(angle / 2) / l;
  return [axis[0]! * s, axis[1]! * s, axis[2]! * s, Math.cos(angle / 2)];
}

export function qRotate(q: readonly number[], v: readonly number[]): Vec3 {
  const [x, y, z, w] = q as Quat;
  const [vx, vy, vz] = v as Vec3;
  // t = 2 · (q.xyz × v); v' = v + w·t + q.xyz × t
  const tx = 2 * (y * vz - z * vy);
  const ty = 2 * (z * vx - x * vz);
  const tz = 2 * (x * vy - y * vx);
  return [vx + w * tx + (y * tz - z * ty), vy + w * ty + (z * tx - x * tz), vz + w * tz + (x * ty - y * tx)];
}

/** Shortest rotation taking direction `from` to direction `to`. */
export function qFromTo(from: readonly number[], to: readonly number[]): Quat {
  const a = normalize(from);
  const b = normalize(to);
  const d = dot(a, b);
  if (d < -0.999999) {
    const axis = Math.abs(a[0]) < 0.9 ? cross(a, [1, 0, 0]) : cross(a, [0, 1, 0]);
    return qAxisAngle(axis, Math.PI);
  }
  const c = cross(a, b);
  return qNormalize([c[0], c[1], c[2], 1 + d]);
}

/** Rotation bending direction `dir` toward `toward` by `angle` radians (about dir × toward). */
export function qBend(dir: readonly number[], toward: readonly number[], angle: number): Quat {
  return qAxisAngle(cross(dir, toward), angle);
}

/**
 * Rotation mapping the frame (a, b) onto (a2, b2): a → a2 exactly, b → b2 as closely as possible.
 * Each pair is orthonormalised (b made perpendicular to a).
 */
export function qFrame(a: readonly number[], b: readonly number[], a2: readonly number[], b2: readonly number[]): Quat {
  const m0 = basis(a, b);
  const m1 = basis(a2, b2);
  // R = M1 · M0ᵀ, with the frames' vectors as columns.
  const r = (i: number, j: number): number => m1[0]![i]! * m0[0]![j]! + m1[1]![i]! * m0[1]![j]! + m1[2]![i]! * m0[2]![j]!;
  return qFromMatrix(r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0), r(2, 1), r(2, 2));
}

function basis(a: readonly number[], b: readonly number[]): [Vec3, Vec3, Vec3] {
  const x = normalize(a);
  const c = cross(x, b);
  const z = normalize(c);
  const y = cross(z, x);
  return [x, y, z];
}

/** Quaternion of a rotation matrix given by rows (m_rc). */
export function qFromMatrix(
  m00: number, m01: number, m02: number,
  m10: number, m11: number, m12: number,
  m20: number, m21: number, m22: number,
): Quat {
  const tr = m00 + m11 + m22;
  let q: Quat;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  return qNormalize(q);
}

export function qSlerp(a: readonly number[], b: readonly number[], t: number): Quat {
  let bx = b[0]!, by = b[1]!, bz = b[2]!, bw = b[3]!;
  let d = a[0]! * bx + a[1]! * by + a[2]! * bz + a[3]! * bw;
  if (d < 0) {
    d = -d;
    bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  if (d > 0.9995) {
    return qNormalize([a[0]! + (bx - a[0]!) * t, a[1]! + (by - a[1]!) * t, a[2]! + (bz - a[2]!) * t, a[3]! + (bw - a[3]!) * t]);
  }
  const th = Math.acos(d);
  const s0 = Math.sin((1 - t) * th) / Math.sin(th);
  const s1 = Math.sin(t * th) / Math.sin(th);
  return [a[0]! * s0 + bx * s1, a[1]! * s0 + by * s1, a[2]! * s0 + bz * s1, a[3]! * s0 + bw * s1];
}

// Small vector helpers.
export function dot(a: readonly number[], b: readonly number[]): number {
  return a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
}
export function cross(a: readonly number[], b: readonly number[]): Vec3 {
  return [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
}
export function normalize(a: readonly number[]): Vec3 {
  const l = Math.hypot(a[0]!, a[1]!, a[2]!) || 1;
  return [a[0]! / l, a[1]! / l, a[2]! / l];
}
export function sub(a: readonly number[], b: readonly number[]): Vec3 {
  return [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];
}
export function add(a: readonly number[], b: readonly number[]): Vec3 {
  return [a[0]! + b[0]!, a[1]! + b[1]!, a[2]! + b[2]!];
}
export function scale(a: readonly number[], s: number): Vec3 {
  return [a[0]! * s, a[1]! * s, a[2]! * s];
}
export function mirrorX(a: Vec3): Vec3 {
  return [-a[0], a[1], a[2]];
}

// ---------------------------------------------------------------------------------------------
// Pose and forward kinematics (authoring only; allocates).

/** A local pose: per bone a rotation (xyzw) and translation (parent space), scale fixed at 1. */
export class Pose {
  readonly rot: Float64Array;
  readonly trans: Float64Array;
  /** World (model-space) rotation and position per bone, valid after `solve()`. */
  readonly worldRot: Float64Array;
  readonly worldPos: Float64Array;

  constructor(readonly rig: Rig) {
    const n = rig.count;
    this.rot = new Float64Array(n * 4);
    this.trans = new Float64Array(n * 3);
    this.worldRot = new Float64Array(n * 4);
    this.worldPos = new Float64Array(n * 3);
    this.reset();
  }

  reset(): void {
    const { restLocal } = this.rig.skeleton;
    for (let i = 0; i < this.rig.count; i++) {
      for (let c = 0; c < 3; c++) this.trans[i * 3 + c] = restLocal[i * TRS_STRIDE + c]!;
      this.rot.set([0, 0, 0, 1], i * 4);
    }
  }

  bone(name: string): number {
    const i = this.rig.index.get(name);
    if (i === undefined) throw new Error(`pose: no bone '${name}'`);
    return i;
  }

  setRot(name: string, q: readonly number[]): void {
    this.rot.set(qNormalize(q), this.bone(name) * 4);
  }

  getRot(name: string): Quat {
    const o = this.bone(name) * 4;
    return [this.rot[o]!, this.rot[o + 1]!, this.rot[o + 2]!, this.rot[o + 3]!];
  }

  /** Pre-multiplies the bone's local rotation: local = q · local (q expressed in the parent's frame). */
  rotate(name: string, q: readonly number[]): void {
    this.setRot(name, qMul(q, this.getRot(name)));
  }

  /** Adds `d` to the bone's local translation. */
  translate(name: string, d: readonly number[]): void {
    const o = this.bone(name) * 3;
    for (let c = 0; c < 3; c++) this.trans[o + c] = this.trans[o + c]! + d[c]!;
  }

  /** Computes world rotations and positions (parents before children). */
  solve(): this {
    const { parents } = this.rig.skeleton;
    for (let i = 0; i < this.rig.count; i++) {
      const p = parents[i]!;
      const lr = [this.rot[i * 4]!, this.rot[i * 4 + 1]!, this.rot[i * 4 + 2]!, this.rot[i * 4 + 3]!];
      const lt = [this.trans[i * 3]!, this.trans[i * 3 + 1]!, this.trans[i * 3 + 2]!];
      if (p < 0) {
        this.worldRot.set(lr, i * 4);
        this.worldPos.set(lt, i * 3);
      } else {
        const pr = this.worldQuat(p);
        this.worldRot.set(qMul(pr, lr), i * 4);
        const t = qRotate(pr, lt);
        for (let c = 0; c < 3; c++) this.worldPos[i * 3 + c] = this.worldPos[p * 3 + c]! + t[c]!;
      }
    }
    return this;
  }

  worldQuat(i: number): Quat {
    return [this.worldRot[i * 4]!, this.worldRot[i * 4 + 1]!, this.worldRot[i * 4 + 2]!, this.worldRot[i * 4 + 3]!];
  }

  /** World position of a bind-space point rigidly attached to bone `i` (valid after solve). */
  worldPoint(i: number, bindPoint: readonly number[]): Vec3 {
    const h = [this.rig.heads[i * 3]!, this.rig.heads[i * 3 + 1]!, this.rig.heads[i * 3 + 2]!];
    const r = qRotate(this.worldQuat(i), sub(bindPoint, h));
    return [this.worldPos[i * 3]! + r[0], this.worldPos[i * 3 + 1]! + r[1], this.worldPos[i * 3 + 2]! + r[2]];
  }

  /**
   * Sets bone `name`'s local rotation so that its world rotation becomes `world`
   * (requires the parent's world rotation to be current: call solve() first).
   */
  setWorldRot(name: string, world: readonly number[]): void {
    const i = this.bone(name);
    const p = this.rig.skeleton.parents[i]!;
    const pr = p >= 0 ? this.worldQuat(p) : qIdentity();
    this.setRot(name, qMul(qConj(pr), world));
  }
}
