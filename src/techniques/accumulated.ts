import { clampInfluences } from './influences.ts';
import { uboPaletteSize, uboUnsupported } from './limits.ts';
import type { Technique } from './technique.ts';
import { UboMesh } from './ubo-mesh.ts';

/**
 * `accumulated`: Dawn's accumulated-matrix skinning (GPU Gems ch. 4 §4.4.1). The weighted palette
 * matrices are summed into one matrix per vertex (accumulate_skin), which then transforms the position
 * and the normal with one multiply each, instead of one multiply per influence per attribute. Same palette
 * block as vs-hlsl.
 */
export const accumulated: Technique = {
  id: 'accumulated',
  label: 'Accumulated matrix (Dawn)',
  summary: 'blends the weighted matrices first, then one multiply per attribute (GPU Gems ch. 4)',
  groupUniform: null,
  skinsOnce: false,
  unsupportedReason: (scene, caps) => uboUnsupported(scene, caps, 16),
  defines: (scene, caps, o) => ({ PALETTE_UBO: true, PALETTE_SIZE: uboPaletteSize(scene, caps, 16), INFLUENCES: clampInfluences(o.influences) }),
  meshKey: () => 'accumulated',
  createMesh: (gl, buffers, scene, caps) => new UboMesh(gl, buffers, uboPaletteSize(scene, caps, 16)),
};
