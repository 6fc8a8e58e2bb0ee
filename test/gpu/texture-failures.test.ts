import { describe, expect, it } from 'vitest';
import { loadMaterialTextures } from '../../src/gpu/textures.ts';

/**
 * A model whose textures fail to decode still loads: each broken file becomes one warning naming the
 * texture and the reason, its materials draw the 8x8 magenta checker, and nothing throws. DDS and TGA are
 * decoded in Node (src/loaders/textures), so their corrupt-data paths run here end to end; PNG/JPEG go to
 * the browser's decoder and take the same catch → checker path (covered in the browser tests).
 * (Kept beside the model validation tests it belongs with in the reliability work; test/gpu/textures.test.ts
 * holds the loader's other contracts.)
 */

interface Call {
  name: string;
  args: unknown[];
}

/** A WebGL2 stand-in that records calls; constants are their own names. */
function recordingGl(): { gl: WebGL2RenderingContext; calls: Call[] } {
  const calls: Call[] = [];
  let next = 0;
  const gl = new Proxy({} as WebGL2RenderingContext, {
    get: (_, key: string) => {
      if (/^[A-Z0-9_]+$/.test(key)) return key;
      return (...args: unknown[]) => {
        calls.push({ name: key, args });
        if (key === 'getParameter') return 4096;
        if (key === 'getExtension') return null;
        if (key === 'createTexture') return { id: next++ };
        return undefined;
      };
    },
  });
  return { gl, calls };
}

/** An uncompressed 32-bit DDS header for w x h followed by `dataBytes` bytes. */
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

describe('textures that fail to decode', () => {
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
    const { gl, calls } = recordingGl();
    const warnings: string[] = [];
    const textures = await loadMaterialTextures(gl, materials, async (n) => files[n] ?? null, warnings);
    expect(warnings).toEqual([
      "texture 'short.dds' is unusable: corrupt DDS: truncated data: 64x64 32-bit needs 16384 bytes after the header, the file has 16; showing a checker",
      "texture 'size.dds' is unusable: corrupt DDS: pixel format size field is 4294967295, expected 32; showing a checker",
      "texture 'short.tga' is unusable: corrupt TGA: truncated data: 32x32 at 24 bits needs 3072 bytes, 3 left; showing a checker",
      "texture 'rle.tga' is unusable: corrupt TGA: RLE packet at byte 18 runs 112 pixels past the image; showing a checker",
    ]);
    expect(textures.every((t) => t !== null)).toBe(true);
    expect(new Set(textures).size).toBe(textures.length);
    // Five checkers (4 broken files, one of them on two materials) of 8x8 and one 4x4 image.
    const uploads = calls.filter((c) => c.name === 'texImage2D').map((c) => `${c.args[3]}x${c.args[4]}`);
    expect(uploads.filter((s) => s === '8x8')).toHaveLength(5);
    expect(uploads).toContain('4x4');
  });
});
