import { ddmData, DDM_OMEGA, DDM_SLOTS, type DdmData } from '../deform/ddm-precompute.ts';
import type { MeshBuffers } from '../gpu/mesh-buffers.ts';
import { PaletteTexture } from '../gpu/palette-texture.ts';
import { ATTRIB, DEFAULT_TANGENT, ProgramCache, type Defines } from '../gpu/programs.ts';
import { subsetDraws, wholeMeshWire } from './mesh-state.ts';
import { feedbackBytesPerVertex } from './stream-out.ts';
import type { BindInputs, DrawRange, MeshCost, PassMorph, PoseSource, Technique, TechniqueMesh } from './technique.ts';

/**
 * `ddm`: direct delta mush, variant 0 (Le & Lewis 2019). At load each mesh's Ω (ddmData: 8 bones per vertex, a
 * symmetric 4×4 per bone, from Laplacian-smoothed weights and rest positions; src/deform/ddm-precompute.ts) goes
 * into an RGBA32F texture (glsl/include/ddm_pars.glsl gives its layout). Once per frame, in update(), a
 * transform-feedback pass with the rasteriser discarded runs skinned.vert with SKIN_DDM over the bind-space
 * vertices: per vertex Q = Σ M_j Ω_ij, a polar decomposition for the rotation, and the position, normal and
 * tangent (src/deform/ddm-runtime.ts is its CPU mirror). Every pass then draws the outputs with NO_SKIN, as
 * `stream-out`'s do: shaded, wireframe, the teaching views, the shadow caster, the readback.
 *
 * Buffers and morphs as stream-out (src/techniques/stream-out.ts): bind-space position and normal copies the
 * morph runtime's cpu path writes (bindInputs), GPU morph paths applied first in the pass (passVao,
 * setPassMorph), separate output buffers. The pass reads no joints or weights: the bones come from the texture.
 * The user's influence count does not apply (DDM blends up to 8 smoothed bones per vertex). The pass program is
 * the context's ProgramCache's, one per morph define set, with u_ddmTex set to DDM_TEXTURE_UNIT when resolved.
 * The mesh owns its buffers, vertex arrays, transform feedback, palette texture and Ω texture; dispose() deletes
 * them. update() leaves no vertex array, transform feedback or buffer bound, RASTERIZER_DISCARD off, its own
 * program in use and its textures bound. No allocation per frame.
 */

/** Texture unit of the Ω texture (above the shadow map's 8). */
export const DDM_TEXTURE_UNIT = 9;
/** Texture layout (ddm_pars.glsl): vertices per row, RGBA texels per vertex. */
export const DDM_ROW_VERTICES = 64;
export const DDM_TEXELS = 24;

const FEEDBACK_WITH_TANGENTS = ['o_position', 'o_normal', 'o_tangent'] as const;
const FEEDBACK = ['o_position', 'o_normal'] as const;

/** The Ω texture's contents (ddm_pars.glsl layout), DDM_ROW_VERTICES × DDM_TEXELS × 4 floats per row. */
export function packDdmTexture(data: DdmData): Float32Array {
  const rows = Math.max(1, Math.ceil(data.vertexCount / DDM_ROW_VERTICES));
  const out = new Float32Array(rows * DDM_ROW_VERTICES * DDM_TEXELS * 4);
  for (let v = 0; v < data.vertexCount; v++) {
    const base = v * DDM_TEXELS * 4;
    for (let s = 0; s < DDM_SLOTS; s++) {
      const o = (v * DDM_SLOTS + s) * DDM_OMEGA;
      const t = base + s * 12;
      for (let k = 0; k < DDM_OMEGA; k++) out[t + k] = data.omega[o + k]!;
      out[t + 10] = data.bones[v * DDM_SLOTS + s]!;
      out[t + 11] = s < 3 ? data.centre[v * 3 + s]! : 0;
    }
  }
  return out;
}

function passDefines(morph: Defines | null): Defines {
  const base: Defines = { SKIN_DDM: true, SKIN_OUT: true };
  return morph ? { ...base, ...morph } : base;
}

