import { clampInfluences } from './influences.ts';
import { uboPaletteSize, uboUnsupported } from './limits.ts';
import type { Technique } from './technique.ts';
import { UboMesh } from './ubo-mesh.ts';

/**
 * `vs-hlsl`: the SkinnedMesh sample's HLSL shader (seed 004) in GLSL ES 3.0. The palette is one std140
 * uniform block of mat4, written straight from the animation into the block's Float32Array and uploaded
 * once per frame per mesh; one draw per subset. As the sample's shader, the position and normal are
 * transformed by each influencing matrix and the results blended, the last weight is 1 − Σ of the others,
 * and INFLUENCES selects the variant per influence count (the sample compiles one per count, 1..4).
 * Limit: the block must hold the mesh's palette (16 KiB = 256 mat4 is the WebGL2 minimum).
 */
export const vsHlsl: Technique = {
  id: 'vs-hlsl',
  label: 'HLSL shader (uniform block)',
  summary: 'mat4 palette in a std140 uniform block, one draw per subset, a shader variant per influence count',
  groupUniform: null,
  skinsOnce: false,
  unsupportedReason: (scene, caps) => uboUnsupported(scene, caps, 16),
  defines: (scene, caps, o) => ({
    PALETTE_UBO: true,
    PALETTE_SIZE: uboPaletteSize(scene, caps, 16),
    BLEND_VERTICES: true,
    LAST_WEIGHT_IMPLICIT: true,
    INFLUENCES: clampInfluences(o.influences),
  }),
  meshKey: () => 'vs-hlsl',
  createMesh: (gl, buffers, scene, caps) => new UboMesh(gl, buffers, uboPaletteSize(scene, caps, 16)),
};
