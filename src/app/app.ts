import { afterPaint } from './after-paint.ts';
import { OrbitCamera } from '../render/camera.ts';
import { Renderer } from '../render/renderer.ts';
import { findTechnique, TECHNIQUES, type Technique } from '../techniques/index.ts';
import { benchSplit, frameProbe } from './bench-hooks.ts';
import { BonePicker } from './bone-pick.ts';
import type { FrameProbe } from './bench/window.ts';
import { cameraSetting } from './camera-placement.ts';
import { checkCompare } from './compare-state.ts';
import type { AppContext } from './context.ts';
import { ContextLoss } from './context-loss.ts';
import { boneNames, currentPaletteRange, Facts, unsupportedReason, type OverlayFacts } from './facts.ts';
import { FrameDrawer } from './frame.ts';
import { FrameLoop } from './frame-loop.ts';
import { FirstFrameClock } from './first-frame.ts';
import type { Stats } from './frame-stats.ts';
import { Checks } from './checks.ts';
import { DeformGate } from './deform-gate.ts';
import { exportGlb, type GlbExport } from './export-glb.ts';
import { ModelLoader, type ParseFigures } from './loader.ts';
import type { AppView, LoadedModel } from './loaded-model.ts';
import { urlSource, type ModelSource } from './model-source.ts';
import { applyClip, applyMorphState, checkTechnique, modelRequest, resolveBone } from './model-state.ts';
import { applyParams, defaultState, type AppState } from './state.ts';
import { applyTracks } from './tracks-state.ts';
import { AnimationEdits } from './animation-edits.ts';

export type { AppView, LoadedModel } from './loaded-model.ts';
export type { Stats } from './frame-stats.ts';
export type { OverlayFacts } from './facts.ts';
export type { MorphCheck, SkinCheck } from './gpu-checks.ts';

/**
 * The composition root of the running page's logic: it owns the state, the camera, the renderer and the
 * current model, and composes the jobs that act on them — loading (loader.ts), the frame loop
 * (frame-loop.ts) and the frame (frame.ts, with its figures in frame-stats.ts), state ↔ model
 * reconciliation (model-state.ts), facts (facts.ts), GPU checks (gpu-checks.ts), context loss
 * (context-loss.ts) and bench hooks (bench-hooks.ts). It reads like a table of contents: each method
 * delegates. Loads never replace the running model until the new one is complete; a failed load leaves
 * it running. The UI (src/ui) calls these methods and edits `state`; it never touches GL.
 */
export class App implements AppContext {
  readonly state: AppState = defaultState();
  readonly camera = new OrbitCamera();
  /** The measuring hooks of `window.skinlab` (checks.ts). */
  readonly checks: Checks = new Checks(this);
  /** Holds `cor` and `ddm` back until their load-time data exists (deform-gate.ts). */
  readonly deform: DeformGate;
  /** Hover and click picking of the model's bones (bone-pick.ts). */
  readonly picker: BonePicker = new BonePicker(this);
  /** Context-wide GL resources; replaced by a new one after a context loss. */
  renderer: Renderer;
  current: LoadedModel | null = null;
  /** Edits of what plays: clips, tracks, callback keys, hand-set morph weights (animation-edits.ts). */
  readonly anim: AnimationEdits = new AnimationEdits(this);
  /** When set, the drawing buffer has exactly this size in pixels whatever the canvas's CSS size (recorders). */
  fixedSize: { width: number; height: number } | null = null;
  /** Time to first frame of the last model loaded (first-frame.ts; stats().firstFrame). */
  readonly firstFrame: FirstFrameClock;

  private readonly loop: FrameLoop;
  private readonly frame: FrameDrawer;
  private readonly loader: ModelLoader;
  private readonly facts: Facts;
  private readonly loss: ContextLoss;

