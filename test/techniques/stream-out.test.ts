import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countMeshPass, countSkinOnce, emptyFigures } from '../../src/render/frame-types.ts';
import { morphDefines } from '../../src/render/morph-runtime.ts';
import { findTechnique, TECHNIQUE_IDS, TECHNIQUES } from '../../src/techniques/index.ts';
import { feedbackBytesPerVertex, passDefines, streamOut } from '../../src/techniques/stream-out.ts';
import type { TechniqueMesh } from '../../src/techniques/technique.ts';
import type { Scene } from '../../src/model/types.ts';

/**
 * The stream-out technique's pure parts: its place in the menu, the draw and pass define sets, what one frame
 * counts (each vertex skinned once, however many passes draw it; the bytes its transform feedback writes), and
 * the shader outputs its pass captures.
 */

const SKINNED_VERT = readFileSync(join(import.meta.dirname, '..', '..', 'glsl', 'skinned.vert'), 'utf8');

/** Just what the counting reads of a technique mesh. */
function fakeMesh(vertexCount: number, feedbackBytes?: number): TechniqueMesh {
  return { vertexCount, feedbackBytes } as unknown as TechniqueMesh;
}

describe('stream-out', () => {
  it('comes after texture in the menu (docs/api.md#technique-ids), before ddm, and skins once', () => {
    expect(TECHNIQUE_IDS.at(-2)).toBe('stream-out');
    expect(TECHNIQUE_IDS.indexOf('stream-out')).toBe(TECHNIQUE_IDS.indexOf('texture') + 1);
    expect(TECHNIQUES.map((t) => t.id)).toEqual([...TECHNIQUE_IDS]);
    expect(findTechnique('stream-out')).toBe(streamOut);
    expect(streamOut.skinsOnce).toBe(true);
  });

  it('draws skinned model-space vertices like software (no morph define on the draws); one mesh state per influence count', () => {
    const scene = { meshes: [], morphTargets: ['a'] } as unknown as Scene;
    const caps = { maxUniformBlockSize: 16384, maxVertexUniformVectors: 256, maxTextureSize: 2048 };
    const defines = streamOut.defines(scene, caps, { influences: 4, palette: 12 });
    expect(defines).toEqual({ NO_SKIN: true });
    expect(morphDefines(scene, 'slots', defines.NO_SKIN === true)).toBeNull();
    expect(streamOut.meshKey({ influences: 2, palette: 12 })).not.toBe(streamOut.meshKey({ influences: 3, palette: 12 }));
    expect(streamOut.meshKey({ influences: 2, palette: 12 })).toBe(streamOut.meshKey({ influences: 2, palette: 40 }));
  });

  it('its pass skins with the texture palette and the morph path the runtime hands it; the define sets are shared objects', () => {
    expect(passDefines(9, null)).toEqual({ PALETTE_TEXTURE: true, INFLUENCES: 4, SKIN_OUT: true });
    const scene = { meshes: [], morphTargets: ['a'] } as unknown as Scene;
    const slots = morphDefines(scene, 'slots', false)!;
    const texture = morphDefines(scene, 'texture', false)!;
    // The pass keys its programs by these objects: the same object every frame.
    expect(morphDefines(scene, 'slots', false)).toBe(slots);
    expect(morphDefines(scene, 'texture', false)).toBe(texture);
    expect(passDefines(1, slots)).toEqual({ PALETTE_TEXTURE: true, INFLUENCES: 1, SKIN_OUT: true, MORPH_SLOTS: true });
    expect(passDefines(2, texture)).toMatchObject({ MORPH_TEXTURE: true, INFLUENCES: 2, SKIN_OUT: true });
  });

  it('skinned.vert declares the outputs the pass captures, behind SKIN_OUT', () => {
    const block = /#if defined\(SKIN_OUT\)\s*\nout vec3 o_position;\s*\nout vec3 o_normal;\s*\nout vec4 o_tangent;\s*\n#endif/;
    expect(SKINNED_VERT).toMatch(block);
    expect(SKINNED_VERT).toContain('o_tangent = vec4(tangent, a_tangent.w);');
  });

  it('a frame counts each vertex once whatever the passes, and the bytes the feedback wrote', () => {
    expect(feedbackBytesPerVertex(true)).toBe(40);
    expect(feedbackBytesPerVertex(false)).toBe(24);
    const meshes = [fakeMesh(100, 100 * 40), fakeMesh(30, 30 * 24)];
    const f = emptyFigures();
    countSkinOnce(f, streamOut, meshes);
    for (let pass = 0; pass < 3; pass++) countMeshPass(f, streamOut, meshes);
    expect(f.passes).toBe(3);
    expect(f.skinnedVertices).toBe(130);
    expect(f.feedbackBytes).toBe(100 * 40 + 30 * 24);

    // A technique that skins in the vertex shader: once per pass, and no feedback.
    const hlsl = findTechnique('vs-hlsl')!;
    const g = emptyFigures();
    countSkinOnce(g, hlsl, meshes);
    countMeshPass(g, hlsl, meshes);
    countMeshPass(g, hlsl, meshes);
    expect(g.skinnedVertices).toBe(2 * 130);
    expect(g.feedbackBytes).toBe(0);
  });
});
