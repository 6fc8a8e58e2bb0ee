/**
 * Skinning with optimized centres of rotation (Le & Hodgins 2016): the CPU reference of the `cor`
 * technique (glsl/include/cor_pars.glsl does the same operations in the same order).
 *
 * Contract
 * - Cor palette (buildCorPalette): COR_STRIDE = 20 floats per slot, five vec4 that the shader's std140 block
 *   `Palette { vec4 u_cor[5 * PALETTE_SIZE]; }` reads as they are:
 *     [0..3]   the bone's rotation quaternion (x, y, z, w): the real part of anim/dual-quat.ts
 *              buildDualQuatPalette (the palette matrix's rotation once its column lengths are divided out);
 *     [4..7]   its bind-space axis scale (sx, sy, sz, 0), also from buildDualQuatPalette (a mirroring matrix
 *              carries a negative sz);
 *     [8..19]  rows 0, 1, 2 of the 3x4 palette matrix (row r = m[r][0], m[r][1], m[r][2], m[r][3]).
 *   buildCorPalette reads a matrix palette (16 floats per slot, column-major, bind → model space, the
 *   buildPalette output) and returns the shear buildDualQuatPalette reports (largest |cos| between two columns
 *   of a matrix; 0 for rotation × axis scale). No allocation once its scratch has grown to the palette's size,
 *   apart from the returned shear (a double returned from a call that is not inlined is boxed: 16 bytes a call).
 * - Weights: the first `influences` (1..4) of the vertex, renormalised to sum 1 exactly as skinMesh and
 *   skinMeshDualQuat do (stopping at the first weight that is not > 0; a vertex with none follows joints[0]).
 * - Rotation: q = normalise(Σ ±wₖ·qₖ), each qₖ flipped into the hemisphere of the first influence's quaternion
 *   q₀ (the sign is negative when dot(qₖ, q₀) < 0; exactly 180° apart, dot = 0, is NOT flipped: the quaternion
 *   is added as the palette gives it). |Σ| ≥ w₀ > 0 after the flips, so the normalisation never divides by 0.
 * - Scale (the paper assumes rigid bones; skinlab's palettes may carry an axis scale S, tiny.x's all do):
 *   s = Σ wₖ·Sₖ, applied along the bind-space axes before the rotation, as dual-quat does (Kavan et al. 2008
 *   §4.2). For bones without scale (S = 1) this is the paper's formula unchanged.
 * - Position (the paper's, with the scale): with c the vertex's centre (cor-centres.ts, bind space; morph
 *   targets do not move it) and L = Σ wₖ·Mₖ the linear blend of the palette matrices,
 *     p' = q · (s ∘ (p − c)) · q* + L·(c, 1)
 *   i.e. the blended rotation about the centre, translated to where linear blending puts the centre. One
 *   influence: p' = Rₖ·Sₖ·(p − c) + Mₖ·c = Mₖ·p for a bone without shear (and c = p, stored for such vertices,
 *   makes it exact even with shear). The rest pose (identity palette) gives p' = p.
 * - Normal: q · (n / s) · q* (the inverse scale, as dual-quat), normalised (zero stays zero), as skinMesh writes
 *   normals. Tangent (skinTangentsCor): q · (s ∘ t) · q*, normalised, its w kept.
 * - Same input and output conventions as skinMesh (positions/normals 3 floats per vertex, model space out);
 *   the outputs must not alias the mesh's arrays. No allocation.
 */

import { buildDualQuatPalette, DUAL_QUAT_STRIDE } from '../anim/dual-quat.ts';
import { MAX_INFLUENCES, type SkinnedMesh } from '../model/types.ts';

/** Floats per slot of the cor palette: quaternion, scale, 3 matrix rows (5 vec4). */
export const COR_STRIDE = 20;

/** buildDualQuatPalette's output, grown to the largest palette seen (no allocation once grown). */
let scratch = new Float32Array(64 * DUAL_QUAT_STRIDE);

