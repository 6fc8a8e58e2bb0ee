import { attachElements, elementBuffer, uniqueEdges, type MeshBuffers } from '../gpu/mesh-buffers.ts';
import { ATTRIB, DEFAULT_TANGENT } from '../gpu/programs.ts';
import { MAX_INFLUENCES, type SkinnedMesh } from '../model/types.ts';
import type { Partition } from './partition.ts';
import type { BindInputs, DrawRange, MeshCost, TechniqueMesh, PoseSource } from './technique.ts';

/**
 * Building blocks of the per-mesh technique state (technique.ts has the drawing contract):
 * - SharedMesh: techniques that draw the model's own MeshBuffers (one group, one draw per subset).
 * - GroupedMesh: techniques that re-partition the mesh into bone groups (partition.ts) and own a
 *   vertex buffer with per-group copies, group-local joints and 3 stored weights.
 */

/** One draw per non-empty subset, group 0; `first`/`count` in indices. */
export function subsetDraws(mesh: SkinnedMesh): DrawRange[] {
  return mesh.subsets.filter((s) => s.count > 0).map((s) => ({ material: s.material, group: 0, first: s.start * 3, count: s.count * 3 }));
}

/**
 * The one edge draw of a mesh drawn whole, its edges (MeshBuffers.wireEdges: built on the first call) bound as
 * `wireVao`'s elements: a technique mesh's `wireDraws` on first read. Leaves the bound vertex array as it was.
 */
export function wholeMeshWire(gl: WebGL2RenderingContext, wireVao: WebGLVertexArrayObject, buffers: MeshBuffers): DrawRange[] {
  const edges = buffers.wireEdges();
  attachElements(gl, wireVao, edges.buffer);
  return [{ material: 0, group: 0, first: 0, count: edges.count * 2 }];
}

