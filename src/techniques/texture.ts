import type { MeshBuffers } from '../gpu/mesh-buffers.ts';
import { PaletteTexture } from '../gpu/palette-texture.ts';
import { clampInfluences } from './influences.ts';
import { SharedMesh } from './mesh-state.ts';
import type { Technique, PoseSource } from './technique.ts';

/**
 * `texture`: the palette in an RGBA32F texture read with texelFetch (beyond the seeds). No uniform limit:
 * the texture grows a row per 256 bones. Written straight by the animation into the texture's
 * Float32Array and uploaded once per frame; matrices blended first (as accumulated).
 */
class TextureMesh extends SharedMesh {
  private readonly tex: PaletteTexture;
  constructor(gl: WebGL2RenderingContext, buffers: MeshBuffers) {
    super(gl, buffers);
    this.tex = new PaletteTexture(gl, buffers.mesh.bones.length);
  }
  update(player: PoseSource): number {
    player.writePalette(this.buffers.mesh, this.tex.data, 0);
    this.tex.upload();
    return this.tex.lastUploadBytes;
  }
  bind(): void {
    this.tex.bind();
  }
  dispose(): void {
    this.tex.dispose();
  }
}

export const texture: Technique = {
  id: 'texture',
  label: 'Palette texture (texelFetch)',
  summary: 'mat4 palette in an RGBA32F texture, 4 texels per bone, no bone limit',
  groupUniform: null,
  skinsOnce: false,
  unsupportedReason: (scene, caps) => {
    let need = 1;
    for (const m of scene.meshes) need = Math.max(need, m.bones.length);
    const rows = Math.ceil(need / 256);
    return rows > caps.maxTextureSize ? `needs a palette texture ${rows} rows high; this device allows ${caps.maxTextureSize}` : null;
  },
  defines: (_scene, _caps, o) => ({ PALETTE_TEXTURE: true, INFLUENCES: clampInfluences(o.influences) }),
  meshKey: () => 'texture',
  createMesh: (gl, buffers) => new TextureMesh(gl, buffers),
};
