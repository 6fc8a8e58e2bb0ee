import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skinMesh } from '../../src/anim/software-skin.ts';
import { MAX_INFLUENCES, type SkinnedMesh } from '../../src/model/types.ts';
import { FF_BLEND_MATRICES } from '../../src/techniques/ff-nonindexed.ts';
import { gatherGroupPalettes, groupedVertices, type GroupLayout } from '../../src/techniques/mesh-state.ts';
import { maxFaceBones, partitionMesh, type Partition } from '../../src/techniques/partition.ts';
import { VS_ASM_BONES, VS_ASM_LAYOUT, VS_ASM_ROWS } from '../../src/techniques/vs-asm.ts';
import { vsHlsl } from '../../src/techniques/vs-hlsl.ts';
import type { DeviceCaps } from '../../src/techniques/technique.ts';
import { resolveIncludes } from '../../src/gpu/glsl-include.ts';
import { PALETTE_TEXTURE_ROW_SLOTS } from '../../src/gpu/palette-texture.ts';
import { humanoid, maxDiff, meshSize, randomPalette } from './fixtures.ts';
import { Mat, compileGlsl } from './glsl-eval.ts';

const GLSL_INCLUDE = join(import.meta.dirname, '..', '..', 'glsl', 'include');
/** WebGL2's minimums (the palette block must hold the humanoid's bones). */
const CAPS: DeviceCaps = { maxUniformBlockSize: 16384, maxVertexUniformVectors: 256, maxTextureSize: 2048 };

/**
 * Each technique's vertex maths from the data the technique uploads, against skinMesh (the software
 * reference) for random poses: ff-nonindexed, ff-indexed and vs-asm written out on the CPU as their shader
 * variants do it (glsl/include/skin_pars.glsl); vs-hlsl by evaluating that GLSL itself (runHlslShader).
 */

const FF_LAYOUT: GroupLayout = { joints: 'slots', jointScale: 1, slots: FF_BLEND_MATRICES, matrix: 'mat4', loadAllSlots: true };

/** BLEND_VERTICES with WEIGHTS_IMPLICIT over grouped data; mat4 groups or rows4x3 registers. */
function emulateGrouped(mesh: SkinnedMesh, part: Partition, layout: GroupLayout, palette: Float32Array, influences: number): Float32Array {
  const data = groupedVertices(mesh, part, layout);
  const stride = layout.matrix === 'mat4' ? 16 : 12;
  const groupData = new Float32Array(part.groups.length * layout.slots * stride);
  gatherGroupPalettes(part, layout, palette, groupData);
  const out = new Float32Array(part.vertexCount * 3);
  const n = layout.joints === 'slots' ? 4 : influences;
  part.groups.forEach((g, gi) => {
    const base = gi * layout.slots * stride;
    for (let v = g.vertexStart; v < g.vertexStart + g.vertexCount; v++) {
      const w3 = data.weights3.subarray(v * 3, v * 3 + 3);
      // Implicit last weight: 1 − Σ of the n − 1 stored ones.
      const w = [0, 0, 0, 0];
      let sum = 0;
      for (let k = 0; k < n - 1; k++) {
        w[k] = w3[k]!;
        sum += w3[k]!;
      }
      w[n - 1] = 1 - sum;
      const [px, py, pz] = [data.positions[v * 3]!, data.positions[v * 3 + 1]!, data.positions[v * 3 + 2]!];
      for (let k = 0; k < n; k++) {
        const j = layout.joints === 'slots' ? k : data.joints4![v * 4 + k]!;
        if (layout.matrix === 'mat4') {
          const o = base + j * 16;
          for (let r = 0; r < 3; r++) out[v * 3 + r]! += w[k]! * (groupData[o + r]! * px + groupData[o + 4 + r]! * py + groupData[o + 8 + r]! * pz + groupData[o + 12 + r]!);
        } else {
          // Registers: j is slot · 3, the first row; dp4 per row.
          const o = base + j * 4;
          for (let r = 0; r < 3; r++) {
            const row = o + r * 4;
            out[v * 3 + r]! += w[k]! * (groupData[row]! * px + groupData[row + 1]! * py + groupData[row + 2]! * pz + groupData[row + 3]!);
          }
        }
      }
    }
  });
  return out;
}

