import { mat4, vec3 } from 'gl-matrix';
import { AnimPlayer } from '../anim/player.ts';
import { LoadError } from '../model/errors.ts';
import type { Scene } from '../model/types.ts';
import { OrbitCamera } from '../render/camera.ts';
import { ModelGpu } from '../render/model-gpu.ts';
import { buildDualQuatPalette, DUAL_QUAT_STRIDE, skinMeshDualQuat } from '../anim/dual-quat.ts';
import { skinMesh } from '../anim/software-skin.ts';
import { referenceSkinPositions } from '../anim/reference-skin.ts';
import { busiestBone, influencingBones } from '../render/view-data.ts';
import { VIEW_IDS } from '../render/views.ts';
import { emptyFigures, Renderer, type FrameFigures, type RenderOptions } from '../render/renderer.ts';
import { clampPalette, findTechnique, paletteRange, TECHNIQUES, type Technique } from '../techniques/index.ts';
import { findBuiltin } from './builtins.ts';
import { animatedFraming, type Framing } from './framing.ts';
import { urlSource, type ModelSource } from './model-source.ts';
import { parseModel, type ParseResult } from './parse-client.ts';
import { applyParams, defaultState, formatMorph, type AppState } from './state.ts';
import { applyMorphs, effectiveWeights, MORPH_PATHS, MORPH_SLOTS, type MorphPath } from '../anim/morph.ts';
import type { SkinnedMesh } from '../model/types.ts';
import { crowdHalfExtent, crowdSpacing } from '../render/crowd-layout.ts';

/** A model that loaded completely and is being drawn. */
export interface LoadedModel {
  /** The `model` value that loaded it (built-in id, URL, or file name). */
  readonly id: string;
  /** The detail level it was loaded at ('' for a model without levels). */
  readonly detail: string;
  readonly label: string;
  readonly scene: Scene;
  readonly player: AnimPlayer;
  readonly gpu: ModelGpu;
  readonly framing: Framing;
  readonly warnings: readonly string[];
  /** Palette bytes per frame (all meshes). */
  readonly paletteBytes: number;
  /** Skeleton nodes that skin a vertex, in skeleton order: what the `bone` key indexes. */
  readonly bones: readonly number[];
  /** The weights view's default bone (the node weighting the most vertices), or -1. */
  readonly defaultBone: number;
}

/** What the app tells the page chrome (GUI, overlays); implemented in src/ui. */
export interface AppView {
  progress(message: string | null, fraction?: number): void;
  error(message: string | null): void;
  modelChanged(model: LoadedModel): void;
  stateChanged(): void;
}

/**
 * Figures averaged over the last second (CONTRACT section 2, `stats()`), plus the live cost panel of the
 * current technique: its draws, bone groups, duplicated vertices, vertex bytes, CPU skinning time.
 */
export interface Stats {
  fps: number;
  cpuAnimUs: number;
  paletteBytes: number;
  uploadBytes: number;
  drawCalls: number;
  technique: string;
  /** Draws of the skinned meshes (drawCalls less floor and overlays). */
  meshDrawCalls: number;
  groups: number;
  duplicatedVertices: number;
  vertexBytes: number;
  /** Triangles the technique draws with reduced influences (more bones than a group holds). */
  approximatedTriangles: number;
  /** CPU time of the technique's per-frame work (palette, CPU skinning, uploads), µs. */
  cpuSkinUs: number;
  /** A limit of the technique the current pose runs into (dual-quat and scale), or null. */
  warning: string | null;
  /** Diff view: pixels that differ from the software reference (last count) and their share of the canvas; -1 in other views. */
  diffPixels: number;
  diffShare: number;
  /** The view drawn, and the weights view's bone name (for the legend). */
  view: string;
  bone: string;
  /** How morph targets are applied (state `morphs`), or null for a model without targets. */
  morphPath: string | null;
  /** Slots path: the targets bound to Dawn's 5 attribute slots this frame (ascending target index); [] on other paths. */
  morphSlots: string[];
  /** Their weights, in the same order. */
  morphSlotWeights: number[];
  /** Slots path: Σ|w| of the non-zero targets that got no slot this frame (0 on other paths). */
  morphDropped: number;
  /** Instances drawn (1 outside crowd mode); `technique` then reads e.g. "crowd 100 (instanced, texture palette)". */
  crowd: number;
}

/** morphCheck(): a morph path's GPU morphed+skinned positions (transform feedback) against the CPU. */
export interface MorphCheck {
  path: string;
  technique: string;
  vertices: number;
  /** Diameter of the model's framing sphere (model units). */
  modelSize: number;
  /** Largest |gpu − cpu| against the CPU reference with every weight applied (the `cpu` path). */
  maxError: number;
  /** Largest |gpu − cpu| against the CPU applying this path's own weights (for `slots`: the 5 bound ones). */
  maxErrorPath: number;
  /** Σ|w| the path dropped (slots beyond 5), and the slot targets. */
  dropped: number;
  slots: string[];
  /** Largest |morphed − neutral| position over the reference (how much the morph moves anything). */
  maxMorphOffset: number;
}

/** skinCheck(): the technique's GPU-skinned positions (transform feedback) against the CPU reference. */
export interface SkinCheck {
  technique: string;
  /** The CPU reference used: `software` (linear blend), `dual-quat`, or `gl-matrix` (anim/reference-skin.ts, asked for). */
  reference: string;
  vertices: number;
  /** Diameter of the model's framing sphere (model units). */
  modelSize: number;
  /** Largest |gpu − cpu| over vertices the technique draws exactly. */
  maxError: number;
  /** Vertices the technique deliberately approximates (ff-nonindexed's reduced triangles) and their largest error. */
  approximatedVertices: number;
  maxErrorApproximated: number;
}

/**
 * The frame loop and everything it owns: state, renderer, camera, the loaded model. Loads never
 * replace the running model until the new one is complete; a failed load leaves it running.
 */
