import type { CrowdBake } from '../anim/crowd-bake.ts';
import type { CrowdInstances } from '../gpu/crowd-instances.ts';
import type { Scene } from '../model/types.ts';
import { CrowdLodLevel, levelMismatch } from './crowd-lod-level.ts';
import { lodDistances, MAX_LOD_LEVELS } from './crowd-lod.ts';
import type { ModelGpu } from './model-gpu.ts';

/**
 * Crowd mode's distance LOD levels for one model (crowd-pass.ts): the lighter detail levels handed over by the
 * app (scenes, uploaded on the model's next crowd frame as CrowdLodLevels), the chosen level's index and name,
 * and per frame the levels drawn and their switch distances. Owns the levels' GPU data (release() frees it);
 * the instance buffer's per-level vertex arrays stay the CrowdInstances' (the pass tells it the levels).
 */
export class CrowdLodSet {
  private pending: { detail: string; scene: Scene }[] | null = null;
  /** The model the levels belong to (null: none held). */
  of: ModelGpu | null = null;
  private chosenIndex = 0;
  private chosenDetail = '';
  /** The lighter levels on the GPU (drawn as level 1, 2 …). */
  levels: CrowdLodLevel[] = [];
  /** The last crowd frame's drawn levels (1: no LOD) and switch distances (model units; squared for the culling). */
  drawn = 1;
  readonly switches = new Float32Array(MAX_LOD_LEVELS - 1);
  readonly switches2 = new Float32Array(MAX_LOD_LEVELS - 1);

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly maxTextureSize: number,
  ) {}

  /** Hands over `model`'s lighter levels (nearest first; the chosen one `chosenDetail`, index `chosenIndex` among the model's levels, lightest first). */
  set(model: ModelGpu, chosenIndex: number, chosenDetail: string, levels: { detail: string; scene: Scene }[]): void {
    this.release();
    this.of = model;
    this.pending = levels;
    this.chosenIndex = chosenIndex;
    this.chosenDetail = chosenDetail;
  }

  /** Levels of `model` are handed over and not uploaded yet. */
  pendingFor(model: ModelGpu): boolean {
    return this.pending !== null && this.of === model;
  }

  /**
   * Uploads the handed-over levels (one-time work) and gives their meshes to `instances`; drops a level the
   * crowd cannot draw with `bake` (other bones, other baked frames), and every lighter one after it.
   */
  upload(model: ModelGpu, bake: CrowdBake, instances: CrowdInstances): void {
    const pending = this.pending;
    if (pending === null || this.of !== model) return;
    this.pending = null;
    for (const p of pending) {
      const why = levelMismatch(model.scene, p.scene);
      if (why !== null) {
        console.warn(`crowd LOD: detail ${p.detail} not used: ${why}`);
        break;
      }
      const level = new CrowdLodLevel(this.gl, p.detail, p.scene, model.scene, this.maxTextureSize);
      const own = level.bake()?.bake();
      if (own && (own.clips.length !== bake.clips.length || own.clips.some((c, i) => c.first !== bake.clips[i]!.first || c.frames !== bake.clips[i]!.frames))) {
        console.warn(`crowd LOD: detail ${p.detail} not used: its baked frames differ`);
        level.dispose();
        break;
      }
      this.levels.push(level);
    }
    instances.setLevels(this.levels.map((l) => l.meshes));
  }

  /**
   * This frame's levels for `model` (1 without LOD: `on` false, other model, nothing uploaded) from the
   * projection: a figure `height` tall switches where it falls under LOD_PIXELS on a `viewportPx` tall view.
   */
  frame(model: ModelGpu, on: boolean, height: number, fovYDeg: number, viewportPx: number): number {
    const levels = on && this.of === model ? 1 + this.levels.length : 1;
    let drawn = 1;
    if (levels > 1) {
      drawn = Math.min(levels, lodDistances(this.chosenIndex, height, fovYDeg, viewportPx, this.switches));
      for (let l = 0; l < drawn - 1; l++) this.switches2[l] = this.switches[l]! * this.switches[l]!;
    }
    this.drawn = drawn;
    return drawn;
  }

  /** The detail levels the last crowd frame drew, nearest first, and where each ends (model units; null for the last). Allocates. */
  facts(): { details: string[]; to: (number | null)[] } {
    const details = [this.chosenDetail];
    const to: (number | null)[] = [];
    for (let l = 1; l < this.drawn; l++) details.push(this.levels[l - 1]!.detail);
    for (let l = 0; l < this.drawn - 1; l++) to.push(Number(this.switches[l]!.toFixed(3)));
    to.push(null);
    return { details, to };
  }

  /** Frees the levels (GPU and scenes). */
  release(): void {
    for (const l of this.levels) l.dispose();
    this.levels = [];
    this.pending = null;
    this.of = null;
    this.chosenDetail = '';
    this.drawn = 1;
  }
}
