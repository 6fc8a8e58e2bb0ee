/**
 * Dual-quaternion skinning (Kavan, Collins, Žára, O'Sullivan 2007): the CPU reference for the `dual-quat`
 * technique and its palette job.
 *
 * Contract
 * - Dual-quaternion palette: 12 floats per slot, three vec4 the shader's std140 block reads as they are:
 *   the real part (x, y, z, w), the dual part (x, y, z, w) of a unit rigid transform — rotation r,
 *   translation t, dual = ½ · (t, 0) · r — then the slot's bind-space scale (sx, sy, sz, 0).
 * - A palette matrix M = [R·S | t] with S = diag(sx, sy, sz) along the bind-space axes (its columns are
 *   orthogonal; their lengths are the scale; a negative determinant is carried as a negative sz) is
 *   represented exactly: skinning scales the vertex by the blended S first, then applies the blended rigid
 *   part (Kavan et al. 2008, §4.2, scale before the rigid blend). tiny.x is such a file: every palette
 *   matrix of its walk carries the same S = (1.28, 1.12, 1.47) from its offset matrices.
 * - buildDualQuatPalette reads a matrix palette (16 floats per slot, column-major, bind → model space, the
 *   buildPalette output) and returns the shear it had to drop: the largest |cos| of the angle between two
 *   of a matrix's columns (0 for rotation × axis scale). Shear is not representable (the caller warns).
 *   No allocation.
 * - skinMeshDualQuat blends the first `influences` weights (renormalised, as skinMesh): scales linearly,
 *   each quaternion's sign flipped to the hemisphere of the first influence (antipodality), normalises the
 *   blended dual quaternion, and transforms positions (S then rigid) and normals (S⁻¹ then the rotation;
 *   not renormalised, as skinMesh). Same input and output conventions as skinMesh. No allocation.
 */

import type { SkinnedMesh } from '../model/types.ts';
import { MAX_INFLUENCES } from '../model/types.ts';

export const DUAL_QUAT_STRIDE = 12;

// Math.sqrt of the sums, not Math.hypot: V8 does not inline hypot, and its boxed result allocated per call.
export function buildDualQuatPalette(palette: Float32Array, slots: number, out: Float32Array, outOffsetFloats = 0): number {
  let worst = 0;
  for (let k = 0; k < slots; k++) {
    const o = k * 16;
    const sx = Math.sqrt(palette[o]! * palette[o]! + palette[o + 1]! * palette[o + 1]! + palette[o + 2]! * palette[o + 2]!);
    const sy = Math.sqrt(palette[o + 4]! * palette[o + 4]! + palette[o + 5]! * palette[o + 5]! + palette[o + 6]! * palette[o + 6]!);
    let sz = Math.sqrt(palette[o + 8]! * palette[o + 8]! + palette[o + 9]! * palette[o + 9]! + palette[o + 10]! * palette[o + 10]!);
    const ix = sx > 0 ? 1 / sx : 0, iy = sy > 0 ? 1 / sy : 0;
    // Shear: cosines between the unit columns.
    const cxy = (palette[o]! * palette[o + 4]! + palette[o + 1]! * palette[o + 5]! + palette[o + 2]! * palette[o + 6]!) * ix * iy;
    const czx = sz > 0 ? (palette[o]! * palette[o + 8]! + palette[o + 1]! * palette[o + 9]! + palette[o + 2]! * palette[o + 10]!) * ix / sz : 0;
    const cyz = sz > 0 ? (palette[o + 4]! * palette[o + 8]! + palette[o + 5]! * palette[o + 9]! + palette[o + 6]! * palette[o + 10]!) * iy / sz : 0;
    const shear = Math.max(Math.abs(cxy), Math.abs(czx), Math.abs(cyz));
    if (shear > worst) worst = shear;
    // A mirroring matrix (negative determinant) keeps a proper rotation with sz negated.
    const det =
      palette[o]! * (palette[o + 5]! * palette[o + 10]! - palette[o + 6]! * palette[o + 9]!) -
      palette[o + 4]! * (palette[o + 1]! * palette[o + 10]! - palette[o + 2]! * palette[o + 9]!) +
      palette[o + 8]! * (palette[o + 1]! * palette[o + 6]! - palette[o + 2]! * palette[o + 5]!);
    if (det < 0) sz = -sz;
    const iz = sz !== 0 ? 1 / sz : 0;
    // Rotation matrix rCR: column C, row R.
    const r00 = palette[o]! * ix, r01 = palette[o + 1]! * ix, r02 = palette[o + 2]! * ix;
    const r10 = palette[o + 4]! * iy, r11 = palette[o + 5]! * iy, r12 = palette[o + 6]! * iy;
    const r20 = palette[o + 8]! * iz, r21 = palette[o + 9]! * iz, r22 = palette[o + 10]! * iz;
    // Matrix → quaternion, largest-diagonal branch for precision (m_rowcol = rCR with C=col).
    let qx: number, qy: number, qz: number, qw: number;
    const trace = r00 + r11 + r22;
    if (trace > 0) {
      const s = Math.sqrt(trace + 1) * 2;
      qw = 0.25 * s;
      qx = (r12 - r21) / s;
      qy = (r20 - r02) / s;
      qz = (r01 - r10) / s;
    } else if (r00 > r11 && r00 > r22) {
      const s = Math.sqrt(1 + r00 - r11 - r22) * 2;
      qw = (r12 - r21) / s;
      qx = 0.25 * s;
      qy = (r10 + r01) / s;
      qz = (r20 + r02) / s;
    } else if (r11 > r22) {
      const s = Math.sqrt(1 + r11 - r00 - r22) * 2;
      qw = (r20 - r02) / s;
      qx = (r10 + r01) / s;
      qy = 0.25 * s;
      qz = (r21 + r12) / s;
    } else {
      const s = Math.sqrt(1 + r22 - r00 - r11) * 2;
      qw = (r01 - r10) / s;
      qx = (r20 + r02) / s;
      qy = (r21 + r12) / s;
      qz = 0.25 * s;
    }
    const len = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw) || 1;
    qx /= len; qy /= len; qz /= len; qw /= len;
    const tx = palette[o + 12]!, ty = palette[o + 13]!, tz = palette[o + 14]!;
    const d = outOffsetFloats + k * DUAL_QUAT_STRIDE;
    out[d] = qx;
    out[d + 1] = qy;
    out[d + 2] = qz;
    out[d + 3] = qw;
    out[d + 4] = 0.5 * (tx * qw + ty * qz - tz * qy);
    out[d + 5] = 0.5 * (-tx * qz + ty * qw + tz * qx);
    out[d + 6] = 0.5 * (tx * qy - ty * qx + tz * qw);
    out[d + 7] = -0.5 * (tx * qx + ty * qy + tz * qz);
    out[d + 8] = sx;
    out[d + 9] = sy;
    out[d + 10] = sz;
    out[d + 11] = 0;
  }
  return worst;
}