/** What the stats box shows about the model (App.overlayFacts). */
export interface OverlayFacts {
  bones: number;
  vertices: number;
  triangles: number;
  technique: string;
  clip: string | null;
  t: number;
}

export class App {
  readonly state: AppState = defaultState();
  readonly camera = new OrbitCamera();
  /** Context-wide GL resources; replaced by a new one after a context loss (contextRestored). */
  renderer: Renderer;
  current: LoadedModel | null = null;
  /** Replaceable clock in milliseconds (tests and recorders freeze it). */
  clock: () => number = () => performance.now();
  /** When set, the drawing buffer has exactly this size in pixels whatever the canvas's CSS size (recorders). */
  fixedSize: { width: number; height: number } | null = null;

  private loadSeq = 0;
  private loadAbort: AbortController | null = null;
  /** The last completed parse: where it ran, its size and times (info().parse). */
  lastParse: { name: string; bytes: number; where: ParseResult['where']; parseMs: number; totalMs: number } | null = null;
  private lastFrame = -1;
  private readonly figures: FrameFigures = emptyFigures();
  /** Filled from the state each frame (no per-frame object). */
  private readonly renderOptions: RenderOptions = {
    technique: TECHNIQUES[0]!,
    influences: 4,
    palette: 12,
    view: 'shaded',
    skeleton: false,
    grid: true,
    bindPose: false,
    bone: -1,
    morphs: 'slots',
    crowd: 1,
    crowdSpacing: 1,
    crowdFloor: mat4.create(),
  };
  /** The crowd size and model the crowd's floor and framing were last computed for. */
  private crowdFramed = { count: 1, model: null as LoadedModel | null };
  private readonly crowdExtent = [0, 0];
  /** "crowd N (instanced, texture palette)", rebuilt when N changes (no per-frame string). */
  private crowdLabel = '';
  /** state.bone resolved against the current model: a skeleton node, or -1. */
  private boneNode = -1;
  private readonly frameWaiters: (() => void)[] = [];
  private readonly statsWindow = { start: 0, frames: 0, cpuUs: 0, upload: 0, skinUs: 0 };
  private readonly lastStats: Stats = {
    fps: 0,
    cpuAnimUs: 0,
    paletteBytes: 0,
    uploadBytes: 0,
    drawCalls: 0,
    technique: '',
    meshDrawCalls: 0,
    groups: 0,
    duplicatedVertices: 0,
    vertexBytes: 0,
    approximatedTriangles: 0,
    cpuSkinUs: 0,
    warning: null,
    diffPixels: -1,
    diffShare: -1,
    view: 'shaded',
    bone: '',
    morphPath: null,
    morphSlots: [],
    morphSlotWeights: [],
    morphDropped: 0,
    crowd: 1,
  };
  private cameraDirty = true;
  private running = false;
  /** Context loss: losses seen (a restore in progress checks it is still the latest), and the readiness state at the loss. */
  private contextLosses = 0;
  private stateAtLoss = 'ready';
  /** From a loss until the restore has drawn its frame (a second loss meanwhile keeps the first one's stateAtLoss). */
  private restoring = false;
  /** Render-loop frames since the page started (benchmarks count frames in a window with it). */
  framesDrawn = 0;
  private readonly facts: OverlayFacts = { bones: 0, vertices: 0, triangles: 0, technique: '', clip: null, t: 0 };
  private factsModel: LoadedModel | null = null;

  constructor(
    readonly canvas: HTMLCanvasElement,
    readonly gl: WebGL2RenderingContext,
    private readonly view: AppView,
  ) {
    this.renderer = new Renderer(gl);
  }

  /** Applies parameters (URL or `window.skinlab.set`) and resolves after a frame with them is drawn. */
  async set(params: Record<string, string | number | boolean | null | undefined>): Promise<void> {
    const before = { clip: this.state.clip, camera: this.state.camera, crowd: this.state.crowd };
    const errors = applyParams(this.state, params);
    const askedPalette = params.palette !== undefined ? this.state.palette : null;
    const technique = findTechnique(this.state.technique);
    if (!technique) {
      errors.push(`technique=${this.state.technique}: not available in this build (available: ${TECHNIQUES.map((t) => t.id).join(', ')})`);
      this.state.technique = TECHNIQUES[0]!.id;
    }
    if (this.state.camera !== before.camera) this.cameraDirty = true;
    // A new crowd size re-frames the camera unless the user placed it (state.camera set).
    if (this.state.crowd !== before.crowd && this.state.camera === null) this.cameraDirty = true;
    let loaded = true;
    const builtin = findBuiltin(this.state.model);
    let level = '';
    if (builtin?.details) {
      level = this.state.detail || builtin.defaultDetail || Object.keys(builtin.details)[0]!;
      if (!(level in builtin.details)) {
        errors.push(`detail=${this.state.detail}: ${builtin.id} has the levels ${Object.keys(builtin.details).join(', ')}`);
        level = this.current?.id === builtin.id ? this.current.detail : builtin.defaultDetail ?? Object.keys(builtin.details)[0]!;
        this.state.detail = level;
      }
    } else if (params.detail !== undefined && this.state.detail !== '') {
      errors.push(`detail=${this.state.detail}: ${builtin ? builtin.id : 'this model'} has no detail levels`);
    }
    const newModel = params.model !== undefined && (this.state.model !== this.current?.id || !this.current);
    const newDetail = builtin?.details !== undefined && this.current?.id === builtin.id && level !== this.current.detail;
    if (newModel || newDetail) {
      // A new model starts neutral unless the same call names its weights; a new level of the same model keeps them.
      if (newModel && params.morph === undefined) this.state.morph = {};
      const url = builtin ? (builtin.details?.[level] ?? builtin.url) : this.state.model;
      const clip = params.clip !== undefined || newDetail ? this.state.clip : builtin?.clip ?? '';
      loaded = await this.load(urlSource(url, document.baseURI), this.state.model, builtin?.label, clip, level);
    } else if (this.current && (this.state.clip !== before.clip || params.t !== undefined)) {
      this.applyClip(this.current, params.t === undefined && !this.state.paused ? this.state.crossfade : 0);
    }
    if (this.current) errors.push(...this.checkTechnique(this.current, askedPalette));
    if (this.current && (params.bone !== undefined || params.model !== undefined)) {
      const why = this.resolveBone(this.current, params.bone !== undefined);
      if (why) errors.push(why);
    }
    if (this.current && (params.morph !== undefined || params.morphTrack !== undefined || params.model !== undefined)) {
      const unknown = this.applyMorphState(this.current);
      if (unknown.length > 0) {
        for (const name of unknown) delete this.state.morph[name];
        if (params.morph !== undefined) {
          const names = this.current.scene.morphTargets;
          errors.push(
            names.length === 0
              ? `morph=${String(params.morph)}: this model has no morph targets`
              : `morph=${unknown.join(',')}: no such morph target (targets: ${names.join(', ')})`,
          );
        }
      }
    }
    // Reported after any load, which clears the banner when it starts.
    if (errors.length > 0 && loaded) this.fail(errors.join('\n'));
    this.view.stateChanged();
    await this.nextFrame();
  }

