import { MORPH_PATHS, type MorphPath } from '../anim/morph.ts';
import { VIEW_IDS, type ViewId } from '../render/views.ts';
import { CROWD_LAYOUTS, MAX_CROWD, type CrowdLayout } from '../render/crowd-layout.ts';
import { IMPOSTOR_MODES, type ImpostorMode } from '../render/frame-types.ts';
import { TECHNIQUE_IDS, type TechniqueId } from '../techniques/technique.ts';
import { formatTracksSpec, parseTracksSpec } from '../anim/controller/track-spec.ts';
import { DEFAULT_SPLIT, parseCompare, parseSplit, type ComparePair } from './compare-state.ts';
import { parseCrowdModels } from './crowd-models-state.ts';
import { parseCamera, type CameraSetting } from './camera-setting.ts';
import { parseMorph } from './morph-param.ts';
import { UP_PARAMS, type UpParam } from './up-axis.ts';

export { CAMERA_PRESETS, formatCamera, roundCamera, type CameraSetting } from './camera-setting.ts';
export { formatMorph, parseMorph } from './morph-param.ts';

/**
 * The one typed application state. The URL fills it, the GUI edits it, the frame loop and renderer
 * read it; the UI never touches GL. Keys and values: docs/api.md#url-parameters.
 */
export interface AppState {
  /** Built-in model id or a URL relative to the page. */
  model: string;
  /** Requested clip: name or 0-based index as given; resolved against the loaded model. */
  clip: string;
  /** When not null, playback is paused at exactly this time (seconds). */
  t: number | null;
  speed: number;
  paused: boolean;
  /** Crossfade duration when switching clips (seconds). */
  crossfade: number;
  technique: TechniqueId;
  /** Maximum bone influences per vertex, 1..4. */
  influences: number;
  /** Palette size of `ff-indexed` (matrices per draw); clamped to what the model and device allow. */
  palette: number;
  view: ViewId;
  /**
   * The weights view's bone: a name or a 0-based index into the model's bones (the skeleton nodes that skin
   * a vertex, in skeleton order), as given; resolved against the loaded model ('' = the default bone, the one
   * weighting the most vertices).
   */
  bone: string;
  /** Draw the stored bind-space mesh (identity palette) and the skeleton in bind pose. */
  bindPose: boolean;
  /** Detail level of a generated built-in that has several (builtins.ts `details`); '' = its default. */
  detail: string;
  /** Which of the file's axes stands up (`up`, app/up-axis.ts): 'auto' turns detected Z-up files upright. */
  up: UpParam;
  skeleton: boolean;
  grid: boolean;
  /**
   * The key light's shadow map (`shadows`, default on): the model casts a shadow onto the floor and
   * onto itself, in every technique, view and the crowd. The contact shadow under the model is the floor's (`grid`).
   */
  shadows: boolean;
  /**
   * How the shaded view lights the model (`shading`): 'studio' (Blinn-Phong studio lights), 'pbr' (the
   * material as authored: metallic-roughness, normal, occlusion and emissive maps, image-based light), or
   * 'auto' (default): pbr for glTF models, studio for .x/.m3d. The crowd draws studio.
   */
  shading: Shading;
  /** false hides every overlay (GUI, stats, hints) for clean screenshots. */
  gui: boolean;
  /** null frames the model automatically; else yaw/pitch in degrees, distance in model radii, target in model units. */
  camera: CameraSetting | null;
  /**
   * Morph-target weights set by hand, by target name (URL `morph=name:weight,...`), in the order given.
   * Targets not listed follow the clip's expression track (or weigh 0 with the track off). Names are
   * checked against the loaded model by the app.
   */
  morph: Record<string, number>;
  /** How morph targets are applied; ignored by a model without targets. */
  morphs: MorphPath;
  /** Play the clip's expression (morph-weight) tracks. */
  morphTrack: boolean;
  /**
   * Crowd mode (`crowd`): instances of the model to draw, 1..MAX_CROWD. 1 is the single
   * model through the chosen technique; above 1 the instanced texture-palette path (render/crowd.ts).
   */
  crowd: number;
  /**
   * Animation-controller tracks (`tracks`), `CLIP[:WEIGHT[:SPEED]][@BONE][~additive][!|!low],...` in the
   * canonical form formatTracksSpec writes; '' = one track playing `clip`. Clip and bone names are checked
   * against the loaded model by the app (app/tracks-state.ts).
   */
  tracks: string;
  /** Weight of the look-at chain turning the head towards the camera after the tracks, 0 (off) to 1. */
  lookAt: number;
  /** Crowd mode: every instance walks about the floor with its own controller (crowd > 1 only). */
  wander: boolean;
  /**
   * Crowd mode's path (`crowdPath`): `baked` (every clip's palettes baked once, per-instance time in
   * the vertex stage) or `cpu` (every instance's palette built per frame). Wander always draws `cpu`.
   */
  crowdPath: CrowdPath;
  /**
   * Crowd mode's layout (`crowdLayout`): `grid` (default) or `plaza` (jittered, in groups and lines, each
   * instance with its own heading; the automatic camera stands at the plaza's edge at a person's height).
   */
  crowdLayout: CrowdLayout;
  /** Crowd mode: a tint per instance multiplied into the base colour (`crowdTint`, default on). */
  crowdTint: boolean;
  /** Crowd mode: frustum-cull instances against the camera (`cull`, default on). */
  cull: boolean;
  /**
   * Crowd mode with LOD: impostors (`impostors`, docs/crowds.md): 'far' (default) for the far field past the
   * lightest level, 'all' for every instance, 'off' for none.
   */
  impostors: ImpostorMode;
  /** Crowd mode, a model with detail levels: far instances draw the lighter levels (`lod`, default on; docs/crowds.md). */
  lod: boolean;
  /**
   * Mixed crowds (`crowdModels`, docs/crowds.md): the models a crowd mixes, as given (built-in ids, `default` for
   * the loaded model, `walker` for the built-in Walker, or URLs); [] for a crowd of the loaded model alone. The
   * loaded model is always the first; the app checks and loads the others (crowd-models.ts).
   */
  crowdModels: string[];
  /**
   * Side-by-side compare (`compare=A,B`, app/compare-state.ts): A on the left, B on the right, one
   * camera; null = the single view of `technique`. Drawn with one character only (crowd 1).
   */
  compare: ComparePair | null;
  /** Compare: the divider's place, the share of the canvas width left of it (`compareSplit`, default 0.5). */
  compareSplit: number;
}

