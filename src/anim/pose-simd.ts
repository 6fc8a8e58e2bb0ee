/**
 * WebAssembly kernels for the per-frame pose jobs: a clip's live channels sampled at one time (the inner
 * loop of sampleClip) and localToModel. The kernels' source is pose-simd.wat (read it there);
 * pose-simd-wasm.ts holds the bytes WABT assembles from it (`npm run gen`).
 *
 * Contract
 * - On by default wherever WebAssembly SIMD is available, like the palette kernel (palette-simd.ts): the
 *   first call compiles the module (synchronously, 1.3 KB). Where WebAssembly.validate rejects it, or
 *   compiling throws (a Content-Security-Policy without 'wasm-unsafe-eval'), the kernels stay off and the
 *   JavaScript loops run, with no error. usePoseSimd(false) forces the JavaScript loops, usePoseSimd(true)
 *   returns to the default; both return whether the kernels are in use. poseSimdAvailable() says whether
 *   this engine validates the module.
 * - sampleChannelsSimd(cursor, outLocals) runs sampleClip's channel loop for a cursor whose timelines were
 *   just searched (cursor.timelineKey / timelineWeight hold this frame's segments) and whose base applies
 *   (sample-clip.ts checks both): outLocals gets the base with every live channel sampled, except the
 *   rotations that need a slerp (keys further apart than quat-interp.ts's NLERP_DOT, weight ≠ 0), which it
 *   leaves to the caller: it returns their count n, and simdSlerpChannel(i) for i < n is the cursor channel
 *   index of each (ascending). -1: the kernel is off or the cursor does not fit (nothing written).
 * - localToModelSimd(parents, locals, outModel): localToModel's contract; false (nothing written) when the
 *   kernel is off or the arrays are not exactly nodeCount · 10 floats of pose and at least nodeCount · 16
 *   of matrices.
 * - Arithmetic in float32 (each product and sum rounded; the JavaScript loops round once from float64), so
 *   results agree with the JavaScript jobs to a few float32 ulps, not bit for bit. The cursor's per-channel
 *   key hints (`keys`) are not updated on this path (they are hints only; the timelines' are).
 * - Memory: one WebAssembly memory. A cursor's tables (its base pose and channel records) are copied in at
 *   its first sampleChannelsSimd (that call allocates), shared with the clip's other cursors over the same
 *   rest pose (a crowd's players), and freed when the clip is garbage collected (FinalizationRegistry);
 *   each key-value array is copied once and freed with the array. So key values must not be edited in
 *   place after a clip is first sampled: an edited clip gets new arrays (and, as before, new cursors). A pose scratch sized for the largest skeleton so far holds the pose
 *   and matrices; every frame copies the pose out (sampling) or in and the matrices out (localToModel), one
 *   memcpy each. Views of the scratch are made once per node count. Otherwise nothing allocates.
 */

import type { Clip } from '../model/types.ts';
import { TRS_STRIDE } from '../model/types.ts';
import type { ClipCursor } from './clip-cursor.ts';
import { POSE_SIMD_WASM } from './pose-simd-wasm.ts';
import { WasmKernel } from './wasm-kernel.ts';
import { WasmHeap } from './wasm-heap.ts';

/** A cursor's tables in the kernel's memory (byte addresses). */
interface Pack {
  readonly recs: number;
  readonly count: number;
  /** Timelines: int32 key, float32 weight each. */
  readonly tl: number;
  readonly timelines: number;
  /** The slerp list: one int32 per rotation record. */
  readonly list: number;
  /** The base pose (float32, TRS_STRIDE per node). */
  readonly base: number;
  readonly nodeCount: number;
  /** Record index → cursor channel index. */
  readonly chanOf: Int32Array;
  /** The rest pose the base was made over. */
  readonly rest: Float32Array | null;
}

interface ScratchViews {
  readonly locals: Float32Array;
  readonly model: Float32Array;
}

interface Kernel {
  readonly heap: WasmHeap;
  readonly sample: (recs: number, count: number, locals: number, tl: number, list: number) => number;
  readonly l2m: (parents: number, locals: number, model: number, count: number) => void;
  /** Per cursor, its pack (null: none fits). */
  readonly cursorPacks: WeakMap<ClipCursor, Pack | null>;
  /** Per clip, the packs made for its cursors (freed with the clip). */
  readonly packs: WeakMap<Clip, Pack[]>;
  /** Per key-value array, its copy's address (freed with the array). */
  readonly values: WeakMap<Float32Array, number>;
  readonly freed: FinalizationRegistry<number> | null;
  /** Pose scratch: locals (nodes · 40 bytes), model (nodes · 64), parents (nodes · 2). */
  scratch: number;
  scratchNodes: number;
  /** Views of the scratch per node count; cleared when the scratch moves or the memory grows. */
  views: Map<number, ScratchViews>;
  viewsBuffer: ArrayBuffer | null;
}