  /**
   * Resolves state.bone (name, or index into model.bones; '' = the default bone) into the node the weights
   * view shows, and writes the bone's name back. An unknown bone falls back to the default; returns the
   * message when `explicit` (the user named it), else null.
   */
  private resolveBone(model: LoadedModel, explicit: boolean): string | null {
    const names = model.scene.skeleton.names;
    const want = this.state.bone;
    let node = -1;
    if (want !== '') {
      node = model.bones.find((b) => names[b] === want) ?? -1;
      if (node < 0 && /^\d+$/.test(want) && Number(want) < model.bones.length) node = model.bones[Number(want)]!;
    }
    let why: string | null = null;
    if (node < 0) {
      if (want !== '' && explicit) {
        const list = model.bones.map((b) => names[b]);
        why = `bone=${want}: no such bone (a name or 0..${model.bones.length - 1}; bones: ${list.slice(0, 12).join(', ')}${list.length > 12 ? ', …' : ''})`;
      }
      node = model.defaultBone;
    }
    this.boneNode = node;
    this.state.bone = node >= 0 ? names[node] ?? String(node) : '';
    return why;
  }

  /** The model's bones by name (the `bone` key's names, in index order). */
  boneNames(): string[] {
    const m = this.current;
    return m ? m.bones.map((b) => m.scene.skeleton.names[b] ?? String(b)) : [];
  }

  /** Options the technique state depends on, from AppState. */
  private techniqueOptions(): { influences: number; palette: number } {
    return { influences: this.state.influences, palette: this.state.palette };
  }

  /** Why `technique` cannot draw the current model with the current options, or null. */
  unsupportedReason(technique: Technique): string | null {
    const m = this.current;
    return m ? technique.unsupportedReason(m.scene, this.renderer.caps, this.techniqueOptions()) : null;
  }

  /** Smallest workable and largest device palette for ff-indexed on the current model at the current influences. */
  paletteRange(): { min: number; max: number } | null {
    const m = this.current;
    return m ? paletteRange(m.scene, this.renderer.caps, this.state.influences) : null;
  }

  /**
   * Checks the state's technique and palette against a model: a technique the model cannot use falls back
   * to `software` (with the reason); a palette outside the workable range is clamped (with a message when
   * the user asked for it). Returns the messages.
   */
  private checkTechnique(model: LoadedModel, askedPalette: number | null): string[] {
    const errors: string[] = [];
    const technique = findTechnique(this.state.technique);
    const why = technique ? technique.unsupportedReason(model.scene, this.renderer.caps, this.techniqueOptions()) : null;
    if (why) {
      errors.push(`technique=${this.state.technique}: ${why}; drawing with software`);
      this.state.technique = 'software';
    }
    const range = paletteRange(model.scene, this.renderer.caps, this.state.influences);
    const clamped = clampPalette(model.scene, this.renderer.caps, this.state.influences, this.state.palette);
    if (askedPalette !== null && clamped !== askedPalette) {
      errors.push(`palette=${askedPalette}: ff-indexed needs ${range.min} to ${range.max} matrices for this model on this device; using ${clamped}`);
    }
    this.state.palette = clamped;
    return errors;
  }

