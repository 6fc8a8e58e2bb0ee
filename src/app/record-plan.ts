import { VIEW_IDS } from '../render/views.ts';
import { TECHNIQUE_IDS } from '../techniques/technique.ts';
import { CAMERA_PRESETS } from './state.ts';
import { pairReason } from './compare-state.ts';

/**
 * What a recording is: the request (clips × techniques × views × cameras × times at one size), the shots
 * it expands to, file names, and the manifest.json written next to the PNGs. Shared by the page's
 * Record folder, `window.skinlab.recordPlan/capture`, the `screenshots` CLI and `compare`, so every path
 * names and describes a state the same way. Pure: no DOM, no GL (runs in Node).
 */

export const MANIFEST_FORMAT = 'skinlab-shots';
export const MANIFEST_VERSION = 1;

/** Largest width or height of a recorded image (pixels). */
export const MAX_SHOT_SIZE = 4096;

export interface ShotSize {
  width: number;
  height: number;
}

/** A recording request. Lists are taken as given (order kept, duplicates dropped). */
export interface RecordRequest {
  /** Clip names or 0-based indices; empty = the clip the page shows; `all` (alone) = every clip. */
  clips: string[];
  /** Times in seconds; used when `frames` is null. */
  times: number[];
  /** N evenly spaced times per clip: i · duration / N for i = 0 … N−1 (the end is the start of a loop). */
  frames: number | null;
  /** Technique ids, or `all` for every technique this build has; `A,B` is a side-by-side compare shot. */
  techniques: string[] | 'all';
  /** Debug view ids (docs/api.md#view-ids). */
  views: string[];
  /** Camera settings: `auto` (framed), a preset name, or `yaw,pitch,distance` (URL key `camera`, docs/api.md#url-parameters). */
  cameras: string[];
  size: ShotSize;
  /** The model's name in file names and the manifest; default: the page's model id. */
  modelName?: string;
}

/** What the page reports about the loaded model for planning. */
export interface Subject {
  model: string;
  /** The clip the page shows (null: the model has none). */
  clip: string | null;
  clips: readonly { name: string; duration: number }[];
  /** Technique ids this build can draw with. */
  techniques: readonly string[];
  /** Per available technique: null when it can draw this model here, else why not. */
  support: Readonly<Record<string, string | null>>;
  /** Debug view ids this build draws. */
  views: readonly string[];
}

/** One state to render. `file` is the PNG's name inside the recording. */
export interface Shot {
  file: string;
  model: string;
  /** null when the model has no clips. */
  clip: string | null;
  /** Seconds. */
  t: number;
  technique: string;
  view: string;
  /** The camera setting as requested (`auto`, a preset, or `yaw,pitch,distance`). */
  camera: string;
  width: number;
  height: number;
}

export interface PlannedShot extends Shot {
  /** Why this shot cannot be rendered on this build or model, else null. */
  skipped: string | null;
}

/** Camera pose a shot was rendered with: degrees, and world units for distance and target. */
export interface CameraPose {
  yaw: number;
  pitch: number;
  distance: number;
  target: [number, number, number];
}

export interface ManifestEntry extends Shot {
  status: 'ok' | 'skipped';
  /** Set when skipped. */
  reason?: string;
  /** Set when rendered. */
  pose?: CameraPose;
}

/**
 * manifest.json of a recording. `shots` lists every planned shot in plan order, rendered or skipped;
 * PNG paths are `shots[i].file` relative to the manifest.
 */
export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  version: typeof MANIFEST_VERSION;
  app: { name: string; version: string };
  /** `cli` (npm run screenshots) or `app` (the Record folder). */
  recorder: 'cli' | 'app';
  /** WebGL renderer string of the browser that drew the images. */
  renderer: string;
  model: string;
  size: ShotSize;
  /** Page parameters given for the whole run (CLI `--set`); empty from the app. */
  params: Record<string, string>;
  /** State every shot shares, as the page resolved it (influences, palette, grid, skeleton, ...). */
  settings: Record<string, unknown>;
  /**
   * Set on one slice of a recording split over machines (`screenshots --shard I/N`): `shots` then holds
   * only this slice of the plan. Absent on a whole recording, and on the merge of all N slices.
   */
  shard?: ShardInfo;
  shots: ManifestEntry[];
}

/** Slice `index` (1-based) of `total` contiguous slices of the ordered plan (src/cli/shots-shard.ts). */
export interface ShardInfo {
  index: number;
  total: number;
}

