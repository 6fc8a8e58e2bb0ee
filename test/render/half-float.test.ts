import { describe, expect, it } from 'vitest';
import { decodeHalfCube, encodeHalfCube, halfBits, halfValue, toHalfArray } from '../../src/render/half-float.ts';

/** Binary16 conversion and the baked cube layout (src/render/half-float.ts). */
describe('half floats', () => {
  it('halfBits rounds to nearest even, saturates to infinity, flushes below the smallest subnormal', () => {
    expect(halfBits(1)).toBe(0x3c00);
    expect(halfBits(-2)).toBe(0xc000);
    expect(halfBits(0.1)).toBe(0x2e66);
    expect(halfBits(65504)).toBe(0x7bff);
    expect(halfBits(65520)).toBe(0x7c00); // halfway to the next power: ties to even, which is infinity
    expect(halfBits(1e6)).toBe(0x7c00);
    expect(halfBits(-Infinity)).toBe(0xfc00);
    expect(halfBits(NaN) & 0x7e00).toBe(0x7e00);
    expect(halfBits(2 ** -24)).toBe(1);
    expect(halfBits(2 ** -25)).toBe(0); // a tie between 0 and the smallest subnormal: even
    expect(halfBits(1.5 * 2 ** -25)).toBe(1);
    expect(halfBits(2 ** -14 - 2 ** -25)).toBe(0x400); // the largest subnormal rounds up into the smallest normal
    expect(halfBits(1 + 2 ** -11)).toBe(0x3c00);
    expect(halfBits(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(halfBits(-0)).toBe(0x8000);
  });

  it('every finite binary16 value converts back to its own bits, and the midpoints round to even', () => {
    const bad: number[] = [];
    for (let h = 0; h < 0x10000; h++) {
      if ((h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0) continue; // NaN
      if (halfBits(halfValue(h)) !== h) bad.push(h);
      // The midpoint to the next magnitude (finite, below the largest) goes to whichever of the two is even.
      if ((h & 0x7fff) < 0x7bff) {
        const mid = (halfValue(h) + halfValue(h + 1)) / 2;
        if (halfBits(mid) !== (h & 1 ? h + 1 : h)) bad.push(h);
      }
    }
    expect(bad).toEqual([]);
  });

  it('a cube survives encode and decode as RGBA binary16 views; text of the wrong size or not base64 gives null', () => {
    const levels = [4, 2, 1].map((w, l) => Array.from({ length: 6 }, (_, f) => Float32Array.from({ length: w * w * 4 }, (_, i) => (i % 4 === 3 ? 1 : l + f / 8 + i / 64))));
    const text = encodeHalfCube(levels);
    const decoded = decodeHalfCube(text.replace(/(.{10})/g, '$1\n'), 4);
    expect(decoded?.map((faces) => faces.map((d) => Array.from(d)))).toEqual(levels.map((faces) => faces.map((d) => Array.from(toHalfArray(d)))));
    expect(decoded![2]![5]![3]).toBe(0x3c00);
    expect(decodeHalfCube(text, 8)).toBeNull();
    expect(decodeHalfCube(text, 2)).toBeNull();
    expect(decodeHalfCube(text.slice(0, -8), 4)).toBeNull();
    expect(decodeHalfCube('not base64 at all!', 4)).toBeNull();
    expect(decodeHalfCube('', 0)).toBeNull();
  });
});
