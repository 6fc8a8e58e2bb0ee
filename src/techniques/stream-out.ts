import type { MeshBuffers } from '../gpu/mesh-buffers.ts';
import { PaletteTexture } from '../gpu/palette-texture.ts';
import { ATTRIB, DEFAULT_TANGENT, ProgramCache, type Defines } from '../gpu/programs.ts';
import { clampInfluences } from './influences.ts';
import { subsetDraws, wholeMeshWire } from './mesh-state.ts';
import type { BindInputs, DrawRange, MeshCost, PassMorph, PoseSource, Technique, TechniqueMesh } from './technique.ts';

/**
 * `stream-out`: Direct3D 10's stream-out (the Skinning10 sample), what engines do today with compute skinning.
 * Once per frame, in update(), a transform-feedback pass with the rasteriser discarded runs skinned.vert over
 * the mesh's bind-space vertices (SKIN_OUT: the `texture` technique's RGBA32F palette and accumulated-matrix
 * skinning, so no bone limit; INFLUENCES per mesh state) and writes the skinned model-space positions, normals
 * and — when the mesh has them — tangents into output buffers. Every pass then draws those buffers as static
 * geometry with `software`'s define set (NO_SKIN): the shaded surfaces, wireframe, the teaching views, a
 * shadow map, the diff view. Each vertex is skinned once per frame however many passes draw it.
 *
 * Buffers: the pass reads its own bind-space copies of positions and normals (bindInputs, so the morph
 * runtime's cpu path writes them, and the GPU paths bind their inputs on passVao) and the model's shared
 * joints, weights and tangents; it writes separate output buffers, so no draw reads a buffer it writes.
 * The draw vertex arrays read the outputs, the model's UVs and its triangle and edge index buffers.
 * Morph targets: applied first, in the pass, on every path — `cpu` through the bind-space copies, `slots` and
 * `texture` with their GPU define in the pass program (setPassMorph, called by the morph runtime before update()).
 * The pass program comes from the context's ProgramCache (ProgramCache.of), one per morph define set,
 * resolved once and kept; the mesh owns its buffers, vertex arrays, transform-feedback object and palette
 * texture, and dispose() deletes them. A context loss rebuilds it like every technique's mesh state.
 * update() leaves no vertex array, transform feedback or buffer bound, RASTERIZER_DISCARD off, and its own
 * program in use. No allocation per frame.
 */

/** Outputs of the pass, in transform-feedback buffer order (separate attributes). */
const FEEDBACK_WITH_TANGENTS = ['o_position', 'o_normal', 'o_tangent'] as const;
const FEEDBACK = ['o_position', 'o_normal'] as const;

/** Bytes the pass writes per vertex: position and normal (3 floats each), tangent (4 floats) when the mesh has them. */
export function feedbackBytesPerVertex(hasTangents: boolean): number {
  return hasTangents ? 40 : 24;
}

/** The pass program's define set: the texture palette, accumulated-matrix skinning, the influence count, SKIN_OUT, and the morph path's define. */
export function passDefines(influences: number, morph: Defines | null): Defines {
  const base: Defines = { PALETTE_TEXTURE: true, INFLUENCES: clampInfluences(influences), SKIN_OUT: true };
  return morph ? { ...base, ...morph } : base;
}

