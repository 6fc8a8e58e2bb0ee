import type { SkinnedMesh } from '../model/types.ts';
import { polarRotation } from './ddm-polar.ts';
import { DDM_OMEGA, DDM_SLOTS, type DdmData } from './ddm-precompute.ts';

/**
 * Direct delta mush at run time (Le & Lewis 2019, §3, variant 0): the CPU reference of the `ddm` technique's
 * transform-feedback pass (glsl/include/ddm_pars.glsl computes the same, in the same order).
 *
 * Per vertex i, with M_j the palette matrices (bind → model, affine) and Ω_ij from ddm-precompute.ts:
 *   Q_i = Σ_j M_j Ω_ij (4×4; its last row is Σ_j Ω_ij's, (p̄ᵀ, q₃₃)), divided by q₃₃;
 *   C = Q[0..2, 0..2] − q p̄ᵀ with q = Q[0..2, 3];  R = polarRotation(C) (ddm-polar.ts, tie-broken towards the
 *   vertex's largest bone);  t = q − R p̄;  v′ = R v + t,  n′ = R n,  tangent′ = R tangent.
 * Ω is stored centred on c_i (Ω′ = T Ω Tᵀ, T the translation by −c_i), so the sum runs over M_j T⁻¹ (M_j with
 * its translation replaced by M_j·(c_i, 1)), p̄ and v are taken relative to c_i: v′ = R (v − c_i) + q − R p̄′.
 * Slots are read in order and stop at the first with Ω[33] = 0 (kept slots are sorted by it, descending).
 *
 * Contract
 * - mesh: positions and normals in bind space (a morphed copy of the mesh gives the morphed vertex: v and n are
 *   the input's, Ω is the neutral mesh's); data: ddmData(mesh) of the neutral mesh.
 * - palette: 16 floats per slot from offset 0, column-major, bind → model (skinMesh's input).
 * - outPositions, outNormals (3 floats per vertex; normals are R n, unit for a unit input; null to skip),
 *   outTangents (4 floats per vertex: mesh.tangents re-orthonormalised against the input normal as the vertex
 *   shader does, rotated by R and normalised, w kept; skipped when absent or the mesh has no tangents).
 * - No allocation per call (module scratch).
 */

const _c = new Float64Array(9);
const _warm = new Float64Array(9);
const _r = new Float64Array(9);

