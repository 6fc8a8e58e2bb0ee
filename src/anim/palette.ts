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
 */

import { mulAffine } from './affine.ts';

export function buildPalette(
  model: Float32Array,
  bones: Int16Array,
  invBind: Float32Array,
  outPalette: Float32Array,
  outOffsetFloats = 0,
): void {
  const slots = bones.length;
  for (let k = 0; k < slots; k++) {
    mulAffine(model, bones[k] * 16, invBind, k * 16, outPalette, outOffsetFloats + k * 16);
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
