import { describe, expect, it } from 'vitest';
import { validateScene } from '../../src/model/build.ts';
import { MAX_INFLUENCES, TRS_STRIDE, type Scene } from '../../src/model/types.ts';
import { TECHNIQUES, clampPalette, paletteRange } from '../../src/techniques/index.ts';
import type { DeviceCaps, TechniqueId, TechniqueOptions } from '../../src/techniques/technique.ts';

/**
 * A mesh with more bones than a technique holds: the technique is disabled with a reason, asked the way
 * the app asks (Technique.unsupportedReason(scene, renderer caps, options), src/app/app.ts), and the
 * others still draw it. The palette-splitting techniques (ff-indexed, vs-asm) split any palette into
 * groups, so only the widest triangle (at most 3 vertices × 4 influences = 12 bones) limits them.
 */

/** WebGL2's guaranteed minimums (MAX_UNIFORM_BLOCK_SIZE, MAX_VERTEX_UNIFORM_VECTORS, MAX_TEXTURE_SIZE). */
const MIN_CAPS: DeviceCaps = { maxUniformBlockSize: 16384, maxVertexUniformVectors: 256, maxTextureSize: 2048 };
const OPTIONS: TechniqueOptions = { influences: 4, palette: 12 };

/**
 * `bones` nodes under one root, one mesh using all of them: vertex v is bound to bone v alone, except the
 * first triangle, whose 3 vertices take 4 distinct bones each (12 bones on one triangle).
 */
function manyBones(bones: number): Scene {
  const vc = bones;
  const joints = new Uint16Array(vc * MAX_INFLUENCES);
  const weights = new Float32Array(vc * MAX_INFLUENCES);
  for (let v = 0; v < vc; v++) {
    const wide = v < 3;
    for (let k = 0; k < (wide ? 4 : 1); k++) {
      joints[v * MAX_INFLUENCES + k] = wide ? v * 4 + k : v;
      weights[v * MAX_INFLUENCES + k] = wide ? 0.25 : 1;
    }
  }
  const positions = new Float32Array(vc * 3);
  const normals = new Float32Array(vc * 3);
  for (let v = 0; v < vc; v++) {
    positions.set([v % 2, Math.floor(v / 2), 0], v * 3);
    normals[v * 3 + 2] = 1;
  }
  const indices: number[] = [];
  for (let v = 0; v + 2 < vc; v += 3) indices.push(v, v + 1, v + 2);
  const restLocal = new Float32Array(bones * TRS_STRIDE);
  const invBind = new Float32Array(bones * 16);
  for (let b = 0; b < bones; b++) {
    restLocal.set([0, 0, 0, 0, 0, 0, 1, 1, 1, 1], b * TRS_STRIDE);
    invBind.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], b * 16);
  }
  const scene: Scene = {
    name: `bones-${bones}`,
    format: 'm3d',
    floatBits: 0,
    skeleton: {
      names: Array.from({ length: bones }, (_, b) => `Bone${b}`),
      parents: Int16Array.from({ length: bones }, (_, b) => (b === 0 ? -1 : 0)),
      restLocal,
    },
    meshes: [{
      name: 'crowd',
      vertexCount: vc,
      positions,
      normals,
      tangents: null,
      uvs: null,
      joints,
      weights,
      maxInfluences: 4,
      indices: Uint32Array.from(indices),
      subsets: [{ material: 0, start: 0, count: indices.length / 3 }],
      bones: Int16Array.from({ length: bones }, (_, b) => b),
      invBind,
      skinned: true,
    }],
    clips: [],
    materials: [{ name: 'm', diffuse: [1, 1, 1, 1], specular: [0, 0, 0], specularPower: 8, emissive: [0, 0, 0], diffuseMap: null, normalMap: null }],
    morphTargets: [],
    warnings: [],
  };
  validateScene(scene);
  return scene;
}