/** The kernels, compiled on first want; usePoseSimd switches them (wasm-kernel.ts). */
const KERNEL = new WasmKernel<Kernel>(POSE_SIMD_WASM, (instance) => {
  const heap = new WasmHeap(instance.exports.mem as WebAssembly.Memory);
  const freed = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry<number>((at) => heap.free(at)) : null;
  return {
    heap,
    sample: instance.exports.sample as Kernel['sample'],
    l2m: instance.exports.l2m as Kernel['l2m'],
    cursorPacks: new WeakMap(),
    packs: new WeakMap(),
    values: new WeakMap(),
    freed,
    scratch: -1,
    scratchNodes: 0,
    views: new Map(),
    viewsBuffer: null,
  };
});

/** Whether this engine validates the module (WebAssembly with the SIMD instructions it uses). */
export function poseSimdAvailable(): boolean {
  return KERNEL.available();
}

/** usePoseSimd(false): the JavaScript loops; usePoseSimd(true): the kernels where available (default). */
export function usePoseSimd(on: boolean): boolean {
  return KERNEL.use(on);
}

/** Whether the pose jobs use the kernels now (compiles them if still to be tried). */
export function poseSimdInUse(): boolean {
  return KERNEL.current() !== null;
}

function current(): Kernel | null {
  return KERNEL.current();
}

/** The scratch views for `nodes` nodes, growing the scratch when needed; null when memory runs out. */
function scratchFor(k: Kernel, nodes: number): ScratchViews | null {
  if (nodes > k.scratchNodes) {
    const at = k.heap.alloc(nodes * (40 + 64 + 2));
    if (at < 0) return null;
    if (k.scratch >= 0) k.heap.free(k.scratch);
    k.scratch = at;
    k.scratchNodes = nodes;
    k.views.clear();
  }
  const heap = k.heap;
  if (k.viewsBuffer !== heap.buffer) {
    k.views.clear();
    k.viewsBuffer = heap.buffer;
  }
  let v = k.views.get(nodes);
  if (v === undefined) {
    const cap = k.scratchNodes;
    v = {
      locals: new Float32Array(heap.buffer, k.scratch, nodes * TRS_STRIDE),
      model: new Float32Array(heap.buffer, k.scratch + cap * 40, nodes * 16),
    };
    k.views.set(nodes, v);
  }
  return v;
}

/** The heap address of `values` (copied in once per array, freed with it); -1 when memory runs out. */
function valuesAt(k: Kernel, values: Float32Array): number {
  let at = k.values.get(values);
  if (at !== undefined) return at;
  at = k.heap.alloc(values.length * 4);
  if (at < 0) return -1;
  k.heap.f32.set(values, at >> 2);
  k.values.set(values, at);
  if (k.freed !== null) k.freed.register(values, at);
  return at;
}

/** Whether `pack` (made for another cursor of the same clip) holds exactly what `cursor` would put in one. */
function packFits(k: Kernel, pack: Pack, cursor: ClipCursor, base: Float32Array, chans: readonly number[]): boolean {
  if (pack.rest !== cursor.baseRest || pack.count !== chans.length || pack.timelines !== cursor.timelines.length) return false;
  const f32 = k.heap.f32;
  const b = pack.base >> 2;
  for (let i = 0; i < pack.nodeCount * TRS_STRIDE; i++) if (!Object.is(f32[b + i], base[i])) return false;
  const i32 = k.heap.i32;
  for (let r = 0; r < chans.length; r++) {
    const c = chans[r];
    const q = (pack.recs >> 2) + r * 4;
    if (pack.chanOf[r] !== c || i32[q] !== cursor.chanKind[c] || i32[q + 1] !== cursor.chanOffset[c] * 4) return false;
    if (i32[q + 2] !== cursor.chanTimeline[c] * 8 || i32[q + 3] !== k.values.get(cursor.chanValues[c])) return false;
  }
  return true;
}

/**
 * The cursor's tables in the heap (see Pack): shared by every cursor of the clip over the same rest pose
 * with the same tables (the players of a crowd), made on the first; null when it has no base or memory
 * runs out.
 */
