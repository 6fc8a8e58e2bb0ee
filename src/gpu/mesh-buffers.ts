import type { SkinnedMesh } from '../model/types.ts';
import { ATTRIB, DEFAULT_TANGENT } from './programs.ts';

/** A mesh's wireframe edges on the GPU: index pairs (UNSIGNED_INT) in an element buffer, `count` edges. */
export interface WireEdges {
  readonly buffer: WebGLBuffer;
  readonly count: number;
}

/**
 * GPU copy of one SkinnedMesh: one buffer per attribute at the fixed ATTRIB locations, a triangle
 * index buffer, an edge index buffer for wireframes (each undirected edge once, built on first use: wireEdges),
 * and one vertex array that every program variant can use. Positions, normals and tangents are bind space. Joints are uvec4
 * (UNSIGNED_SHORT, integer attribute), weights vec4, tangents vec4 (xyz, bitangent sign w) at ATTRIB.a_tangent;
 * a mesh without tangents leaves that location disabled, reading the constant DEFAULT_TANGENT (set here:
 * generic attribute values are context state, and nothing else writes location 5's).
 * Owns its handles; dispose() deletes them. Built with `vertices` (another MeshBuffers over the very same vertex
 * arrays: a detail level that only has other indices), it uses that one's vertex buffers and owns only its
 * vertex arrays and index buffers; `vertices` must outlive it.
 */
export class MeshBuffers {
  readonly vao: WebGLVertexArrayObject;
  readonly triangleCount: number;
  readonly vertexBytes: number;
  /** Triangle indices (UNSIGNED_INT), for techniques that build their own vertex arrays. */
  readonly indexBuffer: WebGLBuffer;
  private readonly buffers: WebGLBuffer[] = [];
  private edgeVao: WebGLVertexArrayObject | null;
  private edges: WireEdges | null = null;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    readonly mesh: SkinnedMesh,
    private readonly vertices: MeshBuffers | null = null,
  ) {
    const vao = gl.createVertexArray();
    if (!vao) throw new Error('createVertexArray failed');
    this.vao = vao;
    gl.bindVertexArray(vao);
    this.attribute(ATTRIB.a_position, mesh.positions, 3);
    this.attribute(ATTRIB.a_normal, mesh.normals, 3);
    if (mesh.uvs) this.attribute(ATTRIB.a_uv, mesh.uvs, 2);
    else gl.vertexAttrib2f(ATTRIB.a_uv, 0, 0);
    this.integerAttribute(ATTRIB.a_joints, mesh.joints, 4);
    this.attribute(ATTRIB.a_weights, mesh.weights, 4);
    if (mesh.tangents) this.attribute(ATTRIB.a_tangent, mesh.tangents, 4);
    else gl.disableVertexAttribArray(ATTRIB.a_tangent);
    gl.vertexAttrib4f(ATTRIB.a_tangent, ...DEFAULT_TANGENT);
    this.indexBuffer = this.createBuffer(gl.ELEMENT_ARRAY_BUFFER, mesh.indices);
    gl.bindVertexArray(null);
    this.triangleCount = mesh.indices.length / 3;

    // Wireframe: same attributes; its edge index buffer comes with the first wireframe drawn (wireEdges).
    const edgeVao = gl.createVertexArray();
    this.edgeVao = edgeVao;
    gl.bindVertexArray(edgeVao);
    this.rebindAttributes();
    gl.bindVertexArray(null);
    this.vertexBytes = vertices !== null ? 0 : (
      mesh.positions.byteLength + mesh.normals.byteLength + (mesh.uvs?.byteLength ?? 0) + mesh.joints.byteLength + mesh.weights.byteLength + (mesh.tangents?.byteLength ?? 0));
  }

  /** The bind-space position and normal buffers (3 floats per mesh vertex); the morph runtime's cpu path rewrites them. */
  get positionBuffer(): WebGLBuffer {
    return this.attribs.find((x) => x.loc === ATTRIB.a_position)!.buffer;
  }

  get normalBuffer(): WebGLBuffer {
    return this.attribs.find((x) => x.loc === ATTRIB.a_normal)!.buffer;
  }

  /** The wireframe's vertex array: the attributes, and the edges once wireEdges() has built them. */
  get wireVao(): WebGLVertexArrayObject | null {
    return this.edgeVao;
  }

  /**
   * The mesh's edges (uniqueEdges) in an element buffer, also bound as wireVao's: built on the first call (a
   * wireframe's first draw; load time otherwise pays for edges nobody may draw), the same object after. Leaves the
   * bound vertex array as it was.
   */
  wireEdges(): WireEdges {
    if (!this.edges) {
      const pairs = uniqueEdges(this.mesh.indices);
      const buffer = elementBuffer(this.gl, this.edgeVao, pairs);
      this.buffers.push(buffer);
      this.edges = { buffer, count: pairs.length / 2 };
    }
    return this.edges;
  }

  private createBuffer(target: number, data: ArrayBufferView): WebGLBuffer {
    const gl = this.gl;
    const b = gl.createBuffer();
    if (!b) throw new Error('createBuffer failed');
    gl.bindBuffer(target, b);
    gl.bufferData(target, data, gl.STATIC_DRAW);
    this.buffers.push(b);
    return b;
  }

  private readonly attribs: { loc: number; buffer: WebGLBuffer; size: number; integer: boolean }[] = [];

  /** The buffer of attribute `loc` with `data`: the shared one when this mesh shares another's vertices, else a new one. */
  private vertexBuffer(loc: number, data: ArrayBufferView): WebGLBuffer {
    const shared = this.vertices?.attribs.find((x) => x.loc === loc);
    if (shared) {
      this.gl.bindBuffer(this.gl.ARRAY_BUFFER, shared.buffer);
      return shared.buffer;
    }
    return this.createBuffer(this.gl.ARRAY_BUFFER, data);
  }

  private attribute(loc: number, data: Float32Array, size: number): void {
    const gl = this.gl;
    const b = this.vertexBuffer(loc, data);
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, size, gl.FLOAT, false, 0, 0);
    this.attribs.push({ loc, buffer: b, size, integer: false });
  }

  private integerAttribute(loc: number, data: Uint16Array, size: number): void {
    const gl = this.gl;
    const b = this.vertexBuffer(loc, data);
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribIPointer(loc, size, gl.UNSIGNED_SHORT, 0, 0);
    this.attribs.push({ loc, buffer: b, size, integer: true });
  }

  /** Points attribute `loc` of the bound vertex array at this mesh's buffer for it; false when the mesh has none. */
  bindAttribute(loc: number): boolean {
    const gl = this.gl;
    const a = this.attribs.find((x) => x.loc === loc);
    if (!a) return false;
    gl.bindBuffer(gl.ARRAY_BUFFER, a.buffer);
    gl.enableVertexAttribArray(a.loc);
    if (a.integer) gl.vertexAttribIPointer(a.loc, a.size, gl.UNSIGNED_SHORT, 0, 0);
    else gl.vertexAttribPointer(a.loc, a.size, gl.FLOAT, false, 0, 0);
    return true;
  }

  private rebindAttributes(): void {
    const gl = this.gl;
    for (const a of this.attribs) {
      gl.bindBuffer(gl.ARRAY_BUFFER, a.buffer);
      gl.enableVertexAttribArray(a.loc);
      if (a.integer) gl.vertexAttribIPointer(a.loc, a.size, gl.UNSIGNED_SHORT, 0, 0);
      else gl.vertexAttribPointer(a.loc, a.size, gl.FLOAT, false, 0, 0);
    }
  }

  dispose(): void {
    const gl = this.gl;
    gl.deleteVertexArray(this.vao);
    if (this.edgeVao) gl.deleteVertexArray(this.edgeVao);
    this.edgeVao = null;
    for (const b of this.buffers) gl.deleteBuffer(b);
    this.buffers.length = 0;
  }
}

