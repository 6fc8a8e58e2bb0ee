import { describe, expect, it } from 'vitest';
import { decodeTextureFile } from '../../src/loaders/textures/decode.ts';
import { UnsupportedImageError } from '../../src/loaders/textures/image.ts';
import { sniffImage } from '../../src/loaders/textures/sniff.ts';
import { readTga } from '../../src/loaders/textures/tga.ts';
import { corpusBytes, describeCorpus } from '../corpus.ts';
import { threadCpuMs } from '../thread-cpu.ts';

/** TGA reading (src/loaders/textures/tga.ts): every type, depth and origin against hand-built files. */

interface TgaSpec {
  type: number;
  width: number;
  height: number;
  depth: number;
  descriptor?: number;
  idLength?: number;
  map?: { first: number; length: number; bits: number; data: number[] };
}

function tga(spec: TgaSpec, pixels: number[]): Uint8Array {
  const h = new Uint8Array(18);
  const v = new DataView(h.buffer);
  h[0] = spec.idLength ?? 0;
  h[1] = spec.map ? 1 : 0;
  h[2] = spec.type;
  if (spec.map) {
    v.setUint16(3, spec.map.first, true);
    v.setUint16(5, spec.map.length, true);
    h[7] = spec.map.bits;
  }
  v.setUint16(12, spec.width, true);
  v.setUint16(14, spec.height, true);
  h[16] = spec.depth;
  h[17] = spec.descriptor ?? 0;
  return new Uint8Array([...h, ...new Array<number>(spec.idLength ?? 0).fill(0x41), ...(spec.map?.data ?? []), ...pixels]);
}

/**
 * RLE-encodes pixels of `bpp` bytes the way writers do: runs of equal pixels as repeat packets,
 * the rest as raw packets, 128 pixels at most per packet, packets free to cross rows.
 */
function rle(pixels: number[], bpp: number): number[] {
  const n = pixels.length / bpp;
  const at = (i: number): string => pixels.slice(i * bpp, i * bpp + bpp).join();
  const out: number[] = [];
  let i = 0;
  while (i < n) {
    let run = 1;
    while (i + run < n && run < 128 && at(i + run) === at(i)) run++;
    if (run > 1) {
      out.push(0x80 | (run - 1), ...pixels.slice(i * bpp, i * bpp + bpp));
      i += run;
      continue;
    }
    let raw = 1;
    while (i + raw < n && raw < 128 && at(i + raw) !== at(i + raw - 1)) raw++;
    if (i + raw < n && raw > 1) raw--;
    out.push(raw - 1, ...pixels.slice(i * bpp, (i + raw) * bpp));
    i += raw;
  }
  return out;
}

/** A 5x3 BGRA test picture with repeats (for RLE) and a distinct value per row. */
const W = 5;
const H = 3;
const BGRA = [
  [10, 20, 30, 255], [10, 20, 30, 255], [10, 20, 30, 255], [1, 2, 3, 128], [4, 5, 6, 0],
  [40, 50, 60, 255], [70, 80, 90, 255], [70, 80, 90, 255], [70, 80, 90, 255], [70, 80, 90, 255],
  [70, 80, 90, 255], [200, 100, 0, 64], [0, 0, 0, 255], [9, 9, 9, 9], [9, 9, 9, 9],
].flat();

/** The picture as RGBA, rows in storage order. */
const RGBA = BGRA.map((_, i) => BGRA[i - (i % 4) + [2, 1, 0, 3][i % 4]!]!);

/** Rows of an RGBA image, top first, as arrays. */
function rows(rgba: Uint8Array | number[], width: number): number[][] {
  const out: number[][] = [];
  for (let o = 0; o < rgba.length; o += width * 4) out.push([...rgba.slice(o, o + width * 4)]);
  return out;
}

const bgr = (bgra: number[]): number[] => bgra.filter((_, i) => i % 4 !== 3);