/** A problem with a request (bad clip, camera, size); the message is for the user. */
export class RecordRequestError extends Error {
  override readonly name = 'RecordRequestError';
}

/**
 * The page's recording entry points, added to `window.skinlab` (src/ui/recorder.ts):
 * - `recordPlan(request)`: the shots for the loaded model, skipped ones with their reason; throws
 *   RecordRequestError's message for a bad request.
 * - `capture(shot)`: renders one planned shot at exactly shot.width × shot.height (device pixels, no
 *   page chrome) and resolves to the PNG as base64 plus the camera pose and shared settings. Leaves the
 *   page in that state (the Record folder restores the user's state; the CLI does not need to).
 */
export interface RecordApi {
  recordPlan(request: RecordRequest): RecordPlan;
  capture(shot: Shot): Promise<{ png: string; pose: CameraPose; settings: Record<string, unknown> }>;
}

/** The page's answer to a request: the shots, and what the manifest says about the page. */
export interface RecordPlan {
  shots: PlannedShot[];
  app: Manifest['app'];
  renderer: string;
  model: string;
  settings: Record<string, unknown>;
}

/** The manifest of a recording (every recorder builds it here). */
export function buildManifest(
  recorder: Manifest['recorder'],
  plan: Omit<RecordPlan, 'shots'>,
  request: RecordRequest,
  params: Record<string, string>,
  shots: ManifestEntry[],
): Manifest {
  return {
    format: MANIFEST_FORMAT,
    version: MANIFEST_VERSION,
    app: plan.app,
    recorder,
    renderer: plan.renderer,
    model: plan.model,
    size: { width: request.size.width, height: request.size.height },
    params,
    settings: plan.settings,
    shots,
  };
}

export function defaultRequest(): RecordRequest {
  return { clips: [], times: [], frames: 3, techniques: 'all', views: ['shaded'], cameras: ['auto'], size: { width: 800, height: 600 } };
}

/** `800x600` → size; throws RecordRequestError. */
export function parseSize(text: string): ShotSize {
  const m = /^\s*(\d+)\s*[x×X]\s*(\d+)\s*$/.exec(text);
  const width = m ? Number(m[1]) : NaN;
  const height = m ? Number(m[2]) : NaN;
  if (!m || width < 1 || height < 1 || width > MAX_SHOT_SIZE || height > MAX_SHOT_SIZE) {
    throw new RecordRequestError(`size ${JSON.stringify(text)}: expected WIDTHxHEIGHT in pixels, each 1 to ${MAX_SHOT_SIZE} (e.g. 800x600)`);
  }
  return { width, height };
}

/** `0, 0.5,1` → seconds; throws RecordRequestError. */
export function parseTimes(text: string): number[] {
  const parts = splitList(text);
  if (parts.length === 0) throw new RecordRequestError('times: expected a list of seconds, e.g. 0,0.5,1');
  return parts.map((p) => {
    const t = Number(p);
    if (p === '' || !Number.isFinite(t) || t < 0) throw new RecordRequestError(`times: ${JSON.stringify(p)} is not a time in seconds ≥ 0`);
    return t;
  });
}

/** A frame count 1..10000; throws RecordRequestError. */
export function parseFrames(text: string | number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 10000) throw new RecordRequestError(`frames: ${JSON.stringify(String(text))} is not a whole number of frames from 1 to 10000`);
  return n;
}

/** Comma-separated list, blanks trimmed, empty items dropped. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Validates a camera setting (`auto`, a preset name, `yaw,pitch,distance`) and returns it normalised. */
export function parseCamera(text: string): string {
  const s = text.trim();
  if (s === '' || s === 'auto') return 'auto';
  if (CAMERA_PRESETS[s]) return s;
  const parts = s.split(',').map((p) => Number(p.trim()));
  if (parts.length === 3 && parts.every((x) => Number.isFinite(x)) && parts[2]! > 0) return parts.join(',');
  throw new RecordRequestError(`camera ${JSON.stringify(text)}: expected auto, ${Object.keys(CAMERA_PRESETS).join(', ')}, or yaw,pitch,distance (degrees, degrees, model radii > 0)`);
}

