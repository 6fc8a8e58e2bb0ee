import { ATTRIB } from '../gpu/programs.ts';
import type { Scene } from '../model/types.ts';
import { MAX_INFLUENCES } from '../model/types.ts';
import type { PoseSource } from '../techniques/technique.ts';

/** Most vertices a frame draws a T/B/N triad at (spread evenly over every mesh with tangents). */
export const MAX_TRIADS = 800;

/**
 * The tangents view's line overlay: at up to MAX_TRIADS vertices of the meshes that have tangents, three short
 * segments along the skinned tangent (red), bitangent (green) and normal (blue), in model space. The skinning is
 * the CPU reference's linear blend with every influence (anim/software-skin.ts, the same blended matrix),
 * applied to the chosen vertices only; morph targets are left out (the lines show the skinned bind frame).
 * Owns its buffer and vertex array (dispose); every array is allocated here once, none per frame.
 */
export class TangentLines {
  /** 6 vertices per triad, 7 floats each (xyz, rgba: lines.vert's layout). */
  private readonly data: Float32Array;
  /** Per chosen vertex: its mesh and vertex index. */
  private readonly meshOf: Int32Array;
  private readonly vertexOf: Int32Array;
  private readonly palettes: Float32Array[];
  readonly vao: WebGLVertexArrayObject;
  private readonly buffer: WebGLBuffer;
  readonly vertexCount: number;