  /**
   * Loads a model from a source and makes it current, starting `clip` (name or index; '' = the first).
   * On failure shows the error, sets state "error" and keeps the previous model. A newer load
   * supersedes an older one still in flight.
   */
  async load(source: ModelSource, id: string, label = source.name, clip = '', detail = ''): Promise<boolean> {
    const seq = ++this.loadSeq;
    this.loadAbort?.abort();
    const abort = new AbortController();
    this.loadAbort = abort;
    document.documentElement.dataset.state = 'loading';
    this.view.error(null);
    this.view.progress(`Loading ${source.name}…`, 0);
    let gpu: ModelGpu | null = null;
    try {
      const bytes = await source.read((loaded, total) => {
        if (seq === this.loadSeq) this.view.progress(`Loading ${source.name}… ${formatBytes(loaded)}${total ? ` of ${formatBytes(total)}` : ''}`, total ? loaded / total : undefined);
      }, abort.signal);
      if (seq !== this.loadSeq) return false;
      // Parsed in a worker: the page keeps drawing; the bar is indeterminate (the parsers report no progress).
      const size = formatBytes(bytes.length);
      const byteCount = bytes.length;
      const parsed = await parseModel(source.name, bytes, abort.signal, (ms) => {
        if (seq === this.loadSeq) this.view.progress(`Parsing ${source.name}… (${size}) ${(ms / 1000).toFixed(1)} s`);
      });
      if (seq !== this.loadSeq) return false;
      const { scene } = parsed;
      this.lastParse = { name: source.name, bytes: byteCount, where: parsed.where, parseMs: parsed.parseMs, totalMs: parsed.totalMs };
      const warnings = [...scene.warnings];
      const framing = animatedFraming(scene);
      const player = new AnimPlayer(scene.skeleton, scene.clips, scene.morphTargets.length);
      this.view.progress(`Preparing ${source.name} for the GPU…`);
      gpu = await ModelGpu.create(this.gl, scene, source.companions, framing, warnings);
      for (const note of source.notes) if (!warnings.includes(note)) warnings.push(note);
      if (seq !== this.loadSeq) {
        gpu.dispose();
        return false;
      }
      const paletteBytes = scene.meshes.reduce((n, m) => n + m.bones.length * 64, 0);
      const bones = influencingBones(scene.meshes);
      const defaultBone = busiestBone(scene.meshes, scene.skeleton.parents.length);
      const loaded: LoadedModel = { id, detail, label, scene, player, gpu, framing, warnings, paletteBytes, bones, defaultBone };
      const previous = this.current;
      this.current = loaded;
      this.resolveBone(loaded, false);
      const techniqueErrors = this.checkTechnique(loaded, null);
      if (techniqueErrors.length > 0) this.fail(techniqueErrors.join('\n'));
      const technique = findTechnique(this.state.technique) ?? TECHNIQUES[0]!;
      this.renderer.warm(gpu, technique, this.state.influences, this.state.palette, this.state.morphs);
      previous?.gpu.dispose();
      this.state.model = id;
      this.state.clip = clip;
      this.lastStats.paletteBytes = paletteBytes;
      this.applyClip(loaded, 0);
      this.applyMorphState(loaded);
      this.cameraDirty = true;
      for (const w of warnings) console.warn(`${source.name}: ${w}`);
      this.view.progress(null);
      this.view.modelChanged(loaded);
      this.ensureRunning();
      await this.nextFrame();
      if (seq === this.loadSeq && document.documentElement.dataset.state !== 'error') document.documentElement.dataset.state = 'ready';
      return true;
    } catch (e) {
      gpu?.dispose();
      if (seq !== this.loadSeq) return false;
      this.view.progress(null);
      if ((e as Error).name === 'AbortError') return false;
      const text = (e as Error)?.message ?? String(e);
      const message = e instanceof LoadError || text.startsWith(`${source.name}:`) ? text : `${source.name}: ${text}`;
      this.fail(message);
      if (this.current) this.state.model = this.current.id;
      this.view.stateChanged();
      return false;
    }
  }

  cancelLoad(): void {
    this.loadAbort?.abort();
    this.loadSeq++;
    this.view.progress(null);
    // During a context restore the state goes back to ready when the restored frame is drawn.
    if (this.current && !this.restoring) document.documentElement.dataset.state = 'ready';
  }

  /** Shows an error (banner + console.error) and sets the readiness state to "error"; the current model keeps running. */
  fail(message: string): void {
    console.error(message);
    this.view.error(message);
    document.documentElement.dataset.state = 'error';
  }

  /** Resolves the state's clip (name or index) against a model and starts it. */
  private applyClip(model: LoadedModel, crossfade: number): void {
    const clips = model.scene.clips;
    const player = model.player;
    if (clips.length > 0) {
      let index = clips.findIndex((c) => c.name === this.state.clip);
      if (index < 0 && /^\d+$/.test(this.state.clip)) index = Number(this.state.clip);
      if (index < 0 || index >= clips.length) {
        if (this.state.clip !== '') this.fail(`clip=${this.state.clip}: no such clip (clips: ${clips.map((c) => c.name).join(', ')})`);
        index = 0;
      }
      this.state.clip = clips[index]!.name;
      if (index !== player.clipIndex || crossfade === 0) player.play(index, crossfade);
    }
    player.speed = this.state.speed;
    if (this.state.t !== null) player.setTime(this.state.t);
  }

  /**
   * Puts state.morph (hand-set weights by name) and state.morphTrack into the model's player: every target
   * back on its track, then the named ones set by hand. Returns the names the model does not have.
   */
  private applyMorphState(model: LoadedModel): string[] {
    const names = model.scene.morphTargets;
    const player = model.player;
    player.morphTracksEnabled = this.state.morphTrack;
    player.resetMorphs();
    const unknown: string[] = [];
    for (const [name, w] of Object.entries(this.state.morph)) {
      const i = names.indexOf(name);
      if (i < 0) unknown.push(name);
      else player.setMorphManual(i, w);
    }
    return unknown;
  }

  /** GUI: sets one target's weight by hand (null: back to its track). Unknown names are ignored. */
  setMorph(name: string, weight: number | null): void {
    const m = this.current;
    const i = m ? m.scene.morphTargets.indexOf(name) : -1;
    if (!m || i < 0) return;
    if (weight === null) {
      delete this.state.morph[name];
      m.player.clearMorphManual(i);
    } else {
      this.state.morph[name] = weight;
      m.player.setMorphManual(i, weight);
    }
  }

  /** GUI Reset: every target back to its track (or 0 with the track off). */
  resetMorphs(): void {
    this.state.morph = {};
    this.current?.player.resetMorphs();
  }

  /** Starts `clipIndex` with the state's crossfade (GUI). */
  playClip(name: string): void {
    this.state.clip = name;
    if (this.current) this.applyClip(this.current, this.state.paused ? 0 : this.state.crossfade);
  }

  /** Re-frames the camera on the model (double-click, F key). */
  frameModel(): void {
    this.state.camera = null;
    this.cameraDirty = true;
  }

  nextFrame(): Promise<void> {
    this.ensureRunning();
    return new Promise((resolve) => this.frameWaiters.push(resolve));
  }

