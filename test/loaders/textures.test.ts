import { describe, expect, it } from 'vitest';
import { readDds } from '../../src/loaders/textures/dds.ts';
import { decodeTextureFile } from '../../src/loaders/textures/decode.ts';
import { decodeDxt, dxtLevelBytes } from '../../src/loaders/textures/dxt.ts';
import { fullMipCount, UnsupportedImageError, type TextureImage } from '../../src/loaders/textures/image.ts';
import { sniffImage } from '../../src/loaders/textures/sniff.ts';
import { corpusBytes, describeCorpus } from '../corpus.ts';
import { threadCpuMs } from '../thread-cpu.ts';

/** DDS reading, CPU DXT decoding and format sniffing (src/loaders/textures). */

interface DdsSpec {
  width: number;
  height: number;
  fourCC?: string | number;
  bits?: number;
  masks?: [r: number, g: number, b: number, a: number];
  pfFlags?: number;
  mips?: number;
  flags?: number;
  caps2?: number;
  headerSize?: number;
}

/** A DDS file: the 128-byte header described by `spec`, then `data`. */
function dds(spec: DdsSpec, data: Uint8Array | number[] = []): Uint8Array {
  const out = new Uint8Array(128 + data.length);
  const v = new DataView(out.buffer);
  out.set([0x44, 0x44, 0x53, 0x20]);
  v.setUint32(4, spec.headerSize ?? 124, true);
  v.setUint32(8, spec.flags ?? 0x1007 | (spec.mips ? 0x20000 : 0), true);
  v.setUint32(12, spec.height, true);
  v.setUint32(16, spec.width, true);
  v.setUint32(28, spec.mips ?? 0, true);
  v.setUint32(76, 32, true);
  if (spec.fourCC !== undefined) {
    v.setUint32(80, spec.pfFlags ?? 0x4, true);
    if (typeof spec.fourCC === 'number') v.setUint32(84, spec.fourCC, true);
    else for (let i = 0; i < 4; i++) out[84 + i] = spec.fourCC.charCodeAt(i);
  } else {
    v.setUint32(80, spec.pfFlags ?? 0x40 | (spec.masks?.[3] ? 0x1 : 0), true);
    v.setUint32(88, spec.bits ?? 32, true);
    const [r, g, b, a] = spec.masks ?? [0xff0000, 0xff00, 0xff, 0];
    v.setUint32(92, r, true);
    v.setUint32(96, g, true);
    v.setUint32(100, b, true);
    v.setUint32(104, a, true);
  }
  v.setUint32(108, 0x1000, true);
  v.setUint32(112, spec.caps2 ?? 0, true);
  out.set(data, 128);
  return out;
}

const le16 = (v: number): number[] => [v & 255, v >> 8];

/** A DXT1 colour block: endpoints and 16 2-bit indices (pixel i = row-major position in the block). */
function colourBlock(c0: number, c1: number, indices: number[]): number[] {
  let bits = 0;
  indices.forEach((ix, i) => (bits |= ix << (2 * i)));
  return [...le16(c0), ...le16(c1), bits & 255, (bits >>> 8) & 255, (bits >>> 16) & 255, bits >>> 24];
}

/** A DXT5 alpha block: endpoints and 16 3-bit indices. */
function alphaBlock(a0: number, a1: number, indices: number[]): number[] {
  const bytes = [a0, a1, 0, 0, 0, 0, 0, 0];
  indices.forEach((ix, i) => {
    for (let b = 0; b < 3; b++) if ((ix >> b) & 1) bytes[2 + ((3 * i + b) >> 3)]! |= 1 << ((3 * i + b) & 7);
  });
  return bytes;
}

/** RGBA of pixel (x, y) of a width-wide RGBA8 array. */
function px(rgba: Uint8Array, width: number, x: number, y: number): number[] {
  const o = (y * width + x) * 4;
  return [...rgba.subarray(o, o + 4)];
}