  constructor(
    readonly canvas: HTMLCanvasElement,
    readonly gl: WebGL2RenderingContext,
    readonly view: AppView,
  ) {
    const app = this;
    this.renderer = new Renderer(gl);
    this.firstFrame = new FirstFrameClock(() => this.renderer.programs.compileMs);
    this.deform = new DeformGate(view, (m) => this.fail(m));
    this.frame = new FrameDrawer(this);
    this.loop = new FrameLoop({
      canvas,
      gl,
      get fixedSize() {
        return app.fixedSize;
      },
      canDraw: () => !this.current?.gpu.isDisposed,
      draw: (dt, now) => {
        // A load's first frame is finished before it is timed (first-frame.ts); no other frame waits for the GPU.
        const first = this.firstFrame;
        const measured = first.measuring && this.current !== null;
        if (measured) first.frameStart();
        if (this.current) this.frame.draw(this.current, dt, now);
        else this.renderer.clear();
        if (measured) {
          gl.finish();
          first.frameEnd();
        }
      },
      resized: () => {
        if (this.state.camera === null) this.frame.cameraDirty = true;
      },
    });
    this.loader = new ModelLoader({
      gl,
      view,
      adopt: (model, clip) => this.adopt(model, clip),
      fail: (message) => this.fail(message),
      loadFailed: () => {
        if (this.current) this.state.model = this.current.id;
        this.view.stateChanged();
      },
      get hasModel() {
        return app.current !== null;
      },
      get restoring() {
        return app.loss.restoring;
      },
      get up() { return app.state.up; },
      firstFrame: this.firstFrame,
      prepareStage: () => app.renderer.prepareStage(app.state.shadows),
      prefetchPrograms: (scene) => {
        const s = app.state;
        app.renderer.prefetch(scene, findTechnique(s.technique) ?? TECHNIQUES[0]!, s.influences, s.palette, s.morphs, s.shadows, s.shading);
      },
      settleGpu: () => app.renderer.settle(app.state.shadows),
    });
    this.facts = new Facts(this, () => this.loader.lastParse, () => this.frame.figures.drawCalls, () => this.frame.lod, () => this.frame.mixed.facts(this.current, this.frame.figures));
    this.loss = new ContextLoss(this, () => this.nextFrame());
  }

  /** Replaceable clock in milliseconds (tests and recorders freeze it). */
  get clock(): () => number {
    return this.loop.clock;
  }
  set clock(c: () => number) {
    this.loop.clock = c;
  }

  /** While true the render loop draws only the frames `set()` and `nextFrame()` wait for (the in-page benchmark). */
  get loopOnDemand(): boolean {
    return this.loop.onDemand;
  }
  set loopOnDemand(v: boolean) {
    this.loop.onDemand = v;
  }

  /** Render-loop frames since the page started. */
  get framesDrawn(): number {
    return this.loop.framesDrawn;
  }

  /** The last completed parse: where it ran, its size and times (info().parse). */
  get lastParse(): ParseFigures | null {
    return this.loader.lastParse;
  }

  /** Applies parameters (URL or `window.skinlab.set`) and resolves after a frame with them is drawn. */
  async set(params: Record<string, string | number | boolean | null | undefined>): Promise<void> {
    const state = this.state;
    const before = { up: state.up, clip: state.clip, camera: state.camera, crowd: state.crowd, crowdLayout: state.crowdLayout };
    const errors = applyParams(state, params);
    const askedBone = state.bone; // a load resolves state.bone against the new model silently (adopt)
    // A clip asked for alone leaves tracks mode: that clip plays on one track. Tracks name a model's clips
    // and bones, so another model starts without them unless the same call gives them.
    if (params.tracks === undefined && (params.clip !== undefined || (params.model !== undefined && state.model !== this.current?.id))) state.tracks = '';
    const askedPalette = params.palette !== undefined ? state.palette : null;
    if (!findTechnique(state.technique)) {
      errors.push(`technique=${state.technique}: not available in this build (available: ${TECHNIQUES.map((t) => t.id).join(', ')})`);
      state.technique = TECHNIQUES[0]!.id;
    }
    if (state.camera !== before.camera) this.frame.cameraDirty = true;
    // A new crowd size or layout re-frames the camera unless the user placed it (state.camera set).
    if ((state.crowd !== before.crowd || state.crowdLayout !== before.crowdLayout) && state.camera === null) this.frame.cameraDirty = true;
    let loaded = true;
    const request = modelRequest(state, params, this.current);
    errors.push(...request.errors);
    if (request.load) {
      const { url, clip, level, label } = request.load;
      loaded = await this.load(urlSource(url, document.baseURI), state.model, label, clip, level);
    } else if (this.current && state.up !== before.up) {
      loaded = await this.loader.reload(state.clip); // the up axis acts at load (up-axis.ts)
    } else if (this.current && params.tracks !== undefined) {
      if (state.tracks === '') applyClip(state, this.current, 0, (m) => this.fail(m));
      else errors.push(...applyTracks(state, this.current));
    } else if (this.current && (state.clip !== before.clip || params.t !== undefined)) {
      if (state.tracks !== '' && params.clip === undefined) {
        if (state.t !== null) this.current.player.setTime(state.t);
      }
      else applyClip(state, this.current, params.t === undefined && !state.paused ? state.crossfade : 0, (m) => this.fail(m));
    }
    const m = this.current;
    if (m) errors.push(...checkTechnique(state, this.renderer.caps, m, askedPalette));
    errors.push(...this.checkCompare());
    if (m && (params.bone !== undefined || params.model !== undefined)) {
      if (params.bone !== undefined) state.bone = askedBone;
      const { node, why } = resolveBone(state, m, params.bone !== undefined);
      this.frame.boneNode = node;
      if (params.bone !== undefined) this.frame.selectedBone = why || askedBone === '' ? null : state.bone;
      if (why) errors.push(why);
    }
    if (m && (params.morph !== undefined || params.morphTrack !== undefined || params.model !== undefined)) {
      const unknown = applyMorphState(state, m);
      if (unknown.length > 0) {
        for (const name of unknown) delete state.morph[name];
        const names = m.scene.morphTargets;
        if (params.morph !== undefined) errors.push(names.length === 0 ? `morph=${String(params.morph)}: this model has no morph targets` : `morph=${unknown.join(',')}: no such morph target (targets: ${names.join(', ')})`);
      }
    }
    // Reported after any load, which clears the banner when it starts.
    if (errors.length > 0 && loaded) this.fail(errors.join('\n'));
    this.view.stateChanged();
    await this.deform.whenShown(this.current, this.state);
    await this.nextFrame();
  }


