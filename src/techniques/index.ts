import { accumulated } from './accumulated.ts';
import { cor } from './cor.ts';
import { ddm } from './ddm.ts';
import { dualQuat } from './dual-quat.ts';
import { ffIndexed } from './ff-indexed.ts';
import { ffNonIndexed } from './ff-nonindexed.ts';
import { software } from './software.ts';
import { streamOut } from './stream-out.ts';
import type { Technique, TechniqueId } from './technique.ts';
import { texture } from './texture.ts';
import { vsAsm } from './vs-asm.ts';
import { vsHlsl } from './vs-hlsl.ts';

/** The techniques this build can draw with, in menu order (docs/api.md#technique-ids). */
export const TECHNIQUES: readonly Technique[] = [software, ffNonIndexed, ffIndexed, vsAsm, vsHlsl, accumulated, dualQuat, cor, texture, streamOut, ddm];

export const DEFAULT_TECHNIQUE: TechniqueId = 'vs-hlsl';

export function findTechnique(id: string): Technique | undefined {
  return TECHNIQUES.find((t) => t.id === id);
}

export { DEFAULT_PALETTE, clampPalette, paletteRange } from './limits.ts';
export { TECHNIQUE_IDS, type Technique, type TechniqueId, type TechniqueMesh, type TechniqueOptions } from './technique.ts';
