import { MAX_INFLUENCES, type SkinnedMesh } from '../model/types.ts';
import type { TechniqueMesh } from '../techniques/technique.ts';

/**
 * Per-vertex data of the weights and influences views, as one extra vertex attribute of a technique's
 * triangle vertex array. Every technique exposes `sourceVertex` (technique vertex → mesh vertex), so the data
 * is built here once for any technique, software included, and attached at location VIEW_ATTRIB_LOCATION
 * (`layout(location = VIEW_ATTRIB)` in skinned.vert, which passes it on as v_view).
 *
 * Layout: 2 floats per technique vertex: x = weight of the chosen bone, y = number of kept influences
 * (1..influences), both after the truncation every technique applies (techniques/influences.ts: sorted,
 * the first `influences` non-zero weights kept and renormalised; a vertex without weights is rigid on
 * its joints[0]). ff-nonindexed's approximated copies (triangles needing more than 4 bones) show the
 * mesh vertex's values, not the reduced ones.
 */
export const VIEW_ATTRIB_LOCATION = 5;
export const VIEW_ATTRIB_FLOATS = 2;

/**
 * Fills `out` (VIEW_ATTRIB_FLOATS per entry of sourceVertex) for palette slot `boneSlot` of `mesh`
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
    out[v * VIEW_ATTRIB_FLOATS] = weight;
    out[v * VIEW_ATTRIB_FLOATS + 1] = kept;
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
  readonly buffer: WebGLBuffer;
  readonly data: Float32Array;
  node: number;
  influences: number;
}

/**
 * The view attribute buffers of one model, one per technique triangle vertex array (techniques that share
 * the model's MeshBuffers share its vertex array, and so one buffer). Owned by ModelGpu; dispose() deletes them.
 */
export class ViewAttributes {
  private readonly entries = new Map<WebGLVertexArrayObject, Entry>();

  constructor(private readonly gl: WebGL2RenderingContext) {}

  /**
   * Makes tm's triangle vertex array carry the view attribute for skeleton node `node` and `influences`.
   * Builds and attaches the buffer on first use; refills it only when node or influences changed (a user
   * action), so a steady frame does a map lookup and nothing else.
   */
  prepare(tm: TechniqueMesh, mesh: SkinnedMesh, node: number, influences: number): void {
    const gl = this.gl;
    let e = this.entries.get(tm.vao);
    if (!e) {
      const buffer = gl.createBuffer();
      if (!buffer) throw new Error('createBuffer failed');
      const data = new Float32Array(tm.vertexCount * VIEW_ATTRIB_FLOATS);
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ARRAY_BUFFER, data.byteLength, gl.DYNAMIC_DRAW);
      gl.bindVertexArray(tm.vao);
      gl.enableVertexAttribArray(VIEW_ATTRIB_LOCATION);
      gl.vertexAttribPointer(VIEW_ATTRIB_LOCATION, VIEW_ATTRIB_FLOATS, gl.FLOAT, false, 0, 0);
      gl.bindVertexArray(null);
      gl.bindBuffer(gl.ARRAY_BUFFER, null);
      e = { buffer, data, node: -2, influences: -1 };
      this.entries.set(tm.vao, e);
    }
    if (e.node === node && e.influences === influences) return;
    fillViewAttributes(mesh, tm.sourceVertex, node < 0 ? -1 : mesh.bones.indexOf(node), influences, e.data);
    gl.bindBuffer(gl.ARRAY_BUFFER, e.buffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, e.data);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    e.node = node;
    e.influences = influences;
  }

  dispose(): void {
    for (const e of this.entries.values()) this.gl.deleteBuffer(e.buffer);
    this.entries.clear();
  }
}
