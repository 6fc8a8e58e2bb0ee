import { mat4, quat, vec3 } from 'gl-matrix';
import { flipWinding } from './handedness.ts';
import { TRS_STRIDE } from './types.ts';

export { normaliseInfluences } from './influences.ts';
export { validateScene } from './validate.ts';

/**
 * Shared load-time steps the loaders call after parsing: influence normalisation, rest pose from
 * inverse binds, and the final validation of a Scene. Load time only: these allocate freely.
 */

/** Writes translation, rotation (xyzw) and scale of the column-major matrix `m` as TRS at out[o..o+10]. */
export function decomposeTRS(m: mat4, out: Float32Array, o: number): void {
  const t = vec3.create();
  const s = vec3.create();
  const r = quat.create();
  mat4.getTranslation(t, m);
  mat4.getScaling(s, m);
  // A mirrored basis (negative determinant) is carried by a negative X scale.
  if (mat4.determinant(m) < 0) s[0] = -s[0];
  const rot = mat4.clone(m);
  for (let c = 0; c < 3; c++) {
    const inv = s[c] !== 0 ? 1 / s[c]! : 0;
    rot[c * 4] = rot[c * 4]! * inv;
    rot[c * 4 + 1] = rot[c * 4 + 1]! * inv;
    rot[c * 4 + 2] = rot[c * 4 + 2]! * inv;
  }
  mat4.getRotation(r, rot);
  quat.normalize(r, r);
  out.set(t, o);
  out.set(r, o + 3);
  out.set(s, o + 7);
}

/**
 * Rest locals for a skeleton that stores only inverse bind matrices (Luna .m3d): the bind model
 * matrix of node i is invBind[i]⁻¹, and its local is bindModel[parent]⁻¹ · bindModel[i]. Works in any
 * node order (validateScene later puts parents first); a singular matrix counts as the identity.
 */
export function restFromInvBind(parents: Int16Array, invBind: Float32Array): Float32Array {
  const n = parents.length;
  const out = new Float32Array(n * TRS_STRIDE);
  const model = new Float32Array(n * 16);
  const m = mat4.create();
  for (let i = 0; i < n; i++) {
    const inv = invBind.subarray(i * 16, i * 16 + 16) as unknown as mat4;
    if (!mat4.invert(m, inv)) mat4.identity(m);
    model.set(m, i * 16);
  }
  const local = mat4.create();
  const parentInv = mat4.create();
  for (let i = 0; i < n; i++) {
    const self = model.subarray(i * 16, i * 16 + 16) as unknown as mat4;
    const p = parents[i]!;
    if (p < 0 || p >= n) mat4.copy(local, self);
    else {
      if (!mat4.invert(parentInv, model.subarray(p * 16, p * 16 + 16) as unknown as mat4)) mat4.identity(parentInv);
      mat4.multiply(local, parentInv, self);
    }
    decomposeTRS(local, out, i * TRS_STRIDE);
  }
  return out;
}

/** Identity TRS for `n` nodes. */
export function identityTRS(n: number): Float32Array {
  const out = new Float32Array(n * TRS_STRIDE);
  for (let i = 0; i < n; i++) {
    out[i * TRS_STRIDE + 6] = 1;
    out[i * TRS_STRIDE + 7] = 1;
    out[i * TRS_STRIDE + 8] = 1;
    out[i * TRS_STRIDE + 9] = 1;
  }
  return out;
}

/**
 * Makes triangles wind counter-clockwise around their outward side, taking the file's vertex normals
 * as the truth: when most triangles' CCW geometric normals point against the mean of their vertex
 * normals, every triangle is turned round. Returns true when it flipped. Degenerate triangles abstain.
 */
export function orientWinding(indices: Uint32Array, positions: Float32Array, normals: Float32Array): boolean {
  let agree = 0;
  let disagree = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3;
    const b = indices[t + 1]! * 3;
    const c = indices[t + 2]! * 3;
    const e1x = positions[b]! - positions[a]!;
    const e1y = positions[b + 1]! - positions[a + 1]!;
    const e1z = positions[b + 2]! - positions[a + 2]!;
    const e2x = positions[c]! - positions[a]!;
    const e2y = positions[c + 1]! - positions[a + 1]!;
    const e2z = positions[c + 2]! - positions[a + 2]!;
    const gx = e1y * e2z - e1z * e2y;
    const gy = e1z * e2x - e1x * e2z;
    const gz = e1x * e2y - e1y * e2x;
    const d =
      gx * (normals[a]! + normals[b]! + normals[c]!) +
      gy * (normals[a + 1]! + normals[b + 1]! + normals[c + 1]!) +
      gz * (normals[a + 2]! + normals[b + 2]! + normals[c + 2]!);
    if (d > 0) agree++;
    else if (d < 0) disagree++;
  }
  if (disagree <= agree) return false;
  flipWinding(indices);
  return true;
}