class DdmMesh implements TechniqueMesh {
  readonly vao: WebGLVertexArrayObject;
  readonly wireVao: WebGLVertexArrayObject;
  private wire: readonly DrawRange[] | null = null;
  readonly passVao: WebGLVertexArrayObject;
  readonly indexType: number;
  readonly draws: readonly DrawRange[];
  readonly points: readonly DrawRange[];
  readonly vertexCount: number;
  readonly sourceVertex: Uint32Array;
  readonly approximated = null;
  readonly cost: MeshCost;
  readonly unrepresentableScale = 0;
  readonly bindInputs: BindInputs;
  feedbackBytes = 0;
  private readonly tex: PaletteTexture;
  private omegaTex: WebGLTexture | null;
  private readonly feedback: WebGLTransformFeedback;
  private readonly sourcePositions: WebGLBuffer;
  private readonly sourceNormals: WebGLBuffer;
  private readonly outputs: WebGLBuffer[];
  private readonly frameBytes: number;
  private passMorph: PassMorph | null = null;
  private readonly programs = new Map<Defines | null, WebGLProgram>();
  private cache: ProgramCache | null = null;
  private disposed = false;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly buffers: MeshBuffers,
  ) {
    const mesh = buffers.mesh;
    const n = mesh.vertexCount;
    const tangents = mesh.tangents !== null;
    this.tex = new PaletteTexture(gl, mesh.bones.length);
    const packed = packDdmTexture(ddmData(mesh));
    this.omegaTex = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, this.omegaTex);
    const height = packed.length / (DDM_ROW_VERTICES * DDM_TEXELS * 4);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, DDM_ROW_VERTICES * DDM_TEXELS, height);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, DDM_ROW_VERTICES * DDM_TEXELS, height, gl.RGBA, gl.FLOAT, packed);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.bindTexture(gl.TEXTURE_2D, null);
    this.sourcePositions = this.buffer(mesh.positions, gl.STATIC_DRAW);
    this.sourceNormals = this.buffer(mesh.normals, gl.STATIC_DRAW);
    this.outputs = [this.buffer(n * 12, gl.DYNAMIC_COPY), this.buffer(n * 12, gl.DYNAMIC_COPY)];
    if (tangents) this.outputs.push(this.buffer(n * 16, gl.DYNAMIC_COPY));
    const feedback = gl.createTransformFeedback();
    if (!feedback) throw new Error('createTransformFeedback failed');
    this.feedback = feedback;
    this.passVao = this.passArray();
    this.vao = this.drawArray(buffers.indexBuffer);
    // Its edges come with the first wireframe drawn (wireDraws).
    this.wireVao = this.drawArray(null);
    this.bindInputs = { kind: 'buffers', positions: this.sourcePositions, normals: this.sourceNormals };
    this.indexType = gl.UNSIGNED_INT;
    this.draws = subsetDraws(mesh);
    this.points = [{ material: 0, group: 0, first: 0, count: n }];
    this.vertexCount = n;
    this.sourceVertex = Uint32Array.from({ length: n }, (_, i) => i);
    this.frameBytes = n * feedbackBytesPerVertex(tangents);
    this.cost = {
      groups: 1,
      duplicatedVertices: 0,
      // The shared attributes, the bind-space copies, the outputs the draws read, and the Ω texture (per-vertex data).
      vertexBytes: buffers.vertexBytes + mesh.positions.byteLength + mesh.normals.byteLength + this.frameBytes + packed.byteLength,
      approximatedTriangles: 0,
    };
    this.program();
  }

  private buffer(data: ArrayBufferView | number, usage: number): WebGLBuffer {
    const gl = this.gl;
    const b = gl.createBuffer();
    if (!b) throw new Error('createBuffer failed');
    gl.bindBuffer(gl.ARRAY_BUFFER, b);
    if (typeof data === 'number') gl.bufferData(gl.ARRAY_BUFFER, data, usage);
    else gl.bufferData(gl.ARRAY_BUFFER, data, usage);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    return b;
  }

  /** The pass's source: the bind-space copies and the model's tangents (the shader fetches the rest by gl_VertexID). */
  private passArray(): WebGLVertexArrayObject {
    const gl = this.gl;
    const vao = gl.createVertexArray();
    if (!vao) throw new Error('createVertexArray failed');
    gl.bindVertexArray(vao);
    this.floatAttribute(ATTRIB.a_position, this.sourcePositions, 3);
    this.floatAttribute(ATTRIB.a_normal, this.sourceNormals, 3);
    if (!this.buffers.bindAttribute(ATTRIB.a_tangent)) gl.vertexAttrib4f(ATTRIB.a_tangent, ...DEFAULT_TANGENT);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    return vao;
  }

  private drawArray(elements: WebGLBuffer | null): WebGLVertexArrayObject {
    const gl = this.gl;
    const vao = gl.createVertexArray();
    if (!vao) throw new Error('createVertexArray failed');
    gl.bindVertexArray(vao);
    this.floatAttribute(ATTRIB.a_position, this.outputs[0]!, 3);
    this.floatAttribute(ATTRIB.a_normal, this.outputs[1]!, 3);
    if (!this.buffers.bindAttribute(ATTRIB.a_uv)) gl.vertexAttrib2f(ATTRIB.a_uv, 0, 0);
    if (this.outputs[2]) this.floatAttribute(ATTRIB.a_tangent, this.outputs[2], 4);
    else gl.vertexAttrib4f(ATTRIB.a_tangent, ...DEFAULT_TANGENT);
    if (elements) gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, elements);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    return vao;
  }

  private floatAttribute(loc: number, buffer: WebGLBuffer, size: number): void {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, size, gl.FLOAT, false, 0, 0);
  }

  private program(): WebGLProgram {
    const gl = this.gl;
    const cache = ProgramCache.of(gl);
    if (!cache) throw new Error('ddm: no program cache on this WebGL context (the renderer makes one)');
    if (cache !== this.cache) {
      this.programs.clear();
      this.cache = cache;
    }
    const morph = this.passMorph ? this.passMorph.defines : null;
    let program = this.programs.get(morph);
    if (!program) {
      const feedback = this.outputs.length === 3 ? FEEDBACK_WITH_TANGENTS : FEEDBACK;
      program = cache.get('skinned.vert', 'flat.frag', passDefines(morph), feedback).program;
      gl.useProgram(program);
      gl.uniform1i(gl.getUniformLocation(program, 'u_ddmTex'), DDM_TEXTURE_UNIT);
      this.programs.set(morph, program);
    }
    return program;
  }

  setPassMorph(morph: PassMorph | null): void {
    this.passMorph = morph;
  }

  update(player: PoseSource): number {
    const gl = this.gl;
    player.writePalette(this.buffers.mesh, this.tex.data, 0);
    this.tex.upload();
    const program = this.program();
    gl.useProgram(program);
    this.passMorph?.bind(program);
    this.tex.bind();
    gl.activeTexture(gl.TEXTURE0 + DDM_TEXTURE_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.omegaTex);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindVertexArray(this.passVao);
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, this.feedback);
    const outputs = this.outputs;
    for (let i = 0; i < outputs.length; i++) gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, i, outputs[i]!);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArrays(gl.POINTS, 0, this.vertexCount);
    gl.endTransformFeedback();
    for (let i = 0; i < outputs.length; i++) gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, i, null);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    gl.disable(gl.RASTERIZER_DISCARD);
    gl.bindVertexArray(null);
    this.feedbackBytes = this.frameBytes;
    return this.tex.lastUploadBytes;
  }

  bind(): void {}
  setGroup(): number {
    return 0;
  }

  /** The whole mesh's one edge draw: its edges attached to wireVao on the first read (mesh-state.ts wholeMeshWire). */
  get wireDraws(): readonly DrawRange[] {
    return (this.wire ??= wholeMeshWire(this.gl, this.wireVao, this.buffers));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const gl = this.gl;
    gl.deleteVertexArray(this.vao);
    gl.deleteVertexArray(this.wireVao);
    gl.deleteVertexArray(this.passVao);
    gl.deleteTransformFeedback(this.feedback);
    gl.deleteBuffer(this.sourcePositions);
    gl.deleteBuffer(this.sourceNormals);
    for (const b of this.outputs) gl.deleteBuffer(b);
    if (this.omegaTex) gl.deleteTexture(this.omegaTex);
    this.omegaTex = null;
    this.tex.dispose();
    this.programs.clear();
    this.cache = null;
  }
}

