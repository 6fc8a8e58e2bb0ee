import { mat4, quat, vec3 } from 'gl-matrix';
import { TRS_STRIDE, type Clip, type Scene } from '../../src/model/types.ts';

/**
 * Test-side posing, written against gl-matrix only (independent of src/gen and src/anim): model
 * matrices of a skeleton at key k of a clip whose tracks share one key list, and linear blend skinning.
 */

/** Local TRS of every node at key `k` of `clip` (rest where a channel is missing); null clip = rest. */
export function localsAtKey(scene: Scene, clip: Clip | null, k: number): Float32Array {
  const out = scene.skeleton.restLocal.slice();
  if (!clip) return out;
  for (const tr of clip.tracks) {
    const o = tr.node * TRS_STRIDE;
    if (tr.translation) out.set(tr.translation.values.subarray(k * 3, k * 3 + 3), o);
    if (tr.rotation) out.set(tr.rotation.values.subarray(k * 4, k * 4 + 4), o + 3);
    if (tr.scale) out.set(tr.scale.values.subarray(k * 3, k * 3 + 3), o + 7);
  }
  return out;
}

/** Model matrices (one mat4 per node) from local TRS. */
export function modelMatrices(scene: Scene, locals: Float32Array): mat4[] {
  const { parents } = scene.skeleton;
  const out: mat4[] = [];
  for (let i = 0; i < parents.length; i++) {
    const o = i * TRS_STRIDE;
    const local = mat4.fromRotationTranslationScale(
      mat4.create(),
      quat.fromValues(locals[o + 3]!, locals[o + 4]!, locals[o + 5]!, locals[o + 6]!),
      vec3.fromValues(locals[o]!, locals[o + 1]!, locals[o + 2]!),
      vec3.fromValues(locals[o + 7]!, locals[o + 8]!, locals[o + 9]!),
    );
    const p = parents[i]!;
    out.push(p < 0 ? local : mat4.multiply(mat4.create(), out[p]!, local));
  }
  return out;
}

/** Skinned positions (3 floats per vertex) of mesh 0 for the given model matrices. */
export function skinPositions(scene: Scene, model: mat4[]): Float32Array {
  const m = scene.meshes[0]!;
  const palette = Array.from(m.bones, (node, k) =>
    mat4.multiply(mat4.create(), model[node]!, m.invBind.subarray(k * 16, k * 16 + 16) as unknown as mat4),
  );
  const out = new Float32Array(m.vertexCount * 3);
  const p = vec3.create();
  const acc = vec3.create();
  const tmp = vec3.create();
  for (let v = 0; v < m.vertexCount; v++) {
    vec3.set(p, m.positions[v * 3]!, m.positions[v * 3 + 1]!, m.positions[v * 3 + 2]!);
    vec3.zero(acc);
    for (let s = 0; s < 4; s++) {
      const w = m.weights[v * 4 + s]!;
      if (w === 0) continue;
      vec3.transformMat4(tmp, p, palette[m.joints[v * 4 + s]!]!);
      vec3.scaleAndAdd(acc, acc, tmp, w);
    }
    out.set(acc, v * 3);
  }
  return out;
}

export function keyCount(clip: Clip): number {
  return clip.tracks[0]?.rotation?.times.length ?? clip.tracks[0]?.translation?.times.length ?? 0;
}