export function skinMeshDualQuat(
  mesh: SkinnedMesh,
  dualQuats: Float32Array,
  outPositions: Float32Array,
  outNormals: Float32Array | null,
  influences = MAX_INFLUENCES,
): void {
  const pos = mesh.positions;
  const nrm = mesh.normals;
  const joints = mesh.joints;
  const weights = mesh.weights;
  const used = influences < 1 ? 1 : influences > MAX_INFLUENCES ? MAX_INFLUENCES : influences | 0;
  for (let v = 0; v < mesh.vertexCount; v++) {
    const iw = v * MAX_INFLUENCES;
    let sum = 0;
    for (let k = 0; k < used; k++) {
      const w = weights[iw + k]!;
      if (!(w > 0)) break;
      sum += w;
    }
    let rx = 0, ry = 0, rz = 0, rw = 0, dx = 0, dy = 0, dz = 0, dw = 0, sx = 0, sy = 0, sz = 0;
    const o0 = joints[iw]! * DUAL_QUAT_STRIDE;
    const ax = dualQuats[o0]!, ay = dualQuats[o0 + 1]!, az = dualQuats[o0 + 2]!, aw = dualQuats[o0 + 3]!;
    const count = sum > 0 ? used : 1;
    const inv = sum > 0 ? 1 / sum : 1;
    for (let k = 0; k < count; k++) {
      const raw = sum > 0 ? weights[iw + k]! : 1;
      if (!(raw > 0)) break;
      const o = joints[iw + k]! * DUAL_QUAT_STRIDE;
      const qx = dualQuats[o]!, qy = dualQuats[o + 1]!, qz = dualQuats[o + 2]!, qw = dualQuats[o + 3]!;
      const w = (qx * ax + qy * ay + qz * az + qw * aw < 0 ? -raw : raw) * inv;
      rx += w * qx; ry += w * qy; rz += w * qz; rw += w * qw;
      dx += w * dualQuats[o + 4]!; dy += w * dualQuats[o + 5]!; dz += w * dualQuats[o + 6]!; dw += w * dualQuats[o + 7]!;
      const ws = raw * inv;
      sx += ws * dualQuats[o + 8]!; sy += ws * dualQuats[o + 9]!; sz += ws * dualQuats[o + 10]!;
    }
    const len = Math.sqrt(rx * rx + ry * ry + rz * rz + rw * rw);
    const il = len > 0 ? 1 / len : 0;
    rx *= il; ry *= il; rz *= il; rw *= il;
    dx *= il; dy *= il; dz *= il; dw *= il;
    // Translation 2 · (rw·d.xyz − dw·r.xyz + r.xyz × d.xyz).
    const tx = 2 * (rw * dx - dw * rx + (ry * dz - rz * dy));
    const ty = 2 * (rw * dy - dw * ry + (rz * dx - rx * dz));
    const tz = 2 * (rw * dz - dw * rz + (rx * dy - ry * dx));
    const p = v * 3;
    const px = pos[p]! * sx, py = pos[p + 1]! * sy, pz = pos[p + 2]! * sz;
    // Rotation v + 2 r × (r × v + rw v).
    let cx = ry * pz - rz * py + rw * px;
    let cy = rz * px - rx * pz + rw * py;
    let cz = rx * py - ry * px + rw * pz;
    outPositions[p] = px + 2 * (ry * cz - rz * cy) + tx;
    outPositions[p + 1] = py + 2 * (rz * cx - rx * cz) + ty;
    outPositions[p + 2] = pz + 2 * (rx * cy - ry * cx) + tz;
    if (outNormals !== null) {
      const nx = sx !== 0 ? nrm[p]! / sx : 0, ny = sy !== 0 ? nrm[p + 1]! / sy : 0, nz = sz !== 0 ? nrm[p + 2]! / sz : 0;
      cx = ry * nz - rz * ny + rw * nx;
      cy = rz * nx - rx * nz + rw * ny;
      cz = rx * ny - ry * nx + rw * nz;
      outNormals[p] = nx + 2 * (ry * cz - rz * cy);
      outNormals[p + 1] = ny + 2 * (rz * cx - rx * cz);
      outNormals[p + 2] = nz + 2 * (rx * cy - ry * cx);
    }
  }
}