/** The times of one clip: the request's list, or its N evenly spaced frames (rounded to 1 µs). */
export function clipTimes(request: RecordRequest, duration: number): number[] {
  if (request.frames === null) return unique(request.times);
  const n = request.frames;
  const d = Number.isFinite(duration) && duration > 0 ? duration : 0;
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(Math.round(((i * d) / n) * 1e6) / 1e6);
  return unique(out);
}

/**
 * Expands a request into shots for one model, in render order (clip, technique, view, camera, time).
 * Techniques and views this build does not have, and techniques that cannot draw this model, become
 * skipped shots with the reason. An unknown clip, a bad camera or an empty list throws RecordRequestError.
 */
export function planShots(request: RecordRequest, subject: Subject): PlannedShot[] {
  const { width, height } = request.size;
  if (!(width >= 1 && height >= 1 && width <= MAX_SHOT_SIZE && height <= MAX_SHOT_SIZE && Number.isInteger(width) && Number.isInteger(height))) {
    throw new RecordRequestError(`size ${width}x${height}: each side must be a whole number of pixels from 1 to ${MAX_SHOT_SIZE}`);
  }
  const clips = resolveClips(request.clips, subject);
  const model = request.modelName ?? subject.model;
  const techniques = unique(request.techniques === 'all' ? [...subject.techniques] : request.techniques);
  const views = unique(request.views);
  const cameras = unique(request.cameras.map(parseCamera));
  if (techniques.length === 0) throw new RecordRequestError('techniques: none chosen');
  if (views.length === 0) throw new RecordRequestError('views: none chosen');
  if (cameras.length === 0) throw new RecordRequestError('cameras: none chosen');
  if (request.frames === null && request.times.length === 0) throw new RecordRequestError('times: none given');

  const shots: PlannedShot[] = [];
  const names = new Set<string>();
  for (const clip of clips) {
    const times = clipTimes(request, clip.duration);
    for (const technique of techniques) {
      const techniqueSkip = techniqueReason(technique, subject);
      for (const view of views) {
        const skipped = techniqueSkip ?? viewReason(view, subject);
        for (const camera of cameras) {
          for (const t of times) {
            const shot: Shot = { file: '', model, clip: clip.name, t, technique, view, camera, width, height };
            shot.file = uniqueName(shotFileName(shot), names);
            shots.push({ ...shot, skipped });
          }
        }
      }
    }
  }
  return shots;
}

function resolveClips(requested: readonly string[], subject: Subject): { name: string | null; duration: number }[] {
  if (subject.clips.length === 0) return [{ name: null, duration: 0 }];
  if (requested.length === 0) {
    const current = subject.clips.find((c) => c.name === subject.clip) ?? subject.clips[0]!;
    return [current];
  }
  if (requested.length === 1 && requested[0] === 'all') return [...subject.clips];
  return unique([...requested]).map((r) => {
    const byName = subject.clips.find((c) => c.name === r);
    if (byName) return byName;
    if (/^\d+$/.test(r) && Number(r) < subject.clips.length) return subject.clips[Number(r)]!;
    throw new RecordRequestError(`clip ${JSON.stringify(r)}: no such clip in ${subject.model} (clips: ${subject.clips.map((c) => c.name).join(', ')})`);
  });
}

function techniqueReason(id: string, subject: Subject): string | null {
  if (id.includes(',')) return pairReason(id, (one) => techniqueReason(one, subject));
  if (!(TECHNIQUE_IDS as readonly string[]).includes(id)) return `unknown technique (known: ${TECHNIQUE_IDS.join(', ')})`;
  if (!subject.techniques.includes(id)) return 'technique not available in this build';
  return subject.support[id] ?? null;
}

/** The standard view ids (docs/api.md#view-ids); a build may draw only some of them. */
const STANDARD_VIEWS = ['shaded', 'wireframe', 'weights', 'influences', 'groups', 'skeleton'];

function viewReason(id: string, subject: Subject): string | null {
  if (subject.views.includes(id)) return null;
  if (STANDARD_VIEWS.includes(id) || (VIEW_IDS as readonly string[]).includes(id)) return 'view not available in this build';
  return `unknown view (known: ${subject.views.join(', ')})`;
}

/**
 * `<model>_<clip>_<technique>_<view>_<camera>_t<seconds>.png`, each part reduced to [A-Za-z0-9.-] (a minus
 * sign of a camera angle is kept, so `-90,5,2` and `90,5,2` name different files).
 */
