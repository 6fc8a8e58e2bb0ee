import { mat4 } from 'gl-matrix';
import type { AppContext } from './context.ts';
import type { LoadedModel } from './loaded-model.ts';
import { boneAtHit, pointerRay, type TriangleHit } from './pick.ts';
import { PickMesh } from './pick-mesh.ts';

/**
 * Hover and click picking of the single model's bones (the pointer's label, a click selecting the weights
 * view's bone). The pointer is given in normalised device coordinates; update(), called once per
 * animation frame, runs the hit test when the pointer moved since the last one, and while it rests on the
 * view every REFRESH_MS too, so the label follows a model that plays or a camera that moves under a still
 * pointer (at most that often: a test poses the mesh, which is not free on a big model). The test uses the
 * posed mesh as drawn: the CPU morph (current weights) and linear blend skinning (the state's influences)
 * of the current pose — or the bind pose with `bindPose` — posed again only when the pose changed (its node
 * matrices, morph weights, influences or bind pose), and then only the runs of triangles the ray may meet
 * (pick-mesh.ts: boxes of runs bounded from their bones, vertices skinned on demand). The bone is the one
 * weighing most at the hit point: the hit triangle's corner weights blended by their barycentric
 * coordinates (pick.ts boneAtHit). Not in crowd mode nor with compare on (several models or halves on
 * screen): nothing is hovered there. Buffers are made once per model; update() and pickAt() allocate nothing.
 */

/** How often a resting pointer is tested again, ms. */
const REFRESH_MS = 120;

export class BonePicker {
  /** The skeleton node under the pointer at the last update (-1: none). */
  hovered = -1;
  private pointerOn = false;
  private moved = false;
  /** performance.now() of the last test under the pointer. */
  private testedAt = -Infinity;
  private readonly at = new Float64Array(2);
  private model: LoadedModel | null = null;
  private meshes: PickMesh[] = [];
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

  /**
   * Once per animation frame: tests under the pointer if it moved since the last test, or if it rests on the
   * view and REFRESH_MS have passed. A new model, a crowd or compare turned on clear the hovered bone at once
   * (it named a node of what is no longer drawn alone).
   */
  update(): void {
    const { current, state } = this.ctx;
    if (this.hovered >= 0 && (current !== this.model || state.crowd > 1 || state.compare !== null)) this.hovered = -1;
    const now = performance.now();
    if (!this.moved && !(this.pointerOn && now - this.testedAt >= REFRESH_MS)) return;
    this.moved = false;
    this.testedAt = now;
    this.hovered = this.pointerOn ? this.test() : -1;
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

  /**
   * The skeleton node weighing most where the ray under (x, y) (NDC) first meets the model; -1 for none.
   * It becomes the pointer's position (a click happens where the pointer is).
   */
  pickAt(x: number, y: number): number {
    this.at[0] = x;
    this.at[1] = y;
    return this.test();
  }

  /** pickAt at the pointer's position. */
  private test(): number {
    const { state, current: m, camera } = this.ctx;
    if (!m || state.crowd > 1 || state.compare !== null) return -1;
    if (!mat4.invert(this.invViewProj, camera.viewProj) || !pointerRay(this.invViewProj, this.at, this.ray)) return -1;
    if (m !== this.model) this.adopt(m);
    this.pose(m);
    const hit = this.hit;
    hit.triangle = -1;
    hit.distance = Infinity;
    let best = -1;
    for (let i = 0; i < this.meshes.length; i++) if (this.meshes[i]!.raycast(this.ray, hit)) best = i;
    return best < 0 ? -1 : boneAtHit(this.meshes[best]!.mesh, hit, this.scratch);
  }

  /** Buffers for a new model (allocates; once per model). */
  private adopt(m: LoadedModel): void {
    this.model = m;
    this.meshes = m.scene.meshes.map((mesh) => new PickMesh(mesh));
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
    let morphsSame = true;
    for (let i = 0; morphsSame && i < weights.length; i++) morphsSame = key[nodes.length + i] === weights[i];
    if (same && morphsSame) return;
    key.set(nodes, 0);
    key.set(weights, nodes.length);
    key[key.length - 2] = s.influences;
    key[key.length - 1] = s.bindPose ? 1 : 0;
    for (const p of this.meshes) {
      if (!morphsSame) p.morph(weights);
      p.pose(nodes, s.influences, s.bindPose);
    }
  }
}