/**
 * A new element buffer holding `indices`, bound as `vao`'s element buffer; the vertex array bound before is bound
 * again after. The caller owns the buffer.
 */
export function elementBuffer(gl: WebGL2RenderingContext, vao: WebGLVertexArrayObject | null, indices: Uint32Array): WebGLBuffer {
  const buffer = gl.createBuffer();
  if (!buffer) throw new Error('createBuffer failed');
  attachElements(gl, vao, buffer, indices);
  return buffer;
}

/**
 * Binds `elements` as `vao`'s element buffer, filling it with `indices` when given; the vertex array bound before
 * is bound again after.
 */
export function attachElements(gl: WebGL2RenderingContext, vao: WebGLVertexArrayObject | null, elements: WebGLBuffer, indices?: Uint32Array): void {
  const previous = gl.getParameter(gl.VERTEX_ARRAY_BINDING) as WebGLVertexArrayObject | null;
  gl.bindVertexArray(vao);
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, elements);
  if (indices) gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, indices, gl.STATIC_DRAW);
  gl.bindVertexArray(previous);
}

/**
 * Each undirected triangle edge once, as index pairs (lower index first), in the order the triangles first name
 * them: (i0, i1), (i1, i2), (i2, i0) of each triangle in turn. Load time (allocates): an open-addressing table of
 * the pairs seen, in typed arrays sized to twice the edge count, a third of the time a Set of packed keys takes on
 * a large mesh (measured: 45 against 135 ms for 180,000 triangles, cold).
 */
export function uniqueEdges(indices: Uint32Array): Uint32Array {
  const n = indices.length - (indices.length % 3);
  let capacity = 16;
  while (capacity < n * 2) capacity *= 2;
  const mask = capacity - 1;
  // A slot's pair: `lows` holds lo + 1 (0 = empty), `highs` hi.
  const lows = new Uint32Array(capacity);
  const highs = new Uint32Array(capacity);
  const out = new Uint32Array(n * 2);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const a = indices[i]!;
    const b = indices[i % 3 === 2 ? i - 2 : i + 1]!;
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    let slot = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca6b)) & mask;
    for (;;) {
      const held = lows[slot]!;
      if (held === 0) {
        lows[slot] = lo + 1;
        highs[slot] = hi;
        out[count++] = lo;
        out[count++] = hi;
        break;
      }
      if (held === lo + 1 && highs[slot] === hi) break;
      slot = (slot + 1) & mask;
    }
  }
  return out.slice(0, count);
}
