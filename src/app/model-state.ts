import type { DeviceCaps } from '../techniques/technique.ts';
import { clampPalette, findTechnique, paletteRange } from '../techniques/index.ts';
import { findBuiltin } from './builtins.ts';
import type { LoadedModel } from './loaded-model.ts';
import type { AppState } from './state.ts';

/**
 * Reconciles AppState with a loaded model: which clip, bone, technique, palette, detail level and morph
 * weights the state's words mean for this model and device, writing the resolved values back into the
 * state and returning one message per request it could not honour. Owns no data; it may touch the state
 * and the model's player, never GL, the renderer or the page.
 */

/** Options the technique state depends on, from AppState. */
export function techniqueOptions(state: AppState): { influences: number; palette: number } {
  return { influences: state.influences, palette: state.palette };
}

/** How many bone names an unknown `bone` message lists before counting the rest. */
const BONES_NAMED = 20;

/**
 * Resolves state.bone (name, or index into model.bones; '' = the default bone) into the node the weights
 * view shows, and writes the bone's name back. An unknown bone falls back to the default; `why` is the
 * message when `explicit` (the user named it), else null.
 */
export function resolveBone(state: AppState, model: LoadedModel, explicit: boolean): { node: number; why: string | null } {
  const names = model.scene.skeleton.names;
  const want = state.bone;
  let node = -1;
  if (want !== '') {
    node = model.bones.find((b) => names[b] === want) ?? -1;
    if (node < 0 && /^\d+$/.test(want) && Number(want) < model.bones.length) node = model.bones[Number(want)]!;
  }
  let why: string | null = null;
  if (node < 0) {
    if (want !== '' && explicit) {
      const list = model.bones.map((b) => names[b] ?? String(b));
      const more = list.length > BONES_NAMED ? `, … and ${list.length - BONES_NAMED} more` : '';
      why = `bone=${want}: no such bone (a name or 0..${model.bones.length - 1}; ${list.length} bones: ${list.slice(0, BONES_NAMED).join(', ')}${more})`;
    }
    node = model.defaultBone;
  }
  state.bone = node >= 0 ? names[node] ?? String(node) : '';
  return { node, why };
}

/**
 * Checks the state's technique and palette against a model: a technique the model cannot use falls back
 * to `software` (with the reason); a palette outside the workable range is clamped (with a message when
 * the user asked for it, `askedPalette`). Returns the messages.
 */
export function checkTechnique(state: AppState, caps: DeviceCaps, model: LoadedModel, askedPalette: number | null): string[] {
  const errors: string[] = [];
  const technique = findTechnique(state.technique);
  const why = technique ? technique.unsupportedReason(model.scene, caps, techniqueOptions(state)) : null;
  if (why) {
    errors.push(`technique=${state.technique}: ${why}; drawing with software`);
    state.technique = 'software';
  }
  const clamped = clampPalette(model.scene, caps, state.influences, state.palette);
  if (askedPalette !== null && clamped !== askedPalette) {
    const range = paletteRange(model.scene, caps, state.influences);
    errors.push(`palette=${askedPalette}: ff-indexed needs ${range.min} to ${range.max} matrices for this model on this device; using ${clamped}`);
  }
  state.palette = clamped;
  return errors;
}

/** Resolves the state's clip (name or index) against a model and starts it; an unknown clip is reported through `fail` and the first one plays. */
export function applyClip(state: AppState, model: LoadedModel, crossfade: number, fail: (message: string) => void): void {
  const clips = model.scene.clips;
  const player = model.player;
  if (clips.length > 0) {
    let index = clips.findIndex((c) => c.name === state.clip);
    if (index < 0 && /^\d+$/.test(state.clip)) index = Number(state.clip);
    if (index < 0 || index >= clips.length) {
      if (state.clip !== '') fail(`clip=${state.clip}: no such clip (clips: ${clips.map((c) => c.name).join(', ')})`);
      index = 0;
    }
    state.clip = clips[index]!.name;
    if (index !== player.clipIndex || crossfade === 0) player.play(index, crossfade);
  }
  player.speed = state.speed;
  if (state.t !== null) player.setTime(state.t);
}

