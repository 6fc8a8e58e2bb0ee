import type { PoseSource } from './technique.ts';
import type { MeshBuffers } from '../gpu/mesh-buffers.ts';
import { PaletteUbo } from '../gpu/palette-ubo.ts';
import { SharedMesh } from './mesh-state.ts';

/** Shared-geometry mesh state whose mat4 palette lives in a std140 uniform block (vs-hlsl, accumulated). */
export class UboMesh extends SharedMesh {
  private readonly ubo: PaletteUbo;
  constructor(gl: WebGL2RenderingContext, buffers: MeshBuffers, capacity: number) {
    super(gl, buffers);
    this.ubo = new PaletteUbo(gl, capacity);
  }
  update(player: PoseSource): number {
    player.writePalette(this.buffers.mesh, this.ubo.data, 0);
    this.ubo.upload(this.buffers.mesh.bones.length);
    return this.ubo.lastUploadBytes;
  }
  bind(): void {
    this.ubo.bind();
  }
  dispose(): void {
    this.ubo.dispose();
  }
}
