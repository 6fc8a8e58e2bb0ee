/**
 * Palette job: model-space matrices → skinning matrices for one mesh.
 *
 * Contract
 * - model: 16 floats per skeleton node, column-major, node space → model space (localToModel output).
 * - bones: SkinnedMesh.bones, palette slot k → node. invBind: 16 floats per slot, column-major,
 *   bind (mesh) space → bone space.
 * - outPalette[outOffsetFloats + 16k ..] = model[bones[k]] · invBind[k], column-major, bind space →
 *   model space (Luna eq. 23.3, final = offset · toRoot, written for row vectors; transposed here).
 *   16 floats per slot, no padding: a std140 `mat4 u_skinPalette[N]` has exactly this layout, so the
 *   caller can point this at the uniform block's own Float32Array and upload the range it wrote.
 * - All matrices are taken as affine: the bottom rows of model and invBind are not read, the output's
 *   is written as (0, 0, 0, 1).
 * - bones[k] must be a valid node (model/build validates). The caller owns every buffer. No allocation.
 * - Wherever WebAssembly SIMD is available (palette-simd.ts; usePaletteSimd(false) turns it off) the
 *   product runs in a WebAssembly SIMD kernel: float32 arithmetic, the same palette to a few float32 ulps,
 *   about 3x faster for Dawn's 100 slots. buildPaletteScalar is the plain loop, used otherwise and as the
 *   reference.
 */

import { buildPaletteSimd } from './palette-simd.ts';

export function buildPalette(
  model: Float32Array,
  bones: Int16Array,
  invBind: Float32Array,
  outPalette: Float32Array,
  outOffsetFloats = 0,
): void {
  if (bones.length > 0 && buildPaletteSimd(model, bones, invBind, outPalette, outOffsetFloats)) return;
  buildPaletteScalar(model, bones, invBind, outPalette, outOffsetFloats);
}

/** buildPalette in scalar JavaScript (float64 arithmetic, one rounding to float32 per output). */
export function buildPaletteScalar(
  model: Float32Array,
  bones: Int16Array,
  invBind: Float32Array,
  outPalette: Float32Array,
  outOffsetFloats = 0,
): void {
  // mulAffine inlined (column j of the product is M applied to column j of invBind; mCR: column C, row R):
  // the call per slot measured 1.4x slower for Dawn's 4 x 100 slots (Node 20).
  const slots = bones.length;
  for (let k = 0; k < slots; k++) {
    const a = bones[k] * 16;
    const b = k * 16;
    const o = outOffsetFloats + b;
    const m00 = model[a], m01 = model[a + 1], m02 = model[a + 2];
    const m10 = model[a + 4], m11 = model[a + 5], m12 = model[a + 6];
    const m20 = model[a + 8], m21 = model[a + 9], m22 = model[a + 10];
    const m30 = model[a + 12], m31 = model[a + 13], m32 = model[a + 14];
    let x = invBind[b], y = invBind[b + 1], z = invBind[b + 2];
    outPalette[o] = m00 * x + m10 * y + m20 * z;
    outPalette[o + 1] = m01 * x + m11 * y + m21 * z;
    outPalette[o + 2] = m02 * x + m12 * y + m22 * z;
    outPalette[o + 3] = 0;
    x = invBind[b + 4]; y = invBind[b + 5]; z = invBind[b + 6];
    outPalette[o + 4] = m00 * x + m10 * y + m20 * z;
    outPalette[o + 5] = m01 * x + m11 * y + m21 * z;
    outPalette[o + 6] = m02 * x + m12 * y + m22 * z;
    outPalette[o + 7] = 0;
    x = invBind[b + 8]; y = invBind[b + 9]; z = invBind[b + 10];
    outPalette[o + 8] = m00 * x + m10 * y + m20 * z;
    outPalette[o + 9] = m01 * x + m11 * y + m21 * z;
    outPalette[o + 10] = m02 * x + m12 * y + m22 * z;
    outPalette[o + 11] = 0;
    x = invBind[b + 12]; y = invBind[b + 13]; z = invBind[b + 14];
    outPalette[o + 12] = m00 * x + m10 * y + m20 * z + m30;
    outPalette[o + 13] = m01 * x + m11 * y + m21 * z + m31;
    outPalette[o + 14] = m02 * x + m12 * y + m22 * z + m32;
    outPalette[o + 15] = 1;
  }
}

/** Writes `slotCount` identity matrices at outPalette[outOffsetFloats..] (the bind pose with no skeleton). */
export function writeIdentityPalette(outPalette: Float32Array, slotCount: number, outOffsetFloats = 0): void {
  const end = outOffsetFloats + slotCount * 16;
  outPalette.fill(0, outOffsetFloats, end);
  for (let o = outOffsetFloats; o < end; o += 16) {
    outPalette[o] = 1;
    outPalette[o + 5] = 1;
    outPalette[o + 10] = 1;
    outPalette[o + 15] = 1;
  }
}
