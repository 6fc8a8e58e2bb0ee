import { afterAll, describe, expect, it } from 'vitest';
import { buildPalette, buildPaletteScalar } from '../../src/anim/palette.ts';
import { buildPaletteSimd, usePaletteSimd } from '../../src/anim/palette-simd.ts';
import { rng } from './fixtures.ts';

function inputs(nodes: number, slots: number, seed: number) {
  const r = rng(seed);
  // Bottom rows filled with garbage: neither path may read them.
  const model = Float32Array.from({ length: nodes * 16 }, () => r() * 20 - 10);
  const invBind = Float32Array.from({ length: slots * 16 }, () => r() * 4 - 2);
  const bones = Int16Array.from({ length: slots }, () => Math.floor(r() * nodes));
  return { model, invBind, bones };
}

describe('buildPalette through the WebAssembly SIMD kernel', () => {
  afterAll(() => usePaletteSimd(false));

  it('is off by default and agrees with the scalar loop to float32 rounding when on, at an offset', () => {
    const { model, invBind, bones } = inputs(40, 33, 3);
    const out = new Float32Array(8 + 33 * 16 + 8);
    expect(buildPaletteSimd(model, bones, invBind, out, 0)).toBe(false);
    expect(usePaletteSimd(true)).toBe(true);
    const ref = new Float32Array(out.length).fill(7);
    out.fill(7);
    buildPaletteScalar(model, bones, invBind, ref, 8);
    buildPalette(model, bones, invBind, out, 8);
    for (let i = 0; i < out.length; i++) {
      expect(Math.abs(out[i] - ref[i]), `float ${i}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(ref[i])) * 30);
    }
    for (let k = 0; k < 33; k++) {
      const o = 8 + k * 16;
      expect([out[o + 3], out[o + 7], out[o + 11], out[o + 15]]).toEqual([0, 0, 0, 1]);
    }
    expect(Array.from(out.subarray(0, 8))).toEqual(new Array(8).fill(7));
    expect(Array.from(out.subarray(8 + 33 * 16))).toEqual(new Array(8).fill(7));
  });

  it('hands inputs too large for its memory back to the scalar loop', () => {
    usePaletteSimd(true);
    const { model, invBind, bones } = inputs(5000, 20, 4);
    const out = new Float32Array(20 * 16);
    expect(buildPaletteSimd(model, bones, invBind, out, 0)).toBe(false);
    const ref = new Float32Array(20 * 16);
    buildPaletteScalar(model, bones, invBind, ref);
    buildPalette(model, bones, invBind, out);
    expect(Array.from(out)).toEqual(Array.from(ref));
  });
});
