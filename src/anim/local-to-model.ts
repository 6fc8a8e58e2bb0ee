/**
 * Local-to-model job: local TRS pose → model-space matrices, top-down through the hierarchy.
 *
 * Contract
 * - parents: Skeleton.parents, parents[i] < i or -1 for a root (not checked here; model/build validates).
 * - locals: TRS_STRIDE (10) floats per node, parent space (t 3, r 4 xyzw, s 3).
 * - outModel: 16 floats per node, column-major, column vectors; node space → model space. Length
 *   ≥ nodeCount · 16; the caller owns it.
 * - local[i] = T · R · S (scale first, then rotate, then translate), and
 *   model[i] = model[parents[i]] · local[i], model[root] = local[root]
 *   (Luna eq. 23.2, toRoot = toParent · toRoot(parent), written for row vectors; transposed here).
 * - Rotations need not be exactly unit: composeTRS scales by 2/|q|², so a drifting quaternion still
 *   gives a pure rotation. A zero quaternion gives no rotation.
 * - Matrices are affine; the bottom row is written as (0, 0, 0, 1). No allocation.
 * - Where WebAssembly SIMD runs (pose-simd.ts; usePoseSimd(false) turns it off) localToModel runs in a
 *   WebAssembly kernel (pose-simd.wat) in float32 arithmetic: the same matrices as localToModelScalar to
 *   float32 rounding of the terms summed (a translation that cancels to near zero keeps the absolute
 *   error of its terms). Arrays other than exactly nodeCount · 10 pose floats take localToModelScalar.
 */

import { TRS_STRIDE } from '../model/types.ts';
import { localToModelSimd } from './pose-simd.ts';

/** Writes local[i] = T · R · S from locals[i · 10..] as a column-major 4x4 at out[o..o+16]. */
export function composeTRS(locals: ArrayLike<number>, i: number, out: Float32Array, o: number): void {
  const l = i * TRS_STRIDE;
  const x = locals[l + 3], y = locals[l + 4], z = locals[l + 5], w = locals[l + 6];
  const sx = locals[l + 7], sy = locals[l + 8], sz = locals[l + 9];
  const n = x * x + y * y + z * z + w * w;
  const k = n > 0 ? 2 / n : 0;
  const xx = x * x * k, yy = y * y * k, zz = z * z * k;
  const xy = x * y * k, xz = x * z * k, yz = y * z * k;
  const wx = w * x * k, wy = w * y * k, wz = w * z * k;
  out[o] = (1 - yy - zz) * sx;
  out[o + 1] = (xy + wz) * sx;
  out[o + 2] = (xz - wy) * sx;
  out[o + 3] = 0;
  out[o + 4] = (xy - wz) * sy;
  out[o + 5] = (1 - xx - zz) * sy;
  out[o + 6] = (yz + wx) * sy;
  out[o + 7] = 0;
  out[o + 8] = (xz + wy) * sz;
  out[o + 9] = (yz - wx) * sz;
  out[o + 10] = (1 - xx - yy) * sz;
  out[o + 11] = 0;
  out[o + 12] = locals[l];
  out[o + 13] = locals[l + 1];
  out[o + 14] = locals[l + 2];
  out[o + 15] = 1;
}

/**
 * Fills outModel for every node in `parents`. See the file contract. Through the WebAssembly kernel
 * (pose-simd.ts) where it runs, else localToModelScalar.
 */
export function localToModel(parents: Int16Array, locals: Float32Array, outModel: Float32Array): void {
  if (localToModelSimd(parents, locals, outModel)) return;
  localToModelScalar(parents, locals, outModel);
}

/** localToModel in JavaScript (float64 arithmetic, one rounding to float32 per output): the reference. */
export function localToModelScalar(parents: Int16Array, locals: Float32Array, outModel: Float32Array): void {
  const count = parents.length;
  for (let i = 0; i < count; i++) {
    const l = i * TRS_STRIDE;
    // Local rotation · scale columns (bCR: column C, row R) and translation, as in composeTRS.
    // Inlined on purpose: composeTRS into scratch + mulAffine measured 1.8x slower (3.5 vs 2.0 µs for
    // soldier.m3d's 58 nodes, Node 20). Keep the two in step; local-to-model.test.ts checks both.
    const x = locals[l + 3], y = locals[l + 4], z = locals[l + 5], w = locals[l + 6];
    const sx = locals[l + 7], sy = locals[l + 8], sz = locals[l + 9];
    const n = x * x + y * y + z * z + w * w;
    const k = n > 0 ? 2 / n : 0;
    const xx = x * x * k, yy = y * y * k, zz = z * z * k;
    const xy = x * y * k, xz = x * z * k, yz = y * z * k;
    const wx = w * x * k, wy = w * y * k, wz = w * z * k;
    const b00 = (1 - yy - zz) * sx, b01 = (xy + wz) * sx, b02 = (xz - wy) * sx;
    const b10 = (xy - wz) * sy, b11 = (1 - xx - zz) * sy, b12 = (yz + wx) * sy;
    const b20 = (xz + wy) * sz, b21 = (yz - wx) * sz, b22 = (1 - xx - yy) * sz;
    const b30 = locals[l], b31 = locals[l + 1], b32 = locals[l + 2];
    const o = i * 16;
    const p = parents[i];
    if (p < 0) {
      outModel[o] = b00;
      outModel[o + 1] = b01;
      outModel[o + 2] = b02;
      outModel[o + 3] = 0;
      outModel[o + 4] = b10;
      outModel[o + 5] = b11;
      outModel[o + 6] = b12;
      outModel[o + 7] = 0;
      outModel[o + 8] = b20;
      outModel[o + 9] = b21;
      outModel[o + 10] = b22;
      outModel[o + 11] = 0;
      outModel[o + 12] = b30;
      outModel[o + 13] = b31;
      outModel[o + 14] = b32;
      outModel[o + 15] = 1;
      continue;
    }
    const a = p * 16;
    const a00 = outModel[a], a01 = outModel[a + 1], a02 = outModel[a + 2];
    const a10 = outModel[a + 4], a11 = outModel[a + 5], a12 = outModel[a + 6];
    const a20 = outModel[a + 8], a21 = outModel[a + 9], a22 = outModel[a + 10];
    const a30 = outModel[a + 12], a31 = outModel[a + 13], a32 = outModel[a + 14];
    outModel[o] = a00 * b00 + a10 * b01 + a20 * b02;
    outModel[o + 1] = a01 * b00 + a11 * b01 + a21 * b02;
    outModel[o + 2] = a02 * b00 + a12 * b01 + a22 * b02;
    outModel[o + 3] = 0;
    outModel[o + 4] = a00 * b10 + a10 * b11 + a20 * b12;
    outModel[o + 5] = a01 * b10 + a11 * b11 + a21 * b12;
    outModel[o + 6] = a02 * b10 + a12 * b11 + a22 * b12;
    outModel[o + 7] = 0;
    outModel[o + 8] = a00 * b20 + a10 * b21 + a20 * b22;
    outModel[o + 9] = a01 * b20 + a11 * b21 + a21 * b22;
    outModel[o + 10] = a02 * b20 + a12 * b21 + a22 * b22;
    outModel[o + 11] = 0;
    outModel[o + 12] = a00 * b30 + a10 * b31 + a20 * b32 + a30;
    outModel[o + 13] = a01 * b30 + a11 * b31 + a21 * b32 + a31;
    outModel[o + 14] = a02 * b30 + a12 * b31 + a22 * b32 + a32;
    outModel[o + 15] = 1;
  }
}
