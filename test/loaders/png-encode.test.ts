import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { crc32, encodePng } from '../../src/loaders/textures/png-encode.ts';

/** The PNG encoder the glTF exporter uses for DDS/TGA textures, decoded back through pngjs. */

function pattern(width: number, height: number): Uint8Array {
  const px = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      px[i] = (x * 37 + y * 11) & 0xff;
      px[i + 1] = x < width / 2 ? 255 : (y * 53) & 0xff;
      px[i + 2] = (x * y) & 0xff;
      px[i + 3] = y === 0 ? 0 : 255 - ((x + y) & 0x7f);
    }
  }
  return px;
}

describe('encodePng', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
  });

  for (const filter of ['adaptive', 'none'] as const) {
    for (const [w, h] of [[1, 1], [3, 5], [64, 17], [257, 9]] as const) {
      it(`${w}x${h} with ${filter} filters decodes back to the same pixels`, () => {
        const px = pattern(w, h);
        const png = encodePng(px, w, h, { filter });
        const back = PNG.sync.read(Buffer.from(png));
        expect(back.width).toBe(w);
        expect(back.height).toBe(h);
        expect(new Uint8Array(back.data)).toEqual(px);
      });
    }
  }

  it('adaptive filtering makes a smooth gradient smaller than filter 0', () => {
    const w = 128, h = 128;
    const px = new Uint8Array(w * h * 4);
    for (let i = 0; i < w * h; i++) {
      const x = i % w, y = (i / w) | 0;
      px.set([x * 2, y * 2, (x + y) & 0xff, 255], i * 4);
    }
    expect(encodePng(px, w, h).length).toBeLessThan(encodePng(px, w, h, { filter: 'none' }).length);
  });

  it('refuses a bad size or too few pixels', () => {
    expect(() => encodePng(new Uint8Array(4), 0, 1)).toThrow(/invalid size/);
    expect(() => encodePng(new Uint8Array(12), 2, 2)).toThrow(/needs 16/);
  });
});
