import { clampInfluences } from './influences.ts';
import { clampPalette, paletteRange } from './limits.ts';
import { GroupedMesh } from './mesh-state.ts';
import { partitionMesh } from './partition.ts';
import type { Technique } from './technique.ts';

/**
 * `ff-indexed`: fixed-function indexed vertex blending (seed 004 ConvertToIndexedBlendedMesh, seed 000).
 * The mesh is split into groups whose bones fit a palette of `palette` matrices (default 12 as in the
 * sample, from the widest triangle's bone count up to what this device's vertex uniforms hold); each
 * draw loads its group's matrices into `u_groupPalette`. Vertices carry 4 group-local indices as unsigned
 * bytes (D3DVSDT_UBYTE4) and 3 weights, the last weight implicit.
 */
export const ffIndexed: Technique = {
  id: 'ff-indexed',
  label: 'Fixed-function indexed (palette)',
  summary: 'palette of `palette` matrices per draw, mesh split into palette-sized groups, byte indices',
  groupUniform: 'u_groupPalette',
  skinsOnce: false,
  unsupportedReason: (scene, caps, o) => {
    const r = paletteRange(scene, caps, clampInfluences(o.influences));
    return r.min > r.max ? `a triangle needs ${r.min} matrices; this device's vertex uniforms hold a palette of ${r.max}` : null;
  },
  defines: (scene, caps, o) => ({
    PALETTE_UNIFORM: true,
    PALETTE_SIZE: clampPalette(scene, caps, clampInfluences(o.influences), o.palette),
    WEIGHTS_IMPLICIT: true,
    BLEND_VERTICES: true,
    INFLUENCES: clampInfluences(o.influences),
  }),
  meshKey: (o) => `ff-indexed:${clampInfluences(o.influences)}:${o.palette}`,
  createMesh: (gl, buffers, scene, caps, o) => {
    const influences = clampInfluences(o.influences);
    const palette = clampPalette(scene, caps, influences, o.palette);
    return new GroupedMesh(gl, buffers.mesh, partitionMesh(buffers.mesh, influences, palette), {
      joints: 'indexed',
      jointScale: 1,
      slots: palette,
      matrix: 'mat4',
      loadAllSlots: false,
    });
  },
};
