import { describe, expect, it } from 'vitest';
import { dxtUploadPath, loadMaterialTextures } from '../../src/gpu/textures.ts';
import type { TextureImage } from '../../src/loaders/textures/image.ts';
import { corpusBytes, describeCorpus } from '../corpus.ts';

/**
 * The texture loader's contracts against a recording stand-in for WebGL2 (the pixels themselves are
 * checked in the browser): one distinct texture per textured material, checkers with a warning for
 * missing or broken files, the compressed upload path per level.
 */

interface Call {
  name: string;
  args: unknown[];
}

const S3TC = { COMPRESSED_RGBA_S3TC_DXT1_EXT: 0x83f1, COMPRESSED_RGBA_S3TC_DXT3_EXT: 0x83f2, COMPRESSED_RGBA_S3TC_DXT5_EXT: 0x83f3 };

/** A WebGL2 context that records calls; constants are their names, textures are numbered objects. */
function fakeGl(s3tc: boolean): { gl: WebGL2RenderingContext; calls: Call[]; created: object[] } {
  const calls: Call[] = [];
  const created: object[] = [];
  const methods: Record<string, (...args: unknown[]) => unknown> = {
    getParameter: () => 8192,
    getExtension: (name) => (name === 'WEBGL_compressed_texture_s3tc' && s3tc ? S3TC : null),
    createTexture: () => {
      const t = { id: created.length };
      created.push(t);
      return t;
    },
  };
  const gl = new Proxy({} as WebGL2RenderingContext, {
    get: (_, key: string) => {
      if (/^[A-Z0-9_]+$/.test(key)) return key;
      return (...args: unknown[]) => {
        calls.push({ name: key, args });
        return methods[key]?.(...args);
      };
    },
  });
  return { gl, calls, created };
}

/** A 4x4 XRGB DDS with one level. */
function tinyDds(): Uint8Array {
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

describe('loadMaterialTextures', () => {
  it('one distinct texture per textured material; null without a map; checkers and one warning per bad file', async () => {
    const { gl, calls, created } = fakeGl(false);
    const files: Record<string, Uint8Array> = { 'a.dds': tinyDds(), 'bad.dds': tinyDds().slice(0, 100) };
    const warnings: string[] = [];
    const materials = ['a.dds', null, 'a.dds', 'gone.tga', 'bad.dds', 'gone.tga', ''].map((diffuseMap) => ({ diffuseMap }));
    const textures = await loadMaterialTextures(gl, materials, async (n) => files[n] ?? null, warnings);
    expect(textures.map((t) => t !== null)).toEqual([true, false, true, true, true, true, false]);
    expect(new Set(textures.filter(Boolean)).size).toBe(5);
    expect(created.length).toBe(5);
    expect(warnings).toEqual([
      "texture 'gone.tga' was not found next to the model; showing a checker",
      "texture 'bad.dds' is unusable: corrupt DDS: truncated header: 100 bytes, a DDS header is 128; showing a checker",
    ]);
    // Checkers: 8x8, nearest.
    const uploads = calls.filter((c) => c.name === 'texImage2D').map((c) => [c.args[3], c.args[4]]);
    expect(uploads).toEqual([[4, 4], [4, 4], [8, 8], [8, 8], [8, 8]]);
    expect(calls.some((c) => c.name === 'pixelStorei' && c.args[0] === 'UNPACK_FLIP_Y_WEBGL' && c.args[1] !== false)).toBe(false);
  });

  it('an aborted load creates no texture', async () => {
    const { gl, created } = fakeGl(false);
    const abort = new AbortController();
    abort.abort();
    await expect(loadMaterialTextures(gl, [{ diffuseMap: 'a.dds' }], async () => tinyDds(), [], abort.signal)).rejects.toThrow(/cancelled/);
    expect(created.length).toBe(0);
  });
});

describe('dxtUploadPath', () => {
  const image = (format: TextureImage['format'], sizes: [number, number][]): TextureImage => ({
    format,
    width: sizes[0]![0],
    height: sizes[0]![1],
    levels: sizes.map(([width, height]) => ({ width, height, data: new Uint8Array(0) })),
    notes: [],
  });
  it('compressed only with the extension and block-friendly level sizes', () => {
    const pot = image('dxt1', [[8, 8], [4, 4], [2, 2], [1, 1]]);
    expect(dxtUploadPath(pot, S3TC as unknown as WEBGL_compressed_texture_s3tc)).toBe('compressed');
    expect(dxtUploadPath(pot, null)).toBe('cpu');
    expect(dxtUploadPath(image('dxt5', [[12, 12], [6, 6]]), S3TC as unknown as WEBGL_compressed_texture_s3tc)).toBe('cpu');
    expect(dxtUploadPath(image('dxt1', [[2, 2]]), S3TC as unknown as WEBGL_compressed_texture_s3tc)).toBe('cpu');
    expect(dxtUploadPath(image('rgba8', [[2, 2]]), null)).toBe('none');
  });
});

describeCorpus('corpus DXT upload', () => {
  it('Armor.dds with s3tc: every level through compressedTexImage2D, MAX_LEVEL = last level', async () => {
    const { gl, calls } = fakeGl(true);
    const [tex] = await loadMaterialTextures(gl, [{ diffuseMap: 'Armor.dds' }], async () => corpusBytes('Armor.dds'), []);
    expect(tex).not.toBeNull();
    const levels = calls.filter((c) => c.name === 'compressedTexImage2D');
    expect(levels.map((c) => [c.args[1], c.args[2], c.args[3], c.args[4], (c.args[6] as Uint8Array).length])).toEqual(
      Array.from({ length: 10 }, (_, i) => [i, S3TC.COMPRESSED_RGBA_S3TC_DXT1_EXT, 512 >> i, 512 >> i, Math.max(1, (512 >> i) / 4) ** 2 * 8]),
    );
    expect(calls.find((c) => c.name === 'texParameteri' && c.args[1] === 'TEXTURE_MAX_LEVEL')?.args[2]).toBe(9);
    expect(calls.some((c) => c.name === 'generateMipmap')).toBe(false);
  });

  it('Armor.dds without s3tc: decoded on the CPU, all 10 RGBA8 levels uploaded', async () => {
    const { gl, calls } = fakeGl(false);
    await loadMaterialTextures(gl, [{ diffuseMap: 'Armor.dds' }], async () => corpusBytes('Armor.dds'), []);
    const levels = calls.filter((c) => c.name === 'texImage2D');
    expect(levels.map((c) => [c.args[1], c.args[3], (c.args[8] as Uint8Array).length])).toEqual(
      Array.from({ length: 10 }, (_, i) => [i, 512 >> i, (512 >> i) ** 2 * 4]),
    );
  });
});
