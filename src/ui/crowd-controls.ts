import type { Controller, GUI } from 'lil-gui';
import type { App } from '../app/app.ts';
import type { AppState } from '../app/state.ts';
import { CROWD_LAYOUTS, MAX_CROWD } from '../render/crowd-layout.ts';

/** The panel's crowd values (part of the Panel's proxy object). */
interface CrowdProxy {
  crowd: number;
  crowdPath: string;
  crowdLayout: string;
  crowdTint: boolean;
  cull: boolean;
  impostors: string;
  lod: boolean;
  /** `crowdModels` as text: ids or URLs, comma-separated. */
  crowdModels: string;
}

/** The crowd values of a fresh panel proxy (the state's defaults). Allocates; once per panel. */
export function crowdProxy(): CrowdProxy {
  return { crowd: 1, crowdPath: 'baked', crowdLayout: 'grid', crowdTint: true, cull: true, impostors: 'far', lod: true, crowdModels: '' };
}

/** Copies the state's crowd values into the panel's proxy (the controllers then show them). */
export function syncCrowdProxy(p: CrowdProxy, s: AppState): void {
  p.crowd = s.crowd;
  p.crowdPath = s.crowdPath;
  p.crowdLayout = s.crowdLayout;
  p.crowdTint = s.crowdTint;
  p.cull = s.cull;
  p.impostors = s.impostors;
  p.lod = s.lod;
  p.crowdModels = s.crowdModels.join(',');
}

/**
 * The Rendering folder's crowd controls: the instance count, the crowd path, the layout, the tint, culling, the
 * distance LOD, the impostors and the models of a mixed crowd,
 * each setting the app's state through `app.set` (docs/crowds.md says what they do); the panel's proxy
 * keeps their values in step with the state. Returns the count slider.
 */
export function addCrowdControls(folder: GUI, p: CrowdProxy, app: App): Controller {
  const crowd = folder.add(p, 'crowd', 1, MAX_CROWD, 1).name('crowd (instanced)').onFinishChange((v: number) => {
    void app.set({ crowd: v });
  });
  crowd.domElement.title = 'Instances of the character, each at its own phase: one instanced draw per subset (technique menu and view ignored, morph targets not applied)';
  folder.add(p, 'crowdPath', ['baked', 'cpu']).name('crowd path').onChange((v: string) => {
    void app.set({ crowdPath: v });
  }).domElement.title = 'baked: every clip\'s palettes baked once, each instance blends two baked frames at its own time in the vertex shader (no per-frame palette work); cpu: every visible instance\'s palette built and uploaded each frame (wander always uses it)';
  folder.add(p, 'crowdLayout', [...CROWD_LAYOUTS]).name('crowd layout').onChange((v: string) => {
    void app.set({ crowdLayout: v });
  }).domElement.title = 'grid: rows and columns, every instance facing the same way; plaza: spread over a round plaza, jittered, in groups (facing their centre) and walking lines, each with its own heading; the camera stands at the plaza\'s edge at a person\'s height';
  folder.add(p, 'crowdTint').name('crowd tint').onChange((v: boolean) => {
    void app.set({ crowdTint: v });
  }).domElement.title = 'A slightly different colour per instance (brightness and hue within about ±25 %), multiplied into the base colour';
  folder.add(p, 'cull').name('crowd culling').onChange((v: boolean) => {
    void app.set({ cull: v });
  }).domElement.title = 'Leave out crowd instances whose bounding sphere is outside the view (a shadow caster is kept while its shadow may fall in view)';
  folder.add(p, 'lod').name('crowd LOD').onChange((v: boolean) => {
    void app.set({ lod: v });
  }).domElement.title = 'Distance LOD for a model with detail levels (Dawn): far instances draw the lighter levels, loaded in the background (baked path)';
  folder.add(p, 'impostors', ['far', 'all', 'off']).name('crowd impostors').onChange((v: string) => {
    void app.set({ impostors: v });
  }).domElement.title = 'With crowd LOD: far draws the instances past the lightest level, only a few pixels tall, as one textured quad each, from an atlas of the clip captured from 24 directions when the crowd starts; all draws every instance that way (to see an impostor up close); off draws none (baked path)';
  folder.add(p, 'crowdModels').name('crowd models').onFinishChange((v: string) => {
    void app.set({ crowdModels: v });
  }).domElement.title = `Mixed crowd: other models, comma-separated (built-in ids such as tiny,fox,walker, or URLs; default = the loaded model, always the first). Loaded in the background; each instance draws one of them at its own walk clip, phase and speed, scaled to the loaded model's height (baked path)`;
  return crowd;
}
