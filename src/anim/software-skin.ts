/**
 * Software skinning job: the CPU reference for every GPU technique (and the D3DX UpdateSkinnedMesh path).
 *
 * Contract
 * - mesh: positions and normals in bind space, 3 floats per vertex; joints/weights MAX_INFLUENCES per
 *   vertex, sorted by descending weight (SkinnedMesh contract).
 * - palette: 16 floats per slot from palette offset 0, column-major, bind space → model space
 *   (buildPalette output). Pass a subarray view made once at load if the palette lives at an offset.
 * - Linear blend skinning: M = Σ wₖ · palette[jointₖ] over the first `influences` (1..4) weights,
 *   renormalised to sum 1, so dropping the smallest weights does not shrink the vertex towards the origin.
 *   A vertex whose first weight is 0 takes slot joints[0] with weight 1.
 * - outPositions[v] = M · (p, 1). outNormals[v] = normalise(M₃ₓ₃ · n): the upper 3x3, not its inverse
 *   transpose (as D3DX and the GPU paths do); exact for rotation and uniform scale. A normal that skins to
 *   zero length is written as zero. Pass outNormals = null to skip normals.
 * - Model space out, 3 floats per vertex; the caller owns the outputs. They may be the mesh's own
 *   arrays (each vertex is read before it is written). No allocation.
 */

import type { SkinnedMesh } from '../model/types.ts';
import { MAX_INFLUENCES } from '../model/types.ts';

export function skinMesh(
  mesh: SkinnedMesh,
  palette: Float32Array,
  outPositions: Float32Array,
  outNormals: Float32Array | null,
  influences = MAX_INFLUENCES,
): void {
  const count = mesh.vertexCount;
  const pos = mesh.positions;
  const nrm = mesh.normals;
  const joints = mesh.joints;
  const weights = mesh.weights;
  const used = influences < 1 ? 1 : influences > MAX_INFLUENCES ? MAX_INFLUENCES : influences | 0;
  for (let v = 0; v < count; v++) {
    const iw = v * MAX_INFLUENCES;
    let sum = 0;
    for (let k = 0; k < used; k++) {
      const w = weights[iw + k];
      if (!(w > 0)) break;
      sum += w;
    }
    // Blended 3x4 (mCR: column C, row R; the bottom row stays 0 0 0 1).
    let m00 = 0, m01 = 0, m02 = 0, m10 = 0, m11 = 0, m12 = 0;
    let m20 = 0, m21 = 0, m22 = 0, m30 = 0, m31 = 0, m32 = 0;
    if (sum > 0) {
      const inv = 1 / sum;
      for (let k = 0; k < used; k++) {
        const raw = weights[iw + k];
        if (!(raw > 0)) break;
        const w = raw * inv;
        const o = joints[iw + k] * 16;
        m00 += w * palette[o]; m01 += w * palette[o + 1]; m02 += w * palette[o + 2];
        m10 += w * palette[o + 4]; m11 += w * palette[o + 5]; m12 += w * palette[o + 6];
        m20 += w * palette[o + 8]; m21 += w * palette[o + 9]; m22 += w * palette[o + 10];
        m30 += w * palette[o + 12]; m31 += w * palette[o + 13]; m32 += w * palette[o + 14];
      }
    } else {
      const o = joints[iw] * 16;
      m00 = palette[o]; m01 = palette[o + 1]; m02 = palette[o + 2];
      m10 = palette[o + 4]; m11 = palette[o + 5]; m12 = palette[o + 6];
      m20 = palette[o + 8]; m21 = palette[o + 9]; m22 = palette[o + 10];
      m30 = palette[o + 12]; m31 = palette[o + 13]; m32 = palette[o + 14];
    }
    const p = v * 3;
    const px = pos[p], py = pos[p + 1], pz = pos[p + 2];
    outPositions[p] = m00 * px + m10 * py + m20 * pz + m30;
    outPositions[p + 1] = m01 * px + m11 * py + m21 * pz + m31;
    outPositions[p + 2] = m02 * px + m12 * py + m22 * pz + m32;
    if (outNormals !== null) {
      const nx = nrm[p], ny = nrm[p + 1], nz = nrm[p + 2];
      const x = m00 * nx + m10 * ny + m20 * nz;
      const y = m01 * nx + m11 * ny + m21 * nz;
      const z = m02 * nx + m12 * ny + m22 * nz;
      const len2 = x * x + y * y + z * z;
      const inv = len2 > 0 ? 1 / Math.sqrt(len2) : 0;
      outNormals[p] = x * inv;
      outNormals[p + 1] = y * inv;
      outNormals[p + 2] = z * inv;
    }
  }
}

