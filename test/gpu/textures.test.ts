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

/** An uncompressed 32-bit DDS header for w x h followed by `dataBytes` bytes (one level). */
function dds(w: number, h: number, dataBytes: number): Uint8Array {
  const out = new Uint8Array(128 + dataBytes);
  const v = new DataView(out.buffer);
  out.set([0x44, 0x44, 0x53, 0x20]);
  v.setUint32(4, 124, true);
  v.setUint32(8, 0x1007, true);
  v.setUint32(12, h, true);
  v.setUint32(16, w, true);
  v.setUint32(76, 32, true);
  v.setUint32(80, 0x40, true);
  v.setUint32(88, 32, true);
  v.setUint32(92, 0xff0000, true);
  v.setUint32(96, 0xff00, true);
  v.setUint32(100, 0xff, true);
  return out;
}

/** A 4x4 XRGB DDS with one level. */
const tinyDds = (): Uint8Array => dds(4, 4, 64);

/** A TGA header (top-left origin) of `type`, w x h at `depth` bits, then `body`. */
function tga(type: number, w: number, h: number, depth: number, body: number[]): Uint8Array {
  const out = new Uint8Array(18 + body.length);
  out[2] = type;
  out[12] = w & 255;
  out[13] = w >> 8;
  out[14] = h & 255;
  out[15] = h >> 8;
  out[16] = depth;
  out[17] = 0x20;
  out.set(body, 18);
  return out;
}

describe('loadMaterialTextures', () => {
  it('one texture per file, shared by the materials naming it; null without a map; one checker and one warning per bad file', async () => {
    const { gl, calls, created } = fakeGl(false);
    const files: Record<string, Uint8Array> = { 'a.dds': tinyDds(), 'bad.dds': tinyDds().slice(0, 100) };
    const warnings: string[] = [];
    const materials = ['a.dds', null, 'a.dds', 'gone.tga', 'bad.dds', 'gone.tga', ''].map((diffuseMap) => ({ diffuseMap }));
    const textures = await loadMaterialTextures(gl, materials, async (n) => files[n] ?? null, warnings);
    expect(textures.map((t) => t !== null)).toEqual([true, false, true, true, true, true, false]);
    expect(new Set(textures.filter(Boolean)).size).toBe(3);
    expect(created.length).toBe(3);
    expect(textures[2]).toBe(textures[0]);
    expect(textures[5]).toBe(textures[3]);
    expect(warnings).toEqual([
      "texture 'gone.tga' was not found next to the model; showing a checker",
      "texture 'bad.dds' is unusable: corrupt DDS: truncated header: 100 bytes, a DDS header is 128; showing a checker",
    ]);
    // The image: storage for its whole chain (4x4: 3 levels), level 0 written into it, the rest generated. Checkers: 8x8, nearest.
    const uploads = calls.filter((c) => c.name === 'texImage2D' || c.name === 'texStorage2D').map((c) => [c.args[3], c.args[4]]);
    expect(uploads).toEqual([[4, 4], [8, 8], [8, 8]]);
    expect(calls.filter((c) => c.name === 'texStorage2D').map((c) => [c.args[1], c.args[2]])).toEqual([[3, 'RGBA8']]);
    expect(calls.filter((c) => c.name === 'texSubImage2D').map((c) => [c.args[1], c.args[4], c.args[5]])).toEqual([[0, 4, 4]]);
    expect(calls.filter((c) => c.name === 'generateMipmap')).toHaveLength(1);
    expect(calls.some((c) => c.name === 'pixelStorei' && c.args[0] === 'UNPACK_FLIP_Y_WEBGL' && c.args[1] !== false)).toBe(false);
  });

  it('an aborted load creates no texture', async () => {
    const { gl, created } = fakeGl(false);
    const abort = new AbortController();
    abort.abort();
    await expect(loadMaterialTextures(gl, [{ diffuseMap: 'a.dds' }], async () => tinyDds(), [], abort.signal)).rejects.toThrow(/cancelled/);
    expect(created.length).toBe(0);
  });
  // DDS and TGA decode here (src/loaders/textures), so their corrupt-data paths run end to end; PNG/JPEG go to
  // the browser's decoder and take the same catch → checker path (browser tests).
  it('corrupt DDS and TGA data: a warning per file naming it and the reason, a checker per material, no throw', async () => {
    const badSize = dds(4, 4, 64);
    new DataView(badSize.buffer).setUint32(76, 0xffffffff, true);
    const files: Record<string, Uint8Array> = {
      'short.dds': dds(64, 64, 16),
      'size.dds': badSize,
      'short.tga': tga(2, 32, 32, 24, [1, 2, 3]),
      'rle.tga': tga(10, 4, 4, 24, [0xff, 1, 2, 3]),
      'good.tga': tga(2, 4, 4, 24, new Array(48).fill(7)),
    };
    const names = Object.keys(files);
    const materials = [...names, 'short.dds'].map((diffuseMap) => ({ diffuseMap }));
    const { gl, calls } = fakeGl(false);
    const warnings: string[] = [];
    const textures = await loadMaterialTextures(gl, materials, async (n) => files[n] ?? null, warnings);
    expect(warnings).toEqual([
      "texture 'short.dds' is unusable: corrupt DDS: truncated data: 64x64 32-bit needs 16384 bytes after the header, the file has 16; showing a checker",
      "texture 'size.dds' is unusable: corrupt DDS: pixel format size field is 4294967295, expected 32; showing a checker",
      "texture 'short.tga' is unusable: corrupt TGA: truncated data: 32x32 at 24 bits needs 3072 bytes, 3 left; showing a checker",
      "texture 'rle.tga' is unusable: corrupt TGA: RLE packet at byte 18 runs 112 pixels past the image; showing a checker",
    ]);
    expect(textures.every((t) => t !== null)).toBe(true);
    expect(new Set(textures).size).toBe(textures.length - 1);
    expect(textures[5]).toBe(textures[0]);
    // Four checkers (4 broken files, one of them on two materials) of 8x8 and one 4x4 image.
    const uploads = calls.filter((c) => c.name === 'texImage2D' || c.name === 'texStorage2D').map((c) => `${c.args[3]}x${c.args[4]}`);
    expect(uploads.filter((s) => s === '8x8')).toHaveLength(4);
    expect(uploads).toContain('4x4');
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

  it('Armor.dds without s3tc: decoded on the CPU, all 10 RGBA8 levels written into storage made once for them', async () => {
    const { gl, calls } = fakeGl(false);
    await loadMaterialTextures(gl, [{ diffuseMap: 'Armor.dds' }], async () => corpusBytes('Armor.dds'), []);
    expect(calls.filter((c) => c.name === 'texStorage2D').map((c) => c.args.slice(1))).toEqual([[10, 'RGBA8', 512, 512]]);
    const levels = calls.filter((c) => c.name === 'texSubImage2D');
    expect(levels.map((c) => [c.args[1], c.args[4], (c.args[8] as Uint8Array).length])).toEqual(
      Array.from({ length: 10 }, (_, i) => [i, 512 >> i, (512 >> i) ** 2 * 4]),
    );
    expect(calls.some((c) => c.name === 'texImage2D' || c.name === 'generateMipmap')).toBe(false);
  });
});
