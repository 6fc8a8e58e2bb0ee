import { mat4, quat, vec3 } from 'gl-matrix';
import { LoadError } from './errors.ts';
import { flipWinding } from './handedness.ts';
import { MAX_INFLUENCES, TRS_STRIDE, type Scene } from './types.ts';

/**
 * Shared load-time steps the loaders call after parsing: influence normalisation, rest pose from
 * inverse binds, and the final validation of a Scene. Load time only: these allocate freely.
 */

/**
 * Sorts each vertex's MAX_INFLUENCES (joint, weight) pairs by descending weight, zeroes negative or
 * non-finite weights, and rescales to sum 1. A vertex whose weights are all zero gets weight 1 on its
 * first joint. Returns the largest influence count and how many vertices needed rescaling.
 */
export function normaliseInfluences(
  joints: Uint16Array,
  weights: Float32Array,
  vertexCount: number,
): { maxInfluences: number; rescaled: number; empty: number } {
  let maxInfluences = 0;
  let rescaled = 0;
  let empty = 0;
  const j = [0, 0, 0, 0];
  const w = [0, 0, 0, 0];
  for (let v = 0; v < vertexCount; v++) {
    const o = v * MAX_INFLUENCES;
    let sum = 0;
    for (let k = 0; k < MAX_INFLUENCES; k++) {
      const wk = weights[o + k]!;
      w[k] = Number.isFinite(wk) && wk > 0 ? wk : 0;
      j[k] = joints[o + k]!;
      sum += w[k]!;
    }
    if (sum <= 0) {
      empty++;
      w[0] = 1;
      w[1] = w[2] = w[3] = 0;
      sum = 1;
    } else if (Math.abs(sum - 1) > 1e-3) {
      rescaled++;
    }
    // Insertion sort of 4 pairs, descending by weight.
    for (let a = 1; a < MAX_INFLUENCES; a++) {
      const wa = w[a]!;
      const ja = j[a]!;
      let b = a - 1;
      while (b >= 0 && w[b]! < wa) {
        w[b + 1] = w[b]!;
        j[b + 1] = j[b]!;
        b--;
      }
      w[b + 1] = wa;
      j[b + 1] = ja;
    }
    let count = 0;
    for (let k = 0; k < MAX_INFLUENCES; k++) {
      const wk = w[k]! / sum;
      weights[o + k] = wk;
      joints[o + k] = wk > 0 ? j[k]! : 0;
      if (wk > 0) count++;
    }
    if (count > maxInfluences) maxInfluences = count;
  }
  return { maxInfluences, rescaled, empty };
}

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
 * matrix of node i is invBind[i]⁻¹, and its local is bindModel[parent]⁻¹ · bindModel[i].
 */
export function restFromInvBind(parents: Int16Array, invBind: Float32Array): Float32Array {
  const n = parents.length;
  const out = new Float32Array(n * TRS_STRIDE);
  const model: mat4[] = [];
  const local = mat4.create();
  const parentInv = mat4.create();
  for (let i = 0; i < n; i++) {
    const m = mat4.create();
    const inv = invBind.subarray(i * 16, i * 16 + 16) as unknown as mat4;
    if (!mat4.invert(m, inv)) mat4.identity(m);
    model.push(m);
    const p = parents[i]!;
    if (p < 0) mat4.copy(local, m);
    else {
      if (!mat4.invert(parentInv, model[p]!)) mat4.identity(parentInv);
      mat4.multiply(local, parentInv, m);
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

function finite(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i]!)) return false;
  return true;
}

/**
 * Structural checks every loader's output must pass before anything downstream sees it. Throws
 * LoadError with a message naming the offending part; never lets an out-of-range index through.
 */
export function validateScene(scene: Scene): void {
  const where = scene.name;
  const { parents, names, restLocal } = scene.skeleton;
  const n = parents.length;
  if (n === 0) throw new LoadError(`${where}: the model has no nodes`);
  if (names.length !== n || restLocal.length !== n * TRS_STRIDE) {
    throw new LoadError(`${where}: skeleton arrays disagree in length`);
  }
  for (let i = 0; i < n; i++) {
    const p = parents[i]!;
    if (p >= i || p < -1) throw new LoadError(`${where}: node '${names[i]}' has parent ${p}, which does not come before it`);
  }
  if (!finite(restLocal)) throw new LoadError(`${where}: the rest pose contains NaN or infinite values`);
  if (scene.meshes.length === 0) throw new LoadError(`${where}: the file contains no mesh`);
  for (const m of scene.meshes) {
    const label = `${where}: mesh '${m.name}'`;
    const vc = m.vertexCount;
    if (m.positions.length !== vc * 3 || m.normals.length !== vc * 3) throw new LoadError(`${label}: vertex arrays disagree in length`);
    if (m.joints.length !== vc * MAX_INFLUENCES || m.weights.length !== vc * MAX_INFLUENCES) {
      throw new LoadError(`${label}: influence arrays disagree in length`);
    }
    if (!finite(m.positions)) throw new LoadError(`${label}: vertex positions contain NaN or infinite values`);
    if (m.indices.length % 3 !== 0) throw new LoadError(`${label}: index count is not a multiple of 3`);
    for (let i = 0; i < m.indices.length; i++) {
      if (m.indices[i]! >= vc) throw new LoadError(`${label}: triangle ${Math.floor(i / 3)} uses vertex ${m.indices[i]}, but there are ${vc}`);
    }
    const slots = m.bones.length;
    if (m.invBind.length !== slots * 16) throw new LoadError(`${label}: ${slots} bones but ${m.invBind.length / 16} offset matrices`);
    for (let k = 0; k < slots; k++) {
      const b = m.bones[k]!;
      if (b < 0 || b >= n) throw new LoadError(`${label}: bone slot ${k} names node ${b}, but there are ${n}`);
    }
    for (let i = 0; i < m.joints.length; i++) {
      if (m.joints[i]! >= slots && m.weights[i]! > 0) {
        throw new LoadError(`${label}: vertex ${Math.floor(i / MAX_INFLUENCES)} uses bone ${m.joints[i]}, but the mesh has ${slots}`);
      }
    }
    const triangles = m.indices.length / 3;
    for (const s of m.subsets) {
      if (s.start < 0 || s.count < 0 || s.start + s.count > triangles) {
        throw new LoadError(`${label}: subset [${s.start}, ${s.start + s.count}) is outside its ${triangles} triangles`);
      }
      if (s.material < 0 || s.material >= Math.max(1, scene.materials.length)) {
        throw new LoadError(`${label}: subset uses material ${s.material}, but there are ${scene.materials.length}`);
      }
    }
  }
  for (const c of scene.clips) {
    for (const t of c.tracks) {
      if (t.node < 0 || t.node >= n) throw new LoadError(`${where}: clip '${c.name}' animates node ${t.node}, but there are ${n}`);
    }
  }
}
