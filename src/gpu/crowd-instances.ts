import type { SkinnedMesh } from '../model/types.ts';
import type { MeshBuffers } from './mesh-buffers.ts';
import { ATTRIB } from './programs.ts';

/** Floats per instance: offset x, offset z, clip time offset (s), speed, clip index, yaw (radians), tint r, g, b. */
export const INSTANCE_FLOATS = 9;

/**
 * Crowd mode's per-instance data (NVIDIA SkinnedInstancing's instance buffer): one buffer of
 * INSTANCE_FLOATS floats per drawn instance, read by glsl/include/crowd_pars.glsl as a_crowdPlace (vec4:
 * model-space offset x, offset z, clip time offset, speed, at byte 0), a_crowdClip (float: baked clip
 * index, byte 16) and a_crowdLook (vec4: yaw about +y in radians, tint r, g, b; byte 20), all with
 * vertexAttribDivisor 1; and one vertex array per mesh with the mesh's own vertex attributes and index
 * buffer plus those three. `data` is the buffer's CPU copy (instance slot j at j · INSTANCE_FLOATS);
 * the caller writes it and calls upload(count) with the slots that changed (bufferSubData of those only).
 * Capacity grows (reallocating buffer and array) only in reserve(), never per frame. Owns its handles;
 * dispose() deletes them (not the meshes' buffers).
 *
 * Distance LOD: setLevels() adds the lighter levels' meshes, each mesh of each level with its own vertex
 * array on the same instance buffer. WebGL2 has no base instance, so levelVao(level, m, firstSlot) re-points
 * that array's three instance attributes at slot `firstSlot` (three vertexAttribPointer calls, only when the
 * slot changed): an instanced draw through it then reads that level's range of the buffer.
 */
