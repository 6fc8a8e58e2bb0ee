import { clampInfluences } from './influences.ts';
import { sceneFaceBones } from './limits.ts';
import { GroupedMesh, type GroupLayout } from './mesh-state.ts';
import { partitionMesh } from './partition.ts';
import type { Technique } from './technique.ts';

/**
 * `vs-asm`: Freidlin's vs.1.1 matrix-palette shader (seed 000) and the SkinnedMesh sample's assembly
 * technique. The constant file is 96 vec4 registers; the shader keeps VS_ASM_RESERVED of them for its own
 * inputs (u_viewProj and u_world, 4 each, and one constant register for the implicit weight's 1), and each
 * bone takes 3 registers as the rows of its 4x3 matrix (the 4th column of the 4x4 is always 0 0 0 1), so
 * a draw holds floor((96 − 9) / 3) = 29 bones. Indices are 4 unsigned bytes pre-multiplied by 3 at load
 * (Freidlin: no multiply in the shader), the last weight is 1 − Σ. Meshes with more bones than a draw holds
 * are split into groups like ff-indexed.
 */
export const VS_ASM_REGISTERS = 96;
export const VS_ASM_RESERVED = 9;
export const VS_ASM_ROWS = 3;
export const VS_ASM_BONES = Math.floor((VS_ASM_REGISTERS - VS_ASM_RESERVED) / VS_ASM_ROWS);

export const VS_ASM_LAYOUT: GroupLayout = { joints: 'indexed', jointScale: VS_ASM_ROWS, slots: VS_ASM_BONES, matrix: 'rows4x3', loadAllSlots: false };

export const vsAsm: Technique = {
  id: 'vs-asm',
  label: 'vs.1.1 shader (96 registers)',
  summary: '4x3 matrices as 3 vec4 rows in a 96-register budget, byte indices pre-multiplied by 3, implicit last weight',
  groupUniform: 'u_constants',
  skinsOnce: false,
  unsupportedReason: (scene, caps, o) => {
    if (caps.maxVertexUniformVectors < VS_ASM_REGISTERS) return `needs ${VS_ASM_REGISTERS} vertex uniform vectors; this device has ${caps.maxVertexUniformVectors}`;
    const need = sceneFaceBones(scene, clampInfluences(o.influences));
    return need > VS_ASM_BONES ? `a triangle needs ${need} bones; the register budget holds ${VS_ASM_BONES}` : null;
  },
  defines: (_scene, _caps, o) => ({
    PALETTE_REGISTERS: true,
    REGISTER_COUNT: VS_ASM_BONES * VS_ASM_ROWS,
    WEIGHTS_IMPLICIT: true,
    BLEND_VERTICES: true,
    INFLUENCES: clampInfluences(o.influences),
  }),
  meshKey: (o) => `vs-asm:${clampInfluences(o.influences)}`,
  createMesh: (gl, buffers, _scene, _caps, o) =>
    new GroupedMesh(gl, buffers.mesh, partitionMesh(buffers.mesh, clampInfluences(o.influences), VS_ASM_BONES), VS_ASM_LAYOUT),
};