export const ddm: Technique = {
  id: 'ddm',
  label: 'Direct delta mush (variant 0)',
  summary:
    'direct delta mush (Le & Lewis 2019): per vertex, Laplacian-smoothed 4×4 Ω of up to 8 bones blended and polar-decomposed in a transform-feedback pass once per frame; the influences setting does not apply, crowds keep their own skinning',
  groupUniform: null,
  skinsOnce: true,
  unsupportedReason: (scene, caps) => {
    let bones = 1, vertices = 1;
    for (const m of scene.meshes) {
      bones = Math.max(bones, m.bones.length);
      vertices = Math.max(vertices, m.vertexCount);
    }
    const rows = Math.ceil(vertices / DDM_ROW_VERTICES);
    if (DDM_ROW_VERTICES * DDM_TEXELS > caps.maxTextureSize || rows > caps.maxTextureSize) {
      return `needs a ${DDM_ROW_VERTICES * DDM_TEXELS}×${rows} Ω texture; this device allows ${caps.maxTextureSize}`;
    }
    const paletteRows = Math.ceil(bones / 256);
    return paletteRows > caps.maxTextureSize ? `needs a palette texture ${paletteRows} rows high; this device allows ${caps.maxTextureSize}` : null;
  },
  defines: () => ({ NO_SKIN: true }),
  meshKey: () => 'ddm',
  createMesh: (gl, buffers) => new DdmMesh(gl, buffers),
};