export class CrowdInstances {
  data = new Float32Array(0);
  capacity = 0;
  lastUploadBytes = 0;
  private buffer: WebGLBuffer | null = null;
  private vaos: WebGLVertexArrayObject[] = [];
  /** Level l ≥ 1's vertex arrays (levelVaos[l - 1][m]) and the slot each instance attribute points at. */
  private levelVaos: WebGLVertexArrayObject[][] = [];
  private levelSlots: number[][] = [];
  private slots0: number[] = [];
  private levelMeshes: (readonly MeshBuffers[])[] = [];
  /** The impostor quad's corner buffer (setImpostorQuad), its vertex array and the slot it points at. */
  private quad: WebGLBuffer | null = null;
  private quadVao: WebGLVertexArrayObject | null = null;
  private quadSlot = 0;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly meshes: readonly MeshBuffers[],
  ) {}

  /** Mesh m's vertex array (with the instance attributes); valid after reserve(). */
  vao(m: number): WebGLVertexArrayObject {
    return this.vaos[m]!;
  }

  /**
   * The lighter levels' meshes (level 1, 2 …; [] for none): their vertex arrays are built now and at every
   * reserve() that grows. [] only deletes the levels' arrays: it binds no buffer, so it is safe after the
   * model's own buffers were deleted (a model switched away from, whose crowd state is not released yet).
   */
  setLevels(levels: (readonly MeshBuffers[])[]): void {
    this.levelMeshes = levels;
    if (!this.buffer) return;
    if (levels.length > 0) {
      this.buildVaos();
      return;
    }
    for (const list of this.levelVaos) for (const v of list) this.gl.deleteVertexArray(v);
    this.levelVaos = [];
    this.levelSlots = [];
  }

  /**
   * The far field's impostors (render/crowd-impostor-pass.ts): `corners`, a buffer of the quad's corners (vec2
   * at a_uv, per vertex, not owned), and a vertex array with those and the instance attributes, built now and
   * at every reserve() that grows.
   */
  setImpostorQuad(corners: WebGLBuffer): void {
    this.quad = corners;
    if (this.buffer) this.buildVaos();
  }

  /** The impostor quad's vertex array with its instance attributes pointing at slot `firstSlot` (after setImpostorQuad and reserve()). */
  impostorVao(firstSlot: number): WebGLVertexArrayObject {
    const vao = this.quadVao!;
    if (this.quadSlot !== firstSlot) {
      const gl = this.gl;
      gl.bindVertexArray(vao);
      gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
      this.pointInstances(firstSlot);
      gl.bindBuffer(gl.ARRAY_BUFFER, null);
      this.quadSlot = firstSlot;
    }
    return vao;
  }

  /** Level `level`'s mesh m (level 0: the chosen level's), whose vertex order levelVao draws. */
  levelMesh(level: number, m: number): SkinnedMesh {
    return (level === 0 ? this.meshes[m]! : this.levelMeshes[level - 1]![m]!).mesh;
  }

  /** Lighter levels set (setLevels). */
  get levelCount(): number {
    return this.levelMeshes.length;
  }

  /**
   * Level `level`'s mesh m vertex array with its instance attributes pointing at slot `firstSlot` (level 0:
   * the chosen level's arrays, re-pointed as well); valid after reserve(). Leaves ARRAY_BUFFER unbound.
   */
  levelVao(level: number, m: number, firstSlot: number): WebGLVertexArrayObject {
    const vao = level === 0 ? this.vaos[m]! : this.levelVaos[level - 1]![m]!;
    const pointed = level === 0 ? this.slots0 : this.levelSlots[level - 1]!;
    if (pointed[m] !== firstSlot) {
      const gl = this.gl;
      gl.bindVertexArray(vao);
      gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
      this.pointInstances(firstSlot);
      gl.bindBuffer(gl.ARRAY_BUFFER, null);
      pointed[m] = firstSlot;
    }
    return vao;
  }

  /** Points the bound vertex array's instance attributes (ARRAY_BUFFER bound to the instance buffer) at slot `first`. */
  private pointInstances(first: number): void {
    const gl = this.gl;
    const stride = INSTANCE_FLOATS * 4;
    gl.vertexAttribPointer(ATTRIB.a_crowdPlace, 4, gl.FLOAT, false, stride, first * stride);
    gl.vertexAttribPointer(ATTRIB.a_crowdClip, 1, gl.FLOAT, false, stride, first * stride + 16);
    gl.vertexAttribPointer(ATTRIB.a_crowdLook, 4, gl.FLOAT, false, stride, first * stride + 20);
  }

  /** Makes room for `count` instances (grows, never shrinks; the data is kept). Allocates; not per frame. */
  reserve(count: number): boolean {
    if (count <= this.capacity && this.buffer) return false;
    const gl = this.gl;
    const capacity = Math.max(count, this.capacity * 2, 16);
    const data = new Float32Array(capacity * INSTANCE_FLOATS);
    data.set(this.data.subarray(0, Math.min(this.data.length, data.length)));
    this.data = data;
    this.capacity = capacity;
    if (this.buffer) gl.deleteBuffer(this.buffer);
    this.buffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.bufferData(gl.ARRAY_BUFFER, data.byteLength, gl.DYNAMIC_DRAW);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, data);
    this.buildVaos();
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    return true;
  }

  private buildVaos(): void {
    this.deleteVaos();
    this.vaos = this.meshVaos(this.meshes);
    this.slots0 = this.vaos.map(() => 0);
    this.levelVaos = this.levelMeshes.map((meshes) => this.meshVaos(meshes));
    this.levelSlots = this.levelVaos.map((list) => list.map(() => 0));
    if (this.quad) this.quadVao = this.instanceVao(null);
    this.quadSlot = 0;
  }

  private deleteVaos(): void {
    const gl = this.gl;
    for (const v of this.vaos) gl.deleteVertexArray(v);
    for (const list of this.levelVaos) for (const v of list) gl.deleteVertexArray(v);
    if (this.quadVao) gl.deleteVertexArray(this.quadVao);
    this.quadVao = null;
    this.vaos = [];
    this.levelVaos = [];
  }

  /** One vertex array per mesh: its attributes and index buffer, and the instance attributes at slot 0. */
  private meshVaos(meshes: readonly MeshBuffers[]): WebGLVertexArrayObject[] {
    return meshes.map((mesh) => this.instanceVao(mesh));
  }

  /** A vertex array with `mesh`'s attributes and index buffer (null: the impostor quad's corners at a_uv) and the instance attributes at slot 0. */
  private instanceVao(mesh: MeshBuffers | null): WebGLVertexArrayObject {
    const gl = this.gl;
    const stride = INSTANCE_FLOATS * 4;
    const vao = gl.createVertexArray();
    if (!vao) throw new Error('createVertexArray failed');
    gl.bindVertexArray(vao);
    if (mesh) {
      for (const loc of [ATTRIB.a_position, ATTRIB.a_normal, ATTRIB.a_uv, ATTRIB.a_joints, ATTRIB.a_weights, ATTRIB.a_tangent]) {
        if (!mesh.bindAttribute(loc)) gl.disableVertexAttribArray(loc);
      }
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, mesh.indexBuffer);
    } else {
      gl.bindBuffer(gl.ARRAY_BUFFER, this.quad);
      gl.enableVertexAttribArray(ATTRIB.a_uv);
      gl.vertexAttribPointer(ATTRIB.a_uv, 2, gl.FLOAT, false, 0, 0);
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.enableVertexAttribArray(ATTRIB.a_crowdPlace);
    gl.vertexAttribPointer(ATTRIB.a_crowdPlace, 4, gl.FLOAT, false, stride, 0);
    gl.vertexAttribDivisor(ATTRIB.a_crowdPlace, 1);
    gl.enableVertexAttribArray(ATTRIB.a_crowdClip);
    gl.vertexAttribPointer(ATTRIB.a_crowdClip, 1, gl.FLOAT, false, stride, 16);
    gl.vertexAttribDivisor(ATTRIB.a_crowdClip, 1);
    gl.enableVertexAttribArray(ATTRIB.a_crowdLook);
    gl.vertexAttribPointer(ATTRIB.a_crowdLook, 4, gl.FLOAT, false, stride, 20);
    gl.vertexAttribDivisor(ATTRIB.a_crowdLook, 1);
    gl.bindVertexArray(null);
    return vao;
  }

  /** Sends instance slots [from, to) of `data` (one bufferSubData); to ≤ capacity. */
  upload(from: number, to: number): void {
    this.lastUploadBytes = 0;
    if (to <= from || !this.buffer) return;
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, from * INSTANCE_FLOATS * 4, this.data, from * INSTANCE_FLOATS, (to - from) * INSTANCE_FLOATS);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    this.lastUploadBytes = (to - from) * INSTANCE_FLOATS * 4;
  }

  dispose(): void {
    const gl = this.gl;
    this.deleteVaos();
    this.levelMeshes = [];
    this.quad = null;
    if (this.buffer) gl.deleteBuffer(this.buffer);
    this.buffer = null;
    this.capacity = 0;
    this.data = new Float32Array(0);
  }
}
