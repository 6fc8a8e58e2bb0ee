import type { MeshBuffers } from './mesh-buffers.ts';
import { ATTRIB } from './programs.ts';

/** Floats per instance: offset x, offset z, clip time offset (s), speed, clip index. */
export const INSTANCE_FLOATS = 5;

/**
 * Crowd mode's per-instance data (NVIDIA SkinnedInstancing's instance buffer): one buffer of
 * INSTANCE_FLOATS floats per drawn instance, read by glsl/include/crowd_pars.glsl as a_crowdPlace (vec4:
 * model-space offset x, offset z, clip time offset, speed) and a_crowdClip (float: baked clip index), both
 * with vertexAttribDivisor 1; and one vertex array per mesh with the mesh's own vertex attributes and
 * index buffer plus those two. `data` is the buffer's CPU copy (instance slot j at j · INSTANCE_FLOATS);
 * the caller writes it and calls upload(count) with the slots that changed (bufferSubData of those only).
 * Capacity grows (reallocating buffer and array) only in reserve(), never per frame. Owns its handles;
 * dispose() deletes them (not the meshes' buffers).
 */
export class CrowdInstances {
  data = new Float32Array(0);
  capacity = 0;
  lastUploadBytes = 0;
  private buffer: WebGLBuffer | null = null;
  private vaos: WebGLVertexArrayObject[] = [];

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly meshes: readonly MeshBuffers[],
  ) {}

  /** Mesh m's vertex array (with the instance attributes); valid after reserve(). */
  vao(m: number): WebGLVertexArrayObject {
    return this.vaos[m]!;
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
    const gl = this.gl;
    for (const v of this.vaos) gl.deleteVertexArray(v);
    this.vaos = [];
    const stride = INSTANCE_FLOATS * 4;
    for (const mesh of this.meshes) {
      const vao = gl.createVertexArray();
      if (!vao) throw new Error('createVertexArray failed');
      gl.bindVertexArray(vao);
      for (const loc of [ATTRIB.a_position, ATTRIB.a_normal, ATTRIB.a_uv, ATTRIB.a_joints, ATTRIB.a_weights, ATTRIB.a_tangent]) {
        if (!mesh.bindAttribute(loc)) gl.disableVertexAttribArray(loc);
      }
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, mesh.indexBuffer);
      gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
      gl.enableVertexAttribArray(ATTRIB.a_crowdPlace);
      gl.vertexAttribPointer(ATTRIB.a_crowdPlace, 4, gl.FLOAT, false, stride, 0);
      gl.vertexAttribDivisor(ATTRIB.a_crowdPlace, 1);
      gl.enableVertexAttribArray(ATTRIB.a_crowdClip);
      gl.vertexAttribPointer(ATTRIB.a_crowdClip, 1, gl.FLOAT, false, stride, 16);
      gl.vertexAttribDivisor(ATTRIB.a_crowdClip, 1);
      gl.bindVertexArray(null);
      this.vaos.push(vao);
    }
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
    for (const v of this.vaos) gl.deleteVertexArray(v);
    this.vaos = [];
    if (this.buffer) gl.deleteBuffer(this.buffer);
    this.buffer = null;
    this.capacity = 0;
    this.data = new Float32Array(0);
  }
}
