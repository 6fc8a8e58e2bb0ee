import { mat4, quat, vec3 } from 'gl-matrix';
import { TRS_STRIDE, type Scene, type SkinnedMesh } from '../model/types.ts';
import type { PoseSource } from '../techniques/technique.ts';

/**
 * The bind pose as a pose source: every palette matrix is the identity, so each technique draws the mesh's
 * stored (bind-space) vertices, and `model` holds each node's bind-pose node → model matrix for the skeleton
 * overlay (16 floats per node, column-major): inverse(invBind) for a node that skins a mesh (the first mesh
 * that names it), else its parent's bind matrix times its rest local (the rest local alone for a root).
 * Built at load; writePalette allocates nothing.
 */
export class BindPose implements PoseSource {
  readonly model: Float32Array;

  constructor(scene: Scene) {
    const parents = scene.skeleton.parents;
    const rest = scene.skeleton.restLocal;
    const n = parents.length;
    this.model = new Float32Array(n * 16);
    const fromBind = new Uint8Array(n);
    const m = mat4.create();
    for (const mesh of scene.meshes) {
      for (let k = 0; k < mesh.bones.length; k++) {
        const node = mesh.bones[k]!;
        if (node < 0 || node >= n || fromBind[node]) continue;
        const inv = mesh.invBind.subarray(k * 16, k * 16 + 16);
        if (!mat4.invert(m, inv as unknown as mat4)) continue;
        this.model.set(m, node * 16);
        fromBind[node] = 1;
      }
    }
    const local = mat4.create();
    const q = quat.create();
    const t = vec3.create();
    const s = vec3.create();
    for (let i = 0; i < n; i++) {
      if (fromBind[i]) continue;
      const o = i * TRS_STRIDE;
      vec3.set(t, rest[o]!, rest[o + 1]!, rest[o + 2]!);
      quat.set(q, rest[o + 3]!, rest[o + 4]!, rest[o + 5]!, rest[o + 6]!);
      vec3.set(s, rest[o + 7]!, rest[o + 8]!, rest[o + 9]!);
      mat4.fromRotationTranslationScale(local, q, t, s);
      const p = parents[i]!;
      if (p >= 0) mat4.multiply(local, this.model.subarray(p * 16, p * 16 + 16) as unknown as mat4, local);
      this.model.set(local, i * 16);
    }
  }

  /** Identity for every slot of mesh's palette (at least one). */
  writePalette(mesh: SkinnedMesh, out: Float32Array, offsetFloats = 0): void {
    const slots = Math.max(1, mesh.bones.length);
    for (let k = 0; k < slots; k++) {
      const o = offsetFloats + k * 16;
      for (let i = 0; i < 16; i++) out[o + i] = i % 5 === 0 ? 1 : 0;
    }
  }
}
