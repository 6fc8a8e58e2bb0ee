import { vec3 } from 'gl-matrix';
import { AnimPlayer } from '../anim/player.ts';
import { LoadError } from '../model/errors.ts';
import type { Scene } from '../model/types.ts';
import { loadModel } from '../loaders/load-model.ts';
import { OrbitCamera } from '../render/camera.ts';
import { ModelGpu } from '../render/model-gpu.ts';
import { Renderer, type FrameFigures, type RenderOptions } from '../render/renderer.ts';
import { findTechnique, TECHNIQUES } from '../techniques/index.ts';
import { findBuiltin } from './builtins.ts';
import { animatedFraming, type Framing } from './framing.ts';
import { urlSource, type ModelSource } from './model-source.ts';
import { applyParams, defaultState, type AppState } from './state.ts';

/** A model that loaded completely and is being drawn. */
export interface LoadedModel {
  /** The `model` value that loaded it (built-in id, URL, or file name). */
  readonly id: string;
  readonly label: string;
  readonly scene: Scene;
  readonly player: AnimPlayer;
  readonly gpu: ModelGpu;
  readonly framing: Framing;
  readonly warnings: readonly string[];
  /** Palette bytes per frame (all meshes). */
  readonly paletteBytes: number;
}

/** What the app tells the page chrome (GUI, overlays); implemented in src/ui. */
export interface AppView {
  progress(message: string | null, fraction?: number): void;
  error(message: string | null): void;
  modelChanged(model: LoadedModel): void;
  stateChanged(): void;
}

/** Figures averaged over the last second (CONTRACT section 2, `stats()`). */
export interface Stats {
  fps: number;
  cpuAnimUs: number;
  paletteBytes: number;
  uploadBytes: number;
  drawCalls: number;
}

/**
 * The frame loop and everything it owns: state, renderer, camera, the loaded model. Loads never
 * replace the running model until the new one is complete; a failed load leaves it running.
 */
export class App {
  readonly state: AppState = defaultState();
  readonly camera = new OrbitCamera();
  readonly renderer: Renderer;
  current: LoadedModel | null = null;
  /** Replaceable clock in milliseconds (tests and recorders freeze it). */
  clock: () => number = () => performance.now();

  private loadSeq = 0;
  private loadAbort: AbortController | null = null;
  private lastFrame = -1;
  private readonly figures: FrameFigures = { drawCalls: 0, uploadBytes: 0 };
  /** Filled from the state each frame (no per-frame object). */
  private readonly renderOptions: RenderOptions = { technique: TECHNIQUES[0]!, influences: 4, view: 'shaded', skeleton: false, grid: true };
  private readonly frameWaiters: (() => void)[] = [];
  private readonly statsWindow = { start: 0, frames: 0, cpuUs: 0, upload: 0 };
  private readonly lastStats: Stats = { fps: 0, cpuAnimUs: 0, paletteBytes: 0, uploadBytes: 0, drawCalls: 0 };
  private cameraDirty = true;
  private running = false;

  constructor(
    readonly canvas: HTMLCanvasElement,
    readonly gl: WebGL2RenderingContext,
    private readonly view: AppView,
  ) {
    this.renderer = new Renderer(gl);
  }

  /** Applies parameters (URL or `window.skinlab.set`) and resolves after a frame with them is drawn. */
  async set(params: Record<string, string | number | boolean | null | undefined>): Promise<void> {
    const before = { clip: this.state.clip, camera: this.state.camera };
    const errors = applyParams(this.state, params);
    const technique = findTechnique(this.state.technique);
    if (!technique) {
      errors.push(`technique=${this.state.technique}: not available in this build (available: ${TECHNIQUES.map((t) => t.id).join(', ')})`);
      this.state.technique = TECHNIQUES[0]!.id;
    }
    if (this.state.camera !== before.camera) this.cameraDirty = true;
    let loaded = true;
    if (params.model !== undefined && (this.state.model !== this.current?.id || !this.current)) {
      const builtin = findBuiltin(this.state.model);
      const src = urlSource(builtin ? builtin.url : this.state.model, document.baseURI);
      loaded = await this.load(src, this.state.model, builtin?.label, params.clip === undefined ? builtin?.clip ?? '' : this.state.clip);
    } else if (this.current && (this.state.clip !== before.clip || params.t !== undefined)) {
      this.applyClip(this.current, params.t === undefined && !this.state.paused ? this.state.crossfade : 0);
    }
    if (this.current && findTechnique(this.state.technique)) {
      const why = findTechnique(this.state.technique)!.unsupportedReason(this.current.scene, this.renderer.caps);
      if (why) errors.push(`technique=${this.state.technique}: ${why}`);
    }
    // Reported after any load, which clears the banner when it starts.
    if (errors.length > 0 && loaded) this.fail(errors.join('\n'));
    this.view.stateChanged();
    await this.nextFrame();
  }