/** Identity map 0..n-1. */
function iota(n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

export abstract class SharedMesh implements TechniqueMesh {
  readonly vao: WebGLVertexArrayObject;
  readonly wireVao: WebGLVertexArrayObject;
  readonly indexType: number;
  readonly draws: readonly DrawRange[];
  readonly points: readonly DrawRange[];
  readonly vertexCount: number;
  readonly sourceVertex: Uint32Array;
  readonly approximated: Uint8Array | null = null;
  readonly cost: MeshCost;
  readonly bindInputs: BindInputs;
  unrepresentableScale = 0;
  private wire: readonly DrawRange[] | null = null;

  constructor(
    protected readonly gl: WebGL2RenderingContext,
    protected readonly buffers: MeshBuffers,
  ) {
    const mesh = buffers.mesh;
    this.vao = buffers.vao;
    this.wireVao = buffers.wireVao!;
    this.indexType = gl.UNSIGNED_INT;
    this.draws = subsetDraws(mesh);
    this.points = [{ material: 0, group: 0, first: 0, count: mesh.vertexCount }];
    this.vertexCount = mesh.vertexCount;
    this.sourceVertex = iota(mesh.vertexCount);
    this.cost = { groups: 1, duplicatedVertices: 0, vertexBytes: buffers.vertexBytes, approximatedTriangles: 0 };
    this.bindInputs = { kind: 'buffers', positions: buffers.positionBuffer, normals: buffers.normalBuffer };
  }

  get wireDraws(): readonly DrawRange[] {
    return (this.wire ??= wholeMeshWire(this.gl, this.wireVao, this.buffers));
  }

  abstract update(player: PoseSource): number;
  abstract bind(): void;
  setGroup(): number {
    return 0;
  }
  abstract dispose(): void;
}

/** How a grouped technique lays out joints and group palettes. */
export interface GroupLayout {
  /**
   * 'slots': no joints; weight k belongs to the group's matrix k (fixed-function non-indexed blending).
   * 'indexed': 4 unsigned-byte group-local joints per vertex, multiplied by `jointScale` at load.
   */
  readonly joints: 'slots' | 'indexed';
  readonly jointScale: number;
  /** Matrices per group in the shader's uniform array (the group limit). */
  readonly slots: number;
  /** 'mat4': 16 floats per slot, column-major. 'rows4x3': 12 floats per slot, the 3 rows of the 4x3 matrix. */
  readonly matrix: 'mat4' | 'rows4x3';
  /** true: every draw loads all `slots` matrices (unused ones repeat slot 0); false: only the group's. */
  readonly loadAllSlots: boolean;
}

/**
 * Vertex data of a partition in GPU form, pure (tested in Node): positions, normals, uvs and tangents
 * (4 floats, null when the mesh has none) copied per group copy; weights as 3 floats per vertex (the 4th is 1 − Σ, implicit as in the D3D formats); joints
 * as 4 bytes per vertex (indexed layouts).
 */
export interface GroupedVertices {
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  readonly uvs: Float32Array | null;
  readonly tangents: Float32Array | null;
  readonly weights3: Float32Array;
  readonly joints4: Uint8Array | null;
}

export function groupedVertices(mesh: SkinnedMesh, part: Partition, layout: GroupLayout): GroupedVertices {
  const n = part.vertexCount;
  const positions = new Float32Array(n * 3);
  const normals = new Float32Array(n * 3);
  const uvs = mesh.uvs ? new Float32Array(n * 2) : null;
  const tangents = mesh.tangents ? new Float32Array(n * 4) : null;
  const weights3 = new Float32Array(n * 3);
  const joints4 = layout.joints === 'indexed' ? new Uint8Array(n * 4) : null;
  const slotWeights = new Float32Array(layout.slots);
  for (let v = 0; v < n; v++) {
    const s = part.sourceVertex[v]!;
    positions.set(mesh.positions.subarray(s * 3, s * 3 + 3), v * 3);
    normals.set(mesh.normals.subarray(s * 3, s * 3 + 3), v * 3);
    if (uvs) uvs.set(mesh.uvs!.subarray(s * 2, s * 2 + 2), v * 2);
    if (tangents) tangents.set(mesh.tangents!.subarray(s * 4, s * 4 + 4), v * 4);
    const o = v * MAX_INFLUENCES;
    if (joints4) {
      for (let k = 0; k < 4; k++) joints4[v * 4 + k] = part.localJoints[o + k]! * layout.jointScale;
      for (let k = 0; k < 3; k++) weights3[v * 3 + k] = part.weights[o + k]!;
    } else {
      slotWeights.fill(0);
      for (let k = 0; k < MAX_INFLUENCES; k++) slotWeights[part.localJoints[o + k]!]! += part.weights[o + k]!;
      for (let k = 0; k < 3; k++) weights3[v * 3 + k] = slotWeights[k]!;
    }
  }
  return { positions, normals, uvs, tangents, weights3, joints4 };
}

/**
 * Gathers each group's matrices from a mesh palette (16 floats per mesh slot, column-major) into
 * `out`: group g starts at g · slots · stride floats (stride 16 for 'mat4', 12 for 'rows4x3').
 * Unused slots of a group repeat its slot 0. No allocation.
 */
export function gatherGroupPalettes(part: Partition, layout: GroupLayout, palette: Float32Array, out: Float32Array): void {
  const stride = layout.matrix === 'mat4' ? 16 : 12;
  const groups = part.groups;
  for (let g = 0; g < groups.length; g++) {
    const bones = groups[g]!.bones;
    const base = g * layout.slots * stride;
    for (let k = 0; k < layout.slots; k++) {
      const src = (k < bones.length ? bones[k]! : bones[0]!) * 16;
      const o = base + k * stride;
      if (stride === 16) {
        for (let i = 0; i < 16; i++) out[o + i] = palette[src + i]!;
      } else {
        // Row r of the 4x3 matrix: (m[r][0], m[r][1], m[r][2], m[r][3]) = column-major entries r, 4+r, 8+r, 12+r.
        for (let r = 0; r < 3; r++) {
          out[o + r * 4] = palette[src + r]!;
          out[o + r * 4 + 1] = palette[src + 4 + r]!;
          out[o + r * 4 + 2] = palette[src + 8 + r]!;
          out[o + r * 4 + 3] = palette[src + 12 + r]!;
        }
      }
    }
  }
}

export class GroupedMesh implements TechniqueMesh {
  readonly vao: WebGLVertexArrayObject;
  readonly wireVao: WebGLVertexArrayObject;
  readonly indexType: number;
  readonly draws: readonly DrawRange[];
  readonly points: readonly DrawRange[];
  readonly vertexCount: number;
  readonly sourceVertex: Uint32Array;
  readonly approximated: Uint8Array | null;
  readonly cost: MeshCost;
  readonly unrepresentableScale = 0;
  readonly bindInputs: BindInputs;
  private wire: readonly DrawRange[] | null = null;
  /** Mesh palette (16 floats per mesh slot), then every group's matrices (gatherGroupPalettes layout). */
  private readonly palette: Float32Array;
  private readonly groupData: Float32Array;
  private readonly groupFloats: Int32Array;
  private readonly glBuffers: WebGLBuffer[] = [];

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly mesh: SkinnedMesh,
    readonly partition: Partition,
    readonly layout: GroupLayout,
  ) {
    const data = groupedVertices(mesh, partition, layout);
    const attributes = this.attributeBuffers(data);
    this.vao = this.vertexArray(attributes, partition.indices);
    // Its edges come with the first wireframe drawn (wireDraws).
    this.wireVao = this.vertexArray(attributes, null);
    this.bindInputs = { kind: 'buffers', positions: attributes[0]!.buffer, normals: attributes[1]!.buffer };
    this.indexType = gl.UNSIGNED_INT;
    this.draws = partition.groups.flatMap((g, gi) => g.runs.map((r) => ({ material: r.material, group: gi, first: r.first, count: r.count })));
    this.points = partition.groups.map((g, gi) => ({ material: 0, group: gi, first: g.vertexStart, count: g.vertexCount }));
    this.vertexCount = partition.vertexCount;
    this.sourceVertex = partition.sourceVertex;
    this.approximated = partition.approximatedTriangles > 0 ? partition.approximated : null;
    const vertexBytes =
      data.positions.byteLength + data.normals.byteLength + (data.uvs?.byteLength ?? 0) + (data.tangents?.byteLength ?? 0) + data.weights3.byteLength + (data.joints4?.byteLength ?? 0);
    this.cost = {
      groups: partition.groups.length,
      duplicatedVertices: partition.duplicatedVertices,
      vertexBytes,
      approximatedTriangles: partition.approximatedTriangles,
    };
    const stride = layout.matrix === 'mat4' ? 16 : 12;
    this.palette = new Float32Array(Math.max(1, mesh.bones.length) * 16);
    this.groupData = new Float32Array(partition.groups.length * layout.slots * stride);
    this.groupFloats = Int32Array.from(partition.groups, (g) => (layout.loadAllSlots ? layout.slots : g.bones.length) * stride);
  }

  /**
   * Each group's edges (each undirected edge of its triangles once), one draw per group, in an element buffer bound
   * as wireVao's: built on the first read. Leaves the bound vertex array as it was.
   */
  get wireDraws(): readonly DrawRange[] {
    if (this.wire) return this.wire;
    const partition = this.partition;
    const edgesPerGroup = partition.groups.map((g) => {
      const first = g.runs.length > 0 ? g.runs[0]!.first : 0;
      return uniqueEdges(partition.indices.subarray(first, first + g.triangleCount * 3));
    });
    const edges = new Uint32Array(edgesPerGroup.reduce((n, e) => n + e.length, 0));
    const draws: DrawRange[] = [];
    let at = 0;
    edgesPerGroup.forEach((e, g) => {
      edges.set(e, at);
      draws.push({ material: 0, group: g, first: at, count: e.length });
      at += e.length;
    });
    this.glBuffers.push(elementBuffer(this.gl, this.wireVao, edges));
    this.wire = draws;
    return draws;
  }

  /** One GL buffer per attribute, shared by the triangle and edge vertex arrays. */
  private attributeBuffers(data: GroupedVertices): { loc: number; buffer: WebGLBuffer; size: number; joints: boolean }[] {
    const list: { loc: number; buffer: WebGLBuffer; size: number; joints: boolean }[] = [];
    const add = (loc: number, array: ArrayBufferView, size: number, joints: boolean): void => {
      list.push({ loc, buffer: this.createBuffer(this.gl.ARRAY_BUFFER, array), size, joints });
    };
    add(ATTRIB.a_position, data.positions, 3, false);
    add(ATTRIB.a_normal, data.normals, 3, false);
    if (data.uvs) add(ATTRIB.a_uv, data.uvs, 2, false);
    if (data.tangents) add(ATTRIB.a_tangent, data.tangents, 4, false);
    add(ATTRIB.a_weights, data.weights3, 3, false);
    if (data.joints4) add(ATTRIB.a_joints, data.joints4, 4, true);
    return list;
  }

  private createBuffer(target: number, array: ArrayBufferView): WebGLBuffer {
    const gl = this.gl;
    const b = gl.createBuffer();
    if (!b) throw new Error('createBuffer failed');
    gl.bindBuffer(target, b);
    gl.bufferData(target, array, gl.STATIC_DRAW);
    this.glBuffers.push(b);
    return b;
  }

  /** A vertex array of `attributes` with `elements` as its element buffer (null: none yet). */
  private vertexArray(attributes: readonly { loc: number; buffer: WebGLBuffer; size: number; joints: boolean }[], elements: Uint32Array | null): WebGLVertexArrayObject {
    const gl = this.gl;
    const vao = gl.createVertexArray();
    if (!vao) throw new Error('createVertexArray failed');
    gl.bindVertexArray(vao);
    gl.vertexAttrib2f(ATTRIB.a_uv, 0, 0);
    gl.vertexAttrib4f(ATTRIB.a_tangent, ...DEFAULT_TANGENT);
    for (const a of attributes) {
      gl.bindBuffer(gl.ARRAY_BUFFER, a.buffer);
      gl.enableVertexAttribArray(a.loc);
      // Freidlin: indices packed as 4 unsigned bytes (D3DVSDT_UBYTE4), read as integers.
      if (a.joints) gl.vertexAttribIPointer(a.loc, a.size, gl.UNSIGNED_BYTE, 0, 0);
      else gl.vertexAttribPointer(a.loc, a.size, gl.FLOAT, false, 0, 0);
    }
    if (elements) this.createBuffer(gl.ELEMENT_ARRAY_BUFFER, elements);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    return vao;
  }

  update(player: PoseSource): number {
    player.writePalette(this.mesh, this.palette, 0);
    gatherGroupPalettes(this.partition, this.layout, this.palette, this.groupData);
    return 0;
  }

  bind(): void {}

  setGroup(group: number, location: WebGLUniformLocation | null): number {
    if (location === null) return 0;
    const stride = this.layout.matrix === 'mat4' ? 16 : 12;
    const offset = group * this.layout.slots * stride;
    const floats = this.groupFloats[group]!;
    if (this.layout.matrix === 'mat4') this.gl.uniformMatrix4fv(location, false, this.groupData, offset, floats);
    else this.gl.uniform4fv(location, this.groupData, offset, floats);
    return floats * 4;
  }

  dispose(): void {
    const gl = this.gl;
    gl.deleteVertexArray(this.vao);
    gl.deleteVertexArray(this.wireVao);
    for (const b of this.glBuffers) gl.deleteBuffer(b);
    this.glBuffers.length = 0;
  }
}