export const SHADINGS = ['auto', 'studio', 'pbr'] as const;
export type Shading = (typeof SHADINGS)[number];

export const CROWD_PATHS = ['baked', 'cpu'] as const;
export type CrowdPath = (typeof CROWD_PATHS)[number];

export function defaultState(): AppState {
  return {
    model: 'default',
    clip: 'walk',
    t: null,
    speed: 1,
    paused: false,
    crossfade: 0.3,
    technique: 'vs-hlsl',
    influences: 4,
    palette: 12,
    view: 'shaded',
    bone: '',
    bindPose: false,
    detail: '',
    up: 'auto',
    skeleton: false,
    grid: true,
    shadows: true,
    shading: 'auto',
    gui: true,
    camera: null,
    morph: {},
    morphs: 'slots',
    morphTrack: true,
    crowd: 1,
    tracks: '',
    lookAt: 0,
    wander: false,
    crowdPath: 'baked',
    crowdLayout: 'grid',
    crowdTint: true,
    cull: true,
    impostors: 'far',
    lod: true,
    crowdModels: [],
    compare: null,
    compareSplit: DEFAULT_SPLIT,
  };
}

/** An on/off value that must be one: `1`, `true` or empty (the bare key) is on, `0` or `false` off; null for anything else. */
function parseSwitch(value: string, raw: unknown): boolean | null {
  if (value === '0' || value === 'false' || raw === false) return false;
  if (value === '1' || value === 'true' || raw === true || value === '') return true;
  return null;
}

