import type { SkinnedMesh } from '../model/types.ts';
import { polarRotation } from './ddm-polar.ts';
import { DDM_OMEGA, DDM_SLOTS, type DdmData } from './ddm-precompute.ts';

/**
 * Direct delta mush at run time (Le & Lewis 2019, §3, variant 0): the CPU reference of the `ddm` technique's
 * transform-feedback pass (glsl/include/ddm_pars.glsl computes the same, in the same order).
 *
 * Per vertex i, with M_j = [R_j·S_j | t_j] the palette matrices (bind → model, affine; S_j = diag(sx, sy, sz) the
 * lengths of M_j's columns, sz negated where det M_j < 0, as dual-quat.ts extracts it) and Ω_ij from
 * ddm-precompute.ts:
 *   Q_i = Σ_j M_j Ω_ij (4×4; its last row is Σ_j Ω_ij's, (p̄ᵀ, q₃₃)), divided by q₃₃;
 *   s = Σ_j Ω_ij[33] S_j / q₃₃, the vertex's scale, blended with the smoothed shares Ω[33] (they are in the
 *   slots already; smooth across the mesh, so the scaled detail does not crease where the skin weights do);
 *   C = (Q[0..2, 0..2] − q p̄ᵀ)·diag(s) with q = Q[0..2, 3];  R = polarRotation(C) (ddm-polar.ts, tie-broken
 *   towards the vertex's largest bone's M·diag(S));  v′ = R (s ⊙ (v − p̄)) + q,
 *   n′ = normalise(R (n ⊘ s)),  tangent′ = normalise(R (s ⊙ tangent)).
 * This is DDM on the rest mesh scaled by s: exact where every bone carries the same S (tiny.x), since then
 * M_j Ω_ij = [R_j | t_j] (D Ω_ij D)·D⁻¹ with D = diag(s, 1) and D Ω D the Ω of the pre-scaled mesh. Rigid
 * palettes (s = 1) give variant 0 unchanged.
 * Ω is stored centred on c_i (Ω′ = T Ω Tᵀ, T the translation by −c_i), so the sum runs over M_j T⁻¹ (M_j with
 * its translation replaced by M_j·(c_i, 1)), p̄ and v are taken relative to c_i: v′ = R (s ⊙ (v − c_i − p̄′)) + q.
 * Slots are read in order and stop at the first with Ω[33] = 0 (kept slots are sorted by it, descending).
 *
 * Contract
 * - mesh: positions and normals in bind space (a morphed copy of the mesh gives the morphed vertex: v and n are
 *   the input's, Ω is the neutral mesh's); data: ddmData(mesh) of the neutral mesh.
 * - palette: 16 floats per slot from offset 0, column-major, bind → model (skinMesh's input).
 * - outPositions, outNormals (3 floats per vertex; unit, zero where the normal skins to zero; null to skip),
 *   outTangents (4 floats per vertex: mesh.tangents re-orthonormalised against the input normal as the vertex
 *   shader does, scaled by s, rotated by R and normalised, w kept; skipped when absent or the mesh has no
 *   tangents).
 * - No allocation per call (module scratch).
 */

const _c = new Float64Array(9);
const _warm = new Float64Array(9);
const _r = new Float64Array(9);
const _s = new Float64Array(3);