export function skinMeshDdm(
  mesh: SkinnedMesh,
  data: DdmData,
  palette: Float32Array,
  outPositions: Float32Array,
  outNormals: Float32Array | null,
  outTangents?: Float32Array | null,
): void {
  const pos = mesh.positions;
  const nrm = mesh.normals;
  const tan = outTangents ? mesh.tangents : null;
  const bones = data.bones;
  const omega = data.omega;
  const c = _c, warm = _warm, r = _r;
  for (let v = 0; v < mesh.vertexCount; v++) {
    let q00 = 0, q01 = 0, q02 = 0, q03 = 0, q10 = 0, q11 = 0, q12 = 0, q13 = 0, q20 = 0, q21 = 0, q22 = 0, q23 = 0;
    let px = 0, py = 0, pz = 0, q33 = 0;
    const slot0 = bones[v * DDM_SLOTS]! * 16;
    const cx = data.centre[v * 3]!, cy = data.centre[v * 3 + 1]!, cz = data.centre[v * 3 + 2]!;
    for (let s = 0; s < DDM_SLOTS; s++) {
      const o = (v * DDM_SLOTS + s) * DDM_OMEGA;
      const w9 = omega[o + 9]!;
      if (w9 === 0) break;
      const w0 = omega[o]!, w1 = omega[o + 1]!, w2 = omega[o + 2]!, w3 = omega[o + 3]!, w4 = omega[o + 4]!;
      const w5 = omega[o + 5]!, w6 = omega[o + 6]!, w7 = omega[o + 7]!, w8 = omega[o + 8]!;
      const m = bones[v * DDM_SLOTS + s]! * 16;
      // Row r of M T⁻¹: (m[r], m[4 + r], m[8 + r], M·(c, 1) [r]); Ω′'s columns (w0 w1 w2 w3) (w1 w4 w5 w6) (w2 w5 w7 w8) (w3 w6 w8 w9).
      for (let row = 0; row < 3; row++) {
        const a = palette[m + row]!, b = palette[m + 4 + row]!, cc = palette[m + 8 + row]!;
        const d = a * cx + b * cy + cc * cz + palette[m + 12 + row]!;
        const x0 = a * w0 + b * w1 + cc * w2 + d * w3;
        const x1 = a * w1 + b * w4 + cc * w5 + d * w6;
        const x2 = a * w2 + b * w5 + cc * w7 + d * w8;
        const x3 = a * w3 + b * w6 + cc * w8 + d * w9;
        if (row === 0) { q00 += x0; q01 += x1; q02 += x2; q03 += x3; }
        else if (row === 1) { q10 += x0; q11 += x1; q12 += x2; q13 += x3; }
        else { q20 += x0; q21 += x1; q22 += x2; q23 += x3; }
      }
      px += w3;
      py += w6;
      pz += w8;
      q33 += w9;
    }
    const inv = q33 !== 0 ? 1 / q33 : 0;
    q00 *= inv; q01 *= inv; q02 *= inv; q03 *= inv;
    q10 *= inv; q11 *= inv; q12 *= inv; q13 *= inv;
    q20 *= inv; q21 *= inv; q22 *= inv; q23 *= inv;
    px *= inv; py *= inv; pz *= inv;
    // C = Q₃ₓ₃ − q p̄ᵀ, column-major.
    c[0] = q00 - q03 * px; c[1] = q10 - q13 * px; c[2] = q20 - q23 * px;
    c[3] = q01 - q03 * py; c[4] = q11 - q13 * py; c[5] = q21 - q23 * py;
    c[6] = q02 - q03 * pz; c[7] = q12 - q13 * pz; c[8] = q22 - q23 * pz;
    for (let k = 0; k < 3; k++) {
      warm[k * 3] = palette[slot0 + k * 4]!;
      warm[k * 3 + 1] = palette[slot0 + k * 4 + 1]!;
      warm[k * 3 + 2] = palette[slot0 + k * 4 + 2]!;
    }
    polarRotation(c, warm, r);
    const tx = q03 - (r[0]! * px + r[3]! * py + r[6]! * pz);
    const ty = q13 - (r[1]! * px + r[4]! * py + r[7]! * pz);
    const tz = q23 - (r[2]! * px + r[5]! * py + r[8]! * pz);
    const i = v * 3;
    const x = pos[i]! - cx, y = pos[i + 1]! - cy, z = pos[i + 2]! - cz;
    outPositions[i] = r[0]! * x + r[3]! * y + r[6]! * z + tx;
    outPositions[i + 1] = r[1]! * x + r[4]! * y + r[7]! * z + ty;
    outPositions[i + 2] = r[2]! * x + r[5]! * y + r[8]! * z + tz;
    const nx = nrm[i]!, ny = nrm[i + 1]!, nz = nrm[i + 2]!;
    if (outNormals) {
      outNormals[i] = r[0]! * nx + r[3]! * ny + r[6]! * nz;
      outNormals[i + 1] = r[1]! * nx + r[4]! * ny + r[7]! * nz;
      outNormals[i + 2] = r[2]! * nx + r[5]! * ny + r[8]! * nz;
    }
    if (tan && outTangents) {
      const j = v * 4;
      let ax = tan[j]!, ay = tan[j + 1]!, az = tan[j + 2]!;
      // The shader's re-orthonormalisation against the (possibly morphed) normal: unitOr(t − (t·n) n, t).
      const d = ax * nx + ay * ny + az * nz;
      const ox = ax - d * nx, oy = ay - d * ny, oz = az - d * nz;
      const ol = Math.hypot(ox, oy, oz);
      if (ol > 1e-20) { ax = ox / ol; ay = oy / ol; az = oz / ol; }
      const sx = r[0]! * ax + r[3]! * ay + r[6]! * az;
      const sy = r[1]! * ax + r[4]! * ay + r[7]! * az;
      const sz = r[2]! * ax + r[5]! * ay + r[8]! * az;
      const sl = Math.hypot(sx, sy, sz);
      const it = sl > 1e-20 ? 1 / sl : 0;
      outTangents[j] = sx * it;
      outTangents[j + 1] = sy * it;
      outTangents[j + 2] = sz * it;
      outTangents[j + 3] = tan[j + 3]!;
    }
  }
}
