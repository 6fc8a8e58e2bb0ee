import GUI, { type Controller } from 'lil-gui';
import type { App, LoadedModel } from '../app/app.ts';
import { BUILTIN_MODELS } from '../app/builtins.ts';
import { VIEW_IDS, VIEW_SUMMARY } from '../render/views.ts';
import { TECHNIQUE_IDS } from '../techniques/technique.ts';
import { TECHNIQUES } from '../techniques/index.ts';
import { linkTime } from '../app/frame.ts';
import { addCompareControl } from './compare-controls.ts';
import { addUpControl } from './up-control.ts';
import { addShadingControl } from './shading-control.ts';
import { addCrowdControls, crowdProxy, syncCrowdProxy } from './crowd-controls.ts';
import { MorphPanel } from './morph-panel.ts';
import { NARROW_QUERY } from './overlay.ts';
import { mountExportGlb } from './export-glb.ts';
import { savePicture } from './save-picture.ts';
import { TracksPanel } from './tracks-panel.ts';

/**
 * The panel's root, empty: its box at its place and width (the stylesheet's: 300 px, less on a narrow screen) and
 * its title bar's height, closed on phones (the model in full view). Made with the page, so the first model is
 * framed beside it (ui/free-view.ts panelReserve) before the Panel fills it. Until then it is `pending`
 * (style.css): nothing of it is drawn and its title is not laid out, so the page's first frame waits for no text
 * (the first text laid out has the browser look up every font its families name).
 */
export function panelRoot(): GUI {
  const gui = new GUI({ title: 'skinlab' });
  gui.domElement.classList.add(PENDING);
  if (window.matchMedia(NARROW_QUERY).matches) gui.close();
  return gui;
}

/** panelRoot's class until the Panel fills the root. */
const PENDING = 'pending';

/** Panel actions implemented outside the panel (composition root). */
export interface PanelActions {
  /** "Copy link (L)": a link that reproduces this view. */
  copyLink?: () => void;
  /** "Benchmark…": runs the in-page benchmark and shows its results (ui/bench-view.ts). */
  benchmark?: () => void;
}

/**
 * The lil-gui panel. It edits AppState through the App (and only that); it never touches GL.
 * Controllers that depend on the model (clip list, time range) are rebuilt when a model loads.
 */
export class Panel {
  readonly gui: GUI;
  private readonly proxy = {
    model: 'default',
    detail: '',
    openFile: (): void => this.onOpenFile(),
    clip: '',
    playing: true,
    speed: 1,
    time: 0,
    crossfade: 0.3,
    technique: 'vs-hlsl',
    influences: 4,
    palette: 12,
    view: 'shaded',
    bone: '',
    bindPose: false,
    skeleton: false,
    grid: true,
    shadows: true,
    ...crowdProxy(),
    frame: (): void => this.app.frameModel(),
    help: (): void => this.onHelp(),
    savePicture: (): void => void savePicture(this.app),
    copyLink: (): void => this.actions.copyLink?.(),
    benchmark: (): void => this.actions.benchmark?.(),
    fullscreen: (): void => this.toggleFullscreen(),
  };
  /** Morph targets folder: rebuilt per model, hidden for a model without targets. */
  private readonly morphs: MorphPanel;
  /** setVisible's state: hidden, frame() and the listening sliders do nothing. */
  private visible = true;
  private modelCtl: Controller;
  private clipCtl: Controller | null = null;
  private timeCtl: Controller | null = null;
  private readonly anim: GUI;
  private readonly tracks: TracksPanel;
  private readonly techniqueCtl: Controller;
  private readonly paletteCtl: Controller;
  private readonly viewCtl: Controller;
  private readonly render: GUI;
  /** The weights view's bone menu: rebuilt per model, shown with that view only. */
  private boneCtl: Controller | null = null;
  private readonly modelOptions = new Map<string, string>();
  /** Detail levels of a generated built-in that has several; rebuilt per model, absent otherwise. */
  private detailCtl: Controller | null = null;
  private readonly modelFolder: GUI;
  /** Absent where the page cannot go fullscreen (iPhone Safari, some embeds). */
  private readonly fullscreenCtl: Controller | null = null;
  /** Says when the model cannot be linked (opened from a file). */
  private readonly copyLinkCtl: Controller;