  /** Loads a model from a source and makes it current (loader.ts); false when it failed or was superseded. */
  load(source: ModelSource, id: string, label = source.name, clip = '', detail = ''): Promise<boolean> {
    return this.loader.load(source, id, label, clip, detail);
  }

  /** Makes a completely loaded model current: state resolved against it, its programs warmed, the previous model released. */
  private async adopt(model: LoadedModel, clip: string): Promise<void> {
    const state = this.state;
    const previous = this.current;
    this.current = model;
    this.frame.boneNode = resolveBone(state, model, false).node;
    const techniqueErrors = [...checkTechnique(state, this.renderer.caps, model, null), ...this.checkCompare()];
    if (techniqueErrors.length > 0) this.fail(techniqueErrors.join('\n'));
    const technique = findTechnique(state.technique) ?? TECHNIQUES[0]!;
    this.renderer.shadows = state.shadows;
    this.renderer.shading = state.shading;
    // A technique whose data is not there yet is built when the data is (the frame draws the last one until then).
    if (previous?.id !== model.id || previous.detail !== model.detail) this.deform.cancel();
    if (this.deform.ready(model, technique.id)) this.renderer.warm(model.gpu, technique, state.influences, state.palette, state.morphs);
    previous?.gpu.dispose();
    state.model = model.id;
    state.clip = clip;
    this.frame.stats.modelChanged(model);
    applyClip(state, model, 0, (m) => this.fail(m));
    const trackErrors = applyTracks(state, model);
    if (trackErrors.length > 0) this.fail(trackErrors.join('\n'));
    applyMorphState(state, model);
    this.frame.cameraDirty = true;
    this.view.progress(null);
    this.view.modelChanged(model);
    this.firstFrame.lap('prepare');
    this.firstFrame.adopted();
    this.loop.ensureRunning();
    await this.deform.whenShown(this.current, this.state);
    // Its first frame drawn at once (frame-loop.ts drawNow), unless nothing can be drawn yet.
    if (this.current !== model || !this.loop.drawNow()) await this.nextFrame();
    // The load's work the first frame did not need, once that frame is on screen; the panel is filled in after it.
    const later = afterPaint().then(model.afterFirstFrame);
    await this.view.modelShown?.();
    await later;
  }

  /** Progress's Cancel: stops a load, or a precompute (the technique on screen stays, compare ends). */
  cancelLoad(): void {
    this.loader.cancel();
    if (this.deform.cancel()) {
      this.state.technique = this.frame.drawnTechnique;
      this.state.compare = null;
      this.view.stateChanged();
    }
  }

