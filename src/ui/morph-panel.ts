import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import type { App, LoadedModel } from '../app/app.ts';
import type { AppState } from '../app/state.ts';
import { formatMorph } from '../app/state.ts';
import { MORPH_PATHS } from '../anim/morph.ts';
import { availablePresets } from './morph-presets.ts';

/**
 * The Morph targets folder of the panel (GPU Gems ch. 4, Dawn): the morph path, the expression track, presets,
 * the slot readout, then one slider per target under Emotions and Modifiers. Rebuilt per model and hidden for a
 * model without targets; the sliders follow the weights drawn (expression track or hand-set). Edits go through
 * the App; the folder never touches GL.
 */
export class MorphPanel {
  private readonly folder: GUI;
  private readonly pathCtl: Controller;
  private folders: GUI[] = [];
  private presetCtl: Controller | null = null;
  /** Slider values by target name, mirrored from the player's final weights (listen()). */
  private values: Record<string, number> = {};
  private readonly slotView: HTMLElement;
  private slotViewAt = 0;
  /** Hidden panel: the sliders stop following the weights. */
  private visible = true;
  private readonly proxy = {
    morphs: 'slots',
    morphTrack: true,
    preset: '(choose)',
    resetMorphs: (): void => {
      this.app.anim.resetMorphs();
      this.proxy.preset = '(choose)';
      this.changed();
    },
  };

  /** Adds the folder to `gui`; `changed`: the panel's refresh, after an edit made here. */
  constructor(
    gui: GUI,
    private readonly app: App,
    private readonly changed: () => void,
  ) {
    const p = this.proxy;
    this.folder = gui.addFolder('Morph targets');
    this.pathCtl = this.folder.add(p, 'morphs', [...MORPH_PATHS]).name('morph path').onChange((v: string) => {
      void app.set({ morphs: v });
    });
    this.pathCtl.domElement.title = "slots: Dawn's 5 attribute slots (more active targets are dropped); texture: every target from a float texture; cpu: the reference";
    this.folder.add(p, 'morphTrack').name('play expression track').onChange((v: boolean) => {
      app.state.morphTrack = v;
    });
    this.folder.add(p, 'resetMorphs').name('Reset (all to track / 0)');
    this.slotView = document.createElement('div');
    this.slotView.className = 'morph-slots';
    this.slotView.style.cssText = 'padding:4px 8px;font:11px/1.45 monospace;white-space:pre;color:#cfd6df';
    (this.folder as unknown as { $children: HTMLElement }).$children.appendChild(this.slotView);
    this.folder.hide();
  }

  /** Rebuilds the folder for a model: Emotions / Modifiers sliders, presets; hidden without targets. */
  modelChanged(model: LoadedModel): void {
    for (const f of this.folders) f.destroy();
    this.folders = [];
    this.presetCtl?.destroy();
    this.presetCtl = null;
    const targets = model.scene.morphTargets;
    this.folder.show(targets.length > 0);
    if (targets.length === 0) return;
    const p = this.proxy;
    const presets = availablePresets(targets);
    if (presets.length > 0) {
      p.preset = '(choose)';
      this.presetCtl = this.folder.add(p, 'preset', ['(choose)', ...presets.map((x) => x.name)]).name('expression preset').onChange((name: string) => {
        const preset = presets.find((x) => x.name === name);
        if (preset) void this.app.set({ morph: formatMorph(preset.weights) });
      });
      this.pathCtl.domElement.after(this.presetCtl.domElement);
    }
    this.values = {};
    const values = this.values;
    const kinds = model.scene.morphKinds;
    const emotions = this.folder.addFolder('Emotions');
    const modifiers = this.folder.addFolder('Modifiers');
    this.folders.push(emotions, modifiers);
    targets.forEach((name, i) => {
      values[name] = model.player.morphWeights[i] ?? 0;
      const folder = kinds?.[i] === 'emotion' ? emotions : modifiers;
      folder.add(values, name, 0, 1, 0.01).decimals(2).listen(this.visible).onChange((v: number) => {
        this.app.anim.setMorph(name, v);
        this.proxy.preset = '(choose)';
      });
    });
    if (emotions.controllers.length === 0) emotions.hide();
    if (modifiers.controllers.length === 0) modifiers.hide();
  }

  /** Per frame (panel shown): the sliders follow the weights drawn; the slot readout 4 times a second. */
  frame(model: LoadedModel): void {
    const targets = model.scene.morphTargets;
    if (targets.length === 0) return;
    const w = model.player.morphWeights;
    const values = this.values;
    for (let i = 0; i < targets.length; i++) if (values[targets[i]!] !== w[i]) values[targets[i]!] = w[i]!;
    const now = performance.now();
    if (now - this.slotViewAt < 250) return;
    this.slotViewAt = now;
    const st = this.app.stats();
    let text: string;
    if (st.morphPath === 'slots') {
      const rows = [0, 1, 2, 3, 4].map((s) => (s < st.morphSlots.length ? `slot ${s}: ${st.morphSlots[s]} ${st.morphSlotWeights[s]!.toFixed(2)}` : `slot ${s}: —`));
      rows.push(st.morphDropped > 0 ? `dropped: ${st.morphDropped.toFixed(2)} (more than 5 active)` : 'dropped: 0');
      text = rows.join('\n');
    } else {
      const active = targets.filter((_, i) => w[i] !== 0).length;
      text = `${st.morphPath}: ${active} active target${active === 1 ? '' : 's'}, none dropped`;
    }
    if (this.slotView.textContent !== text) this.slotView.textContent = text;
  }

  /** The path and track switches from the state (after URL or API changes). */
  refresh(s: AppState): void {
    this.proxy.morphs = s.morphs;
    this.proxy.morphTrack = s.morphTrack;
  }

  /** Shown or hidden with the panel: hidden, the sliders stop following the weights. */
  setVisible(visible: boolean): void {
    this.visible = visible;
    for (const f of this.folders) for (const c of f.controllers) c.listen(visible);
  }
}