  /** Fills `gui`, the panel's root (panelRoot(): made before the first model, filled after its first frame). */
  constructor(
    private readonly app: App,
    gui: GUI,
    private readonly onOpenFile: () => void,
    private readonly onHelp: () => void,
    private readonly actions: PanelActions = {},
  ) {
    this.gui = gui;
    gui.domElement.classList.remove(PENDING);
    const p = this.proxy;
    const models = this.gui.addFolder('Model');
    this.modelFolder = models;
    for (const m of BUILTIN_MODELS) this.modelOptions.set(m.label, m.id);
    this.modelCtl = models.add(p, 'model', Object.fromEntries(this.modelOptions)).name('model').onChange((id: string) => {
      void app.set({ model: id });
    });
    models.add(p, 'openFile').name('Open file…  (O)');
    addUpControl(models, app);

    this.anim = this.gui.addFolder('Animation');
    this.anim.add(p, 'playing').name('play  (Space)').onChange((v: boolean) => {
      if (v) {
        app.state.t = null;
        app.state.paused = false;
      } else {
        app.state.t = null;
        app.state.paused = true;
      }
    });
    this.anim.add(p, 'speed', 0, 3, 0.05).name('speed').onChange((v: number) => {
      app.state.speed = v;
    });
    this.anim.add(p, 'crossfade', 0, 2, 0.05).name('crossfade (s)').onChange((v: number) => {
      app.state.crossfade = v;
    });

    this.tracks = new TracksPanel(this.gui, app);

    const render = this.gui.addFolder('Rendering');
    this.render = render;
    const techniqueOptions: Record<string, string> = {};
    for (const id of TECHNIQUE_IDS) {
      const t = TECHNIQUES.find((x) => x.id === id);
      if (t) techniqueOptions[t.id] = t.id;
    }
    this.techniqueCtl = render.add(p, 'technique', techniqueOptions).name('technique  (T)').onChange((id: string) => {
      void app.set({ technique: id });
    });
    addCompareControl(render, app);
    render.add(p, 'influences', [1, 2, 3, 4]).name('influences').onChange((v: number) => {
      void app.set({ influences: v });
    });
    this.paletteCtl = render.add(p, 'palette', 1, 255, 1).name('palette (ff-indexed)').onFinishChange((v: number) => {
      void app.set({ palette: v });
    });
    this.viewCtl = render.add(p, 'view', [...VIEW_IDS]).name('view  (V, W)').onChange((v: string) => {
      void app.set({ view: v });
    });
    const viewSelect = (this.viewCtl as unknown as { $select: HTMLSelectElement }).$select;
    for (let i = 0; i < viewSelect.options.length; i++) {
      const id = VIEW_IDS[i];
      if (id) viewSelect.options[i]!.title = VIEW_SUMMARY[id];
    }
    render.add(p, 'bindPose').name('bind pose  (B)').onChange((v: boolean) => {
      app.state.bindPose = v;
    });
    render.add(p, 'skeleton').name('skeleton overlay  (K)').onChange((v: boolean) => {
      app.state.skeleton = v;
    });
    render.add(p, 'grid').name('floor  (G)').onChange((v: boolean) => {
      app.state.grid = v;
    });
    render.add(p, 'shadows').name('shadows  (D)').onChange((v: boolean) => {
      app.state.shadows = v;
    }).domElement.title = "The key light's shadow map: the character shadows the floor and itself (every technique casts with its own skinning; one more pass over the meshes)";
    addShadingControl(render, app);
    addCrowdControls(render, p, app);
    render.add(p, 'frame').name('Frame model  (F)');

    this.morphs = new MorphPanel(this.gui, app, () => this.refresh());
    this.gui.add(p, 'savePicture').name('Save picture  (S)').domElement.title = 'The canvas as a PNG at its pixel size';
    mountExportGlb(this.gui, app);
    this.copyLinkCtl = this.gui.add(p, 'copyLink').name('Copy link  (L)');
    if (actions.benchmark) this.gui.add(p, 'benchmark').name('Benchmark…').domElement.title = 'Times every technique on five models, and crowds against three.js, on this GPU (a quick run on a software renderer)';
    this.copyLinkCtl.domElement.title = 'A link that reproduces this view';
    if (document.fullscreenEnabled) {
      this.fullscreenCtl = this.gui.add(p, 'fullscreen').name('Fullscreen');
      document.addEventListener('fullscreenchange', () => this.fullscreenCtl?.name(document.fullscreenElement ? 'Exit fullscreen' : 'Fullscreen'));
    }
    this.gui.add(p, 'help').name('Keys, mouse and touch…  (?)');
  }

  /** The whole page (panel included) fullscreen, or back; the button's label follows `fullscreenchange`. */
  private toggleFullscreen(): void {
    const request = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    request.catch((e: Error) => this.app.fail(`Fullscreen: ${e.message}`));
  }

