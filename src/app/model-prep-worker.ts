import type { Scene } from '../model/types.ts';
import { prepareScene, type PrepFacts, type PrepInput } from './model-prep.ts';

/**
 * model-prep.ts's preparation as the parse worker runs it: a failure there is not the parse's, so the Scene
 * goes back as parsed, without facts, and the page prepares it itself (and reports what fails, as it always did).
 */
export function prepareInWorker(scene: Scene, prep: PrepInput | undefined): { scene: Scene; facts?: PrepFacts } {
  if (!prep) return { scene };
  try {
    return prepareScene(scene, prep);
  } catch {
    return { scene };
  }
}
