import type { SkinnedMesh } from '../model/types.ts';

/**
 * GPU storage of a mesh's morph deltas (model/types.ts MorphDeltas, sparse, bind space), made dense at load.
 *
 * Regions: only targets that move the mesh get storage. regionOf[target] is the region index (0..regions-1,
 * in target order) or -1 for a target with no delta on this mesh.
 *
 * - MorphSlotBuffer (Dawn's 5 attribute slots): one ARRAY_BUFFER, one region per moving target, each region
 *   `vertexCount` vertices of 6 floats interleaved (dp.xyz, dn.xyz), 24 bytes per vertex, in the *technique's*
 *   vertex order (vertex v holds the deltas of mesh vertex sourceVertex[v], so partitioned techniques'
 *   duplicated vertices get their copies). Binding a target to a slot re-points two attributes at
 *   region · vertexCount · 24 bytes (position) and +12 (normal), stride 24: no data is copied per frame. The
 *   buffer is allocated whole and each region filled the first time its target is bound (fill): a model's first
 *   frame uploads the targets it shows, not all of them (Dawn high: 50 regions, 38 MB).
 * - MorphTexture (all targets): one RGBA32F texture in *mesh* vertex order; texel index
 *   (region · vertexCount + s) · 2 holds (dp.xyz, 0), the next (dn.xyz, 0); texel i lives at
 *   (i % width, i / width). The shader finds s through a per-technique-vertex uint attribute (sourceVertex).
 * Both own their GL handles; dispose() deletes them.
 */

export const MORPH_SLOT_STRIDE_BYTES = 24;
export const MORPH_TEXELS_PER_VERTEX = 2;

/** target → region (or -1), and the region count. */
export function morphRegions(mesh: SkinnedMesh, targetCount: number): { regionOf: Int32Array; regions: number } {
  const regionOf = new Int32Array(targetCount).fill(-1);
  let regions = 0;
  const morphs = mesh.morphs;
  if (morphs) for (let t = 0; t < targetCount && t < morphs.length; t++) if (morphs[t]!.vertices.length > 0) regionOf[t] = regions++;
  return { regionOf, regions };
}

/**
 * The slot buffer's contents (pure, tested in Node): regions · sourceVertex.length · 6 floats, see the
 * layout above. Vertices a target does not move are 0.
 */
export function denseMorphDeltas(mesh: SkinnedMesh, sourceVertex: Uint32Array, regionOf: Int32Array, regions: number): Float32Array {
  const n = sourceVertex.length;
  const out = new Float32Array(regions * n * 6);
  const copies = vertexCopies(mesh, sourceVertex);
  for (let t = 0; t < regionOf.length; t++) {
    const r = regionOf[t]!;
    if (r >= 0) regionDeltas(mesh, copies, t, out.subarray(r * n * 6, (r + 1) * n * 6));
  }
  return out;
}

/** Mesh vertex → the technique vertices that copy it (a mesh vertex can have several): a linked list per vertex. */
interface VertexCopies {
  readonly first: Int32Array;
  readonly next: Int32Array;
}

function vertexCopies(mesh: SkinnedMesh, sourceVertex: Uint32Array): VertexCopies {
  const first = new Int32Array(mesh.vertexCount).fill(-1);
  const next = new Int32Array(sourceVertex.length).fill(-1);
  for (let v = sourceVertex.length - 1; v >= 0; v--) {
    const s = sourceVertex[v]!;
    next[v] = first[s]!;
    first[s] = v;
  }
  return { first, next };
}

/** Target `t`'s region (6 floats per technique vertex, layout above) written into `out`, which is all 0 where it does not move. */
function regionDeltas(mesh: SkinnedMesh, copies: VertexCopies, t: number, out: Float32Array): void {
  const d = mesh.morphs?.[t];
  if (!d) return;
  const { first, next } = copies;
  for (let i = 0; i < d.vertices.length; i++) {
    for (let v = first[d.vertices[i]!]!; v >= 0; v = next[v]!) {
      const o = v * 6;
      out[o] = d.positions[i * 3]!;
      out[o + 1] = d.positions[i * 3 + 1]!;
      out[o + 2] = d.positions[i * 3 + 2]!;
      out[o + 3] = d.normals[i * 3]!;
      out[o + 4] = d.normals[i * 3 + 1]!;
      out[o + 5] = d.normals[i * 3 + 2]!;
    }
  }
}

