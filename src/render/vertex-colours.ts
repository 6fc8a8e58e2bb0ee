import { COLOUR_TEXTURE_UNIT } from '../gpu/programs.ts';
import type { SkinnedMesh } from '../model/types.ts';
import type { TechniqueMesh } from '../techniques/technique.ts';
import { viewTextureSize } from './view-data.ts';

/**
 * Vertex colours on the GPU (SkinnedMesh.colors, linear RGBA): one RGBA32F texture per vertex order that draws
 * them, fetched in skinned.vert with `texelFetch` at gl_VertexID (u_colourTex on COLOUR_TEXTURE_UNIT, the same
 * scheme as the weights views' data, view-data.ts) and passed on as v_colour. A texture rather than a vertex
 * attribute because Dawn's morph slots (the default morph path) already use all 16 attribute locations, and the
 * slot and texture morph paths re-point locations 6..15 of the techniques' vertex arrays.
 *
 * Vertex orders: a technique mesh's (vertex v copies mesh vertex tm.sourceVertex[v]; keyed by its vertex array)
 * or the mesh's own (crowd instances and their detail levels draw MeshBuffers; keyed by the colour array, so a
 * generated detail level over the same vertices shares the texture). A mesh
 * without colours binds one shared 1x1 white texture, which the shader reads for every vertex (it clamps the
 * index to the texture's last texel), so every draw through skinned.vert must bind() first: a stale texture of
 * another mesh would colour it wrongly. Textures are built on first bind (one-time work); a steady frame does
 * a map lookup and a bindTexture. Owned by ModelGpu (and the crowd per model); dispose() deletes them.
 */
export class VertexColours {
  private readonly entries = new Map<object, WebGLTexture>();
  private white: WebGLTexture | null = null;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly maxTextureSize: number,
  ) {}

  /** Binds the colours of technique mesh `tm` of `mesh` (white without colours); before the mesh's draws. */
  bind(tm: TechniqueMesh, mesh: SkinnedMesh): void {
    this.bindKeyed(tm.vao, mesh, tm.sourceVertex);
  }

  /** Binds `mesh`'s colours in its own vertex order (crowd instances and levels); before the mesh's draws. */
  bindMesh(mesh: SkinnedMesh): void {
    this.bindKeyed(mesh.colors ?? mesh, mesh, null);
  }

  /** Binds the shared white texture (a draw of something without vertex colours). */
  bindWhite(): void {
    this.bindTexture(this.whiteTexture());
  }

  private bindKeyed(key: object, mesh: SkinnedMesh, sourceVertex: Uint32Array | null): void {
    if (!mesh.colors) {
      this.bindWhite();
      return;
    }
    let t = this.entries.get(key);
    if (!t) {
      t = this.build(mesh.colors, sourceVertex ?? null, mesh.vertexCount);
      this.entries.set(key, t);
    }
    this.bindTexture(t);
  }

  private bindTexture(t: WebGLTexture): void {
    const gl = this.gl;
    gl.activeTexture(gl.TEXTURE0 + COLOUR_TEXTURE_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.activeTexture(gl.TEXTURE0);
  }

  private whiteTexture(): WebGLTexture {
    if (!this.white) this.white = this.upload(new Float32Array([1, 1, 1, 1]), 1, 1);
    return this.white;
  }

  /** The texture of `colors` (4 floats per mesh vertex) in the order `sourceVertex` (null: the mesh's own). */
  private build(colors: Float32Array, sourceVertex: Uint32Array | null, meshVertices: number): WebGLTexture {
    const count = sourceVertex ? sourceVertex.length : meshVertices;
    const { width, height } = viewTextureSize(count, this.maxTextureSize);
    const data = new Float32Array(width * height * 4);
    if (sourceVertex) fillColours(colors, sourceVertex, data);
    else data.set(colors.subarray(0, count * 4));
    return this.upload(data, width, height);
  }

  private upload(data: Float32Array, width: number, height: number): WebGLTexture {
    const gl = this.gl;
    const texture = gl.createTexture();
    if (!texture) throw new Error('createTexture failed');
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, width, height);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, gl.RGBA, gl.FLOAT, data);
    gl.bindTexture(gl.TEXTURE_2D, null);
    return texture;
  }

  dispose(): void {
    for (const t of this.entries.values()) this.gl.deleteTexture(t);
    this.entries.clear();
    if (this.white) this.gl.deleteTexture(this.white);
    this.white = null;
  }
}

/** out[v] = colors[sourceVertex[v]], 4 floats each (pure; tested in Node). */
export function fillColours(colors: Float32Array, sourceVertex: Uint32Array, out: Float32Array): void {
  for (let v = 0; v < sourceVertex.length; v++) {
    const s = sourceVertex[v]! * 4;
    const o = v * 4;
    out[o] = colors[s]!;
    out[o + 1] = colors[s + 1]!;
    out[o + 2] = colors[s + 2]!;
    out[o + 3] = colors[s + 3]!;
  }
}