export function buildCorPalette(palette: Float32Array, slots: number, out: Float32Array, outOffsetFloats = 0): number {
  if (scratch.length < slots * DUAL_QUAT_STRIDE) scratch = new Float32Array(slots * DUAL_QUAT_STRIDE);
  const shear = buildDualQuatPalette(palette, slots, scratch, 0);
  for (let k = 0; k < slots; k++) {
    const d = k * DUAL_QUAT_STRIDE;
    const o = outOffsetFloats + k * COR_STRIDE;
    const m = k * 16;
    out[o] = scratch[d]!;
    out[o + 1] = scratch[d + 1]!;
    out[o + 2] = scratch[d + 2]!;
    out[o + 3] = scratch[d + 3]!;
    out[o + 4] = scratch[d + 8]!;
    out[o + 5] = scratch[d + 9]!;
    out[o + 6] = scratch[d + 10]!;
    out[o + 7] = 0;
    for (let r = 0; r < 3; r++) {
      out[o + 8 + r * 4] = palette[m + r]!;
      out[o + 9 + r * 4] = palette[m + 4 + r]!;
      out[o + 10 + r * 4] = palette[m + 8 + r]!;
      out[o + 11 + r * 4] = palette[m + 12 + r]!;
    }
  }
  return shear;
}

/** The cor palette of the identity (bind) pose: quaternion (0, 0, 0, 1), scale 1, identity rows (the UBO's unwritten slots). */
export const COR_IDENTITY: readonly number[] = [0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];

/**
 * Blend of one vertex (module scratch, written by blendVertex): unit quaternion, scale, rows of L.
 * Reused by every call: no allocation.
 */
const B = new Float64Array(4 + 3 + 12);

/** Fills B for vertex v of `mesh` with the cor palette `cor` and `used` influences. */
function blendVertex(mesh: SkinnedMesh, cor: Float32Array, v: number, used: number): void {
  const joints = mesh.joints;
  const weights = mesh.weights;
  const iw = v * MAX_INFLUENCES;
  let sum = 0;
  for (let k = 0; k < used; k++) {
    const w = weights[iw + k]!;
    if (!(w > 0)) break;
    sum += w;
  }
  B.fill(0);
  const o0 = joints[iw]! * COR_STRIDE;
  const ax = cor[o0]!, ay = cor[o0 + 1]!, az = cor[o0 + 2]!, aw = cor[o0 + 3]!;
  const count = sum > 0 ? used : 1;
  const inv = sum > 0 ? 1 / sum : 1;
  for (let k = 0; k < count; k++) {
    const raw = sum > 0 ? weights[iw + k]! : 1;
    if (!(raw > 0)) break;
    const w = raw * inv;
    const o = joints[iw + k]! * COR_STRIDE;
    const qx = cor[o]!, qy = cor[o + 1]!, qz = cor[o + 2]!, qw = cor[o + 3]!;
    const ws = qx * ax + qy * ay + qz * az + qw * aw < 0 ? -w : w;
    B[0]! += ws * qx;
    B[1]! += ws * qy;
    B[2]! += ws * qz;
    B[3]! += ws * qw;
    B[4]! += w * cor[o + 4]!;
    B[5]! += w * cor[o + 5]!;
    B[6]! += w * cor[o + 6]!;
    for (let i = 0; i < 12; i++) B[7 + i]! += w * cor[o + 8 + i]!;
  }
  // Math.sqrt, not Math.hypot: V8 does not inline hypot, and its boxed result would allocate per vertex.
  const len = Math.sqrt(B[0]! * B[0]! + B[1]! * B[1]! + B[2]! * B[2]! + B[3]! * B[3]!);
  const il = len > 0 ? 1 / len : 0;
  B[0]! *= il;
  B[1]! *= il;
  B[2]! *= il;
  B[3]! *= il;
}

