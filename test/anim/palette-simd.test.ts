import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildPalette, buildPaletteScalar } from '../../src/anim/palette.ts';
import { buildPaletteSimd, paletteSimdAvailable, paletteSimdInUse, usePaletteSimd } from '../../src/anim/palette-simd.ts';
import { rng } from './fixtures.ts';

function inputs(nodes: number, slots: number, seed: number) {
  const r = rng(seed);
  // Bottom rows filled with garbage: neither path may read them.
  const model = Float32Array.from({ length: nodes * 16 }, () => r() * 20 - 10);
  const invBind = Float32Array.from({ length: slots * 16 }, () => r() * 4 - 2);
  const bones = Int16Array.from({ length: slots }, () => Math.floor(r() * nodes));
  return { model, invBind, bones };
}

/** out (8 sentinel floats, 33 slots at offset 8, 8 sentinels) through `build`, and the scalar reference. */
function run(build: typeof buildPalette, seed: number): { out: Float32Array; ref: Float32Array } {
  const { model, invBind, bones } = inputs(40, 33, seed);
  const out = new Float32Array(8 + 33 * 16 + 8).fill(7);
  const ref = new Float32Array(out.length).fill(7);
  buildPaletteScalar(model, bones, invBind, ref, 8);
  build(model, bones, invBind, out, 8);
  return { out, ref };
}

/** Equal to float32 rounding: a few ulps of the largest term (the float32 products and sums round each step). */
function expectClose(out: Float32Array, ref: Float32Array): void {
  for (let i = 0; i < out.length; i++) {
    expect(Math.abs(out[i] - ref[i]), `float ${i}: ${out[i]} vs ${ref[i]}`).toBeLessThanOrEqual(30 * 2 ** -23 * Math.max(1, Math.abs(ref[i])) * 8);
  }
  for (let k = 0; k < 33; k++) {
    const o = 8 + k * 16;
    expect([out[o + 3], out[o + 7], out[o + 11], out[o + 15]]).toEqual([0, 0, 0, 1]);
  }
  expect(Array.from(out.subarray(0, 8))).toEqual(new Array(8).fill(7));
  expect(Array.from(out.subarray(8 + 33 * 16))).toEqual(new Array(8).fill(7));
}

describe('buildPalette through the WebAssembly SIMD kernel', () => {
  afterAll(() => usePaletteSimd(true));

  it('is on by default where WebAssembly SIMD is available (Node 20 has it) and agrees with the scalar loop to float32 rounding, at an offset', () => {
    expect(paletteSimdAvailable()).toBe(true);
    expect(paletteSimdInUse()).toBe(true);
    const { out, ref } = run(buildPalette, 3);
    expectClose(out, ref);
    // The kernel wrote it (float32 arithmetic: not bit for bit the float64 loop's result).
    expect(Array.from(out)).not.toEqual(Array.from(ref));
    const direct = run((m, b, i, o, at) => expect(buildPaletteSimd(m, b, i, o, at ?? 0)).toBe(true), 5);
    expectClose(direct.out, direct.ref);
  });

  it('runs the scalar loop, bit for bit, after usePaletteSimd(false), and the kernel again after usePaletteSimd(true)', () => {
    expect(usePaletteSimd(false)).toBe(false);
    expect(paletteSimdInUse()).toBe(false);
    const scalar = run(buildPalette, 6);
    expect(Array.from(scalar.out)).toEqual(Array.from(scalar.ref));
    const { model, invBind, bones } = inputs(40, 33, 6);
    expect(buildPaletteSimd(model, bones, invBind, new Float32Array(33 * 16), 0)).toBe(false);
    expect(usePaletteSimd(true)).toBe(true);
    const simd = run(buildPalette, 6);
    expectClose(simd.out, simd.ref);
    expect(Array.from(simd.out)).not.toEqual(Array.from(simd.ref));
  });

  it('hands inputs too large for its memory back to the scalar loop', () => {
    const { model, invBind, bones } = inputs(5000, 20, 4);
    const out = new Float32Array(20 * 16);
    expect(buildPaletteSimd(model, bones, invBind, out, 0)).toBe(false);
    const ref = new Float32Array(20 * 16);
    buildPaletteScalar(model, bones, invBind, ref);
    buildPalette(model, bones, invBind, out);
    expect(Array.from(out)).toEqual(Array.from(ref));
  });
});

describe('buildPalette where the kernel cannot run', () => {
  afterAll(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  /** A fresh palette module (its kernel state untried) while `stub` is in force. */
  async function freshModules(stub: () => void) {
    vi.resetModules();
    vi.restoreAllMocks();
    stub();
    const simd = await import('../../src/anim/palette-simd.ts');
    const palette = await import('../../src/anim/palette.ts');
    return { simd, palette };
  }

  it('chooses the scalar loop by itself, with no error, when WebAssembly SIMD does not validate (an engine without SIMD)', async () => {
    const { simd, palette } = await freshModules(() => vi.spyOn(WebAssembly, 'validate').mockReturnValue(false));
    expect(simd.paletteSimdAvailable()).toBe(false);
    const { out, ref } = run(palette.buildPalette, 7);
    expect(Array.from(out)).toEqual(Array.from(ref));
    expect(simd.paletteSimdInUse()).toBe(false);
    expect(simd.usePaletteSimd(true)).toBe(false);
  });

  it('chooses the scalar loop when compiling is refused (a Content-Security-Policy without wasm-unsafe-eval)', async () => {
    const { simd, palette } = await freshModules(() =>
      vi.spyOn(WebAssembly, 'Module').mockImplementation(function refused() {
        throw new WebAssembly.CompileError("Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is not an allowed source of script");
      }),
    );
    expect(simd.paletteSimdAvailable()).toBe(true);
    const { out, ref } = run(palette.buildPalette, 8);
    expect(Array.from(out)).toEqual(Array.from(ref));
    expect(simd.paletteSimdInUse()).toBe(false);
  });
});
