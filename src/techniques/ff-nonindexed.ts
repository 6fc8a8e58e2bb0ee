import { clampInfluences } from './influences.ts';
import { GroupedMesh, type GroupLayout } from './mesh-state.ts';
import { partitionMesh } from './partition.ts';
import type { Technique } from './technique.ts';

/**
 * `ff-nonindexed`: fixed-function non-indexed vertex blending (seed 004, ConvertToBlendedMesh). The mesh is
 * re-partitioned at load into bone-combination groups whose triangles together use at most 4 bones; each
 * draw loads the group's 4 world matrices (D3DTS_WORLDMATRIX(0..3)) into `u_groupPalette`. Vertices carry
 * weights only: 3 stored, the 4th is 1 − Σ, weight k belongs to matrix k; a vertex shared by groups is
 * duplicated with its weights laid out in each group's matrix order. A triangle needing more than 4 bones
 * keeps its 4 heaviest (partition.ts; counted in the cost panel as approximated).
 */
export const FF_BLEND_MATRICES = 4;

const LAYOUT: GroupLayout = { joints: 'slots', jointScale: 1, slots: FF_BLEND_MATRICES, matrix: 'mat4', loadAllSlots: true };

export const ffNonIndexed: Technique = {
  id: 'ff-nonindexed',
  label: 'Fixed-function non-indexed',
  summary: '4 world matrices per draw, mesh split into bone-combination groups, weights only (4th implicit)',
  groupUniform: 'u_groupPalette',
  skinsOnce: false,
  unsupportedReason: () => null,
  defines: () => ({
    PALETTE_UNIFORM: true,
    PALETTE_SIZE: FF_BLEND_MATRICES,
    JOINTS_SLOTS: true,
    WEIGHTS_IMPLICIT: true,
    BLEND_VERTICES: true,
    INFLUENCES: FF_BLEND_MATRICES,
  }),
  meshKey: (o) => `ff-nonindexed:${clampInfluences(o.influences)}`,
  createMesh: (gl, buffers, _scene, _caps, o) =>
    new GroupedMesh(gl, buffers.mesh, partitionMesh(buffers.mesh, clampInfluences(o.influences), FF_BLEND_MATRICES, true), LAYOUT),
};