/** Rotated vector (x, y, z) by B's quaternion: v + 2 q.xyz × (q.xyz × v + q.w v), into R. */
const R = new Float64Array(3);
function rotate(x: number, y: number, z: number): void {
  const rx = B[0]!, ry = B[1]!, rz = B[2]!, rw = B[3]!;
  const cx = ry * z - rz * y + rw * x;
  const cy = rz * x - rx * z + rw * y;
  const cz = rx * y - ry * x + rw * z;
  R[0] = x + 2 * (ry * cz - rz * cy);
  R[1] = y + 2 * (rz * cx - rx * cz);
  R[2] = z + 2 * (rx * cy - ry * cx);
}

export function skinMeshCor(
  mesh: SkinnedMesh,
  centres: Float32Array,
  cor: Float32Array,
  outPositions: Float32Array,
  outNormals: Float32Array | null,
  influences = MAX_INFLUENCES,
): void {
  const pos = mesh.positions;
  const nrm = mesh.normals;
  const used = influences < 1 ? 1 : influences > MAX_INFLUENCES ? MAX_INFLUENCES : influences | 0;
  for (let v = 0; v < mesh.vertexCount; v++) {
    blendVertex(mesh, cor, v, used);
    const p = v * 3;
    const cx = centres[p]!, cy = centres[p + 1]!, cz = centres[p + 2]!;
    // L·(c, 1): the linear blend's image of the centre.
    const lx = B[7]! * cx + B[8]! * cy + B[9]! * cz + B[10]!;
    const ly = B[11]! * cx + B[12]! * cy + B[13]! * cz + B[14]!;
    const lz = B[15]! * cx + B[16]! * cy + B[17]! * cz + B[18]!;
    const sx = B[4]!, sy = B[5]!, sz = B[6]!;
    rotate((pos[p]! - cx) * sx, (pos[p + 1]! - cy) * sy, (pos[p + 2]! - cz) * sz);
    outPositions[p] = R[0]! + lx;
    outPositions[p + 1] = R[1]! + ly;
    outPositions[p + 2] = R[2]! + lz;
    if (outNormals !== null) {
      rotate(sx !== 0 ? nrm[p]! / sx : 0, sy !== 0 ? nrm[p + 1]! / sy : 0, sz !== 0 ? nrm[p + 2]! / sz : 0);
      const l2 = R[0]! * R[0]! + R[1]! * R[1]! + R[2]! * R[2]!;
      const il = l2 > 0 ? 1 / Math.sqrt(l2) : 0;
      outNormals[p] = R[0]! * il;
      outNormals[p + 1] = R[1]! * il;
      outNormals[p + 2] = R[2]! * il;
    }
  }
}

/**
 * Tangents (directions, w = 0) skinned as skinMeshCor skins them: the blended scale, then the blended rotation;
 * no centre, no translation. bindTangents/outTangents: 4 floats per vertex (xyz, bitangent sign w kept), xyz
 * normalised (zero stays zero). No allocation.
 */
export function skinTangentsCor(
  mesh: SkinnedMesh,
  bindTangents: Float32Array,
  cor: Float32Array,
  outTangents: Float32Array,
  influences = MAX_INFLUENCES,
): void {
  const used = influences < 1 ? 1 : influences > MAX_INFLUENCES ? MAX_INFLUENCES : influences | 0;
  for (let v = 0; v < mesh.vertexCount; v++) {
    blendVertex(mesh, cor, v, used);
    const q = v * 4;
    rotate(bindTangents[q]! * B[4]!, bindTangents[q + 1]! * B[5]!, bindTangents[q + 2]! * B[6]!);
    const l2 = R[0]! * R[0]! + R[1]! * R[1]! + R[2]! * R[2]!;
    const il = l2 > 0 ? 1 / Math.sqrt(l2) : 0;
    outTangents[q] = R[0]! * il;
    outTangents[q + 1] = R[1]! * il;
    outTangents[q + 2] = R[2]! * il;
    outTangents[q + 3] = bindTangents[q + 3]!;
  }
}
