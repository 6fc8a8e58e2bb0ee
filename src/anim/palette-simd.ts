/**
 * WebAssembly SIMD kernel for buildPalette (palette.ts): the same product, model[bones[k]] · invBind[k],
 * four rows at a time. The kernel's source is palette-simd.wat (read it there); palette-simd-wasm.ts holds
 * the bytes WABT assembles from it (`npm run gen`).
 *
 * Contract
 * - On by default wherever WebAssembly SIMD is available: the first buildPaletteSimd compiles the module
 *   (synchronously: 362 bytes, under every browser's limit for a synchronous compile). Where
 *   WebAssembly.validate rejects it (no WebAssembly, or no SIMD) or compiling throws (a Content-Security-
 *   Policy without 'wasm-unsafe-eval'; index.html has it), the kernel stays off and buildPalette runs the
 *   scalar loop, with no error. usePaletteSimd(false) forces the scalar loop, usePaletteSimd(true) returns
 *   to the default; both return whether the kernel is in use. paletteSimdAvailable() says whether this
 *   engine validates the kernel.
 * - buildPaletteSimd(model, bones, invBind, outPalette, outOffsetFloats) has buildPalette's contract and
 *   returns true when it wrote the palette; false (nothing written) when the kernel is off or unavailable,
 *   or the inputs do not fit its memory (4 pages, 256 KiB: slots · 16 + model.length + invBind.length floats
 *   plus the bones). The caller then runs the scalar loop.
 * - Arithmetic in float32 (each product and sum rounded to float32; the scalar loop rounds once from
 *   float64), so the two agree to a few float32 ulps, not bit for bit.
 * - Per call: model, invBind and bones are copied into the module's memory (memcpy), the kernel runs, the
 *   palette is copied out. Why it pays: V8's typed-array element accesses cost about 1.5 ns each (a
 *   16-float copy loop per slot alone measured 2.4 µs for 100 slots), and a slot of the product is 40 of
 *   them; the kernel does a slot in 4 vector loads, 12 splat loads, 4 stores.
 * - Allocation: the module and its views at the first call; a view of the output per distinct slot count
 *   on first use. Otherwise nothing.
 */

import { PALETTE_SIMD_WASM } from './palette-simd-wasm.ts';
import { WasmKernel } from './wasm-kernel.ts';

interface Kernel {
  readonly f32: Float32Array;
  readonly i16: Int16Array;
  readonly buffer: ArrayBuffer;
  /** The memory's size in floats (the .wat declares 4 pages; it never grows). */
  readonly capacityFloats: number;
  readonly pal: (model: number, inv: number, bones: number, out: number, slots: number) => void;
  readonly views: Map<number, Float32Array>;
}

/** The kernel, compiled on first want; usePaletteSimd switches it (wasm-kernel.ts). */
const KERNEL = new WasmKernel<Kernel>(PALETTE_SIMD_WASM, (instance) => {
  const buffer = (instance.exports.mem as WebAssembly.Memory).buffer;
  const pal = instance.exports.pal as Kernel['pal'];
  return { f32: new Float32Array(buffer), i16: new Int16Array(buffer), buffer, capacityFloats: buffer.byteLength / 4, pal, views: new Map() };
});

/**
 * Whether this engine has WebAssembly with the SIMD instructions the kernel uses: WebAssembly.validate on
 * the kernel itself (362 bytes), which checks exactly those instructions and compiles nothing.
 */
export function paletteSimdAvailable(): boolean {
  return KERNEL.available();
}

/**
 * usePaletteSimd(false): every later buildPalette runs the scalar loop; usePaletteSimd(true): the kernel
 * where available (the default). Returns whether the kernel is in use.
 */
export function usePaletteSimd(on: boolean): boolean {
  return KERNEL.use(on);
}

/** Whether buildPalette uses the kernel now (compiles it if it is still to be tried). */
export function paletteSimdInUse(): boolean {
  return KERNEL.current() !== null;
}

/** buildPalette through the kernel; false when it is off or cannot (see the file contract). */
export function buildPaletteSimd(
  model: Float32Array,
  bones: Int16Array,
  invBind: Float32Array,
  outPalette: Float32Array,
  outOffsetFloats: number,
): boolean {
  const k = KERNEL.current();
  if (k === null) return false;
  const slots = bones.length;
  // Layout in floats: out [0, slots · 16), model, invBind, bones (2 per float).
  const modelAt = slots * 16;
  const invAt = modelAt + model.length;
  const bonesAt = invAt + invBind.length;
  if (bonesAt + ((slots + 1) >> 1) > k.capacityFloats || invBind.length < slots * 16) return false;
  k.f32.set(model, modelAt);
  k.f32.set(invBind, invAt);
  k.i16.set(bones, bonesAt * 2);
  k.pal(modelAt * 4, invAt * 4, bonesAt * 4, 0, slots);
  let view = k.views.get(slots);
  if (view === undefined) {
    view = new Float32Array(k.buffer, 0, slots * 16);
    k.views.set(slots, view);
  }
  outPalette.set(view, outOffsetFloats);
  return true;
}
