import { AnimPlayer } from '../anim/player.ts';
import { LookAt } from '../anim/look-at.ts';
import { PaletteSet } from '../anim/palette-set.ts';
import { addFootstepKeys, footstepKeys } from './footstep-keys.ts';
import { LoadError } from '../model/errors.ts';
import type { Scene } from '../model/types.ts';
import { ModelGpu } from '../render/model-gpu.ts';
import { busiestBone, influencingBones } from '../render/view-data.ts';
import { findBuiltin } from './builtins.ts';
import type { LoadedModel, AppView } from './loaded-model.ts';
import type { ModelSource } from './model-source.ts';
import { closeBitmaps, parseModel, takeEarlyParse, type ParseResult } from './parse-client.ts';
import { prepareMaterialTextures, releasePreparedTextures, withEmbeddedImages, type PreparedTextures } from '../gpu/textures.ts';
import { fetchResources, formatBytes } from './model-resources.ts';
import { rememberCompanions } from './model-companions.ts';
import type { UpParam } from './up-axis.ts';
import { prepareScene, samePrep, type PrepInput } from './model-prep.ts';
import type { FirstFrameClock } from './first-frame.ts';
import { spareEarlyUrl, takeSpareWorker } from './parse-worker-start.ts';

/**
 * Loading and cancelling: reads a source's bytes (and a glTF's external files) with progress, parses them in the worker, prepares the
 * GPU state and hands the complete model to the host (`adopt`). Owns the load sequence (a newer load
 * supersedes an older one still in flight), the abort controller and the last parse's figures. It never
 * makes a model current itself and never touches the running model, the state or the frame loop: a
 * failed or cancelled load leaves everything as it was.
 */

/** What the loader needs of the app. */
export interface LoadHost {
  readonly gl: WebGL2RenderingContext;
  readonly view: AppView;
  /** Makes a complete model current; resolves after its first frame is drawn. */
  adopt(model: LoadedModel, clip: string): Promise<void>;
  /** Shows a load error (banner, console, readiness "error"). */
  fail(message: string): void;
  /** After a failed load: the state names the model still drawn again. */
  loadFailed(): void;
  /** A model is being drawn. */
  readonly hasModel: boolean;
  /** A context restore is in progress (it sets the readiness state itself). */
  readonly restoring: boolean;
  /** The `up` key: which of the file's axes stands up (up-axis.ts). */
  readonly up: UpParam;
  /** Time to first frame: the loader marks the start and its steps; the host marks adopt and the first frame. */
  readonly firstFrame: FirstFrameClock;
  /**
   * Starts the GPU work every model's first frame needs, whatever the model (the floor's shadow receiver, the
   * shadow map), without waiting: called as a load starts, so the GPU does it while the file is read and parsed.
   */
  prepareStage(): void;
  /** Starts compiling the programs the scene's first frame will draw with, without waiting (the GPU works meanwhile). */
  prefetchPrograms(scene: Scene): void;
  /** Finishes the GPU work the first frame would wait for (the programs asked for, the shadow map): called while the textures decode. */
  settleGpu(): void;
}

/** The last completed parse (info().parse). */
export interface ParseFigures {
  name: string;
  /** The model file's bytes and its external files' (a glTF's buffers and images). */
  bytes: number;
  /** External files read with it (0 for formats that have none). */
  resources: number;
  where: ParseResult['where'];
  parseMs: number;
  totalMs: number;
  /** The file's own images decoded by the parse worker with the parse (image-predecode.ts); the page decoded the rest. */
  images: number;
}

export class ModelLoader {
  private seq = 0;
  private abort: AbortController | null = null;
  lastParse: ParseFigures | null = null;
  /** The last model adopted, to load again (reload). */
  private last: { source: ModelSource; id: string; label: string; detail: string } | null = null;

  constructor(private readonly host: LoadHost) {}