class StreamOutMesh implements TechniqueMesh {
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
  private readonly feedback: WebGLTransformFeedback;
  /** Owned buffers: bind-space position and normal copies, then the outputs (position, normal, tangent or null). */
  private readonly sourcePositions: WebGLBuffer;
  private readonly sourceNormals: WebGLBuffer;
  private readonly outputs: WebGLBuffer[];
  private readonly frameBytes: number;
  private passMorph: PassMorph | null = null;
  /** Pass programs by morph define set (null: none), from `cache`; forgotten when the context's cache changes. */
  private readonly programs = new Map<Defines | null, WebGLProgram>();
  private cache: ProgramCache | null = null;
  private disposed = false;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly buffers: MeshBuffers,
    private readonly influences: number,
  ) {
    const mesh = buffers.mesh;
    const n = mesh.vertexCount;
    const tangents = mesh.tangents !== null;
    this.tex = new PaletteTexture(gl, mesh.bones.length);
    this.sourcePositions = this.buffer(gl.ARRAY_BUFFER, mesh.positions, gl.STATIC_DRAW);
    this.sourceNormals = this.buffer(gl.ARRAY_BUFFER, mesh.normals, gl.STATIC_DRAW);
    // Sized, not filled: the first update() writes them before any draw reads them.
    this.outputs = [this.buffer(gl.ARRAY_BUFFER, n * 12, gl.DYNAMIC_COPY), this.buffer(gl.ARRAY_BUFFER, n * 12, gl.DYNAMIC_COPY)];
    if (tangents) this.outputs.push(this.buffer(gl.ARRAY_BUFFER, n * 16, gl.DYNAMIC_COPY));
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
      // The shared attributes the pass reads, its bind-space copies, and the skinned outputs the draws read.
      vertexBytes: buffers.vertexBytes + mesh.positions.byteLength + mesh.normals.byteLength + this.frameBytes,
      approximatedTriangles: 0,
    };
    // The pass without morph targets is compiled with the mesh state (one-time work), the morph paths' on first use.
    this.program();
  }

  private buffer(target: number, data: ArrayBufferView | number, usage: number): WebGLBuffer {
    const gl = this.gl;
    const b = gl.createBuffer();
    if (!b) throw new Error('createBuffer failed');
    gl.bindBuffer(target, b);
    if (typeof data === 'number') gl.bufferData(target, data, usage);
    else gl.bufferData(target, data, usage);
    gl.bindBuffer(target, null);
    return b;
  }

  /** The pass's source: the bind-space copies at 0 and 1, the model's joints, weights and tangents. */
  private passArray(): WebGLVertexArrayObject {
    const gl = this.gl;
    const vao = gl.createVertexArray();
    if (!vao) throw new Error('createVertexArray failed');
    gl.bindVertexArray(vao);
    this.floatAttribute(ATTRIB.a_position, this.sourcePositions, 3);
    this.floatAttribute(ATTRIB.a_normal, this.sourceNormals, 3);
    this.buffers.bindAttribute(ATTRIB.a_joints);
    this.buffers.bindAttribute(ATTRIB.a_weights);
    this.buffers.bindAttribute(ATTRIB.a_tangent);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    return vao;
  }

  /** What every pass draws: the skinned outputs (model space), the model's UVs, and `elements`. */
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

  /** The pass program for the current morph define set, from the context's program cache (resolved once per set). */
  private program(): WebGLProgram {
    const cache = ProgramCache.of(this.gl);
    if (!cache) throw new Error('stream-out: no program cache on this WebGL context (the renderer makes one)');
    if (cache !== this.cache) {
      this.programs.clear();
      this.cache = cache;
    }
    const morph = this.passMorph ? this.passMorph.defines : null;
    let program = this.programs.get(morph);
    if (!program) {
      const feedback = this.outputs.length === 3 ? FEEDBACK_WITH_TANGENTS : FEEDBACK;
      program = cache.get('skinned.vert', 'flat.frag', passDefines(this.influences, morph), feedback).program;
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
    gl.bindVertexArray(this.passVao);
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, this.feedback);
    const outputs = this.outputs;
    for (let i = 0; i < outputs.length; i++) gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, i, outputs[i]!);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArrays(gl.POINTS, 0, this.vertexCount);
    gl.endTransformFeedback();
    // Unbound at once: a buffer still bound for feedback may not be read as a vertex attribute by the draws.
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
    this.tex.dispose();
    this.programs.clear();
    this.cache = null;
  }
}

export const streamOut: Technique = {
  id: 'stream-out',
  label: 'Stream-out (transform feedback)',
  summary: 'transform feedback skins positions, normals and tangents once per frame into buffers every pass draws (Direct3D 10 stream-out)',
  groupUniform: null,
  skinsOnce: true,
  unsupportedReason: (scene, caps) => {
    let need = 1;
    for (const m of scene.meshes) need = Math.max(need, m.bones.length);
    const rows = Math.ceil(need / 256);
    return rows > caps.maxTextureSize ? `needs a palette texture ${rows} rows high; this device allows ${caps.maxTextureSize}` : null;
  },
  // The draws read skinned model-space vertices, as software's do.
  defines: () => ({ NO_SKIN: true }),
  meshKey: (o) => `stream-out:${clampInfluences(o.influences)}`,
  createMesh: (gl, buffers, _scene, _caps, o) => new StreamOutMesh(gl, buffers, clampInfluences(o.influences)),
};