  /** Shows an error (banner + console.error) and sets the readiness state to "error"; the current model keeps running. */
  fail(message: string): void {
    console.error(message);
    this.view.error(message);
    document.documentElement.dataset.state = 'error';
  }

  /** The model's bones by name (the `bone` key's names, in index order). */
  boneNames(): string[] {
    return boneNames(this.current);
  }

  /** compare-state.ts checkCompare against this build and the current model (fixes the state; returns the messages). */
  private readonly checkCompare = (): string[] => checkCompare(this.state, (id) => findTechnique(id) !== undefined, (id) => this.unsupportedReason(findTechnique(id)!));

  /** Why `technique` cannot draw the current model with the current options, or null. */
  unsupportedReason(technique: Technique): string | null {
    return unsupportedReason(this, technique);
  }

  /** Smallest workable and largest device palette for ff-indexed on the current model at the current influences. */
  paletteRange(): { min: number; max: number } | null {
    return currentPaletteRange(this);
  }

  /**
   * Look-at follows the pointer while its key is held (ui/input.ts): held, and the pointer in normalised
   * device coordinates. Released, the head goes back to the camera (or straight ahead with look-at off).
   */
  lookAtPointer(held: boolean, x: number, y: number): void {
    const p = this.frame.lookPointer;
    p[0] = held ? 1 : 0;
    p[1] = x;
    p[2] = y;
  }

  /** Export .glb: the model drawn, as loaded, written as one binary glTF (export-glb.ts); nothing is downloaded here. */
  exportGlb(): Promise<GlbExport> {
    const m = this.current;
    if (!m) return Promise.reject(new Error('no model is loaded'));
    return exportGlb(m);
  }

  /** Re-frames the camera on the model (double-click, double tap, F key). */
  frameModel(): void {
    this.state.camera = null;
    this.frame.cameraDirty = true;
  }

  /**
   * After the user moved the camera (orbit, pan, zoom): records the view in the state, rounded to what a
   * link carries, and re-places the camera from it so what is drawn is exactly what a link reproduces.
   */
  keepCamera(): void {
    if (!this.current) return;
    this.state.camera = cameraSetting(this.camera, this.current.framing);
    this.frame.cameraDirty = true;
  }

  nextFrame(): Promise<void> {
    return this.loop.nextFrame();
  }

  /** `webglcontextlost` (after preventDefault): see context-loss.ts. */
  contextLost(): void {
    this.loss.lost();
  }

  /** `webglcontextrestored`: resolves after the restored frame is drawn. */
  contextRestored(): Promise<void> {
    return this.loss.restored();
  }

  /** The stats box's model facts (one reused object), or null without a model. */
  overlayFacts(): OverlayFacts | null {
    return this.facts.overlay();
  }

  /** `info()` (docs/api.md#info). */
  info(): Record<string, unknown> {
    return { ...this.facts.info(), ...this.picker.facts(this.frame.selectedBone) };
  }

  /** `stats()` (docs/api.md#stats): figures over the last second, and the last one-time work; compare's right half with `half` 1. */
  stats(half = 0): Stats {
    const out = (half === 1 ? this.frame.compare.statsB : this.frame.stats).snapshot(this.current);
    const first = this.firstFrame.last;
    out.firstFrame = first ? { ...first } : null;
    out.firstFrameMs = first ? first.totalMs : null;
    return out;
  }

  /** Benchmark hook: median ms of `frames` frames drawn back to back and finished. */
  benchFrames(frames = 30): number {
    return this.benchSplit(frames).frameMs;
  }

  /** benchFrames with the time until the frame's commands are issued split out (bench-hooks.ts). */
  benchSplit(frames = 30): { frameMs: number; submitMs: number } {
    const m = this.current;
    if (!m) throw new Error('benchFrames: no model loaded');
    return benchSplit(this.gl, (dt, now) => this.frame.draw(m, dt, now), frames);
  }

  /**
   * The in-page benchmark's view of a frame (app/bench/window.ts): draws the current model through the frame
   * drawer (stats recorded as in the render loop) and reads that frame's CPU figures. Throws without a model.
   */
  benchProbe(): FrameProbe {
    const m = this.current;
    if (!m) throw new Error('bench: no model loaded');
    return frameProbe(this.frame, m);
  }
}
