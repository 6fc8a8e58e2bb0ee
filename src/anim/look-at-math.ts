/**
 * Look-at's per-frame arithmetic on caller-owned pose buffers (look-at.ts): quaternions in a module
 * Float64Array scratch (doubles cross calls through its slots, never as arguments), axis changes of frame,
 * and the refresh of model matrices after a local rotation changed.
 *
 * Contract: locals TRS_STRIDE (10) floats per node (t 3, r 4 xyzw, s 3), model 16 floats per node,
 * column-major, node → model, as local-to-model.ts. Single-threaded scratch; no allocation. No WebGL.
 */

import { composeTRS } from './local-to-model.ts';

/** 4x4 scratch (column-major); quatFromRotation reads its 3x3. */
export const _m = new Float32Array(16);
/** 0..2 axis, 3 angle (radians), 4..7 quaternion, 8..11 quaternion, 12..13 yaw/pitch. */
export const _s = new Float64Array(16);

/** out[o..o+4] ← unit quaternion (xyzw) of the rotation in _m's 3x3 (column-major), Shepperd's method. */
export function quatFromRotation(out: Float32Array, o: number): void {
  const m00 = _m[0]!, m01 = _m[4]!, m02 = _m[8]!;
  const m10 = _m[1]!, m11 = _m[5]!, m12 = _m[9]!;
  const m20 = _m[2]!, m21 = _m[6]!, m22 = _m[10]!;
  const tr = m00 + m11 + m22;
  let x: number, y: number, z: number, w: number;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    w = 0.25 * s;
    x = (m21 - m12) / s;
    y = (m02 - m20) / s;
    z = (m10 - m01) / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    w = (m21 - m12) / s;
    x = 0.25 * s;
    y = (m01 + m10) / s;
    z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    w = (m02 - m20) / s;
    x = (m01 + m10) / s;
    y = 0.25 * s;
    z = (m12 + m21) / s;
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    w = (m10 - m01) / s;
    x = (m02 + m20) / s;
    y = (m12 + m21) / s;
    z = 0.25 * s;
  }
  const len = Math.sqrt(x * x + y * y + z * z + w * w);
  if (!(len > 0)) return;
  out[o] = x / len;
  out[o + 1] = y / len;
  out[o + 2] = z / len;
  out[o + 3] = w / len;
}

/** _s[0..2] ← normalize(parentRotationᵀ · _s[0..2]) (model axis → parent frame); false if degenerate. */
export function axisToParent(model: Float32Array, p: number): boolean {
  let x = _s[0]!, y = _s[1]!, z = _s[2]!;
  if (p >= 0) {
    const o = p * 16;
    const ax = model[o]! * x + model[o + 1]! * y + model[o + 2]! * z;
    const ay = model[o + 4]! * x + model[o + 5]! * y + model[o + 6]! * z;
    const az = model[o + 8]! * x + model[o + 9]! * y + model[o + 10]! * z;
    x = ax;
    y = ay;
    z = az;
  }
  const len = Math.sqrt(x * x + y * y + z * z);
  if (!(len > 1e-12)) return false;
  _s[0] = x / len;
  _s[1] = y / len;
  _s[2] = z / len;
  return true;
}

export function identityAt(o: number): void {
  _s[o] = 0;
  _s[o + 1] = 0;
  _s[o + 2] = 0;
  _s[o + 3] = 1;
}

/** _s[o..o+4] ← quaternion of angle _s[3] about unit axis _s[0..2]. */
export function axisAngleAt(o: number): void {
  const h = _s[3]! * 0.5;
  const s = Math.sin(h);
  _s[o] = _s[0]! * s;
  _s[o + 1] = _s[1]! * s;
  _s[o + 2] = _s[2]! * s;
  _s[o + 3] = Math.cos(h);
}

/** _s[a..a+4] ← _s[a] · _s[b] (xyzw; b applied first). */
export function mulAt(a: number, b: number): void {
  const ax = _s[a]!, ay = _s[a + 1]!, az = _s[a + 2]!, aw = _s[a + 3]!;
  const bx = _s[b]!, by = _s[b + 1]!, bz = _s[b + 2]!, bw = _s[b + 3]!;
  _s[a] = aw * bx + ax * bw + ay * bz - az * by;
  _s[a + 1] = aw * by - ax * bz + ay * bw + az * bx;
  _s[a + 2] = aw * bz + ax * by - ay * bx + az * bw;
  _s[a + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** model[i] ← model[parent] · T·R·S(locals[i]), as localToModel computes it. */
export function refreshNode(parents: Int16Array, locals: Float32Array, model: Float32Array, i: number): void {
  const p = parents[i]!;
  const o = i * 16;
  if (p < 0) {
    composeTRS(locals, i, model, o);
    return;
  }
  composeTRS(locals, i, _m, 0);
  const a = p * 16;
  for (let c = 0; c < 4; c++) {
    const b0 = _m[c * 4]!, b1 = _m[c * 4 + 1]!, b2 = _m[c * 4 + 2]!, b3 = _m[c * 4 + 3]!;
    for (let r = 0; r < 4; r++) {
      model[o + c * 4 + r] = model[a + r]! * b0 + model[a + 4 + r]! * b1 + model[a + 8 + r]! * b2 + model[a + 12 + r]! * b3;
    }
  }
}

export function refreshPath(parents: Int16Array, locals: Float32Array, model: Float32Array, nodes: Int16Array): void {
  for (let k = 0; k < nodes.length; k++) refreshNode(parents, locals, model, nodes[k]!);
}