describe('TGA true-colour', () => {
  it('top-left origin: rows as stored; 32-bit with 8 alpha bits keeps alpha', () => {
    const img = readTga(tga({ type: 2, width: W, height: H, depth: 32, descriptor: 0x28 }, BGRA));
    expect([img.format, img.width, img.height, img.levels.length]).toEqual(['rgba8', W, H, 1]);
    expect(rows(img.levels[0]!.data, W)).toEqual(rows(RGBA, W));
  });

  it('bottom-left origin (the default) is flipped so the top row comes first', () => {
    const img = readTga(tga({ type: 2, width: W, height: H, depth: 32, descriptor: 0x08 }, BGRA));
    expect(rows(img.levels[0]!.data, W)).toEqual(rows(RGBA, W).reverse());
  });

  it('right-to-left pixels are mirrored', () => {
    const img = readTga(tga({ type: 2, width: W, height: H, depth: 32, descriptor: 0x38 }, BGRA));
    const expected = rows(RGBA, W).map((r) => Array.from({ length: W }, (_, x) => r.slice((W - 1 - x) * 4, (W - x) * 4)).flat());
    expect(rows(img.levels[0]!.data, W)).toEqual(expected);
  });

  it('32-bit without alpha bits, and 24-bit, are opaque', () => {
    const noAlpha = readTga(tga({ type: 2, width: W, height: H, depth: 32, descriptor: 0x20 }, BGRA));
    const rgb24 = readTga(tga({ type: 2, width: W, height: H, depth: 24, descriptor: 0x20 }, bgr(BGRA)));
    const opaque = RGBA.map((v, i) => (i % 4 === 3 ? 255 : v));
    expect([...noAlpha.levels[0]!.data]).toEqual(opaque);
    expect([...rgb24.levels[0]!.data]).toEqual(opaque);
  });

  it('15/16-bit A1R5G5B5: alpha bit only with an attribute bit declared', () => {
    const pixels = [0x7c00, 0x83e0, 0x001f, 0x8000].flatMap((p) => [p & 255, p >> 8]);
    const a16 = readTga(tga({ type: 2, width: 4, height: 1, depth: 16, descriptor: 0x21 }, pixels));
    expect(rows(a16.levels[0]!.data, 4)[0]).toEqual([255, 0, 0, 0, 0, 255, 0, 255, 0, 0, 255, 0, 0, 0, 0, 255]);
    const x15 = readTga(tga({ type: 2, width: 4, height: 1, depth: 15, descriptor: 0x20 }, pixels));
    expect(x15.levels[0]!.data.filter((_, i) => i % 4 === 3).every((a) => a === 255)).toBe(true);
  });

  it('RLE (type 10) decodes to the same image as uncompressed (type 2), runs crossing rows', () => {
    for (const [depth, data] of [[32, BGRA], [24, bgr(BGRA)]] as const) {
      const raw = readTga(tga({ type: 2, width: W, height: H, depth, descriptor: 8 }, [...data]));
      const packed = rle([...data], depth / 8);
      expect(packed.length).toBeLessThan(data.length);
      const compressed = readTga(tga({ type: 10, width: W, height: H, depth, descriptor: 8 }, packed));
      expect([...compressed.levels[0]!.data]).toEqual([...raw.levels[0]!.data]);
    }
  });

  it('skips the image ID field', () => {
    const img = readTga(tga({ type: 2, width: W, height: H, depth: 32, descriptor: 0x28, idLength: 7 }, BGRA));
    expect(rows(img.levels[0]!.data, W)).toEqual(rows(RGBA, W));
  });
});

describe('TGA grey and colour-mapped', () => {
  it('8-bit grey (3) and its RLE form (11); 16-bit grey + alpha', () => {
    const grey = [0, 0, 0, 50, 100, 100, 100, 255];
    const a = readTga(tga({ type: 3, width: 4, height: 2, depth: 8, descriptor: 0x20 }, grey));
    const b = readTga(tga({ type: 11, width: 4, height: 2, depth: 8, descriptor: 0x20 }, rle(grey, 1)));
    expect([...a.levels[0]!.data]).toEqual(grey.flatMap((g) => [g, g, g, 255]));
    expect([...b.levels[0]!.data]).toEqual([...a.levels[0]!.data]);
    const ga = readTga(tga({ type: 3, width: 1, height: 1, depth: 16, descriptor: 0x28 }, [77, 99]));
    expect([...ga.levels[0]!.data]).toEqual([77, 77, 77, 99]);
  });

  it('colour map (1) with a first-entry offset, and its RLE form (9)', () => {
    const map = { first: 10, length: 3, bits: 24, data: [255, 0, 0, 0, 255, 0, 0, 0, 255] };
    const indices = [10, 11, 12, 12, 12, 10];
    const expected = [[0, 0, 255, 255], [0, 255, 0, 255], [255, 0, 0, 255], [255, 0, 0, 255], [255, 0, 0, 255], [0, 0, 255, 255]].flat();
    const a = readTga(tga({ type: 1, width: 3, height: 2, depth: 8, descriptor: 0x20, map }, indices));
    const b = readTga(tga({ type: 9, width: 3, height: 2, depth: 8, descriptor: 0x20, map }, rle(indices, 1)));
    expect([...a.levels[0]!.data]).toEqual(expected);
    expect([...b.levels[0]!.data]).toEqual(expected);
  });

  it('a true-colour image with a colour map present skips it', () => {
    const map = { first: 0, length: 2, bits: 32, data: [1, 1, 1, 1, 2, 2, 2, 2] };
    const img = readTga(tga({ type: 2, width: W, height: H, depth: 32, descriptor: 0x28, map }, BGRA));
    expect(rows(img.levels[0]!.data, W)).toEqual(rows(RGBA, W));
  });
});