/** S of palette matrix at m (its column lengths, sz negated where its 3×3 mirrors) into out. */
function boneScale(palette: Float32Array, m: number, out: Float64Array): Float64Array {
  const a0 = palette[m]!, a1 = palette[m + 1]!, a2 = palette[m + 2]!;
  const b0 = palette[m + 4]!, b1 = palette[m + 5]!, b2 = palette[m + 6]!;
  const c0 = palette[m + 8]!, c1 = palette[m + 9]!, c2 = palette[m + 10]!;
  const det = a0 * (b1 * c2 - b2 * c1) - b0 * (a1 * c2 - a2 * c1) + c0 * (a1 * b2 - a2 * b1);
  out[0] = Math.hypot(a0, a1, a2);
  out[1] = Math.hypot(b0, b1, b2);
  out[2] = det < 0 ? -Math.hypot(c0, c1, c2) : Math.hypot(c0, c1, c2);
  return out;
}

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
    let px = 0, py = 0, pz = 0, q33 = 0, sx = 0, sy = 0, sz = 0;
    const slot0 = bones[v * DDM_SLOTS]! * 16;
    const cx = data.centre[v * 3]!, cy = data.centre[v * 3 + 1]!, cz = data.centre[v * 3 + 2]!;
    for (let s = 0; s < DDM_SLOTS; s++) {
      const o = (v * DDM_SLOTS + s) * DDM_OMEGA;
      const w9 = omega[o + 9]!;
      if (w9 === 0) break;
      const w0 = omega[o]!, w1 = omega[o + 1]!, w2 = omega[o + 2]!, w3 = omega[o + 3]!, w4 = omega[o + 4]!;
      const w5 = omega[o + 5]!, w6 = omega[o + 6]!, w7 = omega[o + 7]!, w8 = omega[o + 8]!;
      const m = bones[v * DDM_SLOTS + s]! * 16;
      const bs = boneScale(palette, m, _s);
      sx += w9 * bs[0]!;
      sy += w9 * bs[1]!;
      sz += w9 * bs[2]!;
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
    sx *= inv; sy *= inv; sz *= inv;
    // C = (Q₃ₓ₃ − q p̄ᵀ)·diag(s), column-major.
    c[0] = (q00 - q03 * px) * sx; c[1] = (q10 - q13 * px) * sx; c[2] = (q20 - q23 * px) * sx;
    c[3] = (q01 - q03 * py) * sy; c[4] = (q11 - q13 * py) * sy; c[5] = (q21 - q23 * py) * sy;
    c[6] = (q02 - q03 * pz) * sz; c[7] = (q12 - q13 * pz) * sz; c[8] = (q22 - q23 * pz) * sz;
    const ws = boneScale(palette, slot0, _s);
    for (let col = 0; col < 3; col++) {
      for (let row = 0; row < 3; row++) warm[col * 3 + row] = palette[slot0 + col * 4 + row]! * ws[col]!;
    }
    polarRotation(c, warm, r);
    const i = v * 3;
    const x = (pos[i]! - cx - px) * sx, y = (pos[i + 1]! - cy - py) * sy, z = (pos[i + 2]! - cz - pz) * sz;
    outPositions[i] = r[0]! * x + r[3]! * y + r[6]! * z + q03;
    outPositions[i + 1] = r[1]! * x + r[4]! * y + r[7]! * z + q13;
    outPositions[i + 2] = r[2]! * x + r[5]! * y + r[8]! * z + q23;
    const nx = nrm[i]!, ny = nrm[i + 1]!, nz = nrm[i + 2]!;
    if (outNormals) {
      const ax = nx / sx, ay = ny / sy, az = nz / sz;
      const ux = r[0]! * ax + r[3]! * ay + r[6]! * az;
      const uy = r[1]! * ax + r[4]! * ay + r[7]! * az;
      const uz = r[2]! * ax + r[5]! * ay + r[8]! * az;
      const ul = Math.hypot(ux, uy, uz);
      const iu = ul > 1e-20 ? 1 / ul : 0;
      outNormals[i] = ux * iu;
      outNormals[i + 1] = uy * iu;
      outNormals[i + 2] = uz * iu;
    }
    if (tan && outTangents) {
      const j = v * 4;
      let ax = tan[j]!, ay = tan[j + 1]!, az = tan[j + 2]!;
      // The shader's re-orthonormalisation against the (possibly morphed) normal: unitOr(t − (t·n) n, t).
      const d = ax * nx + ay * ny + az * nz;
      const ox = ax - d * nx, oy = ay - d * ny, oz = az - d * nz;
      const ol = Math.hypot(ox, oy, oz);
      if (ol > 1e-20) { ax = ox / ol; ay = oy / ol; az = oz / ol; }
      ax *= sx; ay *= sy; az *= sz;
      const ex = r[0]! * ax + r[3]! * ay + r[6]! * az;
      const ey = r[1]! * ax + r[4]! * ay + r[7]! * az;
      const ez = r[2]! * ax + r[5]! * ay + r[8]! * az;
      const el = Math.hypot(ex, ey, ez);
      const it = el > 1e-20 ? 1 / el : 0;
      outTangents[j] = ex * it;
      outTangents[j + 1] = ey * it;
      outTangents[j + 2] = ez * it;
      outTangents[j + 3] = tan[j + 3]!;
    }
  }
}