/** Runs `f`, which must throw quickly (under 200 ms of this thread's CPU time), and returns the Error. */
function failure(f: () => unknown): Error {
  const t0 = threadCpuMs();
  let error: unknown;
  try {
    f();
  } catch (e) {
    error = e;
  }
  expect(threadCpuMs() - t0, 'CPU time to fail (ms)').toBeLessThan(200);
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

const ramp = Array.from({ length: 16 }, (_, i) => i & 3);

describe('CPU DXT1 decoding', () => {
  it('expands 565 endpoints by bit replication', () => {
    // 0x8410 = r16 g32 b16; 0xffff = white.
    const out = decodeDxt('dxt1', 4, 4, new Uint8Array(colourBlock(0xffff, 0x8410, Array(16).fill(1))));
    expect(px(out, 4, 0, 0)).toEqual([132, 130, 132, 255]);
    const first = decodeDxt('dxt1', 4, 4, new Uint8Array(colourBlock(0xffff, 0x8410, Array(16).fill(0))));
    expect(px(first, 4, 3, 3)).toEqual([255, 255, 255, 255]);
  });

  it('4-colour mode (colour0 > colour1): thirds between the endpoints, opaque', () => {
    const out = decodeDxt('dxt1', 4, 4, new Uint8Array(colourBlock(0xffff, 0x0000, ramp)));
    for (let y = 0; y < 4; y++) {
      expect(px(out, 4, 0, y)).toEqual([255, 255, 255, 255]);
      expect(px(out, 4, 1, y)).toEqual([0, 0, 0, 255]);
      expect(px(out, 4, 2, y)).toEqual([170, 170, 170, 255]);
      expect(px(out, 4, 3, y)).toEqual([85, 85, 85, 255]);
    }
  });

  it('3-colour mode (colour0 <= colour1): midpoint and transparent black', () => {
    // Blue (0x001f) <= red (0xf800).
    const out = decodeDxt('dxt1', 4, 4, new Uint8Array(colourBlock(0x001f, 0xf800, ramp)));
    expect(px(out, 4, 0, 0)).toEqual([0, 0, 255, 255]);
    expect(px(out, 4, 1, 0)).toEqual([255, 0, 0, 255]);
    expect(px(out, 4, 2, 0)).toEqual([128, 0, 128, 255]);
    expect(px(out, 4, 3, 0)).toEqual([0, 0, 0, 0]);
    // Equal endpoints are 3-colour mode too.
    const equal = decodeDxt('dxt1', 4, 4, new Uint8Array(colourBlock(0x8410, 0x8410, Array(16).fill(3))));
    expect(px(equal, 4, 2, 2)).toEqual([0, 0, 0, 0]);
  });

  it('places pixel i of a block at (i % 4, i / 4), blocks left to right, top to bottom', () => {
    const indices = Array(16).fill(1);
    indices[6] = 0; // (2, 1)
    const red = colourBlock(0xf800, 0x0000, indices);
    const green = colourBlock(0x07e0, 0x0000, Array(16).fill(0));
    const blue = colourBlock(0x001f, 0x0000, Array(16).fill(0));
    const white = colourBlock(0xffff, 0x0000, Array(16).fill(0));
    const out = decodeDxt('dxt1', 8, 8, new Uint8Array([...red, ...green, ...blue, ...white]));
    expect(px(out, 8, 2, 1)).toEqual([255, 0, 0, 255]);
    expect(px(out, 8, 1, 2)).toEqual([0, 0, 0, 255]);
    expect(px(out, 8, 5, 0)).toEqual([0, 255, 0, 255]);
    expect(px(out, 8, 0, 5)).toEqual([0, 0, 255, 255]);
    expect(px(out, 8, 7, 7)).toEqual([255, 255, 255, 255]);
  });

  it('levels smaller than a block use its top-left pixels; sizes are whole blocks', () => {
    expect(dxtLevelBytes('dxt1', 1, 1)).toBe(8);
    expect(dxtLevelBytes('dxt1', 5, 2)).toBe(16);
    expect(dxtLevelBytes('dxt5', 2, 2)).toBe(16);
    const out = decodeDxt('dxt1', 2, 1, new Uint8Array(colourBlock(0xffff, 0x0000, ramp)));
    expect([...out]).toEqual([255, 255, 255, 255, 0, 0, 0, 255]);
    expect(() => decodeDxt('dxt3', 4, 4, new Uint8Array(15))).toThrow(/needs 16 bytes, has 15/);
  });
});

describe('CPU DXT3 / DXT5 decoding', () => {
  it('DXT3: explicit 4-bit alpha (x17), colour always in 4-colour mode', () => {
    const alpha = Array.from({ length: 8 }, (_, i) => (2 * i) | ((2 * i + 1) << 4));
    // colour0 < colour1 would be 3-colour mode in DXT1; DXT3 still interpolates thirds.
    const out = decodeDxt('dxt3', 4, 4, new Uint8Array([...alpha, ...colourBlock(0x0000, 0xffff, ramp)]));
    for (let i = 0; i < 16; i++) expect(px(out, 4, i % 4, i >> 2)[3]).toBe(i * 17);
    expect(px(out, 4, 2, 0).slice(0, 3)).toEqual([85, 85, 85]);
    expect(px(out, 4, 3, 0).slice(0, 3)).toEqual([170, 170, 170]);
  });

  it('DXT5 8-value alpha table (alpha0 > alpha1)', () => {
    const indices = Array.from({ length: 16 }, (_, i) => i & 7);
    const out = decodeDxt('dxt5', 4, 4, new Uint8Array([...alphaBlock(255, 0, indices), ...colourBlock(0xffff, 0, Array(16).fill(0))]));
    const table = [255, 0, 219, 182, 146, 109, 73, 36];
    for (let i = 0; i < 16; i++) expect(px(out, 4, i % 4, i >> 2)[3], `pixel ${i}`).toBe(table[i & 7]);
  });

  it('DXT5 6-value alpha table with 0 and 255 (alpha0 <= alpha1)', () => {
    const indices = Array.from({ length: 16 }, (_, i) => 7 - (i & 7));
    const out = decodeDxt('dxt5', 4, 4, new Uint8Array([...alphaBlock(40, 240, indices), ...colourBlock(0xffff, 0, Array(16).fill(0))]));
    const table = [40, 240, 80, 120, 160, 200, 0, 255];
    for (let i = 0; i < 16; i++) expect(px(out, 4, i % 4, i >> 2)[3], `pixel ${i}`).toBe(table[7 - (i & 7)]);
    expect(px(out, 4, 0, 0).slice(0, 3)).toEqual([255, 255, 255]);
  });
});

describe('DDS headers and uncompressed formats', () => {
  it('reads a DXT1 mip chain as views of the file, one whole block for levels under 4x4', () => {
    const sizes = [8, 4, 2, 1].map((s) => dxtLevelBytes('dxt1', s, s));
    const data = new Uint8Array(sizes.reduce((a, b) => a + b, 0)).map((_, i) => i);
    const img = readDds(dds({ width: 8, height: 8, fourCC: 'DXT1', mips: 4 }, data));
    expect(img.format).toBe('dxt1');
    expect(img.levels.map((l) => [l.width, l.height, l.data.length])).toEqual([[8, 8, 32], [4, 4, 8], [2, 2, 8], [1, 1, 8]]);
    expect(img.levels[1]!.data[0]).toBe(32);
  });

  it('non-square and odd sizes: each level halves with floor, down to 1', () => {
    const levels = [[6, 3], [3, 1], [1, 1]];
    const total = levels.reduce((a, [w, h]) => a + dxtLevelBytes('dxt5', w!, h!), 0);
    const img = readDds(dds({ width: 6, height: 3, fourCC: 'DXT5', mips: 3 }, new Uint8Array(total)));
    expect(img.levels.map((l) => [l.width, l.height])).toEqual(levels);
    expect(fullMipCount(6, 3)).toBe(3);
  });

  it('a chain cut short by the end of the file keeps the levels present and says so', () => {
    const data = new Uint8Array(dxtLevelBytes('dxt1', 16, 16) + dxtLevelBytes('dxt1', 8, 8) + 3);
    const img = readDds(dds({ width: 16, height: 16, fourCC: 'DXT1', mips: 5 }, data));
    expect(img.levels.length).toBe(2);
    expect(img.notes.join()).toMatch(/after 2 of 5 mip levels/);
  });

  it('32-bit with any channel order: ARGB, ABGR, XRGB', () => {
    const pixel = [0x11, 0x22, 0x33, 0x44]; // bytes in file order
    const argb = readDds(dds({ width: 1, height: 1, masks: [0xff0000, 0xff00, 0xff, 0xff000000] }, pixel));
    expect([...argb.levels[0]!.data]).toEqual([0x33, 0x22, 0x11, 0x44]);
    const abgr = readDds(dds({ width: 1, height: 1, masks: [0xff, 0xff00, 0xff0000, 0xff000000] }, pixel));
    expect([...abgr.levels[0]!.data]).toEqual([0x11, 0x22, 0x33, 0x44]);
    const xrgb = readDds(dds({ width: 1, height: 1, masks: [0xff0000, 0xff00, 0xff, 0] }, pixel));
    expect([...xrgb.levels[0]!.data]).toEqual([0x33, 0x22, 0x11, 255]);
    // Alpha mask present but DDPF_ALPHAPIXELS clear: no alpha.
    const noFlag = readDds(dds({ width: 1, height: 1, masks: [0xff0000, 0xff00, 0xff, 0xff000000], pfFlags: 0x40 }, pixel));
    expect(noFlag.levels[0]!.data[3]).toBe(255);
  });

  it('24-bit BGR, 16-bit 565 / 1555 / 4444, 8-bit luminance, and D3DFORMAT FourCCs', () => {
    const rgb24 = readDds(dds({ width: 2, height: 1, bits: 24 }, [1, 2, 3, 4, 5, 6]));
    expect([...rgb24.levels[0]!.data]).toEqual([3, 2, 1, 255, 6, 5, 4, 255]);
    const r565 = readDds(dds({ width: 2, height: 1, bits: 16, masks: [0xf800, 0x7e0, 0x1f, 0] }, [...le16(0xf800), ...le16(0x07ff)]));
    expect([...r565.levels[0]!.data]).toEqual([255, 0, 0, 255, 0, 255, 255, 255]);
    const a1555 = readDds(dds({ width: 2, height: 1, bits: 16, masks: [0x7c00, 0x3e0, 0x1f, 0x8000] }, [...le16(0x7c00), ...le16(0x801f)]));
    expect([...a1555.levels[0]!.data]).toEqual([255, 0, 0, 0, 0, 0, 255, 255]);
    const a4444 = readDds(dds({ width: 1, height: 1, bits: 16, masks: [0xf00, 0xf0, 0xf, 0xf000] }, le16(0x5a3c)));
    expect([...a4444.levels[0]!.data]).toEqual([0xaa, 0x33, 0xcc, 0x55]);
    const l8 = readDds(dds({ width: 2, height: 1, bits: 8, masks: [0xff, 0, 0, 0], pfFlags: 0x20000 }, [7, 200]));
    expect([...l8.levels[0]!.data]).toEqual([7, 7, 7, 255, 200, 200, 200, 255]);
    const fmt565 = readDds(dds({ width: 1, height: 1, fourCC: 23 }, le16(0x001f)));
    expect([...fmt565.levels[0]!.data]).toEqual([0, 0, 255, 255]);
    const fmtAbgr = readDds(dds({ width: 1, height: 1, fourCC: 32 }, [1, 2, 3, 4]));
    expect([...fmtAbgr.levels[0]!.data]).toEqual([1, 2, 3, 4]);
  });

  it('DX10 headers, cube maps, volumes and unknown formats are unsupported, by name', () => {
    const cases: [Uint8Array, RegExp][] = [
      [dds({ width: 4, height: 4, fourCC: 'DX10' }), /DX10 extended header/],
      [dds({ width: 4, height: 4, fourCC: 'DXT1', caps2: 0xfe00 }), /cube maps/],
      [dds({ width: 4, height: 4, fourCC: 'DXT1', caps2: 0x200000 }), /volume textures/],
      [dds({ width: 4, height: 4, fourCC: 'ATI2' }), /pixel format 'ATI2'/],
      [dds({ width: 4, height: 4, fourCC: 113 }), /D3DFORMAT 113/],
      [dds({ width: 4, height: 4, bits: 48 }), /48-bit/],
    ];
    for (const [bytes, message] of cases) {
      const e = failure(() => readDds(bytes));
      expect(e).toBeInstanceOf(UnsupportedImageError);
      expect(e.message).toMatch(message);
    }
  });

  it('hostile and truncated headers fail quickly with a clear message, before allocating', () => {
    const cases: [Uint8Array, RegExp][] = [
      [new Uint8Array(0), /no 'DDS ' magic/],
      [new Uint8Array([0x44, 0x44, 0x53, 0x20, 124]), /truncated header: 5 bytes/],
      [dds({ width: 4, height: 4, fourCC: 'DXT1', headerSize: 0 }), /header size field is 0/],
      [dds({ width: 0x7fffffff, height: 0x7fffffff, fourCC: 'DXT1' }), /larger than the 16384 pixel limit/],
      [dds({ width: 0, height: 4, fourCC: 'DXT1' }), /invalid size 0x4/],
      [dds({ width: 16, height: 16, fourCC: 'DXT1', mips: 0xffffffff }), /mip count 4294967295 is more than the 5 levels/],
      [dds({ width: 256, height: 256, fourCC: 'DXT5' }, new Uint8Array(100)), /truncated data: 256x256 DXT5 needs 65536 bytes after the header, the file has 100/],
      [dds({ width: 4, height: 4 }, new Uint8Array(63)), /truncated data: 4x4 32-bit needs 64 bytes/],
      [dds({ width: 4, height: 4, fourCC: 'DXT1', pfFlags: 0 }), /flags 0x0 name no known format/],
    ];
    for (const [bytes, message] of cases) expect(failure(() => readDds(bytes)).message).toMatch(message);
  });

  it('random damage to a header throws only Errors from the reader, never a read out of range', () => {
    const base = dds({ width: 8, height: 8, fourCC: 'DXT1', mips: 4 }, new Uint8Array(32 + 8 + 8 + 8));
    let seed = 12345;
    const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
    for (let round = 0; round < 2000; round++) {
      const bytes = base.slice(0, rand(base.length + 1));
      for (let k = rand(4); k >= 0; k--) if (bytes.length > 4) bytes[4 + rand(Math.min(bytes.length - 4, 124))] = rand(256);
      try {
        const img = readDds(bytes);
        for (const l of img.levels) expect(l.data.length).toBeGreaterThan(0);
      } catch (e) {
        expect((e as Error).constructor.name, (e as Error).message).toMatch(/^(Error|UnsupportedImageError)$/);
      }
    }
  });
});

describe('sniffing and decodeTextureFile', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
  const bmp = new Uint8Array([0x42, 0x4d, 0, 0, 0, 0]);

  it('content decides before the extension', () => {
    expect(sniffImage(png, 'skin.dds')).toBe('png');
    expect(sniffImage(jpeg, 'skin.tga')).toBe('jpeg');
    expect(sniffImage(bmp, 'skin.jpg')).toBe('bmp');
    expect(sniffImage(dds({ width: 4, height: 4, fourCC: 'DXT1' }), 'skin.bmp')).toBe('dds');
    expect(sniffImage(new Uint8Array([1, 2, 3]), 'SKIN.JPG')).toBe('jpeg');
    expect(sniffImage(new Uint8Array([1, 2, 3]), 'noext')).toBeNull();
  });

  it('messages name the format and whether it is corrupt or unsupported', () => {
    expect(decodeTextureFile(png, 'a.dds')).toEqual({ kind: 'browser', type: 'png', mime: 'image/png' });
    expect(() => decodeTextureFile(new Uint8Array(0), 'a.dds')).toThrow(/the file is empty/);
    expect(() => decodeTextureFile(new Uint8Array(20), 'a.dds')).toThrow(/^corrupt DDS: not a DDS file/);
    expect(() => decodeTextureFile(dds({ width: 4, height: 4, fourCC: 'DXT1', caps2: 0x200 }), 'a.dds')).toThrow(/^unsupported DDS: cube maps/);
    expect(() => decodeTextureFile(new Uint8Array([1, 2, 3]), 'a.xyz')).toThrow(/unrecognised image format/);
  });
});

