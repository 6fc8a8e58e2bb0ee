import { applyMorphs } from '../anim/morph.ts';
import { buildPalette } from '../anim/palette.ts';
import { MAX_INFLUENCES, type SkinnedMesh } from '../model/types.ts';
import { CHUNK, rayBox, rayTriangle, type TriangleHit } from './pick.ts';

/**
 * One mesh as the hit test sees it in the current pose, posed lazily. The triangles are cut into runs of
 * CHUNK (pick.ts). At load each run gets its bind-space box and the palette slots that weigh its vertices;
 * per pose, a run's box is the union of that box moved by each of its slots' skinning matrices — a skinned
 * vertex is a convex blend of its slots' transforms of the bind point, so it lies inside — and only the runs
 * the ray enters have their vertices skinned (linear blend skinning with the first `influences` weights
 * renormalised, skinMesh's rule in software-skin.ts), each vertex once per pose. A mesh with morph targets
 * is morphed first (applyMorphs, the CPU reference), when its weights change. With the bind pose the runs'
 * boxes are their bind boxes and the vertices the (morphed) bind positions. Allocates at construction only.
 */
export class PickMesh {
  /** The whole mesh's posed box (min xyz, max xyz), valid after pose(). */
  readonly box = new Float32Array(6);
  private readonly chunks: number;
  private readonly bindBoxes: Float32Array;
  private readonly boxes: Float32Array;
  /** CSR: the palette slots of run k are slots[slotStart[k]..slotStart[k + 1]). */
  private readonly slotStart: Int32Array;
  private readonly slots: Uint16Array;
  /** Morphed bind positions (null: no morph targets move this mesh; the mesh's own positions are read). */
  private readonly morphed: Float32Array | null;
  private readonly morphNormals: Float32Array | null;
  private readonly palette: Float32Array;
  private readonly posed: Float32Array;
  /** Per vertex, the pose version its posed position belongs to. */
  private readonly stamp: Uint32Array;
  private version = 1;
  private influences = MAX_INFLUENCES;
  private bindPose = false;

  constructor(readonly mesh: SkinnedMesh) {
    const triangles = (mesh.indices.length / 3) | 0;
    this.chunks = Math.ceil(triangles / CHUNK);
    this.bindBoxes = new Float32Array(this.chunks * 6);
    this.boxes = new Float32Array(this.chunks * 6);
    const moves = mesh.morphs?.some((d) => d.vertices.length > 0) ?? false;
    this.morphed = moves ? Float32Array.from(mesh.positions) : null;
    this.morphNormals = moves ? new Float32Array(mesh.normals.length) : null;
    this.palette = new Float32Array(mesh.bones.length * 16);
    this.posed = new Float32Array(mesh.positions.length);
    this.stamp = new Uint32Array(mesh.vertexCount);
    this.slotStart = new Int32Array(this.chunks + 1);
    const lists: number[] = [];
    // Per slot, the last run that listed it (+1): each slot once per run without a set.
    const listed = new Int32Array(mesh.bones.length);
    for (let k = 0; k < this.chunks; k++) {
      const end = Math.min(triangles, (k + 1) * CHUNK) * 3;
      for (let i = k * CHUNK * 3; i < end; i++) {
        const o = mesh.indices[i]! * MAX_INFLUENCES;
        for (let j = 0; j < MAX_INFLUENCES && (j === 0 || mesh.weights[o + j]! > 0); j++) {
          const slot = mesh.joints[o + j]!;
          if (listed[slot] === k + 1) continue;
          listed[slot] = k + 1;
          lists.push(slot);
        }
      }
      this.slotStart[k + 1] = lists.length;
    }
    this.slots = Uint16Array.from(lists);
    this.fillBindBoxes();
  }

  /** Morphs the bind positions with `weights` (one per scene target) and renews the runs' bind boxes. */
  morph(weights: Float32Array): void {
    if (this.morphed === null || this.morphNormals === null) return;
    applyMorphs(this.mesh, weights, this.morphed, this.morphNormals);
    this.fillBindBoxes();
  }