/**
 * vs-hlsl through its real shader source: glsl/include/skin_pars.glsl (resolved as the build resolves it,
 * src/gpu/glsl-include.ts) with the define set vsHlsl.defines() gives, run by a small GLSL evaluator
 * (glsl-eval.ts) on the attributes and uniform block the technique uploads (mesh weights and joints, the
 * mat4 palette). The other techniques above are CPU transcriptions of their variants; this one executes the
 * GLSL itself, so a change to skin_pars.glsl's weights, blend or palette lookup changes this result.
 */
function runHlslShader(mesh: SkinnedMesh, palette: Float32Array, influences: number): Float32Array {
  const defines = vsHlsl.defines(humanoid(), CAPS, { influences, palette: 0 });
  const source = resolveIncludes('#include <skin_pars>', (name) => readFileSync(join(GLSL_INCLUDE, `${name}.glsl`), 'utf8'), 'vs-hlsl');
  const skinVertex = compileGlsl(source, defines as Record<string, string | number | boolean>);
  const slots = Number(defines['PALETTE_SIZE']);
  const block = Array.from({ length: slots }, (_, k) => new Mat(4, Array.from(palette.subarray(k * 16, k * 16 + 16))));
  const out = new Float32Array(mesh.vertexCount * 3);
  for (let v = 0; v < mesh.vertexCount; v++) {
    const o = v * MAX_INFLUENCES;
    const globals = { a_weights: Array.from(mesh.weights.subarray(o, o + 4)), a_joints: Array.from(mesh.joints.subarray(o, o + 4)), u_palette: block };
    const p = Array.from(mesh.positions.subarray(v * 3, v * 3 + 3));
    const n = Array.from(mesh.normals.subarray(v * 3, v * 3 + 3));
    const { args } = skinVertex('skinVertex', [p, n, [1, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]], globals);
    out.set(args[3] as number[], v * 3);
  }
  return out;
}

/** Largest error of a technique's vertices against the reference of the mesh vertex each copies (approximated copies skipped). */
function errorAgainst(reference: Float32Array, part: Partition, out: Float32Array): number {
  let worst = 0;
  for (let v = 0; v < part.vertexCount; v++) {
    if (part.approximated[v]) continue;
    const s = part.sourceVertex[v]!;
    for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(out[v * 3 + c]! - reference[s * 3 + c]!));
  }
  return worst;
}

describe('technique vertex maths equals the software reference', () => {
  const scene = humanoid();
  const mesh = scene.meshes[0]!;
  const tolerance = 1e-5 * meshSize(mesh);

  for (const seed of [1, 2, 3]) {
    for (const influences of [1, 2, 3, 4]) {
      it(`pose ${seed}, ${influences} influence(s)`, () => {
        const palette = randomPalette(scene, mesh, seed);
        const reference = new Float32Array(mesh.vertexCount * 3);
        skinMesh(mesh, palette, reference, null, influences);

        const ff = partitionMesh(mesh, influences, FF_BLEND_MATRICES, true);
        expect(errorAgainst(reference, ff, emulateGrouped(mesh, ff, FF_LAYOUT, palette, influences)), 'ff-nonindexed').toBeLessThan(tolerance);

        const paletteSize = Math.max(12, maxFaceBones(mesh, influences));
        const indexed = partitionMesh(mesh, influences, paletteSize);
        const layout: GroupLayout = { joints: 'indexed', jointScale: 1, slots: paletteSize, matrix: 'mat4', loadAllSlots: false };
        expect(errorAgainst(reference, indexed, emulateGrouped(mesh, indexed, layout, palette, influences)), 'ff-indexed').toBeLessThan(tolerance);

        const asm = partitionMesh(mesh, influences, VS_ASM_BONES);
        expect(errorAgainst(reference, asm, emulateGrouped(mesh, asm, VS_ASM_LAYOUT, palette, influences)), 'vs-asm').toBeLessThan(tolerance);

        expect(maxDiff(runHlslShader(mesh, palette, influences), reference), 'vs-hlsl (skin_pars.glsl evaluated)').toBeLessThan(tolerance);
      });
    }
  }

  it('rigid skinning (1 influence) moves every vertex with exactly one bone', () => {
    const palette = randomPalette(scene, mesh, 9);
    const rigid = new Float32Array(mesh.vertexCount * 3);
    const smooth = new Float32Array(mesh.vertexCount * 3);
    skinMesh(mesh, palette, rigid, null, 1);
    skinMesh(mesh, palette, smooth, null, 4);
    expect(maxDiff(rigid, smooth)).toBeGreaterThan(tolerance * 100);
  });
});