  /** `length`: each segment's length in model units. */
  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly scene: Scene,
    private readonly length: number,
  ) {
    const withTangents = scene.meshes.map((m, i) => (m.tangents ? i : -1)).filter((i) => i >= 0);
    const total = withTangents.reduce((n, i) => n + scene.meshes[i]!.vertexCount, 0);
    const step = Math.max(1, Math.ceil(total / MAX_TRIADS));
    const meshOf: number[] = [];
    const vertexOf: number[] = [];
    let k = 0;
    for (const i of withTangents) {
      for (let v = 0; v < scene.meshes[i]!.vertexCount; v++, k++) {
        if (k % step !== 0) continue;
        meshOf.push(i);
        vertexOf.push(v);
      }
    }
    this.meshOf = Int32Array.from(meshOf);
    this.vertexOf = Int32Array.from(vertexOf);
    this.palettes = scene.meshes.map((m) => new Float32Array(Math.max(1, m.bones.length) * 16));
    this.vertexCount = meshOf.length * 6;
    this.data = new Float32Array(Math.max(1, this.vertexCount) * 7);
    const colours = [
      [1, 0.25, 0.2],
      [0.3, 1, 0.3],
      [0.3, 0.55, 1],
    ];
    for (let t = 0; t < meshOf.length; t++) {
      for (let s = 0; s < 6; s++) {
        const o = (t * 6 + s) * 7;
        const c = colours[s >> 1]!;
        this.data[o + 3] = c[0]!;
        this.data[o + 4] = c[1]!;
        this.data[o + 5] = c[2]!;
        this.data[o + 6] = 1;
      }
    }
    const vao = gl.createVertexArray();
    const buffer = gl.createBuffer();
    if (!vao || !buffer) throw new Error('could not create the tangent line buffers');
    this.vao = vao;
    this.buffer = buffer;
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, this.data, gl.DYNAMIC_DRAW);
    gl.enableVertexAttribArray(ATTRIB.a_position);
    gl.vertexAttribPointer(ATTRIB.a_position, 3, gl.FLOAT, false, 28, 0);
    gl.enableVertexAttribArray(ATTRIB.a_colour);
    gl.vertexAttribPointer(ATTRIB.a_colour, 4, gl.FLOAT, false, 28, 12);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
  }

  /** Skins the chosen vertices in `pose` and uploads the segments. No allocation. */
  update(pose: PoseSource): void {
    const meshes = this.scene.meshes;
    for (let i = 0; i < meshes.length; i++) if (meshes[i]!.tangents) pose.writePalette(meshes[i]!, this.palettes[i]!);
    const d = this.data;
    const len = this.length;
    for (let t = 0; t < this.meshOf.length; t++) {
      const mesh = meshes[this.meshOf[t]!]!;
      const palette = this.palettes[this.meshOf[t]!]!;
      const v = this.vertexOf[t]!;
      const iw = v * MAX_INFLUENCES;
      let sum = 0;
      for (let k = 0; k < MAX_INFLUENCES; k++) sum += Math.max(0, mesh.weights[iw + k]!);
      let m00 = 0, m01 = 0, m02 = 0, m10 = 0, m11 = 0, m12 = 0, m20 = 0, m21 = 0, m22 = 0, m30 = 0, m31 = 0, m32 = 0;
      for (let k = 0; k < MAX_INFLUENCES; k++) {
        const w = sum > 0 ? Math.max(0, mesh.weights[iw + k]!) / sum : k === 0 ? 1 : 0;
        if (w === 0) continue;
        const o = mesh.joints[iw + k]! * 16;
        m00 += w * palette[o]!; m01 += w * palette[o + 1]!; m02 += w * palette[o + 2]!;
        m10 += w * palette[o + 4]!; m11 += w * palette[o + 5]!; m12 += w * palette[o + 6]!;
        m20 += w * palette[o + 8]!; m21 += w * palette[o + 9]!; m22 += w * palette[o + 10]!;
        m30 += w * palette[o + 12]!; m31 += w * palette[o + 13]!; m32 += w * palette[o + 14]!;
      }
      const p = mesh.positions;
      const n = mesh.normals;
      const tg = mesh.tangents!;
      const px = p[v * 3]!, py = p[v * 3 + 1]!, pz = p[v * 3 + 2]!;
      const x = m00 * px + m10 * py + m20 * pz + m30;
      const y = m01 * px + m11 * py + m21 * pz + m31;
      const z = m02 * px + m12 * py + m22 * pz + m32;
      const nx0 = n[v * 3]!, ny0 = n[v * 3 + 1]!, nz0 = n[v * 3 + 2]!;
      let nx = m00 * nx0 + m10 * ny0 + m20 * nz0;
      let ny = m01 * nx0 + m11 * ny0 + m21 * nz0;
      let nz = m02 * nx0 + m12 * ny0 + m22 * nz0;
      const tx0 = tg[v * 4]!, ty0 = tg[v * 4 + 1]!, tz0 = tg[v * 4 + 2]!;
      let tx = m00 * tx0 + m10 * ty0 + m20 * tz0;
      let ty = m01 * tx0 + m11 * ty0 + m21 * tz0;
      let tz = m02 * tx0 + m12 * ty0 + m22 * tz0;
      const nl = Math.hypot(nx, ny, nz) || 1;
      nx /= nl; ny /= nl; nz /= nl;
      // The tangent orthogonalised against the normal, as skinned.vert's frame; the bitangent by the cross product.
      const dn = tx * nx + ty * ny + tz * nz;
      tx -= dn * nx; ty -= dn * ny; tz -= dn * nz;
      const tl = Math.hypot(tx, ty, tz) || 1;
      tx /= tl; ty /= tl; tz /= tl;
      const sign = tg[v * 4 + 3]! < 0 ? -1 : 1;
      const bx = (ny * tz - nz * ty) * sign, by = (nz * tx - nx * tz) * sign, bz = (nx * ty - ny * tx) * sign;
      const o = t * 42;
      segment(d, o, x, y, z, tx * len, ty * len, tz * len);
      segment(d, o + 14, x, y, z, bx * len, by * len, bz * len);
      segment(d, o + 28, x, y, z, nx * len, ny * len, nz * len);
    }
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, this.data);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
  }

  dispose(): void {
    this.gl.deleteVertexArray(this.vao);
    this.gl.deleteBuffer(this.buffer);
  }
}

/** One segment (two vertices of 7 floats at `o`) from (x, y, z) along (dx, dy, dz); the colours are left as they are. */
function segment(d: Float32Array, o: number, x: number, y: number, z: number, dx: number, dy: number, dz: number): void {
  d[o] = x;
  d[o + 1] = y;
  d[o + 2] = z;
  d[o + 7] = x + dx;
  d[o + 8] = y + dy;
  d[o + 9] = z + dz;
}
