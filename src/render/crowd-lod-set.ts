import type { CrowdBake } from '../anim/crowd-bake.ts';
import type { CrowdInstances } from '../gpu/crowd-instances.ts';
import type { Scene } from '../model/types.ts';
import { CrowdLodLevel, levelMismatch } from './crowd-lod-level.ts';
import { lodDistances, MAX_LOD_LEVELS, MAX_MESH_LEVELS } from './crowd-lod.ts';
import type { ModelGpu } from './model-gpu.ts';

/**
 * Crowd mode's distance LOD levels for one model (crowd-pass.ts): the lighter detail levels handed over by the
 * app (scenes with their errors, authored or generated; uploaded on the model's next crowd frame as
 * CrowdLodLevels), the chosen level's name, and per frame the levels drawn and their switch distances. Owns the levels' GPU data (release() frees it);
 * the instance buffer's per-level vertex arrays stay the CrowdInstances' (the pass tells it the levels).
 */
export class CrowdLodSet {
  private pending: LodLevelInput[] | null = null;
  /** The model the levels belong to (null: none held). */
  of: ModelGpu | null = null;
  private chosenDetail = '';
  private chosenTriangles = 0;
  /** Where the levels come from: 'generated' (simplified from the model) or 'authored' (the model's own files). */
  source: 'generated' | 'authored' = 'authored';
  /** The lighter levels on the GPU (drawn as level 1, 2 …). */
  levels: CrowdLodLevel[] = [];
  /** Per drawn level (0: the chosen one, error 0), the error in model units. */
  readonly errors = new Float32Array(MAX_LOD_LEVELS);
  /** The last crowd frame's drawn levels (1: no LOD) and switch distances (model units; squared for the culling). */
  drawn = 1;
  readonly switches = new Float32Array(MAX_LOD_LEVELS - 1);
  readonly switches2 = new Float32Array(MAX_LOD_LEVELS - 1);

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly maxTextureSize: number,
  ) {}

  /** Hands over `model`'s lighter levels (nearest first, at most MAX_MESH_LEVELS − 1; the chosen one `chosenDetail`), from `source`. */
  set(model: ModelGpu, chosenDetail: string, levels: LodLevelInput[], source: 'generated' | 'authored'): void {
    this.release();
    this.of = model;
    this.pending = levels.slice(0, MAX_MESH_LEVELS - 1);
    this.chosenDetail = chosenDetail;
    this.chosenTriangles = triangles(model.scene);
    this.source = source;
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
      const level = new CrowdLodLevel(this.gl, p.detail, p.scene, model.scene, this.maxTextureSize, model.meshes);
      const own = level.bake()?.bake();
      if (own && (own.clips.length !== bake.clips.length || own.clips.some((c, i) => c.first !== bake.clips[i]!.first || c.frames !== bake.clips[i]!.frames))) {
        console.warn(`crowd LOD: detail ${p.detail} not used: its baked frames differ`);
        level.dispose();
        break;
      }
      this.levels.push(level);
      this.errors[this.levels.length] = Math.max(p.error, this.errors[this.levels.length - 1]!);
    }
    instances.setLevels(this.levels.map((l) => l.meshes));
  }

  /**
   * This frame's levels for `model` (1 without LOD: `on` false, other model, nothing uploaded) from the
   * projection: level l is drawn from where its error projects under ERROR_PIXELS on a `viewportPx` tall view.
   */
  frame(model: ModelGpu, on: boolean, fovYDeg: number, viewportPx: number): number {
    const drawn = on && this.of === model ? 1 + this.levels.length : 1;
    if (drawn > 1) {
      lodDistances(this.errors, drawn, fovYDeg, viewportPx, this.switches);
      for (let l = 0; l < drawn - 1; l++) this.switches2[l] = this.switches[l]! * this.switches[l]!;
    }
    this.drawn = drawn;
    return drawn;
  }

  /**
   * The shadow casters' level: the lightest drawn level (of the last frame()'s `drawn`) whose error is at most
   * `texel` model units, one texel of the shadow map — the projected-error rule applied to the light's view,
   * whose resolution is the same everywhere. 0 without levels.
   */
  casterLevel(texel: number): number {
    let level = 0;
    while (level < this.drawn - 1 && this.errors[level + 1]! <= texel) level++;
    return level;
  }

  /** The lightest held level (0: the chosen one) whose error is at most `error` model units. */
  levelUnder(error: number): number {
    let level = 0;
    while (level < this.levels.length && this.errors[level + 1]! <= error) level++;
    return level;
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

  /** Every level held (uploaded), nearest first: triangles and error (model units), and where they come from; null when none. Allocates. */
  levelTable(): { source: 'generated' | 'authored'; levels: { detail: string; triangles: number; error: number }[] } | null {
    if (this.of === null || this.levels.length === 0) return null;
    const levels = [{ detail: this.chosenDetail, triangles: this.chosenTriangles, error: 0 }];
    this.levels.forEach((l, k) => levels.push({ detail: l.detail, triangles: triangles(l.scene), error: Number(this.errors[k + 1]!.toPrecision(4)) }));
    return { source: this.source, levels };
  }

  /** Frees the levels (GPU and scenes). */
  release(): void {
    for (const l of this.levels) l.dispose();
    this.levels = [];
    this.pending = null;
    this.of = null;
    this.chosenDetail = '';
    this.drawn = 1;
    this.errors.fill(0);
  }
}

/** A lighter level handed to the crowd: its name, scene and error against the chosen level (model units). */
export interface LodLevelInput {
  readonly detail: string;
  readonly scene: Scene;
  readonly error: number;
}

function triangles(scene: Scene): number {
  return scene.meshes.reduce((n, m) => n + m.indices.length / 3, 0);
}