/**
 * Software skinning of tangents (Dawn §4.3.2 frame, after morphing): the tangent is a direction, w = 0.
 *
 * Contract
 * - bindTangents: 4 floats per mesh vertex, bind space (xyz, bitangent sign w): SkinnedMesh.tangents, or
 *   applyMorphs' outTangents (re-orthonormalised against the morphed normal). Skinning does not
 *   re-orthonormalise again: the skinned tangent is what the GPU paths compute.
 * - palette, influences, weights: as skinMesh (same blended matrix M).
 * - outTangents[v] = (normalise(M₃ₓ₃ · t.xyz), t.w); a tangent that skins to zero length is written as zero
 *   (sign kept). 4 floats per vertex, model space; may be bindTangents itself. No allocation.
 */
export function skinTangents(
  mesh: SkinnedMesh,
  bindTangents: Float32Array,
  palette: Float32Array,
  outTangents: Float32Array,
  influences = MAX_INFLUENCES,
): void {
  const count = mesh.vertexCount;
  const joints = mesh.joints;
  const weights = mesh.weights;
  const used = influences < 1 ? 1 : influences > MAX_INFLUENCES ? MAX_INFLUENCES : influences | 0;
  for (let v = 0; v < count; v++) {
    const iw = v * MAX_INFLUENCES;
    let sum = 0;
    for (let k = 0; k < used; k++) {
      const w = weights[iw + k];
      if (!(w > 0)) break;
      sum += w;
    }
    let m00 = 0, m01 = 0, m02 = 0, m10 = 0, m11 = 0, m12 = 0, m20 = 0, m21 = 0, m22 = 0;
    if (sum > 0) {
      const inv = 1 / sum;
      for (let k = 0; k < used; k++) {
        const raw = weights[iw + k];
        if (!(raw > 0)) break;
        const w = raw * inv;
        const o = joints[iw + k] * 16;
        m00 += w * palette[o]; m01 += w * palette[o + 1]; m02 += w * palette[o + 2];
        m10 += w * palette[o + 4]; m11 += w * palette[o + 5]; m12 += w * palette[o + 6];
        m20 += w * palette[o + 8]; m21 += w * palette[o + 9]; m22 += w * palette[o + 10];
      }
    } else {
      const o = joints[iw] * 16;
      m00 = palette[o]; m01 = palette[o + 1]; m02 = palette[o + 2];
      m10 = palette[o + 4]; m11 = palette[o + 5]; m12 = palette[o + 6];
      m20 = palette[o + 8]; m21 = palette[o + 9]; m22 = palette[o + 10];
    }
    const q = v * 4;
    const tx = bindTangents[q], ty = bindTangents[q + 1], tz = bindTangents[q + 2];
    const x = m00 * tx + m10 * ty + m20 * tz;
    const y = m01 * tx + m11 * ty + m21 * tz;
    const z = m02 * tx + m12 * ty + m22 * tz;
    const len2 = x * x + y * y + z * z;
    const il = len2 > 0 ? 1 / Math.sqrt(len2) : 0;
    outTangents[q] = x * il;
    outTangents[q + 1] = y * il;
    outTangents[q + 2] = z * il;
    outTangents[q + 3] = bindTangents[q + 3];
  }
}