  /**
   * `webglcontextlost` (the caller has called preventDefault, so the context can come back): every GL object
   * is gone. Drops the renderer's and the model's handles (deletes on a lost context are no-ops), stops
   * drawing (tick) and sets the readiness state to "loading" until contextRestored() has drawn again. CPU
   * state (scene, player, AppState, camera) is kept. A load in flight waits in ModelGpu.create.
   */
  contextLost(): void {
    this.contextLosses++;
    if (!this.restoring) this.stateAtLoss = document.documentElement.dataset.state ?? 'ready';
    this.restoring = true;
    document.documentElement.dataset.state = 'loading';
    this.renderer.dispose();
    this.current?.gpu.dispose();
  }

  /**
   * `webglcontextrestored`: a new Renderer, the current model's GPU state rebuilt from its scene
   * (ModelGpu.rebuild), the technique warmed, then one frame drawn at the kept state before the readiness
   * state returns to what it was. Resolves after that frame (or at once when superseded by another loss).
   */
  async contextRestored(): Promise<void> {
    const loss = this.contextLosses;
    if (this.gl.isContextLost()) return;
    this.renderer = new Renderer(this.gl);
    const m = this.current;
    if (m) {
      let gpu: ModelGpu;
      try {
        gpu = await m.gpu.rebuild();
      } catch (e) {
        if (loss !== this.contextLosses) return;
        this.restoring = false;
        this.fail(`could not rebuild the GPU state after a context loss: ${(e as Error).message}`);
        return;
      }
      if (loss !== this.contextLosses || this.current !== m) {
        // Lost again (the next restore rebuilds), or a load replaced the model meanwhile.
        gpu.dispose();
      } else {
        const current: LoadedModel = { ...m, gpu };
        this.current = current;
        const technique = findTechnique(this.state.technique) ?? TECHNIQUES[0]!;
        this.renderer.warm(gpu, technique, this.state.influences, this.state.palette, this.state.morphs);
      }
    }
    if (loss !== this.contextLosses) return;
    await this.nextFrame();
    const root = document.documentElement;
    // A load in flight at the loss sets the state itself when its frame is drawn.
    if (loss !== this.contextLosses) return;
    this.restoring = false;
    if (root.dataset.state === 'loading' && this.stateAtLoss !== 'loading') root.dataset.state = this.stateAtLoss;
  }

  private ensureRunning(): void {
    if (this.running) return;
    this.running = true;
    requestAnimationFrame(this.tick);
  }

  private readonly tick = (): void => {
    requestAnimationFrame(this.tick);
    const now = this.clock();
    const dt = this.lastFrame < 0 ? 0 : Math.min(0.25, (now - this.lastFrame) / 1000);
    this.lastFrame = now;
    // Nothing to draw with while the context is lost or the model's GPU state is being rebuilt: the clock
    // stands still (time resumes where it was) and frame waiters keep waiting for a frame really drawn.
    if (this.gl.isContextLost() || this.current?.gpu.isDisposed) return;
    this.resize();
    const model = this.current;
    if (model) this.drawFrame(model, dt, now);
    else this.renderer.clear();
    this.framesDrawn++;
    if (this.frameWaiters.length > 0) {
      const waiters = this.frameWaiters.splice(0);
      for (const w of waiters) w();
    }
  };

  private drawFrame(model: LoadedModel, dt: number, now: number): void {
    const s = this.state;
    const player = model.player;
    const t0 = performance.now();
    player.speed = s.speed;
    if (s.t !== null) {
      if (player.time !== s.t || player.fading) player.setTime(s.t);
      player.paused = true;
    } else {
      player.paused = s.paused;
      player.advance(dt);
    }
    player.evaluate();
    let cpuUs = (performance.now() - t0) * 1000;
    if (this.crowdFramed.count !== s.crowd || this.crowdFramed.model !== model) this.layoutCrowd(model);
    if (this.cameraDirty) this.placeCamera(model);
    this.camera.aspect = this.canvas.width / Math.max(1, this.canvas.height);
    this.camera.update();
    const o = this.renderOptions;
    if (o.technique.id !== s.technique) o.technique = findTechnique(s.technique) ?? TECHNIQUES[0]!;
    o.influences = s.influences;
    o.palette = s.palette;
    o.view = s.view;
    o.skeleton = s.skeleton;
    o.grid = s.grid;
    o.bindPose = s.bindPose;
    o.bone = this.boneNode;
    o.morphs = s.morphs;
    o.crowd = s.crowd;
    player.morphTracksEnabled = s.morphTrack;
    this.renderer.render(model.gpu, player, this.camera, o, this.figures);
    // The crowd's CPU animation (posing instances 1..N-1, writing every palette) is animation time too.
    cpuUs += this.figures.crowdPoseUs;
    const techniqueLabel = this.figures.crowd > 1 ? this.crowdLabel : o.technique.id;
    // Not averaged: the diff count is already a sampled figure, and the legend follows the view at once.
    this.lastStats.diffPixels = this.figures.diffPixels;
    this.lastStats.diffShare = this.figures.diffShare;
    this.lastStats.view = s.view;
    this.lastStats.bone = s.bone;

    const w = this.statsWindow;
    if (w.frames === 0) w.start = now;
    w.frames++;
    w.cpuUs += cpuUs;
    w.upload += this.figures.uploadBytes;
    w.skinUs += this.figures.skinUs;
    const st = this.lastStats;
    if (st.technique !== techniqueLabel || st.groups !== this.figures.groups || st.vertexBytes !== this.figures.vertexBytes) {
      // A switch (technique, palette, influences) shows the new mesh state's costs at once; the averages restart.
      w.frames = 1;
      w.start = now;
      w.cpuUs = cpuUs;
      w.upload = this.figures.uploadBytes;
      w.skinUs = this.figures.skinUs;
      this.copyFigures(st, model, w.upload, w.skinUs, techniqueLabel);
      st.cpuAnimUs = cpuUs;
    }
    if (now - w.start >= 1000) {
      st.fps = ((w.frames - 1) * 1000) / (now - w.start) || 0;
      st.cpuAnimUs = w.cpuUs / w.frames;
      this.copyFigures(st, model, w.upload / w.frames, w.skinUs / w.frames, techniqueLabel);
      w.frames = 0;
      w.cpuUs = 0;
      w.upload = 0;
      w.skinUs = 0;
    }
  }

