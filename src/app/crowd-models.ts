import { orientScene } from '../model/orient.ts';
import { withEmbeddedImages } from '../gpu/textures.ts';
import { walkClip } from '../render/crowd-mix.ts';
import type { CrowdMixModel, FrameFigures } from '../render/frame-types.ts';
import type { Scene } from '../model/types.ts';
import { ModelGpu } from '../render/model-gpu.ts';
import type { Renderer } from '../render/renderer.ts';
import { findBuiltin } from './builtins.ts';
import { CrowdLodLoader } from './crowd-lod-loader.ts';
import { resolveCrowdModel } from './crowd-models-state.ts';
import { animatedFraming } from './framing.ts';
import type { LoadedModel } from './loaded-model.ts';
import { fetchResources } from './model-resources.ts';
import { urlSource } from './model-source.ts';
import { parseModel } from './parse-client.ts';
import type { AppState } from './state.ts';

/** One model of a mixed crowd other than the loaded one (info().crowdModels). */
export interface CrowdModelEntry {
  /** The entry as `crowdModels` gives it. */
  readonly id: string;
  status: 'loading' | 'ready' | 'failed';
  error: string;
  /** Triangles of its meshes (0 until ready). */
  triangles: number;
  /** Its GPU state and clip once ready. */
  model: (CrowdMixModel & { readonly id: string; readonly origin: 'builtin' | 'url'; readonly detail: string }) | null;
  /** Its generated (or authored) distance LOD levels, loaded like the loaded model's (crowd-lod-loader.ts). */
  readonly lod: CrowdLodLoader;
}

const NONE: readonly string[] = [];

/**
 * Mixed crowds, the app's side (docs/crowds.md): in crowd mode with `crowdModels` set, loads every listed model
 * other than the loaded one in the background — fetched and parsed in the parse worker like any model
 * (model-source.ts, parse-client.ts), stood upright as the loader does, its GPU state built for the crowd only —
 * without replacing the current model or holding a frame. `mix` (RenderOptions.crowdMix) lists the ready ones
 * in the list's order, each with its walk clip; it is a new array only when one becomes ready or the set
 * changes. A bad entry or a failed load is reported through `fail` (the page's error banner) and left out:
 * the crowd draws with what loaded. When the list, the loaded model's id or the renderer (a context restore)
 * changes, loads in flight are cancelled and the models released. update() runs once per frame and allocates
 * nothing while nothing changes. Owns the entries' GPU state (dispose()).
 */
export class CrowdModels {
  entries: CrowdModelEntry[] = [];
  mix: readonly CrowdMixModel[] = [];
  private wanted: readonly string[] = NONE;
  private loadedId = '';
  private renderer: Renderer | null = null;
  private abort: AbortController | null = null;

  constructor(private readonly fail: (message: string) => void) {}

  update(model: LoadedModel, s: AppState, renderer: Renderer): void {
    const list = s.crowdModels;
    // The same entries in a new array (a `set` that repeats them) keep what is loaded.
    if (list !== this.wanted && sameEntries(list, this.wanted)) this.wanted = list;
    if (list === this.wanted && model.id === this.loadedId && renderer === this.renderer) {
      for (let k = 0; k < this.entries.length; k++) {
        const e = this.entries[k]!;
        if (e.model !== null) e.lod.update(e.model, s, renderer);
      }
      return;
    }
    // Nothing is loaded before the first crowd frame asks for it.
    if (s.crowd <= 1 && this.entries.length === 0) return;
    this.dispose();
    this.wanted = list;
    this.loadedId = model.id;
    this.renderer = renderer;
    const abort = new AbortController();
    this.abort = abort;
    const bad: string[] = [];
    for (const entry of list) {
      const target = resolveCrowdModel(entry, model.id);
      if (target.kind === 'loaded') continue;
      if (target.kind === 'bad') {
        bad.push(`crowdModels: ${entry}: ${target.why}`);
        continue;
      }
      const e: CrowdModelEntry = { id: entry, status: 'loading', error: '', triangles: 0, model: null, lod: new CrowdLodLoader() };
      this.entries.push(e);
      this.load(e, target.id, target.url, target.builtin, renderer.gl, abort.signal).then(
        () => {
          // A cancelled load released its GPU state itself, or dispose() did.
          if (abort.signal.aborted) return;
          e.status = 'ready';
          this.mix = this.entries.filter((x) => x.model !== null).map((x) => x.model!);
        },
        (err: unknown) => {
          if (abort.signal.aborted) return;
          e.status = 'failed';
          e.error = (err as Error)?.message ?? String(err);
          this.fail(`crowdModels: ${entry}: ${e.error}`);
        },
      );
    }
    if (bad.length > 0) this.fail(bad.join('\n'));
  }

  private async load(e: CrowdModelEntry, id: string, url: string, builtin: boolean, gl: WebGL2RenderingContext, signal: AbortSignal): Promise<void> {
    const source = urlSource(url, document.baseURI);
    const bytes = await source.read(() => {}, signal);
    const resources = await fetchResources(source, bytes, signal, () => {});
    const parsed = await parseModel(source.name, bytes, signal, undefined, resources);
    signal.throwIfAborted();
    const orient = builtin ? findBuiltin(id)?.orient : undefined;
    const scene = orient ? orientScene(parsed.scene, orient) : parsed.scene;
    const companions = withEmbeddedImages(scene.images, source.companions);
    const gpu = await ModelGpu.create(gl, scene, companions, animatedFraming(scene), []);
    if (signal.aborted) {
      gpu.dispose();
      return;
    }
    const clip = walkClip(scene.clips.map((c) => c.name));
    e.triangles = triangles(scene);
    e.model = { id, origin: builtin ? 'builtin' : 'url', detail: '', gpu, clip };
  }

  /**
   * info().crowdModels: the loaded model first (always ready), then each entry loaded or loading, with its
   * status, its instances in the last crowd frame `f` (0 outside a mixed crowd and until it is drawn), its
   * triangles, the status of its detail levels (`lod`: as info().lod.status; the loaded model's is info().lod's)
   * and, when it failed, why. Allocates.
   */
  facts(loaded: LoadedModel | null, f: FrameFigures): { id: string; status: string; instances: number; triangles: number; lod?: string; error?: string }[] {
    const out: { id: string; status: string; instances: number; triangles: number; lod?: string; error?: string }[] = [];
    if (loaded === null) return out;
    out.push({ id: loaded.id, status: 'ready', instances: f.crowd > 1 ? f.instancesPerModel[0]! : 1, triangles: triangles(loaded.scene) });
    for (const e of this.entries) {
      const k = e.model === null ? -1 : this.mix.indexOf(e.model) + 1;
      const instances = f.crowd > 1 && k > 0 && k < f.crowdModels ? f.instancesPerModel[k]! : 0;
      out.push(e.status === 'failed' ? { id: e.id, status: e.status, instances, triangles: e.triangles, error: e.error } : { id: e.id, status: e.status, instances, triangles: e.triangles, lod: e.lod.status });
    }
    return out;
  }

  /** Cancels loads in flight and releases every model (GPU state and LOD levels). */
  dispose(): void {
    this.abort?.abort();
    this.abort = null;
    for (const e of this.entries) {
      e.lod.release();
      e.model?.gpu.dispose();
    }
    this.entries = [];
    this.mix = [];
    this.wanted = NONE;
    this.loadedId = '';
    this.renderer = null;
  }
}

function triangles(scene: Scene): number {
  return scene.meshes.reduce((n, m) => n + m.indices.length / 3, 0);
}

function sameEntries(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