function packOf(k: Kernel, cursor: ClipCursor): Pack | null {
  const base = cursor.base;
  if (base === null) return null;
  const nodeCount = (base.length / TRS_STRIDE) | 0;
  const limit = nodeCount * TRS_STRIDE;
  const chans: number[] = [];
  for (let c = 0; c < cursor.chanKind.length; c++) if (cursor.chanNodeOffset[c] < limit) chans.push(c);
  let shared = k.packs.get(cursor.clip);
  if (shared === undefined) {
    shared = [];
    k.packs.set(cursor.clip, shared);
  }
  for (const p of shared) if (packFits(k, p, cursor, base, chans)) return p;
  const valueAt: number[] = [];
  for (const c of chans) {
    const at = valuesAt(k, cursor.chanValues[c]);
    if (at < 0) return null;
    valueAt.push(at);
  }
  const timelines = cursor.timelines.length;
  // Layout (bytes): records 16 each, timelines 8 each, slerp list 4 each, base.
  const recsBytes = chans.length * 16;
  const tlBytes = timelines * 8;
  const listBytes = chans.length * 4;
  const at = k.heap.alloc(recsBytes + tlBytes + listBytes + limit * 4);
  if (at < 0) return null;
  const heap = k.heap;
  const recs = at;
  const tl = recs + recsBytes;
  const list = tl + tlBytes;
  const baseAt = list + listBytes;
  heap.f32.set(base.subarray(0, limit), baseAt >> 2);
  const i32 = heap.i32;
  for (let r = 0; r < chans.length; r++) {
    const c = chans[r];
    const q = (recs >> 2) + r * 4;
    i32[q] = cursor.chanKind[c];
    i32[q + 1] = cursor.chanOffset[c] * 4;
    i32[q + 2] = cursor.chanTimeline[c] * 8;
    i32[q + 3] = valueAt[r];
  }
  if (k.freed !== null) k.freed.register(cursor.clip, at);
  const pack: Pack = { recs, count: chans.length, tl, timelines, list, base: baseAt, nodeCount, chanOf: Int32Array.from(chans), rest: cursor.baseRest };
  shared.push(pack);
  return pack;
}

let lastPack: Pack | null = null;

/** See the file contract: the channel loop through the kernel; returns the slerps left, or -1. */
export function sampleChannelsSimd(cursor: ClipCursor, outLocals: Float32Array): number {
  const k = current();
  if (k === null) return -1;
  let pack = k.cursorPacks.get(cursor);
  if (pack === undefined) {
    pack = packOf(k, cursor);
    k.cursorPacks.set(cursor, pack);
  }
  if (pack === null) return -1;
  const nodes = pack.nodeCount;
  if (nodes === 0 || outLocals.length < nodes * TRS_STRIDE) return -1;
  const views = scratchFor(k, nodes);
  if (views === null) return -1;
  const heap = k.heap;
  const f32 = heap.f32;
  const i32 = heap.i32;
  const keys = cursor.timelineKey;
  const weights = cursor.timelineWeight;
  const tl = pack.tl >> 2;
  for (let j = 0; j < pack.timelines; j++) {
    i32[tl + 2 * j] = keys[j];
    f32[tl + 2 * j + 1] = weights[j];
  }
  const locals = k.scratch;
  f32.copyWithin(locals >> 2, pack.base >> 2, (pack.base >> 2) + nodes * TRS_STRIDE);
  const n = k.sample(pack.recs, pack.count, locals, pack.tl, pack.list);
  outLocals.set(views.locals);
  lastPack = pack;
  return n;
}

/** The cursor channel index of the i-th slerp the last sampleChannelsSimd left to the caller. */
export function simdSlerpChannel(i: number): number {
  const pack = lastPack!;
  return pack.chanOf[current()!.heap.i32[(pack.list >> 2) + i]];
}

/** localToModel through the kernel; false when off or the arrays do not fit (see the file contract). */
export function localToModelSimd(parents: Int16Array, locals: Float32Array, outModel: Float32Array): boolean {
  const k = current();
  if (k === null) return false;
  const nodes = parents.length;
  if (locals.length !== nodes * TRS_STRIDE || outModel.length < nodes * 16 || nodes === 0) return false;
  const views = scratchFor(k, nodes);
  if (views === null) return false;
  const heap = k.heap;
  const at = k.scratch;
  const modelAt = at + k.scratchNodes * 40;
  const parentsAt = modelAt + k.scratchNodes * 64;
  heap.f32.set(locals, at >> 2);
  heap.i16.set(parents, parentsAt >> 1);
  k.l2m(parentsAt, at, modelAt, nodes);
  outModel.set(views.model);
  return true;
}
