import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModelAsync } from '../../src/loaders/load-model.ts';
import { decodeDxt } from '../../src/loaders/textures/dxt.ts';
import { DEFAULT_LIMITS, mipSize } from '../../src/loaders/textures/image.ts';
import { chooseTarget, decodeKtx2, levelBytes, NO_COMPRESSION, type Ktx2Support } from '../../src/loaders/textures/ktx2.ts';
import { ktx2Seeds } from '../fuzz/ktx2-fuzz.ts';

/**
 * KTX2 / Basis Universal (src/loaders/textures/ktx2.ts): the target chosen per device, every level transcoded
 * at its size, the fixtures' pixels (test/fixtures/ktx2: ETC1S and UASTC + Zstd quadrants) read back as encoded,
 * top row first, hostile headers refused before anything is allocated, and facecap.glb's ETC1S face texture
 * (../shared/corpus-materials; skipped with a message when absent) decoded to every target.
 */

const ALL: Ktx2Support = { astc: true, bc7: true, etc2: true, s3tc: true };

describe('KTX2 decoding', () => {
  it('chooses the best format the device samples, RGBA8 without any, and no BC format for sizes not a multiple of 4', () => {
    expect(chooseTarget('uastc', true, ALL, 64, 64)).toBe('astc');
    expect(chooseTarget('etc1s', false, ALL, 64, 64)).toBe('etc2-rgb');
    expect(chooseTarget('etc1s', true, { ...NO_COMPRESSION, bc7: true, s3tc: true }, 64, 64)).toBe('bc7');
    expect(chooseTarget('etc1s', true, { ...NO_COMPRESSION, s3tc: true }, 64, 64)).toBe('bc3');
    expect(chooseTarget('uastc', false, { ...NO_COMPRESSION, s3tc: true }, 64, 64)).toBe('bc1');
    expect(chooseTarget('uastc', false, { ...NO_COMPRESSION, bc7: true, s3tc: true }, 66, 64)).toBe('rgba8');
    expect(chooseTarget('uastc', false, NO_COMPRESSION, 64, 64)).toBe('rgba8');
    // 12x12 → 6x6: the second level is not a multiple of 4, so no BC (WebGL refuses it); one level is fine.
    expect(chooseTarget('uastc', false, { ...NO_COMPRESSION, bc7: true, s3tc: true }, 12, 12, 2)).toBe('rgba8');
    expect(chooseTarget('uastc', false, { ...NO_COMPRESSION, bc7: true }, 12, 12, 1)).toBe('bc7');
    expect(chooseTarget('uastc', false, { ...NO_COMPRESSION, bc7: true }, 16, 16, 5)).toBe('bc7');
  });

  const QUADRANTS = [[200, 40, 40], [40, 180, 60], [50, 70, 200], [220, 210, 190]];
  for (const file of ['quadrants-etc1s.ktx2', 'quadrants-uastc.ktx2']) {
    it(`${file}: every level, and the quadrants' colours as encoded, top row first (RGBA8 and BC1 decoded back)`, async () => {
      const bytes = new Uint8Array(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'ktx2', file)));
      for (const support of [NO_COMPRESSION, { ...NO_COMPRESSION, s3tc: true }]) {
        const image = await decodeKtx2(bytes, support, DEFAULT_LIMITS);
        expect([image.width, image.height, image.levels.length, image.hasAlpha]).toEqual([32, 32, 6, false]);
        const base = image.levels[0]!;
        const rgba = image.target === 'rgba8' ? base.data : decodeDxt('dxt1', 32, 32, base.data);
        expect(image.target).toBe(support.s3tc ? 'bc1' : 'rgba8');
        [[4, 4], [27, 4], [4, 27], [27, 27]].forEach(([x, y], q) => {
          const at = (y! * 32 + x!) * 4;
          for (let c = 0; c < 3; c++) expect(Math.abs(rgba[at + c]! - QUADRANTS[q]![c]!), `${file} ${image.target} quadrant ${q} channel ${c}`).toBeLessThanOrEqual(12);
        });
      }
    });
  }

  it('transcodes every level of a UASTC image with a partial chain, at its size, for each target', async () => {
    const seed = ktx2Seeds().find((s) => s.label === 'uastc-12-partial')!.bytes;
    for (const support of [ALL, { ...NO_COMPRESSION, bc7: true }, { ...NO_COMPRESSION, etc2: true }, NO_COMPRESSION]) {
      const image = await decodeKtx2(seed, support, DEFAULT_LIMITS);
      if (support.bc7 && !support.astc) expect(image.target, '12 → 6 is no BC chain').toBe('rgba8');
      expect([image.width, image.height, image.codec]).toEqual([12, 12, 'uastc']);
      expect(image.levels.map((l) => [l.width, l.height, l.data.length])).toEqual(
        [0, 1].map((i) => [mipSize(12, i), mipSize(12, i), levelBytes(image.target, mipSize(12, i), mipSize(12, i))]),
      );
    }
  });

  it('refuses hostile headers with a message, before allocating for them', async () => {
    const seed = ktx2Seeds()[0]!.bytes;
    const withU32 = (at: number, v: number): Uint8Array => {
      const b = seed.slice();
      new DataView(b.buffer).setUint32(at, v, true);
      return b;
    };
    await expect(decodeKtx2(withU32(20, 0x40000000), ALL, DEFAULT_LIMITS)).rejects.toThrow(/^corrupt KTX2: .*larger than the 16384 pixel limit/);
    await expect(decodeKtx2(withU32(40, 40), ALL, DEFAULT_LIMITS)).rejects.toThrow(/^corrupt KTX2: /);
    await expect(decodeKtx2(withU32(36, 6), ALL, DEFAULT_LIMITS)).rejects.toThrow(/^unsupported KTX2: cube maps/);
    await expect(decodeKtx2(withU32(12, 37), ALL, DEFAULT_LIMITS)).rejects.toThrow(/^unsupported KTX2: Vulkan format 37/);
    await expect(decodeKtx2(seed.slice(0, 60), ALL, DEFAULT_LIMITS)).rejects.toThrow(/^corrupt KTX2: /);
    await expect(decodeKtx2(seed, ALL, { maxDimension: 8, maxPixels: 64 })).rejects.toThrow(/^corrupt KTX2: 16x16 is larger/);
  });

  const facecap = '../shared/corpus-materials/facecap.glb';
  it.skipIf(!existsSync(facecap))(`facecap.glb's ETC1S texture decodes to every target with its 11 levels${existsSync(facecap) ? '' : ` (SKIPPED: ${facecap} absent)`}`, async () => {
    const scene = await loadModelAsync('facecap.glb', new Uint8Array(readFileSync(facecap)));
    expect(scene.warnings.filter((w) => /ktx2|basis/i.test(w))).toEqual([]);
    const bytes = scene.images!.find((i) => i.mimeType === 'image/ktx2')!.bytes;
    const targets = new Set<string>();
    for (const support of [ALL, { ...NO_COMPRESSION, bc7: true }, { ...NO_COMPRESSION, s3tc: true }, { ...NO_COMPRESSION, astc: true }, NO_COMPRESSION]) {
      const image = await decodeKtx2(bytes, support, DEFAULT_LIMITS);
      targets.add(image.target);
      expect([image.codec, image.width, image.height, image.levels.length]).toEqual(['etc1s', 1024, 1024, 11]);
      if (image.target === 'rgba8') {
        // A face: mostly mid greys, no magenta and no empty (black) image.
        const d = image.levels[0]!.data;
        let sum = 0;
        for (let i = 0; i < d.length; i += 4) sum += d[i]!;
        expect(sum / (d.length / 4)).toBeGreaterThan(60);
      }
    }
    expect([...targets].sort()).toEqual(['astc', 'bc1', 'bc7', 'etc2-rgb', 'rgba8']);
  });
});