  private copyFigures(st: Stats, model: LoadedModel, upload: number, skinUs: number, technique: string): void {
    const f = this.figures;
    st.technique = technique;
    st.uploadBytes = upload;
    st.cpuSkinUs = skinUs;
    st.paletteBytes = model.paletteBytes;
    st.drawCalls = f.drawCalls;
    st.meshDrawCalls = f.meshDrawCalls;
    st.crowd = f.crowd;
    st.groups = f.groups;
    st.duplicatedVertices = f.duplicatedVertices;
    st.vertexBytes = f.vertexBytes;
    st.approximatedTriangles = f.approximatedTriangles;
    const shear = f.unrepresentableScale;
    if (shear > 1e-3) {
      if (st.warning === null || !st.warning.startsWith(`pose has shear ${shear.toFixed(3)}`)) {
        st.warning = `pose has shear ${shear.toFixed(3)} (|cos| between palette axes) that dual quaternions cannot represent; drawn without it`;
      }
    } else st.warning = null;
  }

  /**
   * Crowd size or model changed: the grid spacing (the model's footprint), the floor scaled about the model
   * to cover the crowd, the stats label; re-frames the camera unless the user placed it. Not per frame.
   */
  private layoutCrowd(model: LoadedModel): void {
    const f = model.framing;
    const n = this.state.crowd;
    const o = this.renderOptions;
    o.crowdSpacing = crowdSpacing(f.min, f.max);
    crowdHalfExtent(n, o.crowdSpacing, this.crowdExtent);
    // gridLines (model-gpu.ts) reaches about 2.5 radii from the centre: scale it to reach past the crowd's edge.
    const scale = Math.max(1, (Math.max(this.crowdExtent[0]!, this.crowdExtent[1]!) + 2 * f.radius) / (2.5 * f.radius));
    const m = o.crowdFloor;
    mat4.fromTranslation(m, [f.centre[0], 0, f.centre[2]]);
    mat4.scale(m, m, [scale, 1, scale]);
    mat4.translate(m, m, [-f.centre[0], 0, -f.centre[2]]);
    this.crowdLabel = `crowd ${n} (instanced, texture palette)`;
    if (this.crowdFramed.model === model && this.state.camera === null) this.cameraDirty = true;
    this.crowdFramed.count = n;
    this.crowdFramed.model = model;
  }

  private placeCamera(model: LoadedModel): void {
    const f = model.framing;
    this.camera.aspect = this.canvas.width / Math.max(1, this.canvas.height);
    const c = this.state.camera;
    if (this.state.crowd > 1 && !c) {
      // The whole crowd: the model's box grown by the grid's half extents, seen from higher up.
      const ex = this.crowdExtent[0]!;
      const ez = this.crowdExtent[1]!;
      this.camera.yawDeg = 25;
      this.camera.pitchDeg = 28;
      this.camera.frameBox([f.min[0] - ex, f.min[1], f.min[2] - ez], [f.max[0] + ex, f.max[1], f.max[2] + ez]);
      this.cameraDirty = false;
      return;
    }
    if (c) {
      vec3.set(this.camera.target, f.centre[0], f.centre[1], f.centre[2]);
      this.camera.yawDeg = c.yaw;
      this.camera.pitchDeg = c.pitch;
      this.camera.distance = c.distance * f.radius;
    } else {
      this.camera.yawDeg = 25;
      this.camera.pitchDeg = 10;
      this.camera.frameBox(f.min, f.max);
    }
    this.cameraDirty = false;
  }

