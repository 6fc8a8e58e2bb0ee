import type { CompanionSource } from '../gpu/textures.ts';
import type { Scene } from '../model/types.ts';

/**
 * The companion source each loaded Scene's textures came from (embedded images first, then the model
 * source's files), kept for work after the load that needs the texture bytes again: Export .glb. Held weakly:
 * a scene no longer drawn takes its source with it.
 */
const bySceneCompanions = new WeakMap<Scene, CompanionSource>();

export function rememberCompanions(scene: Scene, companions: CompanionSource): void {
  bySceneCompanions.set(scene, companions);
}

/** The scene's companions; a source that has none when the scene was never loaded by the page (built in memory). */
export function companionsOf(scene: Scene): CompanionSource {
  return bySceneCompanions.get(scene) ?? (async () => null);
}
