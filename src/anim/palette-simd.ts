/**
 * WebAssembly SIMD kernel for buildPalette (palette.ts): the same product, model[bones[k]] · invBind[k],
 * four rows at a time.
 *
 * Contract
 * - Off until usePaletteSimd(true): compiling WebAssembly on the page needs 'wasm-unsafe-eval' in the
 *   Content-Security-Policy's script-src (index.html has none; a blocked compile is a console error), so
 *   whoever turns it on owns that policy. usePaletteSimd returns whether the kernel is in use.
 * - buildPaletteSimd(model, bones, invBind, outPalette, outOffsetFloats) has buildPalette's contract and
 *   returns true when it wrote the palette; false (nothing written) when the kernel is off, WebAssembly
 *   SIMD is unavailable, or the inputs do not fit its memory (4 pages, 256 KiB: slots · 16 + model.length + invBind.length floats
 *   plus the bones). The caller then runs the scalar loop.
 * - Arithmetic in float32 (each product and sum rounded to float32; the scalar loop rounds once from
 *   float64), so the two agree to a few float32 ulps, not bit for bit.
 * - Per call: model, invBind and bones are copied into the module's memory (memcpy), the kernel runs, the
 *   palette is copied out. Why it pays: V8's typed-array element accesses cost about 1.5 ns each (a
 *   16-float copy loop per slot alone measured 2.4 µs for 100 slots), and a slot of the product is 40 of
 *   them; the kernel does a slot in 4 vector loads, 12 splat loads, 4 stores.
 * - Allocation: the module is compiled once, at the first usePaletteSimd(true) (synchronously: 360 bytes,
 *   under every browser's limit for a synchronous compile); a view of the output per distinct slot count is made on first use.
 *   Otherwise nothing.
 *
 * The kernel, in the text format (params: model, inv, bones, out byte addresses, slots; k, a; m0..m3 v128):
 *   block  (br_if 0 (i32.eqz slots))
 *     loop
 *       a = model + (i32.load16_s (bones + k·2)) · 64
 *       m0..m3 = v128.load a+0, a+16, a+32, a+48              ;; the 4 columns of model[bones[k]]
 *       for column j of 0..3:                                  ;; column j of invBind[k]: x, y, z at inv + 16j
 *         v = m0 · splat(x) + m1 · splat(y) + m2 · splat(z) (+ m3 when j = 3)
 *         v128.store out+16j (f32x4.replace_lane 3 v (j = 3 ? 1 : 0))  ;; the affine bottom row, never read
 *       inv += 64; out += 64; k += 1; br_if 0 (k < slots)
 */

const SIMD = 0xfd;
const F32X4_ADD = [SIMD, 0xe4, 0x01];
const F32X4_MUL = [SIMD, 0xe6, 0x01];

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  const get = (i: number): number[] => [0x20, i];
  const set = (i: number): number[] => [0x21, i];
  const [MODEL, INV, BONES, OUT, SLOTS, K, A, M0] = [0, 1, 2, 3, 4, 5, 6, 7];
  const c: number[] = [];
  c.push(0x02, 0x40, ...get(SLOTS), 0x45, 0x0d, 0x00, 0x03, 0x40);
  // a = model + bones[k] · 64 (i32.load16_s, align 2^1)
  c.push(...get(MODEL), ...get(BONES), ...get(K), 0x41, 1, 0x74, 0x6a, 0x2e, 1, 0, 0x41, 6, 0x74, 0x6a, ...set(A));
  for (let col = 0; col < 4; col++) c.push(...get(A), SIMD, 0x00, 2, col * 16, ...set(M0 + col));
  for (let j = 0; j < 4; j++) {
    c.push(...get(OUT));
    c.push(...get(M0), ...get(INV), SIMD, 0x09, 2, j * 16, ...F32X4_MUL);
    c.push(...get(M0 + 1), ...get(INV), SIMD, 0x09, 2, j * 16 + 4, ...F32X4_MUL, ...F32X4_ADD);
    c.push(...get(M0 + 2), ...get(INV), SIMD, 0x09, 2, j * 16 + 8, ...F32X4_MUL, ...F32X4_ADD);
    if (j === 3) c.push(...get(M0 + 3), ...F32X4_ADD);
    c.push(0x43, ...new Uint8Array(new Float32Array([j === 3 ? 1 : 0]).buffer), SIMD, 0x20, 3);
    c.push(SIMD, 0x0b, 2, j * 16);
  }
  c.push(...get(INV), 0x41, 0xc0, 0x00, 0x6a, ...set(INV));
  c.push(...get(OUT), 0x41, 0xc0, 0x00, 0x6a, ...set(OUT));
  c.push(...get(K), 0x41, 1, 0x6a, 0x22, K, ...get(SLOTS), 0x49, 0x0d, 0x00);
  c.push(0x0b, 0x0b, 0x0b);
  const body = [0x02, 0x02, 0x7f, 0x04, 0x7b, ...c];
  const section = (id: number, bytes: number[]): number[] => [id, ...leb(bytes.length), ...bytes];
  const name = (s: string): number[] => [s.length, ...Array.from(s, (ch) => ch.charCodeAt(0))];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [1, 0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, PAGES]),
    ...section(7, [2, ...name('mem'), 2, 0, ...name('pal'), 0, 0]),
    ...section(10, [1, ...leb(body.length), ...body]),
  ]);
}

const PAGES = 4;
const CAPACITY_FLOATS = (PAGES * 65536) / 4;

interface Kernel {
  readonly f32: Float32Array;
  readonly i16: Int16Array;
  readonly buffer: ArrayBuffer;
  readonly pal: (model: number, inv: number, bones: number, out: number, slots: number) => void;
  readonly views: Map<number, Float32Array>;
}

function instantiate(): Kernel | null {
  try {
    if (typeof WebAssembly !== 'object') return null;
    const bytes = moduleBytes() as Uint8Array<ArrayBuffer>;
    if (!WebAssembly.validate(bytes)) return null;
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    const buffer = (instance.exports.mem as WebAssembly.Memory).buffer;
    const pal = instance.exports.pal as Kernel['pal'];
    return { f32: new Float32Array(buffer), i16: new Int16Array(buffer), buffer, pal, views: new Map() };
  } catch {
    return null;
  }
}

let compiled: Kernel | null | undefined;
let kernel: Kernel | null = null;

/** Turns the kernel on or off for every later buildPalette; returns whether it is in use. */
export function usePaletteSimd(on: boolean): boolean {
  if (on && compiled === undefined) compiled = instantiate();
  kernel = on ? compiled ?? null : null;
  return kernel !== null;
}

/** buildPalette through the kernel; false when it is off or cannot (see the file contract). */
export function buildPaletteSimd(
  model: Float32Array,
  bones: Int16Array,
  invBind: Float32Array,
  outPalette: Float32Array,
  outOffsetFloats: number,
): boolean {
  const k = kernel;
  if (k === null) return false;
  const slots = bones.length;
  // Layout in floats: out [0, slots · 16), model, invBind, bones (2 per float).
  const modelAt = slots * 16;
  const invAt = modelAt + model.length;
  const bonesAt = invAt + invBind.length;
  if (bonesAt + ((slots + 1) >> 1) > CAPACITY_FLOATS || invBind.length < slots * 16) return false;
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