/**
 * Applies query-style parameters to a state. Returns one message per bad value (the value is then left
 * as it was). Unknown keys are ignored. `detail` is checked against the model's levels by the app. `morph` names are checked against the loaded model by the app. `palette` is checked here for form only; the app checks its range
 * against the loaded model and the device.
 */
export function applyParams(state: AppState, params: Record<string, string | number | boolean | null | undefined>): string[] {
  const errors: string[] = [];
  const bad = (key: string, value: unknown, why: string): void => {
    errors.push(`${key}=${String(value)}: ${why}`);
  };
  for (const [key, raw] of Object.entries(params)) {
    if (raw === undefined) continue;
    const value = raw === null ? '' : String(raw).trim();
    switch (key) {
      case 'model':
        if (value === '') bad(key, raw, 'expected a built-in model id or a URL');
        else state.model = value;
        break;
      case 'clip':
        state.clip = value;
        break;
      case 't': {
        if (value === '' || raw === null) {
          state.t = null;
          state.paused = false;
          break;
        }
        const t = Number(value);
        if (!Number.isFinite(t) || t < 0) bad(key, raw, 'expected a time in seconds ≥ 0');
        else {
          state.t = t;
          state.paused = true;
        }
        break;
      }
      case 'speed': {
        const v = Number(value);
        if (!Number.isFinite(v) || v < 0 || v > 100) bad(key, raw, 'expected a playback rate between 0 and 100');
        else state.speed = v;
        break;
      }
      case 'technique':
        if (!(TECHNIQUE_IDS as readonly string[]).includes(value)) bad(key, raw, `unknown technique; one of ${TECHNIQUE_IDS.join(', ')}`);
        else state.technique = value as TechniqueId;
        break;
      case 'influences': {
        const v = Number(value);
        if (!Number.isInteger(v) || v < 1 || v > 4) bad(key, raw, 'expected 1, 2, 3 or 4');
        else state.influences = v;
        break;
      }
      case 'palette': {
        const v = Number(value);
        if (!Number.isInteger(v) || v < 1 || v > 255) bad(key, raw, 'expected a palette size, a whole number of matrices from 1 to 255');
        else state.palette = v;
        break;
      }
      case 'view':
        if (!(VIEW_IDS as readonly string[]).includes(value)) bad(key, raw, `unknown view; one of ${VIEW_IDS.join(', ')}`);
        else state.view = value as ViewId;
        break;
      case 'bone':
        state.bone = value;
        break;
      case 'bindPose':
        state.bindPose = value === '1' || value === 'true' || raw === true;
        break;
      case 'detail':
        if (!/^[a-z0-9-]*$/i.test(value)) bad(key, raw, 'expected a detail level name such as low, medium or high');
        else state.detail = value.toLowerCase();
        break;
      case 'up':
        if (!(UP_PARAMS as readonly string[]).includes(value)) bad(key, raw, 'expected y (as stored), z (the file\'s +Z up) or auto (Z-up characters detected)');
        else state.up = value as UpParam;
        break;
      case 'camera': {
        const camera = parseCamera(value);
        if (typeof camera === 'string') bad(key, raw, camera);
        else state.camera = camera;
        break;
      }
      case 'morph': {
        const parsed = parseMorph(value);
        if (typeof parsed === 'string') bad(key, raw, `expected name:weight,name:weight,… (${parsed})`);
        else state.morph = parsed;
        break;
      }
      case 'morphs':
        if (!(MORPH_PATHS as readonly string[]).includes(value)) bad(key, raw, `unknown morph path; one of ${MORPH_PATHS.join(', ')}`);
        else state.morphs = value as MorphPath;
        break;
      case 'crowd': {
        const v = Number(value);
        if (!Number.isInteger(v) || v < 1 || v > MAX_CROWD) bad(key, raw, `expected a whole number of instances from 1 to ${MAX_CROWD}`);
        else state.crowd = v;
        break;
      }
      case 'tracks': {
        const { specs, errors: why } = parseTracksSpec(value);
        if (why.length > 0) bad(key, raw, `expected CLIP[:WEIGHT[:SPEED]][@BONE][~additive][!|!low],… (${why.join('; ')})`);
        else state.tracks = formatTracksSpec(specs);
        break;
      }
      case 'lookAt': {
        const v = raw === true || value === 'true' ? 1 : raw === false || value === 'false' ? 0 : Number(value);
        if (!Number.isFinite(v) || v < 0 || v > 1) bad(key, raw, 'expected 0 (off), 1 (on) or a weight between them');
        else state.lookAt = v;
        break;
      }
      case 'crowdPath':
        if (!(CROWD_PATHS as readonly string[]).includes(value)) bad(key, raw, `unknown crowd path; one of ${CROWD_PATHS.join(', ')}`);
        else state.crowdPath = value as CrowdPath;
        break;
      case 'crowdLayout':
        if (!(CROWD_LAYOUTS as readonly string[]).includes(value)) bad(key, raw, `unknown crowd layout; one of ${CROWD_LAYOUTS.join(', ')}`);
        else state.crowdLayout = value as CrowdLayout;
        break;
      case 'crowdTint': {
        const on = parseSwitch(value, raw);
        if (on === null) bad(key, raw, 'expected 1 (a tint per crowd instance, default) or 0');
        else state.crowdTint = on;
        break;
      }
      case 'cull': {
        const on = parseSwitch(value, raw);
        if (on === null) bad(key, raw, 'expected 1 (cull crowd instances outside the view, default) or 0');
        else state.cull = on;
        break;
      }
      case 'impostors': {
        // 1 and 0 read as the switch they look like: far (the default) and off.
        const mode = value === '1' || value === 'true' ? 'far' : value === '0' || value === 'false' ? 'off' : value;
        if (!(IMPOSTOR_MODES as readonly string[]).includes(mode)) bad(key, raw, `expected one of ${IMPOSTOR_MODES.join(', ')} (far: the far field, default; all: every instance; 1 = far, 0 = off)`);
        else state.impostors = mode as ImpostorMode;
        break;
      }
      case 'lod': {
        const on = parseSwitch(value, raw);
        if (on === null) bad(key, raw, 'expected 1 (distance LOD in crowds of a model with detail levels, default) or 0');
        else state.lod = on;
        break;
      }
      case 'crowdModels': {
        const list = parseCrowdModels(value);
        if (typeof list === 'string') bad(key, raw, list);
        else state.crowdModels = list;
        break;
      }
      case 'compare': {
        const pair = parseCompare(value);
        if (typeof pair === 'string') bad(key, raw, pair);
        else state.compare = pair;
        break;
      }
      case 'compareSplit': {
        const split = parseSplit(value);
        if (typeof split === 'string') bad(key, raw, split);
        else state.compareSplit = split;
        break;
      }
      case 'wander':
        state.wander = value === '1' || value === 'true' || raw === true;
        break;
      case 'morphTrack':
        state.morphTrack = !(value === '0' || value === 'false' || raw === false);
        break;
      case 'gui':
        state.gui = !(value === '0' || value === 'false' || raw === false);
        break;
      case 'grid':
        state.grid = !(value === '0' || value === 'false' || raw === false);
        break;
      case 'shadows': {
        const on = parseSwitch(value, raw);
        if (on === null) bad(key, raw, 'expected 1 (the key light casts shadows, default) or 0');
        else state.shadows = on;
        break;
      }
      case 'shading':
        if (!(SHADINGS as readonly string[]).includes(value)) bad(key, raw, 'expected studio, pbr or auto (pbr for glTF models, studio for .x/.m3d; default)');
        else state.shading = value as Shading;
        break;
      case 'skeleton':
        state.skeleton = value === '1' || value === 'true' || raw === true;
        break;
      default:
        break;
    }
  }
  return errors;
}

/** Query string → params record (last value of a repeated key wins). */
export function paramsFromSearch(search: string): Record<string, string> {
  const out: Record<string, string> = {};
  new URLSearchParams(search).forEach((v, k) => {
    out[k] = v;
  });
  return out;
}
