/**
 * WebAssembly SIMD kernel for the box of a skinned mesh: software-skin.ts skinMesh's positions then bounds.ts
 * computeBounds, in one pass that writes no positions. The kernel's source is skin-bounds.wat (read it there);
 * skin-bounds-wasm.ts holds the bytes WABT assembles from it (`npm run gen`). PosedBounds (posed-bounds.ts)
 * uses it for every box it measures: the framing poses each mesh at a dozen times per clip, and the kernel
 * runs at full speed from its first call, where the scalar loop spends most of a first load warming up.
 *
 * Contract
 * - On by default wherever WebAssembly SIMD is available: the first call compiles the module (synchronously:
 *   606 bytes). Where WebAssembly.validate rejects it or compiling throws, skinBoundsSimd returns false and the
 *   caller runs the scalar path; useSkinBoundsSimd(false) forces that, useSkinBoundsSimd(true) returns to the
 *   default; both return whether the kernel is in use.
 * - skinBoundsSimd(mesh, positions, palette, outMin, outMax, rewritten): the box of `positions` (the mesh's
 *   own, or a morphed copy: 3 floats per mesh vertex; `rewritten` when its contents changed since the last call)
 *   skinned with `palette` (16 floats per slot from offset 0, as skinMesh), into outMin/outMax; true when it
 *   wrote them. mesh.vertexCount ≥ 1; joints < the palette's slots.
 * - Float32 arithmetic: the box agrees with skinMesh + computeBounds to a few float32 ulps, not bit for bit.
 * - Per call: the palette is copied into the module's memory, and the mesh's vertices, joints and weights when
 *   they are not the arrays the previous call copied (a mesh measured pose after pose is copied once): a mesh's
 *   arrays are not changed in place after load (a caller that rewrites a copy of them passes `rewritten`). The
 *   arrays last copied stay referenced until another mesh is measured. The memory
 *   grows to the largest mesh seen and is kept. Allocates only when the memory grows (its views made again).
 */

import type { SkinnedMesh } from '../model/types.ts';
import { MAX_INFLUENCES } from '../model/types.ts';
import { SKIN_BOUNDS_WASM } from './skin-bounds-wasm.ts';
import { WasmKernel } from './wasm-kernel.ts';

interface Kernel {
  readonly memory: WebAssembly.Memory;
  readonly bounds: (pos: number, joints: number, weights: number, count: number, pal: number, out: number) => void;
  /** Views of the memory, made again when it grows. */
  f32: Float32Array;
  u16: Uint16Array;
}

const KERNEL = new WasmKernel<Kernel>(SKIN_BOUNDS_WASM, (instance) => {
  const memory = instance.exports.mem as WebAssembly.Memory;
  return { memory, bounds: instance.exports.bounds as Kernel['bounds'], f32: new Float32Array(memory.buffer), u16: new Uint16Array(memory.buffer) };
});

const PAGE = 65536;
/** The box, 8 floats, at address 0; the palette, then the mesh's arrays, each 16-aligned, after it. */
const OUT = 0;
const PAL = 32;

/** What the memory holds now: the arrays last copied, by identity. */
let copiedPositions: Float32Array | null = null;
let copiedJoints: Uint16Array | null = null;
let copiedWeights: Float32Array | null = null;
let copiedPalFloats = 0;

/** Whether this engine validates the kernel (WebAssembly with its SIMD instructions). */
export function skinBoundsSimdAvailable(): boolean {
  return KERNEL.available();
}

/** useSkinBoundsSimd(false): the scalar path from now on; true: the kernel where available. Returns whether it is in use. */
export function useSkinBoundsSimd(on: boolean): boolean {
  return KERNEL.use(on);
}

/** See the file contract. */
export function skinBoundsSimd(
  mesh: SkinnedMesh,
  positions: Float32Array,
  palette: Float32Array,
  outMin: { [i: number]: number },
  outMax: { [i: number]: number },
  rewritten = false,
): boolean {
  const k = KERNEL.current();
  const count = mesh.vertexCount;
  if (k === null || count < 1) return false;
  const palFloats = palette.length;
  const pos = align(PAL + palFloats * 4);
  const joints = align(pos + count * 12);
  const weights = align(joints + count * MAX_INFLUENCES * 2);
  const end = weights + count * MAX_INFLUENCES * 4;
  if (end > k.memory.buffer.byteLength) {
    try {
      k.memory.grow(Math.ceil((end - k.memory.buffer.byteLength) / PAGE));
    } catch {
      return false; // the engine's limit: the scalar path measures it
    }
    k.f32 = new Float32Array(k.memory.buffer);
    k.u16 = new Uint16Array(k.memory.buffer);
  }
  const f32 = k.f32;
  f32.set(palette, PAL / 4);
  // A palette of another size moves the mesh's arrays: copy them again.
  if (rewritten || palFloats !== copiedPalFloats || positions !== copiedPositions || mesh.joints !== copiedJoints || mesh.weights !== copiedWeights) {
    f32.set(positions.subarray(0, count * 3), pos / 4);
    k.u16.set(mesh.joints.subarray(0, count * MAX_INFLUENCES), joints / 2);
    f32.set(mesh.weights.subarray(0, count * MAX_INFLUENCES), weights / 4);
    copiedPositions = positions;
    copiedJoints = mesh.joints;
    copiedWeights = mesh.weights;
    copiedPalFloats = palFloats;
  }
  k.bounds(pos, joints, weights, count, PAL, OUT);
  for (let i = 0; i < 3; i++) {
    outMin[i] = f32[OUT / 4 + i]!;
    outMax[i] = f32[OUT / 4 + 4 + i]!;
  }
  return true;
}

function align(bytes: number): number {
  return (bytes + 15) & ~15;
}
