import type { Technique, TechniqueId } from './technique.ts';
import { vsHlsl } from './vs-hlsl.ts';

/** The techniques this build can draw with, in menu order. */
export const TECHNIQUES: readonly Technique[] = [vsHlsl];

export const DEFAULT_TECHNIQUE: TechniqueId = 'vs-hlsl';

export function findTechnique(id: string): Technique | undefined {
  return TECHNIQUES.find((t) => t.id === id);
}

export { TECHNIQUE_IDS, type Technique, type TechniqueId } from './technique.ts';