  private resize(): void {
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    const w = this.fixedSize?.width ?? Math.max(1, Math.round(this.canvas.clientWidth * dpr));
    const h = this.fixedSize?.height ?? Math.max(1, Math.round(this.canvas.clientHeight * dpr));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
      if (this.state.camera === null) this.cameraDirty = true;
    }
  }

  /**
   * The stats box's facts about the current model and clip, filled into one reused object: the box
   * refreshes at 4 Hz and needs none of info()'s lists. Null without a model.
   */
  overlayFacts(): OverlayFacts | null {
    const m = this.current;
    if (!m) return null;
    const f = this.facts;
    if (this.factsModel !== m) {
      this.factsModel = m;
      const bones = new Set<number>();
      f.vertices = 0;
      f.triangles = 0;
      for (const mesh of m.scene.meshes) {
        if (mesh.skinned) for (const b of mesh.bones) bones.add(b);
        f.vertices += mesh.vertexCount;
        f.triangles += mesh.indices.length / 3;
      }
      f.bones = bones.size;
    }
    f.technique = this.state.technique;
    f.clip = m.player.clipIndex >= 0 ? m.scene.clips[m.player.clipIndex]!.name : null;
    f.t = m.player.time;
    return f;
  }

  /** CONTRACT section 2 `info()`. */
  info(): Record<string, unknown> {
    const m = this.current;
    const scene = m?.scene;
    const bones = new Set<number>();
    for (const mesh of scene?.meshes ?? []) if (mesh.skinned) for (const b of mesh.bones) bones.add(b);
    return {
      model: m?.id ?? null,
      label: m?.label ?? null,
      detail: m?.detail || null,
      details: Object.keys(findBuiltin(m?.id ?? '')?.details ?? {}),
      clips: scene?.clips.map((c) => c.name) ?? [],
      clip: scene && m.player.clipIndex >= 0 ? scene.clips[m.player.clipIndex]!.name : null,
      duration: m?.player.duration ?? 0,
      t: m?.player.time ?? 0,
      paused: this.state.t !== null || this.state.paused,
      speed: this.state.speed,
      technique: this.state.technique,
      techniques: TECHNIQUES.map((t) => t.id),
      /** Per technique id: null when it can draw this model here, else the reason (greyed out in the GUI). */
      techniqueSupport: Object.fromEntries(TECHNIQUES.map((t) => [t.id, this.unsupportedReason(t)])),
      influences: this.state.influences,
      palette: this.state.palette,
      paletteRange: this.paletteRange(),
      view: this.state.view,
      views: [...VIEW_IDS],
      bone: this.state.bone,
      boneNames: this.boneNames(),
      bindPose: this.state.bindPose,
      grid: this.state.grid,
      skeleton: this.state.skeleton,
      morphTargets: scene?.morphTargets ?? [],
      morphKinds: scene ? scene.morphTargets.map((_, i) => scene.morphKinds?.[i] ?? 'modifier') : [],
      morphs: this.state.morphs,
      morphPaths: [...MORPH_PATHS],
      /** Hand-set weights (state `morph`), and every non-zero weight applied this frame (track or hand). */
      morph: formatMorph(this.state.morph),
      morphTrack: this.state.morphTrack,
      morphWeights: m ? Object.fromEntries(scene!.morphTargets.map((n, i) => [n, m.player.morphWeights[i]!]).filter(([, w]) => w !== 0)) : {},
      bones: bones.size,
      frames: scene?.skeleton.parents.length ?? 0,
      vertices: scene?.meshes.reduce((n, x) => n + x.vertexCount, 0) ?? 0,
      triangles: scene?.meshes.reduce((n, x) => n + x.indices.length / 3, 0) ?? 0,
      meshes: scene?.meshes.length ?? 0,
      drawCalls: this.figures.drawCalls,
      crowd: this.state.crowd,
      /** Crowd mode's path (above 1 instance), or null. */
      crowdPath: this.state.crowd > 1 ? 'instanced, texture palette (technique menu and view ignored; morph targets not applied)' : null,
      warnings: m?.warnings ?? [],
      /** The last completed parse: { name, bytes, where: 'worker' | 'main', parseMs, totalMs }, or null. */
      parse: this.lastParse,
      renderer: this.renderer.rendererName,
      canvas: [this.canvas.width, this.canvas.height],
    };
  }

  stats(): Stats {
    const out = { ...this.lastStats, morphPath: null as string | null, morphSlots: [] as string[], morphSlotWeights: [] as number[], morphDropped: 0 };
    const morph = this.current?.gpu.morph;
    if (morph) {
      out.morphPath = morph.path;
      if (morph.path === 'slots') {
        const names = this.current!.scene.morphTargets;
        for (const t of morph.slots) {
          if (t < 0) continue;
          out.morphSlots.push(names[t]!);
          out.morphSlotWeights.push(morph.applied[t]!);
        }
        out.morphDropped = morph.dropped;
      }
    }
    return out;
  }

  /**
   * Benchmark hook: draws `frames` frames back to back outside requestAnimationFrame, each finished with a
   * 1-pixel readPixels so the GPU work is inside the measurement; returns the median milliseconds per frame.
   */
  benchFrames(frames = 30): number {
    return this.benchSplit(frames).frameMs;
  }

  /**
   * benchFrames with the CPU side split out: `submitMs` is the median time until the frame's commands are
   * issued (animation, palettes, uploads, draw calls; Chromium runs GL in another process, so this is the
   * page's own cost), `frameMs` the median until its pixels are finished. Allocates; not per frame.
   */
  benchSplit(frames = 30): { frameMs: number; submitMs: number } {
    const m = this.current;
    if (!m) throw new Error('benchFrames: no model loaded');
    const gl = this.gl;
    const pixel = new Uint8Array(4);
    const times: number[] = [];
    const submits: number[] = [];
    for (let i = 0; i < frames; i++) {
      const t0 = performance.now();
      this.drawFrame(m, 1 / 60, t0);
      submits.push(performance.now() - t0);
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
      times.push(performance.now() - t0);
    }
    const median = (a: number[]): number => a.sort((x, y) => x - y)[a.length >> 1]!;
    return { frameMs: median(times), submitMs: median(submits) };
  }

  /**
   * Test hook: skins the current pose with a technique on the GPU, reads the positions back with transform
   * feedback and compares each technique vertex with the CPU reference of the mesh vertex it copies
   * (skinMesh, or skinMeshDualQuat for dual-quat) at the state's influence count. Allocates; not per frame.
   * reference 'gl-matrix': the CPU reference is anim/reference-skin.ts (linear blend written apart from skinMesh).
   */
  skinCheck(id: string = this.state.technique, reference: 'auto' | 'gl-matrix' = 'auto'): SkinCheck {
    if (reference !== 'auto' && reference !== 'gl-matrix') throw new Error(`skinCheck: no reference ${reference} (auto or gl-matrix)`);
    const m = this.current;
    const technique = findTechnique(id);
    if (!m || !technique) throw new Error(`skinCheck: ${m ? `no technique ${id}` : 'no model loaded'}`);
    const influences = this.state.influences;
    const palette = clampPalette(m.scene, this.renderer.caps, influences, this.state.palette);
    m.player.evaluate();
    const readbacks = this.renderer.readbackSkin(m.gpu, m.player, technique, influences, palette, this.state.morphs);
    const dual = technique.id === 'dual-quat';
    const applied = this.pathWeights(m, this.state.morphs).weights;
    const out: SkinCheck = {
      technique: technique.id,
      reference: reference === 'gl-matrix' ? 'gl-matrix' : dual ? 'dual-quat' : 'software',
      vertices: 0,
      modelSize: m.framing.radius * 2,
      maxError: 0,
      approximatedVertices: 0,
      maxErrorApproximated: 0,
    };
    m.scene.meshes.forEach((mesh, i) => {
      const cpu =
        reference === 'gl-matrix'
          ? referenceSkinPositions(morphedMesh(mesh, applied), m.player.model, influences)
          : this.referenceSkin(m, mesh, applied, dual, influences);
      const r = readbacks[i]!;
      for (let v = 0; v < r.sourceVertex.length; v++) {
        const s = r.sourceVertex[v]!;
        const e = Math.max(
          Math.abs(r.positions[v * 3]! - cpu[s * 3]!),
          Math.abs(r.positions[v * 3 + 1]! - cpu[s * 3 + 1]!),
          Math.abs(r.positions[v * 3 + 2]! - cpu[s * 3 + 2]!),
        );
        const err = Number.isFinite(e) ? e : Infinity;
        if (r.approximated && r.approximated[v]) {
          out.approximatedVertices++;
          out.maxErrorApproximated = Math.max(out.maxErrorApproximated, err);
        } else out.maxError = Math.max(out.maxError, err);
      }
      out.vertices += r.sourceVertex.length;
    });
    return out;
  }

  /** The weights a path applies to the current model now (copies; allocates). */
  private pathWeights(m: LoadedModel, path: MorphPath): { weights: Float32Array; dropped: number; slots: Int32Array } {
    const weights = new Float32Array(m.player.morphWeights.length);
    const slots = new Int32Array(MORPH_SLOTS);
    const dropped = effectiveWeights(path, m.player.morphWeights, weights, slots);
    return { weights, dropped, slots };
  }

  /** CPU reference of one mesh: morph by `weights`, then skinMesh (or dual-quaternion skinning) with the current pose. */
  private referenceSkin(m: LoadedModel, mesh: SkinnedMesh, weights: Float32Array, dual: boolean, influences: number): Float32Array {
    const source = morphedMesh(mesh, weights);
    const pal = new Float32Array(Math.max(1, mesh.bones.length) * 16);
    m.player.writePalette(mesh, pal, 0);
    const cpu = new Float32Array(mesh.vertexCount * 3);
    if (dual) {
      const dq = new Float32Array(Math.max(1, mesh.bones.length) * DUAL_QUAT_STRIDE);
      buildDualQuatPalette(pal, mesh.bones.length, dq);
      skinMeshDualQuat(source, dq, cpu, null, influences);
    } else skinMesh(source, pal, cpu, null, influences);
    return cpu;
  }

  /**
   * Test hook: morphs and skins the current pose on the GPU with morph path `path` and `technique` (default:
   * the state's), reads the positions back with transform feedback and compares each vertex with the CPU
   * (applyMorphs then skinMesh / dual-quat) using every weight (maxError) and the path's own weights
   * (maxErrorPath). Vertices a technique deliberately approximates are left out. Allocates; not per frame.
   */
  morphCheck(path: string = this.state.morphs, id: string = this.state.technique): MorphCheck {
    const m = this.current;
    const technique = findTechnique(id);
    if (!m || !technique) throw new Error(`morphCheck: ${m ? `no technique ${id}` : 'no model loaded'}`);
    if (!(MORPH_PATHS as readonly string[]).includes(path)) throw new Error(`morphCheck: no morph path ${path} (one of ${MORPH_PATHS.join(', ')})`);
    const morphPath = path as MorphPath;
    const influences = this.state.influences;
    const palette = clampPalette(m.scene, this.renderer.caps, influences, this.state.palette);
    m.player.evaluate();
    const readbacks = this.renderer.readbackSkin(m.gpu, m.player, technique, influences, palette, morphPath);
    const dual = technique.id === 'dual-quat';
    const all = this.pathWeights(m, 'cpu').weights;
    const own = this.pathWeights(m, morphPath);
    const zero = new Float32Array(all.length);
    const out: MorphCheck = {
      path,
      technique: technique.id,
      vertices: 0,
      modelSize: m.framing.radius * 2,
      maxError: 0,
      maxErrorPath: 0,
      dropped: morphPath === 'slots' ? own.dropped : 0,
      slots: morphPath === 'slots' ? [...own.slots].filter((t) => t >= 0).map((t) => m.scene.morphTargets[t]!) : [],
      maxMorphOffset: 0,
    };
    const err = (a: Float32Array, v: number, b: Float32Array, s: number): number => {
      const e = Math.max(Math.abs(a[v * 3]! - b[s * 3]!), Math.abs(a[v * 3 + 1]! - b[s * 3 + 1]!), Math.abs(a[v * 3 + 2]! - b[s * 3 + 2]!));
      return Number.isFinite(e) ? e : Infinity;
    };
    m.scene.meshes.forEach((mesh, i) => {
      const full = this.referenceSkin(m, mesh, all, dual, influences);
      const mine = this.referenceSkin(m, mesh, own.weights, dual, influences);
      const neutral = this.referenceSkin(m, mesh, zero, dual, influences);
      for (let s = 0; s < mesh.vertexCount; s++) out.maxMorphOffset = Math.max(out.maxMorphOffset, err(full, s, neutral, s));
      const r = readbacks[i]!;
      for (let v = 0; v < r.sourceVertex.length; v++) {
        if (r.approximated && r.approximated[v]) continue;
        const s = r.sourceVertex[v]!;
        out.maxError = Math.max(out.maxError, err(r.positions, v, full, s));
        out.maxErrorPath = Math.max(out.maxErrorPath, err(r.positions, v, mine, s));
      }
      out.vertices += r.sourceVertex.length;
    });
    return out;
  }
}

/** A mesh with its bind-space positions and normals morphed by `weights` (the mesh itself when nothing moves it). */
function morphedMesh(mesh: SkinnedMesh, weights: Float32Array): SkinnedMesh {
  if (!mesh.morphs || weights.every((w) => w === 0)) return mesh;
  const positions = new Float32Array(mesh.vertexCount * 3);
  const normals = new Float32Array(mesh.vertexCount * 3);
  applyMorphs(mesh, weights, positions, normals);
  return { ...mesh, positions, normals };
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1048576) return `${(n / 1024).toFixed(0)} KiB`;
  return `${(n / 1048576).toFixed(1)} MiB`;
}