describe('vs-asm packing (Freidlin)', () => {
  const mesh = humanoid().meshes[0]!;
  // A 12-bone register budget forces several groups on this mesh (its used bones fit the real 29).
  const layout: GroupLayout = { ...VS_ASM_LAYOUT, slots: 12 };
  const part = partitionMesh(mesh, 4, 12);
  const data = groupedVertices(mesh, part, layout);

  it('budget: 29 bones of 3 registers fit in 96 minus the 9 the shader keeps', () => {
    expect(VS_ASM_BONES).toBe(29);
    expect(VS_ASM_BONES * VS_ASM_ROWS + 9).toBeLessThanOrEqual(96);
    const full = partitionMesh(mesh, 4, VS_ASM_BONES);
    for (const g of full.groups) expect(g.bones.length).toBeLessThanOrEqual(VS_ASM_BONES);
    for (const g of part.groups) expect(g.bones.length).toBeLessThanOrEqual(12);
    expect(part.groups.length).toBeGreaterThan(1);
  });

  it('indices are group-local slots pre-multiplied by 3, as unsigned bytes', () => {
    expect(data.joints4).toBeInstanceOf(Uint8Array);
    for (let v = 0; v < part.vertexCount; v++) {
      for (let k = 0; k < 4; k++) {
        const packed = data.joints4![v * 4 + k]!;
        expect(packed % 3).toBe(0);
        expect(packed / 3).toBe(part.localJoints[v * 4 + k]);
      }
    }
  });

  it('the implicit last weight, 1 − (w0 + w1 + w2), reconstructs the 4th', () => {
    let worst = 0;
    for (let v = 0; v < part.vertexCount; v++) {
      const implicit = 1 - (data.weights3[v * 3]! + data.weights3[v * 3 + 1]! + data.weights3[v * 3 + 2]!);
      worst = Math.max(worst, Math.abs(implicit - part.weights[v * 4 + 3]!));
    }
    expect(worst).toBeLessThan(1e-6);
  });

  it('rows4x3: register r of a bone is row r of its matrix (dp4 with (p, 1) is the transformed coordinate)', () => {
    const palette = randomPalette(humanoid(), mesh, 5);
    const rows = new Float32Array(part.groups.length * layout.slots * 12);
    gatherGroupPalettes(part, layout, palette, rows);
    const g = part.groups[1]!;
    const slot = g.bones.length - 1;
    const m = g.bones[slot]! * 16;
    const o = (1 * layout.slots + slot) * 12;
    for (let r = 0; r < 3; r++) {
      expect([rows[o + r * 4], rows[o + r * 4 + 1], rows[o + r * 4 + 2], rows[o + r * 4 + 3]]).toEqual([palette[m + r], palette[m + 4 + r], palette[m + 8 + r], palette[m + 12 + r]]);
    }
  });
});

describe('palette texture layout', () => {
  it('slot s starts at texel ((s mod 256) · 4, s div 256), which is float s · 16 of the row-major data', () => {
    const width = PALETTE_TEXTURE_ROW_SLOTS * 4;
    for (const s of [0, 1, 255, 256, 700]) {
      const x = (s % 256) * 4;
      const y = Math.floor(s / 256);
      expect((y * width + x) * 4).toBe(s * 16);
    }
  });
});