  /**
   * Poses the runs' boxes from node → model matrices `nodes` (AnimPlayer.model), or the bind pose; the
   * vertices are skinned when a ray needs them. Call morph() first when the morph weights changed.
   */
  pose(nodes: Float32Array, influences: number, bindPose: boolean): void {
    this.version++;
    this.influences = influences;
    this.bindPose = bindPose;
    const box = this.box;
    box.fill(Infinity, 0, 3);
    box.fill(-Infinity, 3, 6);
    if (!bindPose) buildPalette(nodes, this.mesh.bones, this.mesh.invBind, this.palette, 0);
    const bb = this.bindBoxes;
    const out = this.boxes;
    const pal = this.palette;
    for (let k = 0; k < this.chunks; k++) {
      const o = k * 6;
      if (bindPose) for (let a = 0; a < 6; a++) out[o + a] = bb[o + a]!;
      else {
        const cx = (bb[o]! + bb[o + 3]!) / 2, cy = (bb[o + 1]! + bb[o + 4]!) / 2, cz = (bb[o + 2]! + bb[o + 5]!) / 2;
        const ex = (bb[o + 3]! - bb[o]!) / 2, ey = (bb[o + 4]! - bb[o + 1]!) / 2, ez = (bb[o + 5]! - bb[o + 2]!) / 2;
        let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
        for (let i = this.slotStart[k]!; i < this.slotStart[k + 1]!; i++) {
          const m = this.slots[i]! * 16;
          // The box moved by an affine matrix: its centre moved, its half extents through |M|.
          const px = pal[m]! * cx + pal[m + 4]! * cy + pal[m + 8]! * cz + pal[m + 12]!;
          const py = pal[m + 1]! * cx + pal[m + 5]! * cy + pal[m + 9]! * cz + pal[m + 13]!;
          const pz = pal[m + 2]! * cx + pal[m + 6]! * cy + pal[m + 10]! * cz + pal[m + 14]!;
          const hx = Math.abs(pal[m]!) * ex + Math.abs(pal[m + 4]!) * ey + Math.abs(pal[m + 8]!) * ez;
          const hy = Math.abs(pal[m + 1]!) * ex + Math.abs(pal[m + 5]!) * ey + Math.abs(pal[m + 9]!) * ez;
          const hz = Math.abs(pal[m + 2]!) * ex + Math.abs(pal[m + 6]!) * ey + Math.abs(pal[m + 10]!) * ez;
          if (px - hx < x0) x0 = px - hx;
          if (py - hy < y0) y0 = py - hy;
          if (pz - hz < z0) z0 = pz - hz;
          if (px + hx > x1) x1 = px + hx;
          if (py + hy > y1) y1 = py + hy;
          if (pz + hz > z1) z1 = pz + hz;
        }
        // Float32 rounding of the palette and the blend: a hair of slack.
        const pad = 1e-5 * (Math.abs(x0) + Math.abs(x1) + Math.abs(y0) + Math.abs(y1) + Math.abs(z0) + Math.abs(z1) + 1);
        out[o] = x0 - pad;
        out[o + 1] = y0 - pad;
        out[o + 2] = z0 - pad;
        out[o + 3] = x1 + pad;
        out[o + 4] = y1 + pad;
        out[o + 5] = z1 + pad;
      }
      for (let a = 0; a < 3; a++) {
        if (out[o + a]! < box[a]!) box[a] = out[o + a]!;
        if (out[o + 3 + a]! > box[3 + a]!) box[3 + a] = out[o + 3 + a]!;
      }
    }
  }

  /** The nearest triangle the ray meets closer than hit.distance (hit updated; true when it changed). */
  raycast(ray: Float64Array, hit: TriangleHit): boolean {
    if (rayBox(ray, this.box, 0) >= hit.distance) return false;
    const indices = this.mesh.indices;
    const triangles = (indices.length / 3) | 0;
    let found = false;
    for (let k = 0; k < this.chunks; k++) {
      if (rayBox(ray, this.boxes, k * 6) >= hit.distance) continue;
      const end = Math.min(triangles, (k + 1) * CHUNK);
      for (let i = k * CHUNK * 3; i < end * 3; i++) {
        const v = indices[i]!;
        if (this.stamp[v] !== this.version) this.skinVertex(v);
      }
      for (let t = k * CHUNK; t < end; t++) if (rayTriangle(ray, this.posed, indices, t, hit)) found = true;
    }
    return found;
  }

  /** Vertex v in the current pose into `posed` (skinMesh's blend for one vertex). */
  private skinVertex(v: number): void {
    this.stamp[v] = this.version;
    const src = this.morphed ?? this.mesh.positions;
    const p = v * 3;
    const px = src[p]!, py = src[p + 1]!, pz = src[p + 2]!;
    const out = this.posed;
    if (this.bindPose) {
      out[p] = px;
      out[p + 1] = py;
      out[p + 2] = pz;
      return;
    }
    const { joints, weights } = this.mesh;
    const pal = this.palette;
    const iw = v * MAX_INFLUENCES;
    const used = Math.min(MAX_INFLUENCES, Math.max(1, this.influences | 0));
    let sum = 0;
    for (let k = 0; k < used && weights[iw + k]! > 0; k++) sum += weights[iw + k]!;
    let x = 0, y = 0, z = 0;
    for (let k = 0; k < (sum > 0 ? used : 1); k++) {
      const raw = weights[iw + k]!;
      if (sum > 0 && !(raw > 0)) break;
      const w = sum > 0 ? raw / sum : 1;
      const m = joints[iw + k]! * 16;
      x += w * (pal[m]! * px + pal[m + 4]! * py + pal[m + 8]! * pz + pal[m + 12]!);
      y += w * (pal[m + 1]! * px + pal[m + 5]! * py + pal[m + 9]! * pz + pal[m + 13]!);
      z += w * (pal[m + 2]! * px + pal[m + 6]! * py + pal[m + 10]! * pz + pal[m + 14]!);
    }
    out[p] = x;
    out[p + 1] = y;
    out[p + 2] = z;
  }

  /** Each run's box over the (morphed) bind positions of its triangles' corners. */
  private fillBindBoxes(): void {
    const src = this.morphed ?? this.mesh.positions;
    const indices = this.mesh.indices;
    const triangles = (indices.length / 3) | 0;
    const bb = this.bindBoxes;
    for (let k = 0; k < this.chunks; k++) {
      let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
      const end = Math.min(triangles, (k + 1) * CHUNK) * 3;
      for (let i = k * CHUNK * 3; i < end; i++) {
        const p = indices[i]! * 3;
        const x = src[p]!, y = src[p + 1]!, z = src[p + 2]!;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
        if (z < z0) z0 = z;
        if (z > z1) z1 = z;
      }
      const o = k * 6;
      bb[o] = x0;
      bb[o + 1] = y0;
      bb[o + 2] = z0;
      bb[o + 3] = x1;
      bb[o + 4] = y1;
      bb[o + 5] = z1;
    }
  }
}
