import GUI, { type Controller } from 'lil-gui';
import type { App, LoadedModel } from '../app/app.ts';
import { BUILTIN_MODELS } from '../app/builtins.ts';
import { VIEW_IDS, VIEW_SUMMARY } from '../render/views.ts';
import { TECHNIQUE_IDS } from '../techniques/technique.ts';
import { TECHNIQUES } from '../techniques/index.ts';

/**
 * The lil-gui panel. It edits AppState through the App (and only that); it never touches GL.
 * Controllers that depend on the model (clip list, time range) are rebuilt when a model loads.
 */
export class Panel {
  readonly gui: GUI;
  private readonly proxy = {
    model: 'default',
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
    frame: (): void => this.app.frameModel(),
    help: (): void => this.onHelp(),
  };
  private modelCtl: Controller;
  private clipCtl: Controller | null = null;
  private timeCtl: Controller | null = null;
  private readonly anim: GUI;
  private readonly techniqueCtl: Controller;
  private readonly paletteCtl: Controller;
  private readonly viewCtl: Controller;
  private readonly render: GUI;
  /** The weights view's bone menu: rebuilt per model, shown with that view only. */
  private boneCtl: Controller | null = null;
  private readonly modelOptions = new Map<string, string>();

  constructor(
    private readonly app: App,
    private readonly onOpenFile: () => void,
    private readonly onHelp: () => void,
  ) {
    this.gui = new GUI({ title: 'skinlab', width: 300 });
    const p = this.proxy;
    const models = this.gui.addFolder('Model');
    for (const m of BUILTIN_MODELS) this.modelOptions.set(m.label, m.id);
    this.modelCtl = models.add(p, 'model', Object.fromEntries(this.modelOptions)).name('model').onChange((id: string) => {
      void app.set({ model: id });
    });
    models.add(p, 'openFile').name('Open file…  (O)');

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
    render.add(p, 'frame').name('Frame model  (F)');
    this.gui.add(p, 'help').name('Keys and mouse…  (?)');
  }

  /** Rebuilds model-dependent controllers and syncs everything from AppState. */
  modelChanged(model: LoadedModel): void {
    if (![...this.modelOptions.values()].includes(model.id)) {
      this.modelOptions.set(model.label, model.id);
      this.modelCtl = this.modelCtl.options(Object.fromEntries(this.modelOptions)).onChange((id: string) => {
        void this.app.set({ model: id });
      });
    }
    this.clipCtl?.destroy();
    this.timeCtl?.destroy();
    this.boneCtl?.destroy();
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
      if (names.includes(name)) this.app.playClip(name);
    });
    this.clipCtl.disable(names.length === 0);
    const duration = Math.max(model.player.duration, 1e-3);
    this.timeCtl = this.anim.add(p, 'time', 0, duration, duration / 500).name('time (s)').decimals(3).listen().onChange((t: number) => {
      this.app.state.t = t;
      this.app.state.paused = true;
      p.playing = false;
      this.refresh();
    });
    this.refresh();
  }

  /** Per-frame: mirrors playback time into the time slider (lil-gui's listen() reads `proxy.time`). */
  frame(): void {
    const m = this.app.current;
    if (!m) return;
    this.proxy.time = m.player.time;
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
    this.boneCtl?.show(s.view === 'weights');
    const summary = VIEW_SUMMARY[s.view];
    this.viewCtl.domElement.title = summary;
    p.grid = s.grid;
    const m = this.app.current;
    if (m && this.timeCtl) {
      const d = Math.max(m.player.duration, 1e-3);
      this.timeCtl.max(d).step(d / 500);
    }
    this.refreshTechniques();
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

  setVisible(visible: boolean): void {
    this.gui.show(visible);
  }

  dispose(): void {
    this.gui.destroy();
  }
}
