import { mat4 } from 'gl-matrix';
import { applyMorphs } from '../anim/morph.ts';
import { buildPalette } from '../anim/palette.ts';
import { skinMesh } from '../anim/software-skin.ts';
import type { SkinnedMesh } from '../model/types.ts';
import type { AppContext } from './context.ts';
import type { LoadedModel } from './loaded-model.ts';
import { boneAtHit, CHUNK, chunkBoxes, pointerRay, rayBox, rayMesh, type TriangleHit } from './pick.ts';

/**
 * Hover and click picking of the single model's bones (the pointer's label, a click selecting the weights
 * view's bone). The pointer is given in normalised device coordinates; update(), called once per
 * animation frame, runs the hit test only when the pointer moved since the last one. The test uses the
 * posed mesh as drawn: the CPU morph (current weights) and software skinning (the state's influences) of
 * the current pose — or the bind pose with `bindPose` — redone only when the pose changed (its node
 * matrices, morph weights, influences or bind pose), so a paused model costs only the ray tests. Broad phase:
 * the ray against each mesh's box, then against boxes of CHUNK-triangle runs (pick.ts). The bone is the one
 * weighing most at the hit point: the hit triangle's corner weights blended by their barycentric
 * coordinates (pick.ts boneAtHit). Not in crowd mode nor with compare on (several models or halves on
 * screen): nothing is hovered there. Buffers are made once per model; update() and pickAt() allocate nothing.
 */

/** One mesh's posed copy and its broad-phase boxes. */
interface PickMesh {
  readonly mesh: SkinnedMesh;
  /** The mesh with morphed positions (the same object as `mesh` without morph targets): what skinMesh reads. */
  readonly source: SkinnedMesh;
  readonly morphed: Float32Array | null;
  readonly morphNormals: Float32Array | null;
  readonly posed: Float32Array;
  readonly palette: Float32Array;
  readonly boxes: Float32Array;
}

export class BonePicker {
  /** The skeleton node under the pointer at the last update (-1: none). */
  hovered = -1;
  private pointerOn = false;
  private moved = false;
  private readonly at = new Float64Array(2);
  private model: LoadedModel | null = null;
  private meshes: PickMesh[] = [];
  private meshBoxes = new Float32Array(0);
  /** The pose the posed copies hold: node matrices, morph weights, then influences and bind pose. */
  private poseKey = new Float32Array(0);
  private readonly invViewProj = mat4.create();
  private readonly ray = new Float64Array(6);
  private readonly hit: TriangleHit = { triangle: -1, distance: Infinity, u: 0, v: 0 };
  private readonly scratch = new Float64Array(24);

  constructor(private readonly ctx: AppContext) {}

  /** The pointer rests at (x, y), NDC; the next update() tests there. */
  pointer(x: number, y: number): void {
    this.at[0] = x;
    this.at[1] = y;
    this.pointerOn = true;
    this.moved = true;
  }

  /** The pointer left the view, or a button went down (no hover while dragging). */
  leave(): void {
    this.pointerOn = false;
    this.moved = false;
    this.hovered = -1;
  }

  /** Once per animation frame: tests under the pointer if it moved since the last test. */
  update(): void {
    if (!this.moved) return;
    this.moved = false;
    this.hovered = this.pointerOn ? this.pickAt(this.at[0]!, this.at[1]!) : -1;
  }

  /** The name of a node of the current model, or null for -1. */
  nameOf(node: number): string | null {
    const m = this.ctx.current;
    return m && node >= 0 ? m.scene.skeleton.names[node] ?? String(node) : null;
  }

  /**
   * info()'s fields: `hoverBone`, the bone under the pointer (null: none), and `selectedBone`, the bone the user
   * chose (`selected`: FrameDrawer.selectedBone) while the weights view still shows it (null: none chosen).
   */
  facts(selected: string | null): { hoverBone: string | null; selectedBone: string | null } {
    return { hoverBone: this.nameOf(this.hovered), selectedBone: selected !== null && selected === this.ctx.state.bone ? selected : null };
  }

  /** The skeleton node weighing most where the ray under (x, y) (NDC) first meets the model; -1 for none. */
  pickAt(x: number, y: number): number {
    const { state, current: m, camera } = this.ctx;
    if (!m || state.crowd > 1 || state.compare !== null) return -1;
    if (!mat4.invert(this.invViewProj, camera.viewProj) || !pointerRay(this.invViewProj, x, y, this.ray)) return -1;
    if (m !== this.model) this.adopt(m);
    this.pose(m);
    const hit = this.hit;
    hit.triangle = -1;
    hit.distance = Infinity;
    let best = -1;
    for (let i = 0; i < this.meshes.length; i++) {
      const p = this.meshes[i]!;
      if (rayBox(this.ray, this.meshBoxes, i * 6) >= hit.distance) continue;
      if (rayMesh(this.ray, p.posed, p.mesh.indices, p.boxes, hit)) best = i;
    }
    return best < 0 ? -1 : boneAtHit(this.meshes[best]!.mesh, hit.triangle, hit.u, hit.v, this.scratch);
  }

  /** Buffers for a new model (allocates; once per model). */
  private adopt(m: LoadedModel): void {
    this.model = m;
    this.meshes = m.scene.meshes.map((mesh) => {
      const hasMorphs = (mesh.morphs?.some((d) => d.vertices.length > 0) ?? false) && m.scene.morphTargets.length > 0;
      const morphed = hasMorphs ? new Float32Array(mesh.positions.length) : null;
      return {
        mesh,
        source: morphed ? { ...mesh, positions: morphed } : mesh,
        morphed,
        morphNormals: hasMorphs ? new Float32Array(mesh.normals.length) : null,
        posed: new Float32Array(mesh.positions.length),
        palette: new Float32Array(mesh.bones.length * 16),
        boxes: new Float32Array(Math.ceil(mesh.indices.length / 3 / CHUNK) * 6),
      };
    });
    this.meshBoxes = new Float32Array(this.meshes.length * 6);
    // Never equal to a real key (NaN), so the first test poses the copies.
    this.poseKey = new Float32Array(m.player.model.length + m.player.morphWeights.length + 2).fill(NaN);
  }

  /** Brings the posed copies and their boxes up to the pose drawn, when it changed. */
  private pose(m: LoadedModel): void {
    const s = this.ctx.state;
    const nodes = m.player.model;
    const weights = m.player.morphWeights;
    const key = this.poseKey;
    let same = key[key.length - 2] === s.influences && key[key.length - 1] === (s.bindPose ? 1 : 0);
    for (let i = 0; same && i < nodes.length; i++) same = key[i] === nodes[i];
    for (let i = 0; same && i < weights.length; i++) same = key[nodes.length + i] === weights[i];
    if (same) return;
    key.set(nodes, 0);
    key.set(weights, nodes.length);
    key[key.length - 2] = s.influences;
    key[key.length - 1] = s.bindPose ? 1 : 0;
    for (let i = 0; i < this.meshes.length; i++) {
      const p = this.meshes[i]!;
      if (p.morphed && p.morphNormals) applyMorphs(p.mesh, weights, p.morphed, p.morphNormals);
      if (s.bindPose) p.posed.set(p.source.positions);
      else {
        buildPalette(nodes, p.mesh.bones, p.mesh.invBind, p.palette, 0);
        skinMesh(p.source, p.palette, p.posed, null, s.influences);
      }
      chunkBoxes(p.posed, p.mesh.indices, p.boxes, this.meshBoxes, i * 6);
    }
  }
}
