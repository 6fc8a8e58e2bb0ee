import { VIEW_TEXTURE_UNIT } from '../gpu/programs.ts';
import { MAX_INFLUENCES, type SkinnedMesh } from '../model/types.ts';
import type { TechniqueMesh } from '../techniques/technique.ts';
import { fillDistortion } from './distortion-data.ts';

/**
 * Per-vertex data of the weights and influences views, as one RG32F texture per technique triangle vertex
 * array, fetched in skinned.vert with `texelFetch` at gl_VertexID (VIEW_TEXTURE define, u_viewTex on
 * VIEW_TEXTURE_UNIT) and passed on as v_view. This keeps attribute location 5 for the tangent (Dawn's sixth
 * neutral input). gl_VertexID is the technique vertex index on every path: drawElements gives the index
 * value (every technique's element buffers hold absolute indices into its own vertex buffers, group draws
 * only offset into the element buffer, no base vertex exists in WebGL2), drawArrays gives first + i.
 * Every technique exposes `sourceVertex` (technique vertex → mesh vertex), so the data is built here once
 * for any technique, software included.
 *
 * Layout: 2 floats per technique vertex (VIEW_DATA_FLOATS), technique vertex v at texel
 * (v % width, v / width) (width = textureSize().x): x = weight of the chosen bone, y = number of kept
 * influences (1..influences), both after the truncation every technique applies (techniques/influences.ts:
 * sorted, the first `influences` non-zero weights kept and renormalised; a vertex without weights is rigid on
 * its joints[0]). ff-nonindexed's approximated copies (triangles needing more than 4 bones) show the
 * mesh vertex's values, not the reduced ones. The distortion view fills the same textures with its own
 * values (prepareValues: x = log₂ area ratio, distortion-data.ts).
 */
export const VIEW_DATA_FLOATS = 2;
/** Widest row of a view texture (rows = ceil(vertices / width)). */
export const VIEW_TEXTURE_WIDTH = 2048;

/** The view texture's size for `vertexCount` technique vertices (at least 1x1). */
export function viewTextureSize(vertexCount: number, maxTextureSize: number): { width: number; height: number } {
  const width = Math.max(1, Math.min(vertexCount, VIEW_TEXTURE_WIDTH, maxTextureSize));
  return { width, height: Math.max(1, Math.ceil(vertexCount / width)) };
}

/**
 * Fills `out` (VIEW_DATA_FLOATS per entry of sourceVertex) for palette slot `boneSlot` of `mesh`
 * (-1: a bone that does not skin this mesh, weight 0). No allocation.
 */
export function fillViewAttributes(mesh: SkinnedMesh, sourceVertex: Uint32Array, boneSlot: number, influences: number, out: Float32Array): void {
  const used = influences < 1 ? 1 : influences > MAX_INFLUENCES ? MAX_INFLUENCES : influences | 0;
  const joints = mesh.joints;
  const weights = mesh.weights;
  for (let v = 0; v < sourceVertex.length; v++) {
    const o = sourceVertex[v]! * MAX_INFLUENCES;
    let sum = 0;
    let kept = 0;
    for (let k = 0; k < used; k++) {
      const w = weights[o + k]!;
      if (!(w > 0)) break;
      sum += w;
      kept++;
    }
    let weight = 0;
    if (kept === 0) {
      kept = 1;
      weight = joints[o] === boneSlot ? 1 : 0;
    } else {
      for (let k = 0; k < kept; k++) if (joints[o + k] === boneSlot) weight += weights[o + k]! / sum;
    }
    out[v * VIEW_DATA_FLOATS] = weight;
    out[v * VIEW_DATA_FLOATS + 1] = kept;
  }
}

/**
 * Skeleton nodes that skin some vertex (a palette slot of a skinned mesh), in skeleton order: the bones the
 * `bone` key indexes. Allocates (load time).
 */
export function influencingBones(meshes: readonly SkinnedMesh[]): number[] {
  const seen = new Set<number>();
  for (const m of meshes) if (m.skinned) for (const b of m.bones) seen.add(b);
  return [...seen].sort((a, b) => a - b);
}

/**
 * The default bone of the weights view: the node with a non-zero weight on the most vertices (ties: the
 * lower node). -1 when nothing is skinned. Allocates (load time).
 */
