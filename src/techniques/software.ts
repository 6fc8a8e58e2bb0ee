import { orthonormaliseTangents } from '../anim/morph.ts';
import { skinMesh, skinTangents } from '../anim/software-skin.ts';
import type { MeshBuffers } from '../gpu/mesh-buffers.ts';
import { ATTRIB, DEFAULT_TANGENT } from '../gpu/programs.ts';
import { clampInfluences } from './influences.ts';
import { subsetDraws, wholeMeshWire } from './mesh-state.ts';
import type { SkinnedMesh } from '../model/types.ts';
import type { BindInputs, DrawRange, MeshCost, Technique, TechniqueMesh, PoseSource } from './technique.ts';

/**
 * `software`: the D3DX UpdateSkinnedMesh path (seed 004) and the reference every other technique is
 * tested against. Each frame the CPU skins positions, normals and tangents (anim/software-skin.ts) into
 * arrays sized at load and uploads them into dynamic vertex buffers; the shader draws them unskinned
 * (NO_SKIN). A mesh without tangents skins none (location 5 reads DEFAULT_TANGENT). UVs and indices are the model's own buffers. No bone limit, no allocation per frame.
 * Morph targets: it skins from its own bind-space copies of positions, normals and tangents (bindInputs 'arrays'),
 * which the morph runtime overwrites with the CPU-morphed mesh whatever the morph path (the GPU paths cannot
 * reach a mesh skinned on the CPU); neutral until then.
 */
