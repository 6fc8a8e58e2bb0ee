import { LOD_RATIOS } from '../model/lod-ratios.ts';
import { orientScene } from '../model/orient.ts';
import type { Scene } from '../model/types.ts';
import { MAX_MESH_LEVELS } from '../render/crowd-lod.ts';
import type { LodLevelInput } from '../render/crowd-lod-set.ts';
import type { Renderer } from '../render/renderer.ts';
import { findBuiltin } from './builtins.ts';
import { generateLevelScenes, measureLevels, prewarmLodWorker } from './lod-client.ts';
import type { LoadedModel } from './loaded-model.ts';
import { urlSource } from './model-source.ts';
import { parseModel } from './parse-client.ts';
import type { AppState } from './state.ts';

/** A lighter detail level to load: its name and URL. */
export interface LodLevelPlan {
  detail: string;
  url: string;
}

/**
 * The authored lighter levels a crowd of `model` draws far away, nearest first (at most MAX_MESH_LEVELS − 1),
 * and the chosen level's index among the built-in's levels (lightest first); `authored` false for a model
 * without detail levels (its levels are generated). At its lightest authored level: no levels.
 */
export function lighterLevels(model: Pick<LoadedModel, 'id' | 'origin' | 'detail'>): { authored: boolean; chosen: number; levels: LodLevelPlan[] } {
  const builtin = findBuiltin(model.id);
  if (model.origin !== 'builtin' || !builtin?.details) return { authored: false, chosen: 0, levels: [] };
  const names = Object.keys(builtin.details);
  const chosen = names.indexOf(model.detail || builtin.defaultDetail || '');
  const levels: LodLevelPlan[] = [];
  for (let k = Math.min(chosen, MAX_MESH_LEVELS - 1) - 1; k >= 0; k--) levels.push({ detail: names[k]!, url: builtin.details[names[k]!]! });
  return { authored: true, chosen: Math.max(0, chosen), levels };
}

/** What the loader needs of a model: the loaded one, or another model of a mixed crowd (crowd-models.ts). */
export type CrowdLodModel = Pick<LoadedModel, 'id' | 'origin' | 'detail' | 'gpu'>;

/** A crowd's distance LOD is wanted: `lod` on, a crowd, no wander mode. */
export function wantsCrowdLod(s: Pick<AppState, 'lod' | 'crowd' | 'wander'>): boolean {
  return s.lod && s.crowd > 1 && !s.wander;
}

/**
 * Starts the page's LOD worker when the state wants a crowd with LOD (lod-client.ts), so meshoptimizer's
 * WebAssembly compiles while the model is still loading: called at boot once the page's parameters are applied,
 * before the model is ready (main.ts). Idempotent; nothing when no LOD is wanted.
 */
export function prewarmCrowdLod(s: Pick<AppState, 'lod' | 'crowd' | 'wander'>): void {
  if (wantsCrowdLod(s)) prewarmLodWorker();
}

/** Times of the last generated levels, ms (lod-client.ts GeneratedScenes). */
export interface LodTiming {
  /** The simplification itself. */
  ms: number;
  /** Waiting for meshoptimizer's WebAssembly before it (0 in a warm worker). */
  wasmMs: number;
  /** From the request to the levels (queueing behind other models' requests and start-up included). */
  totalMs: number;
  /** Where they were made: 'worker', or 'main' where the LOD worker could not start. */
  where: 'worker' | 'main';
}

/** Names of generated levels, nearest first: their share of the triangles ('1/2', '1/4' …). */
const GENERATED = LOD_RATIOS.map((r) => `1/${Math.round(1 / r)}`);

/**
 * Crowd mode's distance LOD, the app's side: when a crowd is drawn with `lod` on, gets the lighter levels in
 * the background and hands their scenes and errors to the renderer (Renderer.setCrowdLevels), which uploads
 * them for the crowd only. A model with authored detail levels (Dawn) uses those only: fetched and parsed in
 * the parse worker like any model (model-source.ts, parse-client.ts), one after the other, each error measured
 * against the chosen level (src/model/lod-error.ts, in the worker of src/app/lod-client.ts). Any other model gets generated
 * levels (src/model/lod-simplify.ts in the worker of src/app/lod-client.ts: one for the page, shared by every
 * loader, requests served in turn; prewarmCrowdLod starts it at boot). Never replaces the current model
 * nor holds a frame. Until then every instance draws the chosen level. One loader per model of a mixed crowd. When the model changes, crowd mode ends,
 * `lod` or wander mode is turned off or on, or the renderer is replaced (a context restore), a load in
 * flight is cancelled and the levels handed over are released. update() is called once per frame and does
 * nothing (allocates nothing) while the wanted levels are loading or held.
 */