function reasons(scene: Scene, caps: DeviceCaps, options = OPTIONS): Record<TechniqueId, string | null> {
  return Object.fromEntries(TECHNIQUES.map((t) => [t.id, t.unsupportedReason(scene, caps, options)])) as Record<TechniqueId, string | null>;
}

describe('techniques and bone counts', () => {
  it('300 bones on a minimum WebGL2 device: the mat4 uniform-block techniques are disabled with the reason', () => {
    expect(reasons(manyBones(300), MIN_CAPS)).toEqual({
      software: null,
      'ff-nonindexed': null,
      'ff-indexed': null,
      'vs-asm': null,
      'vs-hlsl': "needs 300 palette entries; this device's uniform block holds 256",
      accumulated: "needs 300 palette entries; this device's uniform block holds 256",
      'dual-quat': null,
      // 5 vec4 a bone (quaternion, scale, 3x4 matrix): 16384 / 80 = 204.
      cor: "needs 300 palette entries; this device's uniform block holds 204",
      texture: null,
      'stream-out': null,
      // Its palette is a texture: no bone limit here.
      ddm: null,
    });
  });

  it('dual quaternions (12 floats a bone) hold 341 bones in 16 KiB; every uniform block stops at 1024', () => {
    expect(reasons(manyBones(400), MIN_CAPS)['dual-quat']).toBe("needs 400 palette entries; this device's uniform block holds 341");
    const big: DeviceCaps = { maxUniformBlockSize: 1 << 20, maxVertexUniformVectors: 4096, maxTextureSize: 16384 };
    const r = reasons(manyBones(1100), big);
    expect([r['vs-hlsl'], r.accumulated, r['dual-quat']]).toEqual(Array(3).fill("needs 1100 palette entries; this device's uniform block holds 1024"));
    expect([r.software, r['ff-indexed'], r['vs-asm'], r.texture]).toEqual([null, null, null, null]);
  });

  it('vs-asm needs its 96 registers; ff-indexed needs a palette as wide as the widest triangle (12 bones)', () => {
    const scene = manyBones(300);
    const small = reasons(scene, { ...MIN_CAPS, maxVertexUniformVectors: 64 });
    expect(small['vs-asm']).toBe('needs 96 vertex uniform vectors; this device has 64');
    expect(small['ff-indexed']).toBeNull(); // (64 − 8) / 4 = 14 matrices ≥ 12
    const tiny = reasons(scene, { ...MIN_CAPS, maxVertexUniformVectors: 40 });
    expect(tiny['ff-indexed']).toBe("a triangle needs 12 matrices; this device's vertex uniforms hold a palette of 8");
    // With one influence kept, the widest triangle needs 3 bones: ff-indexed fits again.
    expect(reasons(scene, { ...MIN_CAPS, maxVertexUniformVectors: 40 }, { influences: 1, palette: 8 })['ff-indexed']).toBeNull();
  });

  it("clampPalette: a palette of at least 3 × influences the device holds is kept without walking the triangles; any other is clamped to the range", () => {
    const caps = { ...MIN_CAPS, maxVertexUniformVectors: 80 }; // (80 − 8) / 4 = 18 matrices
    for (let influences = 1; influences <= 4; influences++) {
      for (let palette = 0; palette <= 24; palette++) {
        // A fresh scene per call: sceneFaceBones caches its scan per scene.
        const scene = manyBones(40);
        const range = paletteRange(manyBones(40), caps, influences);
        const expected = Math.max(range.min, Math.min(range.max, palette || 12));
        let reads = 0;
        const mesh = scene.meshes[0]!;
        const indices = mesh.indices;
        Object.defineProperty(mesh, 'indices', { get: () => (reads++, indices) });
        expect(clampPalette(scene, caps, influences, palette), `influences ${influences}, palette ${palette}`).toBe(expected);
        const kept = (palette || 12) >= 3 * influences && (palette || 12) <= range.max;
        expect(reads > 0, `influences ${influences}, palette ${palette}: triangles walked`).toBe(!kept);
      }
    }
  });
});
