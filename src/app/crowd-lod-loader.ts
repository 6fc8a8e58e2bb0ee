import { orientScene } from '../model/orient.ts';
import type { Scene } from '../model/types.ts';
import { LOD_PIXELS } from '../render/crowd-lod.ts';
import type { Renderer } from '../render/renderer.ts';
import { findBuiltin } from './builtins.ts';
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
 * The lighter levels a crowd of `model` draws far away, nearest first, and the chosen level's index among
 * the built-in's levels (lightest first): [] for a model without levels, at its lightest level, or not a
 * built-in. A chosen level k hands over to the levels below it that crowd-lod.ts has a switch for.
 */
export function lighterLevels(model: Pick<LoadedModel, 'id' | 'origin' | 'detail'>): { chosen: number; levels: LodLevelPlan[] } {
  const builtin = findBuiltin(model.id);
  if (model.origin !== 'builtin' || !builtin?.details) return { chosen: 0, levels: [] };
  const names = Object.keys(builtin.details);
  const chosen = names.indexOf(model.detail || builtin.defaultDetail || '');
  const levels: LodLevelPlan[] = [];
  for (let k = Math.min(chosen, LOD_PIXELS.length) - 1; k >= 0; k--) levels.push({ detail: names[k]!, url: builtin.details[names[k]!]! });
  return { chosen: Math.max(0, chosen), levels };
}

/**
 * Crowd mode's distance LOD, the app's side: when a crowd of a model with detail levels is drawn with `lod`
 * on, loads the lighter levels in the background — fetched and parsed in the parse worker like any model
 * (model-source.ts, parse-client.ts), one after the other, never replacing the current model nor holding
 * a frame — and hands their scenes to the renderer (Renderer.setCrowdLevels), which uploads them for the
 * crowd only. Until then every instance draws the chosen level. When the model changes, crowd mode ends,
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
  private of: LoadedModel | null = null;
  private renderer: Renderer | null = null;
  private abort: AbortController | null = null;

  update(model: LoadedModel, s: AppState, renderer: Renderer): void {
    const wanted = s.lod && s.crowd > 1 && !s.wander;
    if (wanted && this.of === model && this.renderer === renderer) return;
    if (!wanted) {
      if (this.of !== null) this.release();
      return;
    }
    this.release();
    this.of = model;
    this.renderer = renderer;
    const plan = lighterLevels(model);
    if (plan.levels.length === 0) return;
    this.details = plan.levels.map((l) => l.detail);
    this.status = 'loading';
    const abort = new AbortController();
    this.abort = abort;
    this.load(model, plan.levels, abort.signal).then(
      (levels) => {
        if (abort.signal.aborted || this.of !== model) return;
        this.abort = null;
        renderer.setCrowdLevels(model.gpu, plan.chosen, model.detail, levels);
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
    if (this.status === 'ready') this.renderer?.setCrowdLevels(null, 0, '', null);
    this.of = null;
    this.renderer = null;
    this.status = 'off';
    this.error = '';
    this.details = [];
  }

  private async load(model: LoadedModel, plan: LodLevelPlan[], signal: AbortSignal): Promise<{ detail: string; scene: Scene }[]> {
    const builtin = findBuiltin(model.id);
    const out: { detail: string; scene: Scene }[] = [];
    for (const level of plan) {
      const source = urlSource(level.url, document.baseURI);
      const bytes = await source.read(() => {}, signal);
      const parsed = await parseModel(source.name, bytes, signal);
      out.push({ detail: level.detail, scene: builtin?.orient ? orientScene(parsed.scene, builtin.orient) : parsed.scene });
    }
    return out;
  }
}