/**
 * Dual-quaternion skinning of tangents (directions, w = 0): the blend of skinMeshDualQuat, then the bind-space
 * scale and the rotation, no translation (glsl skin_pars PALETTE_DUAL_QUAT). bindTangents/outTangents:
 * 4 floats per vertex (xyz, bitangent sign w kept); xyz normalised (zero stays zero). No allocation.
 */
export function skinTangentsDualQuat(
  mesh: SkinnedMesh,
  bindTangents: Float32Array,
  dualQuats: Float32Array,
  outTangents: Float32Array,
  influences = MAX_INFLUENCES,
): void {
  const joints = mesh.joints;
  const weights = mesh.weights;
  const used = influences < 1 ? 1 : influences > MAX_INFLUENCES ? MAX_INFLUENCES : influences | 0;
  for (let v = 0; v < mesh.vertexCount; v++) {
    const iw = v * MAX_INFLUENCES;
    let sum = 0;
    for (let k = 0; k < used; k++) {
      const w = weights[iw + k]!;
      if (!(w > 0)) break;
      sum += w;
    }
    let rx = 0, ry = 0, rz = 0, rw = 0, sx = 0, sy = 0, sz = 0;
    const o0 = joints[iw]! * DUAL_QUAT_STRIDE;
    const ax = dualQuats[o0]!, ay = dualQuats[o0 + 1]!, az = dualQuats[o0 + 2]!, aw = dualQuats[o0 + 3]!;
    const count = sum > 0 ? used : 1;
    const inv = sum > 0 ? 1 / sum : 1;
    for (let k = 0; k < count; k++) {
      const raw = sum > 0 ? weights[iw + k]! : 1;
      if (!(raw > 0)) break;
      const o = joints[iw + k]! * DUAL_QUAT_STRIDE;
      const qx = dualQuats[o]!, qy = dualQuats[o + 1]!, qz = dualQuats[o + 2]!, qw = dualQuats[o + 3]!;
      const w = (qx * ax + qy * ay + qz * az + qw * aw < 0 ? -raw : raw) * inv;
      rx += w * qx; ry += w * qy; rz += w * qz; rw += w * qw;
      const ws = raw * inv;
      sx += ws * dualQuats[o + 8]!; sy += ws * dualQuats[o + 9]!; sz += ws * dualQuats[o + 10]!;
    }
    const len = Math.sqrt(rx * rx + ry * ry + rz * rz + rw * rw);
    const il = len > 0 ? 1 / len : 0;
    rx *= il; ry *= il; rz *= il; rw *= il;
    const q = v * 4;
    const tx = bindTangents[q]! * sx, ty = bindTangents[q + 1]! * sy, tz = bindTangents[q + 2]! * sz;
    const cx = ry * tz - rz * ty + rw * tx;
    const cy = rz * tx - rx * tz + rw * ty;
    const cz = rx * ty - ry * tx + rw * tz;
    const x = tx + 2 * (ry * cz - rz * cy);
    const y = ty + 2 * (rz * cx - rx * cz);
    const z = tz + 2 * (rx * cy - ry * cx);
    const l2 = x * x + y * y + z * z;
    const it = l2 > 0 ? 1 / Math.sqrt(l2) : 0;
    outTangents[q] = x * it;
    outTangents[q + 1] = y * it;
    outTangents[q + 2] = z * it;
    outTangents[q + 3] = bindTangents[q + 3]!;
  }
}