  /**
   * Loads a model from a source and makes it current, starting `clip` (name or index; '' = the first).
   * On failure shows the error, sets state "error" and keeps the previous model. A newer load
   * supersedes an older one still in flight.
   */
  async load(source: ModelSource, id: string, label = source.name, clip = ''): Promise<boolean> {
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
      this.view.progress(`Parsing ${source.name}…`, 1);
      await yieldToPaint();
      const scene = loadModel(source.name, bytes);
      const warnings = [...scene.warnings];
      const framing = animatedFraming(scene);
      const player = new AnimPlayer(scene.skeleton, scene.clips);
      gpu = await ModelGpu.create(this.gl, scene, source.companions, framing, warnings);
      if (seq !== this.loadSeq) {
        gpu.dispose();
        return false;
      }
      const paletteBytes = scene.meshes.reduce((n, m) => n + m.bones.length * 64, 0);
      const loaded: LoadedModel = { id, label, scene, player, gpu, framing, warnings, paletteBytes };
      const technique = findTechnique(this.state.technique) ?? TECHNIQUES[0]!;
      this.renderer.warm(gpu, technique, this.state.influences);
      const previous = this.current;
      this.current = loaded;
      previous?.gpu.dispose();
      this.state.model = id;
      this.state.clip = clip;
      this.lastStats.paletteBytes = paletteBytes;
      this.applyClip(loaded, 0);
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
    if (this.current) document.documentElement.dataset.state = 'ready';
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
    this.resize();
    const model = this.current;
    if (model) this.drawFrame(model, dt, now);
    else this.renderer.clear();
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
    const cpuUs = (performance.now() - t0) * 1000;
    if (this.cameraDirty) this.placeCamera(model);
    this.camera.aspect = this.canvas.width / Math.max(1, this.canvas.height);
    this.camera.update();
    const o = this.renderOptions;
    if (o.technique.id !== s.technique) o.technique = findTechnique(s.technique) ?? TECHNIQUES[0]!;
    o.influences = s.influences;
    o.view = s.view;
    o.skeleton = s.skeleton;
    o.grid = s.grid;
    this.renderer.render(model.gpu, player, this.camera, o, this.figures);

    const w = this.statsWindow;
    if (w.frames === 0) w.start = now;
    w.frames++;
    w.cpuUs += cpuUs;
    w.upload += this.figures.uploadBytes;
    if (now - w.start >= 1000) {
      const st = this.lastStats;
      st.fps = ((w.frames - 1) * 1000) / (now - w.start) || 0;
      st.cpuAnimUs = w.cpuUs / w.frames;
      st.uploadBytes = w.upload / w.frames;
      st.paletteBytes = model.paletteBytes;
      st.drawCalls = this.figures.drawCalls;
      w.frames = 0;
      w.cpuUs = 0;
      w.upload = 0;
    }
  }

  private placeCamera(model: LoadedModel): void {
    const f = model.framing;
    this.camera.aspect = this.canvas.width / Math.max(1, this.canvas.height);
    const c = this.state.camera;
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
    const w = Math.max(1, Math.round(this.canvas.clientWidth * dpr));
    const h = Math.max(1, Math.round(this.canvas.clientHeight * dpr));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
      if (this.state.camera === null) this.cameraDirty = true;
    }
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
      clips: scene?.clips.map((c) => c.name) ?? [],
      clip: scene && m.player.clipIndex >= 0 ? scene.clips[m.player.clipIndex]!.name : null,
      duration: m?.player.duration ?? 0,
      t: m?.player.time ?? 0,
      paused: this.state.t !== null || this.state.paused,
      speed: this.state.speed,
      technique: this.state.technique,
      techniques: TECHNIQUES.map((t) => t.id),
      influences: this.state.influences,
      view: this.state.view,
      grid: this.state.grid,
      skeleton: this.state.skeleton,
      morphTargets: scene?.morphTargets ?? [],
      morphs: null,
      bones: bones.size,
      frames: scene?.skeleton.parents.length ?? 0,
      vertices: scene?.meshes.reduce((n, x) => n + x.vertexCount, 0) ?? 0,
      triangles: scene?.meshes.reduce((n, x) => n + x.indices.length / 3, 0) ?? 0,
      meshes: scene?.meshes.length ?? 0,
      drawCalls: this.figures.drawCalls,
      warnings: m?.warnings ?? [],
      renderer: this.renderer.rendererName,
      canvas: [this.canvas.width, this.canvas.height],
    };
  }

  stats(): Stats {
    return { ...this.lastStats };
  }
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1048576) return `${(n / 1024).toFixed(0)} KiB`;
  return `${(n / 1048576).toFixed(1)} MiB`;
}

/** Lets the browser paint the progress message before a long synchronous parse (without waiting on a hidden tab's frames). */
function yieldToPaint(): Promise<void> {
  return new Promise((r) => {
    const timer = setTimeout(r, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        r();
      }, 0),
    );
  });
}
