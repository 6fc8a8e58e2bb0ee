import './style.css';
import './style-tools.css';
import { App, type AppView, type LoadedModel } from './app/app.ts';
import { paramsFromSearch } from './app/state.ts';
import { prewarmCrowdLod } from './app/crowd-lod-loader.ts';
import { startEarly } from './app/early-start.ts';
import { afterPaint } from './app/after-paint.ts';
import { precompileKernels } from './anim/wasm-kernel.ts';
import { CONTEXT_ATTRIBUTES } from './app/context-attributes.ts';
import { Panel, panelRoot } from './ui/gui.ts';
import { installInput } from './ui/input.ts';
import { returnFocusAfterPanel } from './ui/panel-focus.ts';
import { mountRecorder } from './ui/recorder.ts';
import { NARROW_QUERY, Overlay, PANEL_BUILD_WAIT_MS } from './ui/overlay.ts';
import { Timeline } from './ui/timeline.ts';
import { installTimelineSeek } from './ui/timeline-seek.ts';
import { BoneHover } from './ui/bone-hover.ts';
import type { TangentCheck } from './render/tangent-check.ts';
import type { Checks } from './app/checks.ts';
import { installGlCensus, type GlObjectCounts } from './gpu/gl-census.ts';
import { UrlSync } from './app/url-sync.ts';
import { Toast } from './ui/toast.ts';
import { panelReserve, trackFreeView } from './ui/free-view.ts';
import { exportGlbForScript, type ExportGlbResult } from './ui/export-glb.ts';
import type { Metric } from './bench/metric.ts';
import type { BenchOptions } from './app/bench/options.ts';
import { startBench } from './ui/bench-start.ts';
import { mountCompareOverlay } from './ui/compare-overlay.ts';

/**
 * Composition root: the only file that wires the layers together (loaders → model → anim → gpu →
 * render → app ◄ ui) and exposes `window.skinlab` (docs/api.md#scripting-api).
 */

declare global {
  interface Window {
    skinlab: {
      set(params: Record<string, string | number | boolean | null>): Promise<void>;
      info(): Record<string, unknown>;
      stats(): ReturnType<App['stats']>;
      /** Test hook: a technique's transform-feedback positions, normals and tangents against the CPU reference (App.skinCheck). */
      skinCheck(technique?: string, reference?: 'auto' | 'gl-matrix'): ReturnType<Checks['skinCheck']>;
      /** The artifact figures of the technique(s) on screen, or of `technique`, at the current pose (App.quality, docs/quality.md). */
      quality(technique?: string): ReturnType<Checks['quality']>;
      /** Test hook: a morph path's transform-feedback positions against the CPU morph + skin (App.morphCheck). */
      morphCheck(path?: string, technique?: string): ReturnType<Checks['morphCheck']>;
      /** Test hook: a morph path's transform-feedback tangents against the CPU morph (re-orthonormalised) + skin (render/tangent-check.ts). */
      tangentCheck(path?: string, technique?: string): TangentCheck;
      /**
       * Live GL objects by kind, counted by the page since the context was created or last restored
       * (gpu/gl-census.ts); also in info() under `glObjects`, with `contextLosses`.
       */
      glObjects(): GlObjectCounts;
      /** Benchmark hook: median ms of `frames` frames drawn back to back and finished (App.benchFrames). */
      benchFrames(frames?: number): number;
      /** Benchmark hook: the same frames with the time until they are submitted split out (App.benchSplit). */
      benchSplit(frames?: number): { frameMs: number; submitMs: number };
      /** Render-loop frames drawn since the page started. */
      frames(): number;
      /**
       * The link that reproduces what is shown (the address bar is brought up to date first); `linkable` is
       * false for a model opened from a file, which the link cannot carry.
       */
      link(): { url: string; linkable: boolean };
      /**
       * Adds a callback key (clip marker) to the current model's controller: clip name or index, time in
       * seconds of that clip, a one-word name. It fires like a key from the file; a new model drops it.
       */
      addMarker(clip: string | number, time: number, name: string): void;
      /** The loaded model as a binary glTF, as the panel's Export .glb makes it, without the download: its size and the exporter's warnings. */
      exportGlb(): Promise<ExportGlbResult>;
      /**
       * The in-page benchmark on this browser's GPU (app/bench/runner.ts): rows as in bench-results.json.
       * While it runs `document.documentElement.dataset.bench` is "running", then "done" (or "error").
       */
      bench(options?: BenchOptions): Promise<Metric[]>;
    };
  }
}