class SoftwareMesh implements TechniqueMesh {
  readonly vao: WebGLVertexArrayObject;
  readonly wireVao: WebGLVertexArrayObject;
  private wire: readonly DrawRange[] | null = null;
  readonly indexType: number;
  readonly draws: readonly DrawRange[];
  readonly points: readonly DrawRange[];
  readonly vertexCount: number;
  readonly sourceVertex: Uint32Array;
  readonly approximated = null;
  readonly cost: MeshCost;
  readonly unrepresentableScale = 0;
  readonly bindInputs: BindInputs;
  /** The mesh with its positions and normals replaced by bindInputs' arrays: what skinMesh reads. */
  private readonly source: SkinnedMesh;
  /** Skinned model-space positions and normals, 3 floats per vertex, rewritten each frame. */
  private readonly positions: Float32Array;
  private readonly normals: Float32Array;
  /** Bind-space tangents (bindInputs.tangents) and their skinned model-space copies, 4 floats per vertex; null without mesh tangents. */
  private readonly bindTangents: Float32Array | null;
  private readonly tangents: Float32Array | null;
  private readonly palette: Float32Array;
  private positionBuffer: WebGLBuffer | null;
  private normalBuffer: WebGLBuffer | null;
  private tangentBuffer: WebGLBuffer | null;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly buffers: MeshBuffers,
    private readonly influences: number,
  ) {
    const mesh = buffers.mesh;
    const bindPositions = new Float32Array(mesh.positions);
    const bindNormals = new Float32Array(mesh.normals);
    // Projected against the normals as the GPU paths do (the morph runtime rewrites them through applyMorphs).
    this.bindTangents = mesh.tangents ? new Float32Array(mesh.tangents) : null;
    if (this.bindTangents) orthonormaliseTangents(mesh.normals, this.bindTangents, this.bindTangents);
    this.bindInputs = { kind: 'arrays', positions: bindPositions, normals: bindNormals, tangents: this.bindTangents };
    this.source = { ...mesh, positions: bindPositions, normals: bindNormals, tangents: this.bindTangents };
    this.positions = new Float32Array(mesh.positions);
    this.normals = new Float32Array(mesh.normals);
    this.tangents = mesh.tangents ? new Float32Array(mesh.tangents) : null;
    this.palette = new Float32Array(Math.max(1, mesh.bones.length) * 16);
    this.positionBuffer = this.dynamicBuffer(this.positions);
    this.normalBuffer = this.dynamicBuffer(this.normals);
    this.tangentBuffer = this.tangents ? this.dynamicBuffer(this.tangents) : null;
    this.vao = this.vertexArray(buffers.indexBuffer);
    // Its edges come with the first wireframe drawn (wireDraws).
    this.wireVao = this.vertexArray(null);
    this.indexType = gl.UNSIGNED_INT;
    this.draws = subsetDraws(mesh);
    this.points = [{ material: 0, group: 0, first: 0, count: mesh.vertexCount }];
    this.vertexCount = mesh.vertexCount;
    this.sourceVertex = Uint32Array.from({ length: mesh.vertexCount }, (_, i) => i);
    this.cost = {
      groups: 1,
      duplicatedVertices: 0,
      vertexBytes: this.positions.byteLength + this.normals.byteLength + (this.tangents?.byteLength ?? 0) + (mesh.uvs?.byteLength ?? 0),
      approximatedTriangles: 0,
    };
  }

  private dynamicBuffer(data: Float32Array): WebGLBuffer {
    const gl = this.gl;
    const b = gl.createBuffer();
    if (!b) throw new Error('createBuffer failed');
    gl.bindBuffer(gl.ARRAY_BUFFER, b);
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.DYNAMIC_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    return b;
  }

  private vertexArray(elements: WebGLBuffer | null): WebGLVertexArrayObject {
    const gl = this.gl;
    const vao = gl.createVertexArray();
    if (!vao) throw new Error('createVertexArray failed');
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.positionBuffer);
    gl.enableVertexAttribArray(ATTRIB.a_position);
    gl.vertexAttribPointer(ATTRIB.a_position, 3, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.normalBuffer);
    gl.enableVertexAttribArray(ATTRIB.a_normal);
    gl.vertexAttribPointer(ATTRIB.a_normal, 3, gl.FLOAT, false, 0, 0);
    if (!this.buffers.bindAttribute(ATTRIB.a_uv)) gl.vertexAttrib2f(ATTRIB.a_uv, 0, 0);
    if (this.tangentBuffer) {
      gl.bindBuffer(gl.ARRAY_BUFFER, this.tangentBuffer);
      gl.enableVertexAttribArray(ATTRIB.a_tangent);
      gl.vertexAttribPointer(ATTRIB.a_tangent, 4, gl.FLOAT, false, 0, 0);
    } else gl.vertexAttrib4f(ATTRIB.a_tangent, ...DEFAULT_TANGENT);
    if (elements) gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, elements);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    return vao;
  }

  update(player: PoseSource): number {
    const gl = this.gl;
    const mesh = this.buffers.mesh;
    player.writePalette(mesh, this.palette, 0);
    skinMesh(this.source, this.palette, this.positions, this.normals, this.influences);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.positionBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, this.positions);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.normalBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, this.normals);
    let bytes = this.positions.byteLength + this.normals.byteLength;
    if (this.tangents && this.bindTangents) {
      skinTangents(this.source, this.bindTangents, this.palette, this.tangents, this.influences);
      gl.bindBuffer(gl.ARRAY_BUFFER, this.tangentBuffer);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, this.tangents);
      bytes += this.tangents.byteLength;
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    return bytes;
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
    const gl = this.gl;
    gl.deleteVertexArray(this.vao);
    gl.deleteVertexArray(this.wireVao);
    gl.deleteBuffer(this.positionBuffer);
    gl.deleteBuffer(this.normalBuffer);
    gl.deleteBuffer(this.tangentBuffer);
    this.positionBuffer = null;
    this.normalBuffer = null;
    this.tangentBuffer = null;
  }
}

export const software: Technique = {
  id: 'software',
  label: 'Software (CPU, UpdateSkinnedMesh)',
  summary: 'CPU skins positions, normals and tangents into dynamic vertex buffers each frame; the reference',
  groupUniform: null,
  skinsOnce: true,
  unsupportedReason: () => null,
  defines: () => ({ NO_SKIN: true }),
  meshKey: (o) => `software:${clampInfluences(o.influences)}`,
  createMesh: (gl, buffers, _scene, _caps, o) => new SoftwareMesh(gl, buffers, clampInfluences(o.influences)),
};
