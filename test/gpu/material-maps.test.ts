import { describe, expect, it } from 'vitest';
import { distinctTextures, prepareMaterialTextures, uploadMaterialSet } from '../../src/gpu/textures.ts';

/**
 * A material's data and emissive maps (src/gpu/textures.ts uploadMaterialSet) against a recording stand-in for
 * WebGL2: each named map becomes its own texture; a missing one a neutral 1x1 stand-in with one warning, never
 * the magenta checker.
 */

interface Call {
  name: string;
  args: unknown[];
}

function fakeGl(): { gl: WebGL2RenderingContext; calls: Call[] } {
  const calls: Call[] = [];
  let id = 0;
  const gl = new Proxy({} as WebGL2RenderingContext, {
    get: (_, key: string) => {
      if (/^[A-Z0-9_]+$/.test(key)) return key;
      return (...args: unknown[]) => {
        calls.push({ name: key, args });
        if (key === 'getParameter') return 8192;
        if (key === 'createTexture') return { id: id++ };
        return null;
      };
    },
  });
  return { gl, calls };
}

/** A 4x4 uncompressed 32-bit DDS. */
function dds(): Uint8Array {
  const out = new Uint8Array(128 + 64);
  const v = new DataView(out.buffer);
  out.set([0x44, 0x44, 0x53, 0x20]);
  v.setUint32(4, 124, true);
  v.setUint32(8, 0x1007, true);
  v.setUint32(12, 4, true);
  v.setUint32(16, 4, true);
  v.setUint32(76, 32, true);
  v.setUint32(80, 0x40, true);
  v.setUint32(88, 32, true);
  v.setUint32(92, 0xff0000, true);
  v.setUint32(96, 0xff00, true);
  v.setUint32(100, 0xff, true);
  return out;
}

describe('uploadMaterialSet', () => {
  it('uploads every named map; a missing data map is a neutral 1x1 texture with one warning, not a checker', async () => {
    const { gl, calls } = fakeGl();
    const materials = [
      { diffuseMap: 'a.dds', metallicRoughnessMap: 'a.dds', normalMap: 'gone.png', occlusionMap: null, emissiveMap: 'gone-glow.png' },
      { diffuseMap: null },
    ];
    const warnings: string[] = [];
    const files: Record<string, Uint8Array> = { 'a.dds': dds() };
    const prepared = await prepareMaterialTextures(gl, materials, async (n) => files[n] ?? null);
    const { diffuse, maps } = uploadMaterialSet(gl, materials, prepared, warnings);
    expect(diffuse.map((t) => t !== null)).toEqual([true, false]);
    const m = maps[0]!;
    expect([m.metallicRoughnessMap, m.normalMap, m.emissiveMap].every((t) => t !== null)).toBe(true);
    expect(m.occlusionMap).toBeNull();
    expect(Object.values(maps[1]!)).toEqual([null, null, null, null]);
    // One file as the colour and the metallic-roughness map: one texture, uploaded once.
    expect(m.metallicRoughnessMap).toBe(diffuse[0]);
    expect(new Set([diffuse[0], m.normalMap, m.emissiveMap]).size).toBe(3);
    expect(warnings).toEqual([
      "texture 'gone.png' was not found next to the model; drawn without it",
      "texture 'gone-glow.png' was not found next to the model; drawn without it",
    ]);
    const uploads = calls.filter((c) => c.name === 'texImage2D' || c.name === 'texStorage2D');
    // One 4x4 image (diffuse and metallic-roughness), two 1x1 stand-ins: a flat normal and a black emissive; no 8x8 checker.
    expect(uploads.map((c) => `${c.args[3]}x${c.args[4]}`).sort()).toEqual(['1x1', '1x1', '4x4']);
    const solids = uploads.filter((c) => c.args[3] === 1).map((c) => Array.from(c.args[8] as Uint8Array));
    expect(solids).toEqual([[128, 128, 255, 255], [0, 0, 0, 255]]);
  });
});

describe('distinctTextures', () => {
  it('lists each texture the lists hold once, whatever material or map shares it', () => {
    const [a, b, c] = [{}, {}, {}] as WebGLTexture[];
    const none = { metallicRoughnessMap: null, normalMap: null, occlusionMap: null, emissiveMap: null };
    const set = distinctTextures([a, null, a, b], [{ ...none, normalMap: b }, { ...none, metallicRoughnessMap: a, emissiveMap: c }, none, none]);
    expect([...set]).toEqual([a, b, c]);
  });
});
