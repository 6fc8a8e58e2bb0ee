import { PaletteUbo } from '../gpu/palette-ubo.ts';
import type { AnimPlayer } from '../anim/player.ts';
import type { MeshBuffers } from '../gpu/mesh-buffers.ts';
import type { Scene } from '../model/types.ts';
import type { DeviceCaps, Technique, TechniqueMesh } from './technique.ts';

/**
 * `vs-hlsl`: the SkinnedMesh sample's HLSL technique (seed 004) in GLSL ES 3.0. The whole palette is one
 * std140 uniform block of mat4, written straight from the animation into the block's Float32Array and
 * uploaded once per frame per mesh; one draw per subset; INFLUENCES selects the variant per influence count.
 * Limit: the block must hold the mesh's palette (16 KiB = 256 mat4 is the WebGL2 minimum).
 */

function paletteCapacity(caps: DeviceCaps): number {
  return Math.min(1024, Math.floor(caps.maxUniformBlockSize / 64));
}

function largestPalette(scene: Scene): number {
  let n = 1;
  for (const m of scene.meshes) n = Math.max(n, m.bones.length);
  return n;
}

/** Palette array length compiled into the shader: the scene's largest palette rounded up to 32 slots. */
function paletteSize(scene: Scene, caps: DeviceCaps): number {
  return Math.min(paletteCapacity(caps), Math.ceil(largestPalette(scene) / 32) * 32);
}

class VsHlslMesh implements TechniqueMesh {
  private readonly ubo: PaletteUbo;
  constructor(
    gl: WebGL2RenderingContext,
    private readonly buffers: MeshBuffers,
    capacity: number,
  ) {
    this.ubo = new PaletteUbo(gl, capacity);
  }
  update(player: AnimPlayer): number {
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

export const vsHlsl: Technique = {
  id: 'vs-hlsl',
  label: 'HLSL shader (uniform block)',
  summary: 'mat4 palette in a std140 uniform block, one draw per subset, a shader variant per influence count',
  unsupportedReason(scene, caps) {
    const need = largestPalette(scene);
    const cap = paletteCapacity(caps);
    return need > cap ? `needs ${need} palette matrices; this device's uniform block holds ${cap}` : null;
  },
  defines(scene, caps, influences) {
    return { PALETTE_UBO: true, PALETTE_SIZE: paletteSize(scene, caps), INFLUENCES: influences };
  },
  createMesh(gl, buffers, scene, caps) {
    return new VsHlslMesh(gl, buffers, paletteSize(scene, caps));
  },
};