const DWARF: [string, number][] = [
  ['Armor.dds', 512],
  ['Body.dds', 512],
  ['Weapons.dds', 512],
  ['DwarfHead.dds', 256],
  ['Headgear.dds', 256],
  ['Helmet.dds', 256],
  ['Pack.dds', 256],
];

/** Number of distinct RGB values and of distinct alpha values. */
function variety(rgba: Uint8Array): { colours: number; alphas: Set<number> } {
  const colours = new Set<number>();
  const alphas = new Set<number>();
  for (let i = 0; i < rgba.length; i += 4) {
    colours.add((rgba[i]! << 16) | (rgba[i + 1]! << 8) | rgba[i + 2]!);
    alphas.add(rgba[i + 3]!);
  }
  return { colours: colours.size, alphas };
}

describeCorpus('corpus DDS files', () => {
  it('Tiny_skin.dds: 256x256 X8R8G8B8, one level, opaque, varied', () => {
    const img = readDds(corpusBytes('Tiny_skin.dds'));
    expect([img.format, img.width, img.height, img.levels.length]).toEqual(['rgba8', 256, 256, 1]);
    const v = variety(img.levels[0]!.data as Uint8Array);
    expect([...v.alphas]).toEqual([255]);
    expect(v.colours).toBeGreaterThan(1000);
    expect(decodeTextureFile(corpusBytes('Tiny_skin.dds'), 'Tiny_skin.dds').kind).toBe('image');
  });

  for (const [file, size] of DWARF) {
    it(`${file}: ${size}x${size} DXT1 with its full mip chain`, () => {
      const img: TextureImage = readDds(corpusBytes(file));
      expect([img.format, img.width, img.height]).toEqual(['dxt1', size, size]);
      expect(img.levels.length).toBe(fullMipCount(size, size));
      expect(img.levels.at(-1)).toMatchObject({ width: 1, height: 1 });
      expect(img.notes).toEqual([]);
    });
  }

  it('Armor.dds decoded on the CPU: varied colour at every level, opaque', () => {
    const img = readDds(corpusBytes('Armor.dds'));
    const top = decodeDxt('dxt1', 512, 512, img.levels[0]!.data);
    const v = variety(top);
    expect(v.colours).toBeGreaterThan(500);
    expect([...v.alphas]).toEqual([255]);
    // The 64x64 level is a reduction of level 0: their mean colours agree.
    const small = decodeDxt('dxt1', 64, 64, img.levels[3]!.data);
    const mean = (a: Uint8Array): number[] => [0, 1, 2].map((c) => a.filter((_, i) => i % 4 === c).reduce((s, x) => s + x, 0) / (a.length / 4));
    const [m0, m3] = [mean(top), mean(small)];
    for (let c = 0; c < 3; c++) expect(Math.abs(m0[c]! - m3[c]!)).toBeLessThan(8);
  });
});