  /**
   * Loads a model from a source and hands it to the host, starting `clip` (name or index; '' = the first).
   * On failure shows the error, sets state "error" and keeps the previous model. Resolves true when the
   * model was adopted, false when it failed or was superseded.
   */
  async load(source: ModelSource, id: string, label = source.name, clip = '', detail = ''): Promise<boolean> {
    const host = this.host;
    const view = host.view;
    const seq = ++this.seq;
    const clock = host.firstFrame;
    clock.begin(id);
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    document.documentElement.dataset.state = 'loading';
    view.error(null);
    view.progress(`Loading ${source.name}…`, 0);
    host.prepareStage();
    let gpu: ModelGpu | null = null;
    // Textures being decoded and not yet handed to ModelGpu.create (released if the load ends before).
    let decoding: Promise<PreparedTextures> | null = null;
    try {
      const tick = (size: string) => (ms: number): void => {
        if (seq === this.seq) view.progress(`Parsing ${source.name}…${size && ` (${size})`} ${(ms / 1000).toFixed(1)} s`);
      };
      // The page's first model is usually read and parsed already by the worker started ahead (early-start.ts).
      const earlyHere = source.href !== undefined && spareEarlyUrl() === source.href;
      // Read in the worker with the parse: the wait for both counts as the parse (fetchMs stays 0).
      if (earlyHere) clock.lap('fetch');
      let early = earlyHere ? await takeEarlyParse(source.href!, abort.signal, tick('')) : null;
      let parsed: ParseResult;
      let byteCount: number;
      let resourceCount: number;
      const builtin = findBuiltin(id);
      const prep: PrepInput = { up: host.up, orient: builtin?.orient };
      // Prepared by the worker for other load options than this load's (the page resolved its query otherwise): read anew.
      if (early?.parsed.facts && !samePrep(early.parsed.facts.input, prep)) {
        closeBitmaps(early.parsed);
        early = null;
      }
      if (early) {
        if (seq !== this.seq) {
          closeBitmaps(early.parsed);
          return false;
        }
        ({ parsed } = early);
        ({ bytes: byteCount, resources: resourceCount } = early.figures);
      } else {
        const bytes = await source.read((loaded, total) => {
          if (seq === this.seq) view.progress(`Loading ${source.name}… ${formatBytes(loaded)}${total ? ` of ${formatBytes(total)}` : ''}`, total ? loaded / total : undefined);
        }, abort.signal);
        if (seq !== this.seq) return false;
        // A glTF's external buffers and images, fetched beside it before the parse (the source's companion rules).
        const resources = await fetchResources(source, bytes, abort.signal, (text, share) => {
          if (seq === this.seq) view.progress(text, share);
        });
        if (seq !== this.seq) return false;
        clock.lap('fetch');
        // Parsed in a worker: the page keeps drawing; the bar is indeterminate (the parsers report no progress).
        byteCount = bytes.length;
        for (const r of resources.values()) byteCount += r.length;
        resourceCount = resources.size;
        parsed = await parseModel(source.name, bytes, abort.signal, tick(formatBytes(byteCount)), resources, prep);
      }
      if (seq !== this.seq) {
        closeBitmaps(parsed);
        return false;
      }
      clock.lap('parse');
      // Upright and framed: done by the worker after its parse, or here when it could not.
      const { scene, facts } = parsed.facts ? { scene: parsed.scene, facts: parsed.facts } : await prepareScene(parsed.scene, prep);
      const { up, framing } = facts;
      // The shader programs' compile (the GPU process), then the textures' decode (threads of the browser's own):
      // both run while this thread prepares the model.
      host.prefetchPrograms(scene);
      const companions = withEmbeddedImages(scene.images, source.companions);
      decoding = prepareMaterialTextures(host.gl, scene.materials, companions, parsed.bitmaps);
      decoding.catch(() => {}); // awaited by ModelGpu.create, which reports a failure
      const figures: ParseFigures = { name: source.name, bytes: byteCount, resources: resourceCount, where: parsed.where, parseMs: parsed.parseMs, totalMs: parsed.totalMs, images: 0 };
      this.lastParse = figures;
      void parsed.bitmaps?.then((b) => void (figures.images = b?.size ?? 0));
      const warnings = [...scene.warnings];
      const player = AnimPlayer.forScene(scene);
      view.progress(`Preparing ${source.name} for the GPU…`);
      // Images the file carries (glTF) are used before any companion file of the same name (withEmbeddedImages).
      rememberCompanions(scene, companions);
      clock.lap('prepare');
      // The programs' link read back while the textures decode: this thread's wait for the GPU process overlaps
      // the decode instead of following the upload.
      host.settleGpu();
      const decoded = decoding;
      decoding = null;
      gpu = await ModelGpu.create(host.gl, scene, companions, framing, warnings, decoded);
      clock.lap('upload');
      for (const note of source.notes) if (!warnings.includes(note)) warnings.push(note);
      if (seq !== this.seq) {
        gpu.dispose();
        return false;
      }
      const model: LoadedModel = {
        id,
        origin: builtin && source.origin === 'url' ? 'builtin' : source.origin,
        detail,
        label,
        scene,
        player,
        palettes: new PaletteSet(scene.meshes),
        gpu,
        framing,
        warnings,
        paletteBytes: scene.meshes.reduce((n, m) => n + m.bones.length * 64, 0),
        bones: influencingBones(scene.meshes),
        defaultBone: busiestBone(scene.meshes, scene.skeleton.parents.length),
        startClip: builtin?.clip && scene.clips.some((c) => c.name === builtin.clip) ? builtin.clip : scene.clips[0]?.name ?? '',
        lookAt: LookAt.find(scene.skeleton),
        up,
        afterFirstFrame: () => {
          // Not the load's failure: the model plays on without them.
          try {
            addFootstepKeys(player.controller, footstepKeys(scene));
          } catch (e) {
            console.warn(`${source.name}: no footstep keys: ${(e as Error).message}`);
          }
        },
      };
      this.last = { source, id, label, detail };
      for (const w of warnings) console.warn(`${source.name}: ${w}`);
      await host.adopt(model, clip);
      // A worker started ahead for another first model than the one the page loaded holds that parse: let it go.
      if (spareEarlyUrl() !== null) takeSpareWorker()?.worker.terminate();
      if (seq === this.seq && document.documentElement.dataset.state !== 'error') document.documentElement.dataset.state = 'ready';
      return true;
    } catch (e) {
      gpu?.dispose();
      void decoding?.then(releasePreparedTextures, () => {});
      if (seq !== this.seq) return false;
      clock.drop();
      // A load that failed before its parse leaves no worker started ahead of it idle (parse-worker-start.ts).
      takeSpareWorker()?.worker.terminate();
      view.progress(null);
      if ((e as Error).name === 'AbortError') return false;
      const text = (e as Error)?.message ?? String(e);
      const message = e instanceof LoadError || text.startsWith(`${source.name}:`) ? text : `${source.name}: ${text}`;
      host.fail(message);
      host.loadFailed();
      return false;
    }
  }

  /**
   * Loads the last adopted model again from where it came (its URL, or the same files), starting `clip`: after
   * a change that acts at load time (`up`). False when there is none or its source cannot be read again.
   */
  reload(clip: string): Promise<boolean> {
    const last = this.last;
    const again = last?.source.again?.();
    if (!last || !again) return Promise.resolve(false);
    return this.load(again, last.id, last.label, clip, last.detail);
  }

  /** Stops the load in flight (its worker is terminated); the model drawn stays. */
  cancel(): void {
    this.abort?.abort();
    this.seq++;
    this.host.firstFrame.drop();
    this.host.view.progress(null);
    // During a context restore the state goes back to ready when the restored frame is drawn.
    if (this.host.hasModel && !this.host.restoring) document.documentElement.dataset.state = 'ready';
  }
}
