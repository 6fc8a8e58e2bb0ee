import type { AnimController } from '../anim/controller/controller.ts';
import { findFeet, footstepMarkers, groundSpeed } from '../anim/footsteps.ts';
import type { Scene } from '../model/types.ts';

/**
 * Callback keys for a model whose file has none: footsteps found from its feet (anim/footsteps.ts) on
 * every clip that travels (ground speed above zero), added to the controller at load so the tracks
 * timeline shows and flashes them and `info().events` lists them. Clips that carry their own markers, and
 * skeletons without two named feet, are left alone. Load-time work: it samples each clip once (a few
 * milliseconds for a walk); it allocates, never per frame. Returns how many keys it added.
 */
export function addFootstepKeys(controller: AnimController, scene: Scene): number {
  if (findFeet(scene.skeleton.names) === null) return 0;
  let added = 0;
  scene.clips.forEach((clip, i) => {
    if ((clip.markers?.length ?? 0) > 0 || !(clip.duration > 0)) return;
    if (!(groundSpeed(scene, i) > 0)) return;
    for (const m of footstepMarkers(scene, i)) {
      controller.addMarker(i, m.time, m.name);
      added++;
    }
  });
  return added;
}