describe('TGA damage', () => {
  function failure(bytes: Uint8Array): Error {
    const t0 = threadCpuMs();
    let error: unknown;
    try {
      readTga(bytes);
    } catch (e) {
      error = e;
    }
    expect(threadCpuMs() - t0, 'CPU time to fail (ms)').toBeLessThan(200);
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }

  it('fails quickly with a message saying what is wrong', () => {
    const cases: [Uint8Array, RegExp][] = [
      [new Uint8Array(5), /truncated header: 5 bytes/],
      [tga({ type: 0, width: 1, height: 1, depth: 8 }, []), /holds no image data/],
      [tga({ type: 2, width: 65535, height: 65535, depth: 32 }, []), /larger than the 16384 pixel limit/],
      [tga({ type: 2, width: 16384, height: 16384, depth: 32 }, []), /more than the 67108864 pixel limit/],
      [tga({ type: 2, width: 0, height: 4, depth: 32 }, []), /invalid size 0x4/],
      [tga({ type: 2, width: 4, height: 4, depth: 24 }, new Array(47).fill(0)), /truncated data: 4x4 at 24 bits needs 48 bytes, 47 left/],
      [tga({ type: 10, width: 4000, height: 4000, depth: 24 }, [0xff, 1, 2, 3]), /cannot be encoded in the 4 bytes left/],
      [tga({ type: 10, width: 4, height: 1, depth: 24 }, [0x85, 1, 2, 3]), /RLE packet at byte 18 runs 2 pixels past the image/],
      [tga({ type: 10, width: 4, height: 4, depth: 24 }, [0x82, 1, 2, 3, 0x05, 1, 2]), /truncated RLE data: the file ends after 3 of 16 pixels/],
      [tga({ type: 1, width: 1, height: 1, depth: 8, map: { first: 0, length: 2, bits: 24, data: [1, 2, 3, 4, 5, 6] } }, [9]), /colour index 9 is outside the colour map \(0..1\)/],
      [tga({ type: 1, width: 1, height: 1, depth: 8, map: { first: 0, length: 200, bits: 24, data: [1, 2, 3] } }, []), /truncated colour map/],
      [tga({ type: 1, width: 1, height: 1, depth: 8 }, [0]), /colour-mapped image without a colour map/],
      [tga({ type: 2, width: 1, height: 1, depth: 32, idLength: 200 }, []), /image ID runs past the end|truncated data/],
    ];
    for (const [bytes, message] of cases) expect(failure(bytes).message).toMatch(message);
  });

  it('unsupported variants say so', () => {
    for (const [bytes, message] of [
      [tga({ type: 32, width: 1, height: 1, depth: 8 }, [0]), /image type 32 is not supported/],
      [tga({ type: 2, width: 1, height: 1, depth: 8 }, [0]), /8-bit true-colour pixels are not supported/],
    ] as const) {
      const e = failure(bytes);
      expect(e).toBeInstanceOf(UnsupportedImageError);
      expect(e.message).toMatch(message);
    }
  });
});

describeCorpus('corpus TGA files', () => {
  for (const file of ['top.tga', 'bottom.tga', 'updown.tga']) {
    it(`${file}: 256x256 24-bit, bottom-left origin flipped to top-first rows`, () => {
      const bytes = corpusBytes(file);
      expect(sniffImage(bytes, file)).toBe('tga');
      expect(sniffImage(bytes, 'misnamed.bmp')).toBe('tga');
      const img = readTga(bytes);
      expect([img.format, img.width, img.height, img.levels.length]).toEqual(['rgba8', 256, 256, 1]);
      const out = img.levels[0]!.data;
      // The file's first stored row (bottom) is the last output row.
      const stored = bytes.subarray(18, 18 + 256 * 3);
      const last = out.subarray(255 * 256 * 4);
      for (let x = 0; x < 256; x++) expect([last[x * 4], last[x * 4 + 1], last[x * 4 + 2], last[x * 4 + 3]]).toEqual([stored[x * 3 + 2], stored[x * 3 + 1], stored[x * 3], 255]);
      const colours = new Set<number>();
      for (let i = 0; i < out.length; i += 4) colours.add((out[i]! << 16) | (out[i + 1]! << 8) | out[i + 2]!);
      expect(colours.size).toBeGreaterThan(1);
      expect(decodeTextureFile(bytes, file).kind).toBe('image');
    });
  }
});
