import type { AnimController } from '../anim/controller/controller.ts';
import { findFeet, footstepMarkers, groundSpeed } from '../anim/footsteps.ts';
import type { Scene } from '../model/types.ts';

/**
 * Callback keys for a model whose file has none: footsteps found from its feet (anim/footsteps.ts) on
 * every clip that travels (ground speed above zero), added to the controller at load so the tracks
 * timeline shows and flashes them and `info().events` lists them. Clips that carry their own markers, and
 * skeletons without two named feet, are left alone. Load-time work: it samples each clip once (a few
 * milliseconds for a walk; the loader runs it once the model's first frame is on screen, LoadedModel.afterFirstFrame);
 * it allocates, never per frame.
 */

/** One footstep key: clip index, time in seconds, marker name. */
export interface FootstepKey {
  readonly clip: number;
  readonly time: number;
  readonly name: string;
}

/** The footstep keys the scene's clips get (no GL, no page state). */
export function footstepKeys(scene: Scene): FootstepKey[] {
  const keys: FootstepKey[] = [];
  if (findFeet(scene.skeleton.names) === null) return keys;
  scene.clips.forEach((clip, i) => {
    if ((clip.markers?.length ?? 0) > 0 || !(clip.duration > 0)) return;
    if (!(groundSpeed(scene, i) > 0)) return;
    for (const m of footstepMarkers(scene, i)) keys.push({ clip: i, time: m.time, name: m.name });
  });
  return keys;
}

/** Adds `keys` (footstepKeys) to the controller; returns how many. */
export function addFootstepKeys(controller: AnimController, keys: readonly FootstepKey[]): number {
  for (const k of keys) controller.addMarker(k.clip, k.time, k.name);
  return keys.length;
}
