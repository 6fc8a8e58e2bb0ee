/**
 * Reference skinning: a deliberately plain linear-blend skinning of positions, written apart from
 * software-skin.ts so the browser tests can hold the `software` technique (which skins with skinMesh)
 * against something that does not share its code. Test use only: slow, allocates.
 *
 * Contract
 * - mesh: positions in bind space, 3 floats per vertex; joints/weights MAX_INFLUENCES per vertex, sorted by
 *   descending weight (SkinnedMesh contract).
 * - modelMatrices: 16 floats per skeleton node, column-major, node space → model space (AnimPlayer.model
 *   after evaluate()). The skinning matrix of palette slot k is modelMatrices[bones[k]] · invBind[k],
 *   multiplied here with gl-matrix, not taken from buildPalette.
 * - Influence rule (the app's, GPU Gems ch. 4 §4.4): keep the first `influences` (clamped to 1..4) weights,
 *   stopping at the first weight that is not > 0, and divide them by their sum; a vertex with no positive
 *   weight follows its joints[0] with weight 1.
 * - Each kept influence transforms the point on its own (vec3.transformMat4), and the results are summed with
 *   the renormalised weights: Σ wₖ · (Mₖ · p), which equals (Σ wₖ Mₖ) · p for affine Mₖ.
 * - Returns model-space positions, 3 floats per vertex (a new array).
 */

import { mat4, vec3 } from 'gl-matrix';
import { MAX_INFLUENCES, type SkinnedMesh } from '../model/types.ts';

export function referenceSkinPositions(mesh: SkinnedMesh, modelMatrices: Float32Array, influences: number): Float32Array {
  const used = Math.min(MAX_INFLUENCES, Math.max(1, Math.floor(influences)));
  const slots = mesh.bones.length;
  const skinning: mat4[] = [];
  for (let k = 0; k < slots; k++) {
    const node = mesh.bones[k]!;
    const toModel = mat4.clone(modelMatrices.subarray(node * 16, node * 16 + 16) as unknown as mat4);
    const invBind = mat4.clone(mesh.invBind.subarray(k * 16, k * 16 + 16) as unknown as mat4);
    skinning.push(mat4.multiply(mat4.create(), toModel, invBind));
  }
  const out = new Float32Array(mesh.vertexCount * 3);
  const p = vec3.create();
  const moved = vec3.create();
  const sum = vec3.create();
  for (let v = 0; v < mesh.vertexCount; v++) {
    vec3.set(p, mesh.positions[v * 3]!, mesh.positions[v * 3 + 1]!, mesh.positions[v * 3 + 2]!);
    const kept: { joint: number; weight: number }[] = [];
    for (let k = 0; k < used; k++) {
      const weight = mesh.weights[v * MAX_INFLUENCES + k]!;
      if (!(weight > 0)) break;
      kept.push({ joint: mesh.joints[v * MAX_INFLUENCES + k]!, weight });
    }
    if (kept.length === 0) kept.push({ joint: mesh.joints[v * MAX_INFLUENCES]!, weight: 1 });
    const total = kept.reduce((s, k) => s + k.weight, 0);
    vec3.set(sum, 0, 0, 0);
    for (const { joint, weight } of kept) {
      vec3.transformMat4(moved, p, skinning[joint]!);
      vec3.scaleAndAdd(sum, sum, moved, weight / total);
    }
    out[v * 3] = sum[0]!;
    out[v * 3 + 1] = sum[1]!;
    out[v * 3 + 2] = sum[2]!;
  }
  return out;
}
