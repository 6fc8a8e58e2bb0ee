import { buildDualQuatPalette, DUAL_QUAT_STRIDE } from '../anim/dual-quat.ts';
import type { MeshBuffers } from '../gpu/mesh-buffers.ts';
import { PaletteUbo } from '../gpu/palette-ubo.ts';
import { clampInfluences } from './influences.ts';
import { uboPaletteSize, uboUnsupported } from './limits.ts';
import { SharedMesh } from './mesh-state.ts';
import type { Technique, PoseSource } from './technique.ts';

/**
 * `dual-quat`: dual-quaternion skinning (Kavan et al. 2007), beyond the seeds. Each palette matrix becomes
 * a unit dual quaternion plus its bind-space axis scale on the CPU (anim/dual-quat.ts), 3 vec4 per bone
 * in a std140 block; the shader blends the scales linearly and the quaternions with the antipodality fix,
 * normalises, and applies scale then the rigid result, so twisting joints keep their volume. Shear cannot
 * be represented: update() reports the largest the pose had, and the app warns while it is visible.
 */
class DualQuatMesh extends SharedMesh {
  private readonly ubo: PaletteUbo;
  private readonly palette: Float32Array;
  constructor(gl: WebGL2RenderingContext, buffers: MeshBuffers, capacity: number) {
    super(gl, buffers);
    this.ubo = new PaletteUbo(gl, capacity, DUAL_QUAT_STRIDE, [0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 0]);
    this.palette = new Float32Array(Math.max(1, buffers.mesh.bones.length) * 16);
  }
  update(player: PoseSource): number {
    const mesh = this.buffers.mesh;
    player.writePalette(mesh, this.palette, 0);
    this.unrepresentableScale = buildDualQuatPalette(this.palette, mesh.bones.length, this.ubo.data, 0);
    this.ubo.upload(mesh.bones.length);
    return this.ubo.lastUploadBytes;
  }
  bind(): void {
    this.ubo.bind();
  }
  dispose(): void {
    this.ubo.dispose();
  }
}

export const dualQuat: Technique = {
  id: 'dual-quat',
  label: 'Dual quaternions (Kavan)',
  summary: 'palette as unit dual quaternions plus axis scale (3 vec4 per bone): rigid blends without the candy-wrapper collapse',
  groupUniform: null,
  skinsOnce: false,
  unsupportedReason: (scene, caps) => uboUnsupported(scene, caps, DUAL_QUAT_STRIDE),
  defines: (scene, caps, o) => ({
    PALETTE_DUAL_QUAT: true,
    PALETTE_SIZE: uboPaletteSize(scene, caps, DUAL_QUAT_STRIDE),
    INFLUENCES: clampInfluences(o.influences),
  }),
  meshKey: () => 'dual-quat',
  createMesh: (gl, buffers, scene, caps) => new DualQuatMesh(gl, buffers, uboPaletteSize(scene, caps, DUAL_QUAT_STRIDE)),
};