export class CrowdLodLoader {
  /** 'off' (no LOD wanted or possible), 'loading', 'ready' (handed to the renderer) or 'failed' (`error` says why). */
  status: 'off' | 'loading' | 'ready' | 'failed' = 'off';
  error = '';
  /** The lighter levels loading or held, nearest first. */
  details: string[] = [];
  /** Times of the last generation (info().lod.timing); null until one finished, for authored levels, and after release(). */
  timing: LodTiming | null = null;
  private of: CrowdLodModel | null = null;
  private renderer: Renderer | null = null;
  private abort: AbortController | null = null;

  update(model: CrowdLodModel, s: AppState, renderer: Renderer): void {
    const wanted = wantsCrowdLod(s);
    if (wanted && this.of === model && this.renderer === renderer) return;
    if (!wanted) {
      if (this.of !== null) this.release();
      return;
    }
    this.release();
    this.of = model;
    this.renderer = renderer;
    const plan = lighterLevels(model);
    if (plan.authored && plan.levels.length === 0) return;
    this.details = plan.authored ? plan.levels.map((l) => l.detail) : [...GENERATED];
    this.status = 'loading';
    const abort = new AbortController();
    this.abort = abort;
    const source = plan.authored ? 'authored' : 'generated';
    const loading = plan.authored ? this.load(model, plan.levels, abort.signal) : this.generate(model, abort.signal);
    loading.then(
      (levels) => {
        if (abort.signal.aborted || this.of !== model) return;
        this.abort = null;
        this.details = levels.map((l) => l.detail);
        if (levels.length === 0) {
          this.status = 'off';
          return;
        }
        renderer.setCrowdLevels(model.gpu, model.detail || 'full', levels, source);
        this.status = 'ready';
      },
      (e: unknown) => {
        if (abort.signal.aborted || this.of !== model) return;
        this.abort = null;
        this.status = 'failed';
        this.error = (e as Error)?.message ?? String(e);
        console.warn(`crowd LOD: the lighter levels did not load: ${this.error}`);
      },
    );
  }

  /** Cancels a load in flight and releases the levels handed to the renderer. */
  release(): void {
    this.abort?.abort();
    this.abort = null;
    if (this.status === 'ready') this.renderer?.setCrowdLevels(this.of?.gpu ?? null, '', null);
    this.of = null;
    this.renderer = null;
    this.status = 'off';
    this.error = '';
    this.details = [];
    this.timing = null;
  }

  private async load(model: CrowdLodModel, plan: LodLevelPlan[], signal: AbortSignal): Promise<LodLevelInput[]> {
    const builtin = findBuiltin(model.id);
    const scenes: Scene[] = [];
    for (const level of plan) {
      const source = urlSource(level.url, document.baseURI);
      const bytes = await source.read(() => {}, signal);
      const parsed = await parseModel(source.name, bytes, signal);
      scenes.push(builtin?.orient ? orientScene(parsed.scene, builtin.orient) : parsed.scene);
    }
    const errors = await measureLevels(model.gpu.scene, scenes, signal);
    return scenes.map((scene, k) => ({ detail: plan[k]!.detail, scene, error: errors[k]! }));
  }

  private async generate(model: CrowdLodModel, signal: AbortSignal): Promise<LodLevelInput[]> {
    // A model the simplifier cannot reduce (a few triangles, rigid parts) gets no levels: LOD stays off.
    const { levels, ms, wasmMs, totalMs, where } = await generateLevelScenes(model.gpu.scene, signal);
    if (!signal.aborted) this.timing = { ms, wasmMs, totalMs, where };
    return levels.map((l, k) => ({ detail: GENERATED[k]!, scene: l.scene, error: l.error }));
  }
}
