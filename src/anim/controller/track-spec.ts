/**
 * Track specs: the text form of a controller setup (the page's `tracks=` URL value), parsed, formatted and
 * applied to an AnimController.
 *
 * Grammar (comma-separated items, whitespace around an item ignored):
 *   CLIP[:WEIGHT[:SPEED]][@BONE][~additive][!|!low]
 * - CLIP: a clip name (may contain spaces and dashes, not ':', '@', ',') or a 0-based clip index.
 * - WEIGHT, SPEED: finite numbers, default 1.
 * - @BONE: mask the track to that skeleton node's subtree (a node name).
 * - ~additive: an additive track (see mixer.ts).
 * - !: high priority; !low: low priority. Without either the priority is left to the default
 *   (defaultPriority): high for a layer — a masked track (@BONE), or a clip that animates fewer than half as
 *   many frames as the model's fullest clip (tiny_4anim's Wave: 12 of 46, made to be layered) — else low.
 * parseTracksSpec keeps the items it could read and reports the others, each error naming the bad word.
 * formatTracksSpec writes the canonical form (defaults omitted: ':1' weights, ':1' speeds, a null priority),
 * so parseTracksSpec(formatTracksSpec(specs)).specs equals specs for any parsed specs.
 * applyTracksSpec resolves names against the controller (clip by name, else by index; bone by skeleton
 * name), sets tracks 0..n-1 (clip, weight, speed, mask, additive, priority, no sync, looping, position 0,
 * enabled), disables the rest and removes every scheduled event; it returns errors naming the bad word and
 * listing the valid ones (a spec with an error leaves its track disabled). Setup-time code: allocates.
 */

import type { AnimController, Priority } from './controller.ts';

export interface TrackSpec {
  clip: string;
  weight: number;
  speed: number;
  bone: string | null;
  additive: boolean;
  priority: Priority | null;
}

const ADDITIVE = '~additive';

function parseNumber(word: string, what: string, item: string, errors: string[]): number | null {
  const s = word.trim();
  const v = s === '' ? NaN : Number(s);
  if (!Number.isFinite(v)) {
    errors.push(`${what} "${word}" in "${item}" is not a finite number`);
    return null;
  }
  return v;
}

export function parseTracksSpec(text: string): { specs: TrackSpec[]; errors: string[] } {
  const specs: TrackSpec[] = [];
  const errors: string[] = [];
  if (text.trim() === '') return { specs, errors };
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') {
      errors.push(`empty track in "${text}"`);
      continue;
    }
    let rest = item;
    let priority: Priority | null = null;
    let additive = false;
    for (;;) {
      if (rest.endsWith('!low')) {
        priority = 'low';
        rest = rest.slice(0, -4).trimEnd();
      } else if (rest.endsWith('!')) {
        priority = 'high';
        rest = rest.slice(0, -1).trimEnd();
      } else if (rest.endsWith(ADDITIVE)) {
        additive = true;
        rest = rest.slice(0, -ADDITIVE.length).trimEnd();
      } else break;
    }
    if (rest.includes('~')) {
      errors.push(`"${rest.slice(rest.indexOf('~'))}" in "${item}" is not a flag (only ~additive)`);
      continue;
    }
    let bone: string | null = null;
    const at = rest.indexOf('@');
    if (at >= 0) {
      bone = rest.slice(at + 1).trim();
      rest = rest.slice(0, at).trim();
      if (bone === '' || bone.includes('@')) {
        errors.push(`bone "${bone}" in "${item}" is not a node name`);
        continue;
      }
    }
    const parts = rest.split(':');
    const clip = parts[0].trim();
    if (clip === '') {
      errors.push(`no clip in "${item}"`);
      continue;
    }
    if (parts.length > 3) {
      errors.push(`"${parts.slice(3).join(':')}" in "${item}" is one ':' field too many (CLIP:WEIGHT:SPEED)`);
      continue;
    }
    const weight = parts.length > 1 ? parseNumber(parts[1], 'weight', item, errors) : 1;
    const speed = parts.length > 2 ? parseNumber(parts[2], 'speed', item, errors) : 1;
    if (weight === null || speed === null) continue;
    specs.push({ clip, weight, speed, bone, additive, priority });
  }
  return { specs, errors };
}

export function formatTracksSpec(specs: readonly TrackSpec[]): string {
  return specs
    .map((s) => {
      let out = s.clip;
      if (s.speed !== 1) out += `:${s.weight}:${s.speed}`;
      else if (s.weight !== 1) out += `:${s.weight}`;
      if (s.bone !== null) out += `@${s.bone}`;
      if (s.additive) out += ADDITIVE;
      if (s.priority === 'high') out += '!';
      else if (s.priority === 'low') out += '!low';
      return out;
    })
    .join(',');
}

/**
 * The priority a track gets when its spec names none: high for a layer — masked to a subtree (mask ≥ 0), or
 * a clip that animates fewer than half as many frames as the model's fullest clip — else low.
 */
export function defaultPriority(c: AnimController, clip: number, mask: number): Priority {
  if (mask >= 0) return 'high';
  const clips = c.clips;
  if (clip < 0 || clip >= clips.length) return 'low';
  let fullest = 0;
  for (const x of clips) fullest = Math.max(fullest, x.tracks.length);
  return clips[clip]!.tracks.length * 2 < fullest ? 'high' : 'low';
}

export function applyTracksSpec(c: AnimController, specs: readonly TrackSpec[]): string[] {
  const errors: string[] = [];
  const names = c.clips.map((clip) => clip.name);
  const bones = c.skeleton.names;
  c.unkeyAllEvents();
  for (let t = 0; t < c.trackCount; t++) c.setTrackEnable(t, false);
  if (specs.length > c.trackCount) {
    errors.push(`${specs.length} tracks given, the controller has ${c.trackCount}: ${formatTracksSpec(specs.slice(c.trackCount))} ignored`);
  }
  const n = Math.min(specs.length, c.trackCount);
  for (let t = 0; t < n; t++) {
    const s = specs[t];
    let clip = names.indexOf(s.clip);
    if (clip < 0 && /^\d+$/.test(s.clip) && Number(s.clip) < names.length) clip = Number(s.clip);
    if (clip < 0) {
      errors.push(`unknown clip "${s.clip}" (clips: ${names.length > 0 ? names.join(', ') : 'none'}; or an index 0..${names.length - 1})`);
      continue;
    }
    let mask = -1;
    if (s.bone !== null) {
      mask = bones.indexOf(s.bone);
      if (mask < 0) {
        errors.push(`unknown bone "${s.bone}" (bones: ${bones.join(', ')})`);
        continue;
      }
    }
    c.setTrackClip(t, clip);
    c.setTrackWeight(t, s.weight);
    c.setTrackSpeed(t, s.speed);
    c.setTrackMask(t, mask);
    c.setTrackAdditive(t, s.additive);
    c.setTrackPriority(t, s.priority ?? defaultPriority(c, clip, mask));
    c.setTrackSync(t, -1);
    c.setTrackLoop(t, true);
    c.setTrackPosition(t, 0);
    c.setTrackEnable(t, true);
  }
  return errors;
}
