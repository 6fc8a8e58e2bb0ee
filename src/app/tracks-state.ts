import type { AnimController } from '../anim/controller/controller.ts';
import { applyTracksSpec, defaultPriority, formatTracksSpec, parseTracksSpec, type TrackSpec } from '../anim/controller/track-spec.ts';
import type { LoadedModel } from './loaded-model.ts';
import type { AppState } from './state.ts';

/**
 * The animation controller's tracks as the app's state describes them (URL key `tracks`, docs/api.md#url-parameters): the state's
 * spec put into the model's controller, and the controller's live setup written back as a spec so a link
 * reproduces what plays. Owns no data; touches the state and the model's player, never GL or the page.
 *
 * Tracks mode is on while state.tracks is not ''. Leaving it (a `clip` asked for alone, the clip menu)
 * plays that clip on one track again (model-state.ts applyClip).
 */

/** Tracks shown by the panel and written by links: the controller's first four. */
export const VISIBLE_TRACKS = 4;

/**
 * Puts state.tracks into the model's controller: tracks 0..n-1 from the spec at position 0, the rest
 * disabled, then the pinned time when the state has one (the controller clock: every track at t × speed). Returns one message per clip or bone the model
 * does not have (those tracks are dropped and the state rewritten without them).
 */
export function applyTracks(state: AppState, model: LoadedModel): string[] {
  if (state.tracks === '') return [];
  const c = model.player.controller;
  const { specs } = parseTracksSpec(state.tracks);
  const errors = applyTracksSpec(c, specs).map((e) => `tracks=${state.tracks}: ${e}`);
  model.player.useTracks();
  if (errors.length > 0) state.tracks = formatTracksSpec(tracksOf(c, model));
  const first = c.trackClip(0);
  if (first >= 0) state.clip = model.scene.clips[first]!.name;
  if (state.t !== null) model.player.setTime(state.t);
  return errors;
}

/** The controller's enabled tracks among the first VISIBLE_TRACKS as specs (names resolved), in track order. */
export function tracksOf(c: AnimController, model: LoadedModel): TrackSpec[] {
  const out: TrackSpec[] = [];
  const { clips, skeleton } = model.scene;
  for (let t = 0; t < Math.min(VISIBLE_TRACKS, c.trackCount); t++) {
    const clip = c.trackClip(t);
    if (!c.trackEnabled(t) || clip < 0) continue;
    const mask = c.trackMask(t);
    const bone = mask >= 0 ? skeleton.names[mask] ?? String(mask) : null;
    const priority = c.trackPriority(t);
    out.push({
      clip: clips[clip]!.name,
      weight: round(c.trackWeight(t)),
      speed: round(c.trackSpeed(t)),
      bone,
      additive: c.trackAdditive(t),
      // Written only where it differs from the default (high for a masked track or a partial clip).
      priority: priority === defaultPriority(c, clip, mask) ? null : priority,
    });
  }
  return out;
}

/** Rewrites state.tracks from the controller's live setup (after panel edits and transitions). */
export function syncTracksState(state: AppState, model: LoadedModel | null): void {
  if (!model || state.tracks === '') return;
  const text = formatTracksSpec(tracksOf(model.player.controller, model));
  if (text !== '') state.tracks = text;
}

/** Enters tracks mode from the single clip playing now (the panel's first edit): one track, as it plays. */
export function enterTracksMode(state: AppState, model: LoadedModel): void {
  if (state.tracks !== '') return;
  const c = model.player.controller;
  model.player.useTracks();
  const clip = c.trackClip(0) >= 0 ? c.trackClip(0) : model.player.clipIndex;
  if (clip < 0) return;
  state.tracks = formatTracksSpec([{ clip: model.scene.clips[clip]!.name, weight: 1, speed: 1, bone: null, additive: false, priority: null }]);
}

/**
 * "Transition to clip over N s": the clip starts on a free track (or the one already playing it) and
 * fades in while every other enabled non-additive track fades out, as a pair of weight events on the
 * controller clock; faded-out tracks are disabled at the end. Returns false when the clip is unknown.
 */
export function transitionTo(model: LoadedModel, clipName: string, seconds: number): boolean {
  const c = model.player.controller;
  const clip = model.scene.clips.findIndex((x) => x.name === clipName);
  if (clip < 0) return false;
  const now = c.time;
  const d = Math.max(0, seconds);
  let target = -1;
  for (let t = 0; t < Math.min(VISIBLE_TRACKS, c.trackCount); t++) if (c.trackEnabled(t) && c.trackClip(t) === clip && !c.trackAdditive(t)) target = t;
  if (target < 0) for (let t = 0; t < Math.min(VISIBLE_TRACKS, c.trackCount); t++) if (!c.trackEnabled(t)) { target = t; break; }
  if (target < 0) {
    // Every visible track busy: reuse the lightest non-additive one.
    let lightest = Infinity;
    for (let t = 0; t < Math.min(VISIBLE_TRACKS, c.trackCount); t++) {
      if (!c.trackAdditive(t) && c.trackWeight(t) < lightest) { lightest = c.trackWeight(t); target = t; }
    }
  }
  if (target < 0) return false;
  const fresh = !c.trackEnabled(target) || c.trackClip(target) !== clip;
  c.unkeyTrackEvents(target);
  if (fresh) {
    c.setTrackClip(target, clip);
    c.setTrackPosition(target, 0);
    c.setTrackSpeed(target, 1);
    c.setTrackMask(target, -1);
    c.setTrackPriority(target, 'low');
    c.setTrackAdditive(target, false);
    c.setTrackWeight(target, d > 0 ? 0 : 1);
    c.setTrackEnable(target, true);
  }
  if (d > 0) c.keyTrackWeight(target, 1, now, d, 'ease');
  else c.setTrackWeight(target, 1);
  for (let t = 0; t < Math.min(VISIBLE_TRACKS, c.trackCount); t++) {
    if (t === target || !c.trackEnabled(t) || c.trackAdditive(t) || c.trackPriority(t) !== 'low') continue;
    c.unkeyTrackEvents(t);
    if (d > 0) {
      c.keyTrackWeight(t, 0, now, d, 'ease');
      c.keyTrackEnable(t, false, now + d);
    } else {
      c.setTrackWeight(t, 0);
      c.setTrackEnable(t, false);
    }
  }
  return true;
}

function round(x: number): number {
  return Number(x.toFixed(4));
}

/**
 * A callback key set from the page (`skinlab.addMarker`, the Tracks panel) on the model's controller: clip by
 * name or index, time in seconds (clamped to the clip), a one-word name. Throws a clear error for a bad clip,
 * time or name.
 */
export function addMarker(model: LoadedModel, clip: string | number, time: number, name: string): void {
  const clips = model.scene.clips;
  let index = typeof clip === 'number' ? clip : clips.findIndex((c) => c.name === clip);
  if (index < 0 && typeof clip === 'string' && /^\d+$/.test(clip)) index = Number(clip);
  if (!Number.isInteger(index) || index < 0 || index >= clips.length) {
    throw new Error(`addMarker: no clip ${String(clip)} (clips: ${clips.map((c) => c.name).join(', ')})`);
  }
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,127}$/.test(name)) throw new Error(`addMarker: "${name}" is not a one-word name (letters, digits, _ . : -)`);
  if (!Number.isFinite(time)) throw new Error(`addMarker: time ${time} is not a number of seconds`);
  const d = clips[index]!.duration;
  model.player.controller.addMarker(index, Math.min(Math.max(0, time), d), name);
}