export function busiestBone(meshes: readonly SkinnedMesh[], nodeCount: number): number {
  const counts = new Int32Array(Math.max(1, nodeCount));
  for (const m of meshes) {
    if (!m.skinned) continue;
    for (let v = 0; v < m.vertexCount; v++) {
      for (let k = 0; k < MAX_INFLUENCES; k++) {
        const o = v * MAX_INFLUENCES + k;
        if (!(m.weights[o]! > 0)) break;
        const node = m.bones[m.joints[o]!]!;
        if (node >= 0 && node < counts.length) counts[node]!++;
      }
    }
  }
  let best = -1;
  for (let i = 0; i < counts.length; i++) if (counts[i]! > 0 && (best < 0 || counts[i]! > counts[best]!)) best = i;
  return best;
}

interface Entry {
  readonly texture: WebGLTexture;
  readonly width: number;
  readonly height: number;
  /** width · height · VIEW_DATA_FLOATS floats; the first vertexCount · VIEW_DATA_FLOATS are the data. */
  readonly data: Float32Array;
  node: number;
  influences: number;
  /** The distortion values' version held (VALUES_NODE), else -1. */
  version: number;
}

/** Entry.node while the texture holds distortion values rather than a bone's weights. */
const VALUES_NODE = -3;

/**
 * The view textures of one model, one per technique triangle vertex array (techniques that share the
 * model's MeshBuffers share its vertex array, and so one texture). Owned by ModelGpu; dispose() deletes them.
 */
export class ViewData {
  private readonly entries = new Map<WebGLVertexArrayObject, Entry>();

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly maxTextureSize: number,
  ) {}

  /**
   * Makes tm's view texture hold the data for skeleton node `node` and `influences`. Builds the texture on
   * first use; refills it only when node or influences changed (a user action), so a steady frame does a
   * map lookup and nothing else.
   */
  prepare(tm: TechniqueMesh, mesh: SkinnedMesh, node: number, influences: number): void {
    const e = this.entry(tm);
    if (e.node === node && e.influences === influences) return;
    fillViewAttributes(mesh, tm.sourceVertex, node < 0 ? -1 : mesh.bones.indexOf(node), influences, e.data);
    this.upload(e);
    e.node = node;
    e.influences = influences;
  }

  /**
   * Makes tm's view texture hold the distortion view's values: `logs` (1 float per mesh vertex) as of
   * `version`; refills only when the version changed (the pose was measured again).
   */
  prepareValues(tm: TechniqueMesh, logs: Float32Array, version: number): void {
    const e = this.entry(tm);
    if (e.node === VALUES_NODE && e.version === version) return;
    fillDistortion(logs, tm.sourceVertex, VIEW_DATA_FLOATS, e.data);
    this.upload(e);
    e.node = VALUES_NODE;
    e.influences = -1;
    e.version = version;
  }

  /** tm's entry, its texture created on first use. */
  private entry(tm: TechniqueMesh): Entry {
    const gl = this.gl;
    let e = this.entries.get(tm.vao);
    if (!e) {
      const texture = gl.createTexture();
      if (!texture) throw new Error('createTexture failed');
      const { width, height } = viewTextureSize(tm.vertexCount, this.maxTextureSize);
      const data = new Float32Array(width * height * VIEW_DATA_FLOATS);
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
      gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RG32F, width, height);
      gl.bindTexture(gl.TEXTURE_2D, null);
      e = { texture, width, height, data, node: -2, influences: -1, version: -1 };
      this.entries.set(tm.vao, e);
    }
    return e;
  }

  private upload(e: Entry): void {
    const gl = this.gl;
    gl.bindTexture(gl.TEXTURE_2D, e.texture);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, e.width, e.height, gl.RG, gl.FLOAT, e.data);
    gl.bindTexture(gl.TEXTURE_2D, null);
  }

  /** Binds tm's view texture (prepared this frame) to VIEW_TEXTURE_UNIT; before the mesh's draws. */
  bind(tm: TechniqueMesh): void {
    const e = this.entries.get(tm.vao);
    if (!e) return;
    const gl = this.gl;
    gl.activeTexture(gl.TEXTURE0 + VIEW_TEXTURE_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, e.texture);
    gl.activeTexture(gl.TEXTURE0);
  }

  dispose(): void {
    for (const e of this.entries.values()) this.gl.deleteTexture(e.texture);
    this.entries.clear();
  }
}