function start(): void {
  document.documentElement.dataset.state = 'loading';
  // Before the context and the panels (the slow part of building the page): the first model's file is asked
  // for and the parse worker's module loads meanwhile (early-start.ts; src/boot.ts has usually done it already).
  startEarly(location.search, document.baseURI);
  // The animation kernels compile on the engine's threads while this thread waits for its context and builds the
  // page: the first model's first pose and palette then only instantiate them.
  precompileKernels();
  const params = paramsFromSearch(location.search);
  const canvas = document.getElementById('view') as HTMLCanvasElement;
  const chrome = document.getElementById('chrome') as HTMLElement;
  const overlay = new Overlay(chrome);
  // The context src/boot.ts asked for already (the same attributes: a canvas keeps its first request's).
  const gl = canvas.getContext('webgl2', CONTEXT_ATTRIBUTES);
  if (!gl) {
    const message = 'WebGL2 is not available in this browser, so skinlab cannot draw. Try a current Chrome, Edge, Firefox or Safari.';
    overlay.error(message);
    console.error(message);
    document.documentElement.dataset.state = 'error';
    return;
  }
  // Before anything creates a GL object (the App's renderer, twgl's programs), so every one is counted.
  const census = installGlCensus(gl);

  // The panel's root now, filled after the first model's first frame is on screen (buildChrome): the page's first
  // frame waits for neither the panel's controllers nor their layout, and the model is framed beside the panel
  // from that frame on (free-view.ts panelReserve).
  const gui = panelRoot();
  let panel: Panel | null = null;
  let compareOverlay: { update(): void } | null = null;
  let timeline: Timeline | null = null;
  let chromeVisible = true;
  let buildChrome = (): void => {};
  let chromeBuilt = (): void => {};
  const chromeReady = new Promise<void>((done) => (chromeBuilt = done));
  const view: AppView = {
    progress: (message, fraction) => overlay.progress(message, fraction),
    error: (message) => {
      // A first load that fails leaves the panel to pick another model: it is built before the error shows, and
      // the canvas (its background) is shown with it.
      if (message !== null) {
        canvas.classList.remove('pending');
        buildChrome();
      }
      overlay.error(message);
      overlay.empty(message !== null && !app.current);
    },
    modelChanged: (model: LoadedModel) => {
      overlay.empty(false);
      overlay.warnings(model.warnings);
      if (model.up.by === 'detected') toast.show(`${model.label}: a Z-up file, turned upright — up=y keeps it as stored`, 8000, true);
      panel?.modelChanged(model);
      freeView.measure(); // the panel rebuilt for the model: its first framing fits what is free now
    },
    stateChanged: () => {
      panel?.refresh();
      compareOverlay?.update();
      setChrome(app.state.gui && chromeVisible);
    },
    // The first model's frame is shown (the next display frame has taken it), then the panel is filled in.
    modelShown: () => {
      canvas.classList.remove('pending');
      if (panel) return undefined;
      void afterPaint().then(buildChrome);
      return chromeReady;
    },
  };
  const app = new App(canvas, gl, view);
  const freeView = trackFreeView(app, canvas, () => (panel ? gui.domElement.getBoundingClientRect() : panelReserve(gui.domElement, !gui._closed)), overlay.statsEl, window.matchMedia(NARROW_QUERY));
  // Context loss: preventDefault is what lets the browser restore the context; until then nothing is drawn.
  canvas.addEventListener('webglcontextlost', (e) => {
    e.preventDefault();
    console.warn('WebGL context lost; waiting for the browser to restore it');
    overlay.contextLost(true);
    app.contextLost();
  });
  canvas.addEventListener('webglcontextrestored', () => {
    void app.contextRestored().then(() => {
      if (!gl.isContextLost()) overlay.contextLost(false);
    });
  });
  overlay.onCancel = () => app.cancelLoad();

  let chromeShown = true;
  const setChrome = (visible: boolean): void => {
    chromeShown = visible;
    overlay.setVisible(visible);
    timeline?.setVisible(visible);
    if (panel) panel.setVisible(visible);
    else gui.show(visible);
    document.documentElement.classList.toggle('clean', !visible);
    // The free area changes with the chrome (and with compare, also a state change): framed again now, so the
    // frame set() waits for, and the link made after it, already show the new framing.
    freeView.measure();
  };
  // The address bar follows the state (url-sync.ts): a copied link reproduces the view.
  const urlSync = new UrlSync(() => {
    app.anim.syncTracks();
    return { state: app.state, model: app.current, caps: app.renderer.caps };
  }, location, history);
  setInterval(() => urlSync.poll(app.current !== null && document.documentElement.dataset.state !== 'loading'), 250);
  const toast = new Toast(chrome);
  const link = (): { url: string; linkable: boolean } => {
    urlSync.flush();
    return urlSync.link();
  };
  const copyLink = (): void => {
    const { url, linkable } = link();
    const done = (copied: boolean): void =>
      toast.show(
        `${copied ? 'Link copied' : 'Copy this link'}: ${url}` +
          (linkable ? '' : ' — the model was opened from a file, which a link cannot carry: the link keeps the technique, view and overlays and opens the default model'),
        linkable ? 3500 : 7000,
      );
    navigator.clipboard?.writeText(url).then(() => done(true), () => done(false)) ?? done(false);
  };

  const input = installInput(app, canvas, {
    toggleHelp: () => overlay.toggleHelp(),
    toggleChrome: () => {
      chromeVisible = !chromeVisible;
      setChrome(app.state.gui && chromeVisible);
    },
    dismissError: () => {
      if (overlay.helpVisible) overlay.toggleHelp(false);
      else overlay.error(null);
    },
    refresh: () => panel?.refresh(),
    copyLink,
    notice: (message) => toast.show(message, 8000),
  });
  compareOverlay = mountCompareOverlay(app, chrome, canvas);
  const bench = startBench(app);
  const hover = new BoneHover(app, canvas, chrome);

  window.skinlab = {
    set: (params) => app.set(params),
    info: () => ({ ...app.info(), glObjects: census.snapshot(), contextLosses: census.losses }),
    glObjects: () => census.snapshot(),
    stats: () => app.stats(),
    skinCheck: (technique, reference) => app.checks.skinCheck(technique, reference),
    morphCheck: (path, technique) => app.checks.morphCheck(path, technique),
    quality: (technique) => app.checks.quality(technique),
    tangentCheck: (path, technique) => app.checks.tangentCheck(path, technique),
    benchFrames: (frames) => app.benchFrames(frames),
    benchSplit: (frames) => app.benchSplit(frames),
    frames: () => app.framesDrawn,
    link,
    addMarker: (clip, time, name) => app.anim.addMarker(clip, time, name),
    exportGlb: () => exportGlbForScript(app),
    bench: (options) => bench.run(options).then((r) => r.rows),
  };
  /**
   * The panel's controllers, the timeline and the recorder, once: after the first model's first frame is shown
   * (view.modelShown), before a first load's error shows, or PANEL_BUILD_WAIT_MS into a first load that takes longer
   * (the page only waits for its worker then). The readiness state comes after it.
   */
  let chromeTried = false;
  buildChrome = (): void => {
    if (chromeTried) return;
    chromeTried = true;
    // Each part on its own: a defect in one must neither hold the page at 'loading' with no word nor take the
    // others with it. The model keeps drawing, the keyboard shortcuts and window.skinlab keep working, and the
    // error says what is missing.
    const faults: string[] = [];
    const part = (build: () => void): void => {
      try {
        build();
      } catch (e) {
        faults.push((e as Error)?.message ?? String(e));
        console.error('skinlab: a part of the page could not be built', e);
      }
    };
    part(() => (panel = new Panel(app, gui, input.openPicker, () => overlay.toggleHelp(), { copyLink, benchmark: () => void bench.withView() })));
    part(() => {
      timeline = new Timeline(overlay.statsEl, app);
      installTimelineSeek(app, timeline, canvas);
    });
    if (panel) {
      const built = panel;
      part(() => mountRecorder(built.gui, app, window.skinlab));
      part(() => {
        returnFocusAfterPanel(built.gui.domElement, canvas);
        if (app.current) built.modelChanged(app.current);
      });
    }
    part(() => setChrome(app.state.gui && chromeVisible));
    if (faults.length > 0) {
      const message = `Part of the page could not be built (${faults.join('; ')}); the model, the keyboard shortcuts (H lists them) and window.skinlab still work.`;
      console.error(message);
      overlay.error(message);
    }
    chromeBuilt();
  };
  setTimeout(buildChrome, PANEL_BUILD_WAIT_MS);

  // Stats box at 4 Hz while it is shown: text updates are not per-frame work.
  setInterval(() => {
    if (!chromeShown) return;
    const facts = app.overlayFacts();
    if (!facts) return;
    const st = app.stats();
    // Crowd mode names its own path ("crowd 100 (instanced, texture palette)") instead of the menu's technique.
    if (st.crowd > 1) facts.technique = st.technique;
    overlay.stats(st, facts);
    compareOverlay?.update();
  }, 250);
  const syncTime = (): void => {
    panel?.frame();
    timeline?.frame(performance.now());
    hover.frame();
    requestAnimationFrame(syncTime);
  };
  requestAnimationFrame(syncTime);

  const booted = app.set({ model: 'default', ...params });
  void booted.finally(buildChrome);
  // set() has applied the parameters by now (its first, synchronous step): a crowd with LOD gets its LOD
  // worker compiling the simplifier while the model loads (crowd-lod-loader.ts).
  prewarmCrowdLod(app.state);
  void booted.then(() => bench.fromUrl(params.bench));
}

start();