/** Sets one target's weight by hand (null: back to its track), in the state and the player. Unknown names are ignored. */
export function setMorphWeight(state: AppState, model: LoadedModel, name: string, weight: number | null): void {
  const i = model.scene.morphTargets.indexOf(name);
  if (i < 0) return;
  if (weight === null) {
    delete state.morph[name];
    model.player.clearMorphManual(i);
  } else {
    // Kept at the precision a link carries (state.ts formatMorph), so a link reproduces the face exactly.
    const w = Number(weight.toFixed(4));
    state.morph[name] = w;
    model.player.setMorphManual(i, w);
  }
}

/**
 * Puts state.morph (hand-set weights by name) and state.morphTrack into the model's player: every target
 * back on its track, then the named ones set by hand. A weight outside 0..1 (the panel's sliders' range) is
 * clamped, in the state too, with a warning in the model's warnings (info().warnings) and on the console
 * naming the target and the weight given. Returns the names the model does not have.
 */
export function applyMorphState(state: AppState, model: LoadedModel): string[] {
  const names = model.scene.morphTargets;
  const player = model.player;
  player.morphTracksEnabled = state.morphTrack;
  player.resetMorphs();
  const unknown: string[] = [];
  for (const [name, w] of Object.entries(state.morph)) {
    const i = names.indexOf(name);
    if (i < 0) {
      unknown.push(name);
      continue;
    }
    const clamped = Math.min(1, Math.max(0, w));
    if (clamped !== w) {
      state.morph[name] = clamped;
      const warning = `morph=${name}:${w}: a morph weight runs from 0 to 1; using ${clamped}`;
      if (!model.warnings.includes(warning)) model.warnings.push(warning);
      console.warn(`${model.label}: ${warning}`);
    }
    player.setMorphManual(i, clamped);
  }
  return unknown;
}

/** What a `set()` call asks of the model: nothing, or a load of `url` starting `clip` at detail `level`. */
export interface ModelRequest {
  load: { url: string; clip: string; level: string; label: string | undefined } | null;
  errors: string[];
}

/**
 * Decides from the state (already updated by the call's params) whether a new model or a new detail level
 * of the current built-in must be loaded. Writes a corrected state.detail back when the level is unknown.
 */
export function modelRequest(state: AppState, params: Record<string, unknown>, current: LoadedModel | null): ModelRequest {
  const errors: string[] = [];
  const builtin = findBuiltin(state.model);
  let level = '';
  if (builtin?.details) {
    const levels = Object.keys(builtin.details);
    const fallback = builtin.defaultDetail || levels[0]!;
    level = state.detail || fallback;
    if (!(level in builtin.details)) {
      errors.push(`detail=${state.detail}: ${builtin.id} has the levels ${levels.join(', ')}`);
      level = current?.id === builtin.id ? current.detail : fallback;
      state.detail = level;
    }
  } else if (params.detail !== undefined && state.detail !== '') {
    errors.push(`detail=${state.detail}: ${builtin ? builtin.id : 'this model'} has no detail levels`);
  }
  const newModel = params.model !== undefined && (state.model !== current?.id || !current);
  const newDetail = builtin?.details !== undefined && current?.id === builtin.id && level !== current.detail;
  if (!newModel && !newDetail) return { load: null, errors };
  // A new model starts neutral unless the same call names its weights; a new level of the same model keeps them.
  if (newModel && params.morph === undefined) state.morph = {};
  const url = builtin ? (builtin.details?.[level] ?? builtin.url) : state.model;
  const clip = params.clip !== undefined || newDetail ? state.clip : builtin?.clip ?? '';
  return { load: { url, clip, level, label: builtin?.label }, errors };
}
