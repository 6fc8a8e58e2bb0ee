import { corCentres } from '../deform/cor-centres.ts';
import { buildCorPalette, COR_IDENTITY, COR_STRIDE } from '../deform/cor-skin.ts';
import type { MeshBuffers } from '../gpu/mesh-buffers.ts';
import { PaletteUbo } from '../gpu/palette-ubo.ts';
import { COR_TEXTURE_UNIT } from '../gpu/programs.ts';
import { clampInfluences } from './influences.ts';
import { uboPaletteSize, uboUnsupported } from './limits.ts';
import { SharedMesh } from './mesh-state.ts';
import type { MeshCost, PoseSource, Technique } from './technique.ts';

/**
 * `cor`: skinning with optimized centres of rotation (Le & Hodgins, SIGGRAPH 2016), beyond the seeds. Each
 * vertex gets a centre of rotation at load (deform/cor-centres.ts: the area-weighted mean of the triangles
 * whose weights are similar to the vertex's; the session cache, or computed now). Per frame the palette
 * becomes, per bone, its rotation quaternion, its bind-space axis scale and its 3x4 matrix (5 vec4 in a std140
 * block, deform/cor-skin.ts buildCorPalette); the shader blends the quaternions (antipodality fix), rotates
 * the vertex about its centre and moves the centre where linear blending moves it (glsl/include/cor_pars.glsl):
 * no candy wrapper at twisting joints (like dual-quat), no bulge at bending ones (unlike dual-quat).
 * The centres are an RGBA32F texture fetched at gl_VertexID (every attribute location is taken once Dawn's
 * morph slots are bound), so every pass and morph path reads them without a vertex array of its own.
 * Crowds (`crowd` > 1) draw their own instanced linear blending whatever the technique (render/crowd-pass.ts).
 */

/** Widest row of the centre texture (rows = ceil(vertices / width)), as the view data's. */
export const COR_TEXTURE_WIDTH = 2048;

/** The centre texture's size for `vertexCount` vertices (at least 1x1). */
export function corTextureSize(vertexCount: number, maxTextureSize: number): { width: number; height: number } {
  const width = Math.max(1, Math.min(vertexCount, COR_TEXTURE_WIDTH, maxTextureSize));
  return { width, height: Math.max(1, Math.ceil(vertexCount / width)) };
}

class CorMesh extends SharedMesh {
  private readonly ubo: PaletteUbo;
  private readonly palette: Float32Array;
  private centres: WebGLTexture | null;

  constructor(gl: WebGL2RenderingContext, buffers: MeshBuffers, capacity: number, maxTextureSize: number) {
    super(gl, buffers);
    const mesh = buffers.mesh;
    this.ubo = new PaletteUbo(gl, capacity, COR_STRIDE, COR_IDENTITY);
    this.palette = new Float32Array(Math.max(1, mesh.bones.length) * 16);
    const centres = corCentres(mesh);
    const { width, height } = corTextureSize(mesh.vertexCount, maxTextureSize);
    const texels = new Float32Array(width * height * 4);
    for (let v = 0; v < mesh.vertexCount; v++) {
      texels[v * 4] = centres[v * 3]!;
      texels[v * 4 + 1] = centres[v * 3 + 1]!;
      texels[v * 4 + 2] = centres[v * 3 + 2]!;
    }
    this.centres = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, this.centres);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, width, height);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, gl.RGBA, gl.FLOAT, texels);
    gl.bindTexture(gl.TEXTURE_2D, null);
    // The shared attributes plus the centres (4 floats per vertex): per-vertex data every draw reads.
    (this as { cost: MeshCost }).cost = { ...this.cost, vertexBytes: buffers.vertexBytes + texels.byteLength };
  }

  update(player: PoseSource): number {
    const mesh = this.buffers.mesh;
    player.writePalette(mesh, this.palette, 0);
    this.unrepresentableScale = buildCorPalette(this.palette, mesh.bones.length, this.ubo.data, 0);
    this.ubo.upload(mesh.bones.length);
    return this.ubo.lastUploadBytes;
  }

  bind(): void {
    const gl = this.gl;
    this.ubo.bind();
    gl.activeTexture(gl.TEXTURE0 + COR_TEXTURE_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.centres);
    gl.activeTexture(gl.TEXTURE0);
  }

  dispose(): void {
    this.ubo.dispose();
    if (this.centres) this.gl.deleteTexture(this.centres);
    this.centres = null;
  }
}

export const cor: Technique = {
  id: 'cor',
  label: 'Centres of rotation (Le & Hodgins)',
  summary:
    'per-vertex optimized centre of rotation (precomputed at load) + palette as quaternion, axis scale and 3x4 matrix (5 vec4 per bone): ' +
    'no candy wrapper, no joint bulge; crowds still draw linear blending',
  groupUniform: null,
  skinsOnce: false,
  unsupportedReason: (scene, caps) => {
    const ubo = uboUnsupported(scene, caps, COR_STRIDE);
    if (ubo) return ubo;
    let need = 1;
    for (const m of scene.meshes) need = Math.max(need, corTextureSize(m.vertexCount, caps.maxTextureSize).height);
    return need > caps.maxTextureSize ? `needs a centre texture ${need} rows high; this device allows ${caps.maxTextureSize}` : null;
  },
  defines: (scene, caps, o) => ({
    PALETTE_COR: true,
    PALETTE_SIZE: uboPaletteSize(scene, caps, COR_STRIDE),
    INFLUENCES: clampInfluences(o.influences),
  }),
  meshKey: () => 'cor',
  createMesh: (gl, buffers, scene, caps) => new CorMesh(gl, buffers, uboPaletteSize(scene, caps, COR_STRIDE), caps.maxTextureSize),
};