  /** Rebuilds model-dependent controllers and syncs everything from AppState. */
  modelChanged(model: LoadedModel): void {
    const file = model.origin === 'file';
    this.copyLinkCtl.name(file ? 'Copy link  (L): view only, not this file' : 'Copy link  (L)');
    this.copyLinkCtl.domElement.title = file
      ? 'This model was opened from a file, which a link cannot carry: the link keeps the technique, view and overlays and opens the default model'
      : 'A link that reproduces this view';
    if (![...this.modelOptions.values()].includes(model.id)) {
      this.modelOptions.set(model.label, model.id);
      this.modelCtl = this.modelCtl.options(Object.fromEntries(this.modelOptions)).onChange((id: string) => {
        void this.app.set({ model: id });
      });
    }
    this.clipCtl?.destroy();
    this.timeCtl?.destroy();
    this.boneCtl?.destroy();
    this.detailCtl?.destroy();
    this.detailCtl = null;
    const levels = Object.keys(BUILTIN_MODELS.find((b) => b.id === model.id)?.details ?? {});
    if (levels.length > 0) {
      this.proxy.detail = model.detail;
      this.detailCtl = this.modelFolder.add(this.proxy, 'detail', levels).name('detail').onChange((level: string) => {
        void this.app.set({ detail: level });
      });
    }
    const p = this.proxy;
    const bones = this.app.boneNames();
    p.bone = this.app.state.bone;
    this.boneCtl = this.render.add(p, 'bone', bones.length > 0 ? bones : ['(none)']).name('bone (weights)').onChange((name: string) => {
      if (bones.includes(name)) void this.app.set({ bone: name });
    });
    // Right under the view menu it belongs to.
    this.viewCtl.domElement.after(this.boneCtl.domElement);
    this.boneCtl.disable(bones.length === 0);
    const names = model.scene.clips.map((c) => c.name);
    p.clip = this.app.state.clip;
    this.clipCtl = this.anim.add(p, 'clip', names.length > 0 ? names : ['(none)']).name('clip  ([ ])').onChange((name: string) => {
      if (names.includes(name)) this.app.anim.playClip(name);
    });
    this.clipCtl.disable(names.length === 0);
    const duration = Math.max(model.player.duration, 1e-3);
    this.morphs.modelChanged(model);
    this.tracks.modelChanged(model);
    this.timeCtl = this.anim.add(p, 'time', 0, duration, duration / 500).name('time (s)').decimals(3).listen(this.visible).onChange((t: number) => {
      this.app.state.t = linkTime(t); // as a link writes it: the link and the frame drawn agree
      this.app.state.paused = true;
      p.playing = false;
      this.refresh();
    });
    this.refresh();
  }

  /** Per-frame: mirrors playback time into the time slider (lil-gui's listen() reads `proxy.time`). */
  frame(): void {
    const m = this.app.current;
    if (!m || !this.visible) return;
    this.proxy.time = m.player.time;
    this.tracks.frame(performance.now());
    this.morphs.frame(m);
  }

  /** Pulls every value from AppState (after URL or API changes). */
  refresh(): void {
    const s = this.app.state;
    const p = this.proxy;
    p.model = s.model;
    p.clip = s.clip;
    p.playing = s.t === null && !s.paused;
    p.speed = s.speed;
    p.crossfade = s.crossfade;
    p.technique = s.technique;
    p.influences = s.influences;
    p.palette = s.palette;
    p.view = s.view;
    p.bone = s.bone;
    p.bindPose = s.bindPose;
    p.skeleton = s.skeleton;
    this.morphs.refresh(s);
    this.boneCtl?.show(s.view === 'weights');
    const summary = VIEW_SUMMARY[s.view];
    this.viewCtl.domElement.title = summary;
    p.grid = s.grid;
    p.shadows = s.shadows;
    syncCrowdProxy(p, s);
    const m = this.app.current;
    if (m && this.timeCtl) {
      const d = Math.max(m.player.duration, 1e-3);
      this.timeCtl.max(d).step(d / 500);
    }
    this.refreshTechniques();
    this.tracks.refresh();
    for (const c of this.gui.controllersRecursive()) c.updateDisplay();
  }

  /**
   * Greys out the techniques the current model cannot use (the option says why in its text and tooltip),
   * sets the palette slider's range (smallest workable size to the device limit) and enables it for ff-indexed only.
   */
  private refreshTechniques(): void {
    const select = (this.techniqueCtl as unknown as { $select: HTMLSelectElement }).$select;
    for (let i = 0; i < select.options.length; i++) {
      const option = select.options[i]!;
      const t = TECHNIQUES.find((x) => x.id === TECHNIQUE_IDS.filter((id) => TECHNIQUES.some((y) => y.id === id))[i]);
      if (!t) continue;
      const why = this.app.unsupportedReason(t);
      option.disabled = why !== null;
      option.textContent = why ? `${t.id} (unavailable)` : t.id;
      option.title = why ? `${t.label}: ${why}` : `${t.label}: ${t.summary}`;
    }
    const current = TECHNIQUES.find((x) => x.id === this.app.state.technique);
    this.techniqueCtl.domElement.title = current ? `${current.label}: ${current.summary}` : '';
    const range = this.app.paletteRange();
    if (range) this.paletteCtl.min(range.min).max(Math.max(range.min, range.max));
    this.paletteCtl.enable(this.app.state.technique === 'ff-indexed');
  }

  /** Shows or hides the panel; hidden, its sliders stop following values (no per-frame display updates). */
  setVisible(visible: boolean): void {
    this.gui.show(visible);
    if (visible === this.visible) return;
    this.visible = visible;
    this.timeCtl?.listen(visible);
    this.morphs.setVisible(visible);
  }

  dispose(): void {
    this.gui.destroy();
  }
}