/** The morph texture's texels (pure): RGBA floats, width · height · 4, layout above. */
export function morphTexels(mesh: SkinnedMesh, regionOf: Int32Array, regions: number, width: number): { data: Float32Array; height: number } {
  const vc = mesh.vertexCount;
  const texels = Math.max(1, regions * vc * MORPH_TEXELS_PER_VERTEX);
  const height = Math.ceil(texels / width);
  const data = new Float32Array(width * height * 4);
  const morphs = mesh.morphs;
  if (!morphs) return { data, height };
  for (let t = 0; t < regionOf.length; t++) {
    const r = regionOf[t]!;
    if (r < 0) continue;
    const d = morphs[t]!;
    for (let i = 0; i < d.vertices.length; i++) {
      const o = (r * vc + d.vertices[i]!) * MORPH_TEXELS_PER_VERTEX * 4;
      data[o] = d.positions[i * 3]!;
      data[o + 1] = d.positions[i * 3 + 1]!;
      data[o + 2] = d.positions[i * 3 + 2]!;
      data[o + 4] = d.normals[i * 3]!;
      data[o + 5] = d.normals[i * 3 + 1]!;
      data[o + 6] = d.normals[i * 3 + 2]!;
    }
  }
  return { data, height };
}

export class MorphSlotBuffer {
  buffer: WebGLBuffer | null;
  readonly bytes: number;
  /** Vertices per region (the technique's vertex count). */
  readonly vertexCount: number;
  /** 1 for a region filled (its target bound once). */
  private readonly filled: Uint8Array;
  private readonly copies: VertexCopies;
  /** One region's contents, built on the first fill and reused by the next. */
  private scratch: Float32Array | null = null;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly mesh: SkinnedMesh,
    sourceVertex: Uint32Array,
    readonly regionOf: Int32Array,
    regions: number,
  ) {
    this.vertexCount = sourceVertex.length;
    this.bytes = regions * this.vertexCount * MORPH_SLOT_STRIDE_BYTES;
    this.filled = new Uint8Array(regions);
    this.copies = vertexCopies(mesh, sourceVertex);
    const b = gl.createBuffer();
    if (!b) throw new Error('createBuffer failed');
    gl.bindBuffer(gl.ARRAY_BUFFER, b);
    // Allocated (zeroed) without data: each region is written by fill().
    gl.bufferData(gl.ARRAY_BUFFER, Math.max(this.bytes, MORPH_SLOT_STRIDE_BYTES), gl.STATIC_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    this.buffer = b;
  }

  /**
   * Writes target's region the first time it is asked for (nothing after that, nor for a target that does not
   * move the mesh); binds ARRAY_BUFFER to this buffer when it writes. Allocates on the first fill only.
   */
  fill(target: number): void {
    const r = this.regionOf[target] ?? -1;
    if (r < 0 || this.filled[r] || !this.buffer) return;
    const gl = this.gl;
    const region = (this.scratch ??= new Float32Array(this.vertexCount * 6));
    region.fill(0);
    regionDeltas(this.mesh, this.copies, target, region);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, r * this.vertexCount * MORPH_SLOT_STRIDE_BYTES, region);
    this.filled[r] = 1;
  }

  /** fill() for each target the slots name (-1: an empty slot): before the slots' attributes point at their regions. */
  fillSlots(slots: ArrayLike<number>): void {
    for (let s = 0; s < slots.length; s++) if (slots[s]! >= 0) this.fill(slots[s]!);
  }

  /** Byte offset of target's region, or -1 when the target does not move the mesh. */
  offsetOf(target: number): number {
    const r = this.regionOf[target]!;
    return r < 0 ? -1 : r * this.vertexCount * MORPH_SLOT_STRIDE_BYTES;
  }

  dispose(): void {
    this.gl.deleteBuffer(this.buffer);
    this.buffer = null;
  }
}

export class MorphTexture {
  texture: WebGLTexture | null;
  readonly width: number;
  readonly height: number;
  readonly bytes: number;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    readonly mesh: SkinnedMesh,
    readonly regionOf: Int32Array,
    regions: number,
    maxTextureSize: number,
  ) {
    this.width = Math.min(4096, maxTextureSize);
    const { data, height } = morphTexels(mesh, regionOf, regions, this.width);
    if (height > maxTextureSize) throw new Error(`${mesh.name}: morph texture needs ${this.width}×${height} texels; this device allows ${maxTextureSize}`);
    this.height = height;
    this.bytes = data.byteLength;
    const tex = gl.createTexture();
    if (!tex) throw new Error('createTexture failed');
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, this.width, height, 0, gl.RGBA, gl.FLOAT, data);
    gl.bindTexture(gl.TEXTURE_2D, null);
    this.texture = tex;
  }

  /** First texel of target's region, or -1 when the target does not move the mesh. */
  baseOf(target: number): number {
    const r = this.regionOf[target]!;
    return r < 0 ? -1 : r * this.mesh.vertexCount * MORPH_TEXELS_PER_VERTEX;
  }

  dispose(): void {
    this.gl.deleteTexture(this.texture);
    this.texture = null;
  }
}