export function shotFileName(shot: Omit<Shot, 'file'>): string {
  const t = `t${formatTime(shot.t)}`;
  return [modelStem(shot.model), shot.clip ?? 'static', shot.technique.replace(',', '-vs-'), shot.view, shot.camera, t].map(slug).join('_') + '.png';
}

/** Seconds with at least 3 and at most 6 decimals: 0.5 → 0.500, 0.3666667 → 0.366667. */
function formatTime(t: number): string {
  const fixed = t.toFixed(6).replace(/0+$/, '');
  const [whole, frac = ''] = fixed.split('.');
  return `${whole}.${frac.padEnd(3, '0')}`;
}

/** The last path segment of a model id or URL, without query, hash and extension. */
export function modelStem(model: string): string {
  const path = model.split(/[?#]/)[0]!;
  const last = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1) || model;
  let base = last;
  try {
    base = decodeURIComponent(last);
  } catch {
    // Not percent-encoded after all: keep it as written.
  }
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** A name part reduced to [A-Za-z0-9.-] for file names ('x' when nothing is left). */
export function slug(s: string): string {
  const out = s
    .replace(/^[^A-Za-z0-9.-]+|[^A-Za-z0-9.-]+$/g, '')
    .replace(/[^A-Za-z0-9.-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^\.+|\.+$/g, '');
  return out || 'x';
}

function uniqueName(name: string, taken: Set<string>): string {
  let out = name;
  for (let i = 2; taken.has(out.toLowerCase()); i++) out = name.replace(/\.png$/, `~${i}.png`);
  taken.add(out.toLowerCase());
  return out;
}

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

/**
 * The identity of a shot across recordings (compare matches on it): model, clip, technique, view,
 * camera and time to 1 µs. Size and run-wide parameters are not part of it, so a run with other
 * parameters (`--set influences=1`) pairs with its baseline.
 */
export function shotKey(s: Pick<Shot, 'model' | 'clip' | 'technique' | 'view' | 'camera' | 't'>): string {
  return [s.model, s.clip ?? '', s.technique, s.view, s.camera, s.t.toFixed(6)].join('|');
}

/** Readable one-line description of a shot (reports, progress). */
export function describeShot(s: Pick<Shot, 'model' | 'clip' | 'technique' | 'view' | 'camera' | 't'>): string {
  return `${s.model} ${s.clip ?? '(no clip)'} t=${formatTime(s.t)} ${s.technique} ${s.view}${s.camera === 'auto' ? '' : ` camera=${s.camera}`}`;
}

/** manifest.json's text as every recorder writes it. */
export function manifestText(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Checks a parsed manifest.json; returns it typed or throws with what is wrong. */
export function validateManifest(data: unknown, where: string): Manifest {
  const m = data as Partial<Manifest> | null;
  if (!m || typeof m !== 'object') throw new Error(`${where}: not a JSON object`);
  if (m.format !== MANIFEST_FORMAT) throw new Error(`${where}: not a skinlab screenshot manifest (format is ${JSON.stringify(m.format)}, expected "${MANIFEST_FORMAT}")`);
  if (m.version !== MANIFEST_VERSION) throw new Error(`${where}: manifest version ${String(m.version)} is not supported (expected ${MANIFEST_VERSION})`);
  if (!Array.isArray(m.shots)) throw new Error(`${where}: "shots" is missing or not a list`);
  if (m.shard !== undefined) {
    const s = m.shard as Partial<ShardInfo> | null;
    const ok = !!s && Number.isInteger(s.index) && Number.isInteger(s.total) && s.index! >= 1 && s.index! <= s.total!;
    if (!ok) throw new Error(`${where}: "shard" must be {index, total} with 1 ≤ index ≤ total`);
  }
  m.shots.forEach((s, i) => {
    const ok =
      s && typeof s === 'object' && typeof s.file === 'string' && typeof s.model === 'string' && (s.clip === null || typeof s.clip === 'string') &&
      typeof s.t === 'number' && typeof s.technique === 'string' && typeof s.view === 'string' && typeof s.camera === 'string' &&
      (s.status === 'ok' || s.status === 'skipped');
    if (!ok) throw new Error(`${where}: shots[${i}] lacks file, model, clip, t, technique, view, camera or status`);
    if (s.file.includes('..') || s.file.startsWith('/') || s.file.includes('\\')) throw new Error(`${where}: shots[${i}].file ${JSON.stringify(s.file)} is not a plain file name`);
  });
  return m as Manifest;
}
