import type { AccessorLayout } from './gltf-check-buffers.ts';
import { CheckContext, COMPONENT_SIZE, FLOAT } from './gltf-check-util.ts';

/**
 * Scans of accessor data the loader relies on: floats that must be finite, index values below the vertex
 * count, ascending key times, sparse indices. Each reads the bytes once through a typed-array view over the
 * buffer (a copy only where the data is not aligned to its component size) and fails with the accessor's
 * pointer and the element. Accessors whose bytes are not readable yet (Draco, meshopt) are skipped: the
 * decoder's output is checked by the loader. The scans say whether they read every value (Layout.checked).
 */

type Ctor = Float32ArrayConstructor | Uint8ArrayConstructor | Uint16ArrayConstructor | Uint32ArrayConstructor;

/** A typed view of `span` bytes of `bytes` from `offset`, copied only when misaligned. */
function typed<T extends Float32Array | Uint8Array | Uint16Array | Uint32Array>(ctor: Ctor, bytes: Uint8Array, offset: number, span: number): T {
  const size = ctor.BYTES_PER_ELEMENT;
  const n = Math.floor(span / size);
  if ((bytes.byteOffset + offset) % size === 0) return new ctor(bytes.buffer as ArrayBuffer, bytes.byteOffset + offset, n) as T;
  return new ctor(bytes.slice(offset, offset + n * size).buffer, 0, n) as T;
}

const INDEX_CTOR: Readonly<Record<number, Ctor>> = { 5121: Uint8Array, 5123: Uint16Array, 5125: Uint32Array };

function span(a: AccessorLayout): number {
  return a.stride * (a.count - 1) + COMPONENT_SIZE[a.componentType]! * a.components;
}

// The two scans below are whole functions ending in a plain return: a long loop that V8 replaces on the stack
// (one call per load, thousands of elements) must not run into property reads after it that V8 has no feedback
// for, or V8 may deoptimise it again on every load (seen with the index scan inline in checkIndexValues).

/** Offset in `f` of the first NaN or ±Infinity among `count` elements of `components` floats, `step` floats apart; -1 if none. */
function firstNonFinite(f: Float32Array, count: number, step: number, components: number): number {
  for (let i = 0, o = 0; i < count; i++, o += step) {
    for (let j = 0; j < components; j++) {
      const v = f[o + j]!;
      if (v - v !== 0) return o + j;
    }
  }
  return -1;
}

/** The largest of `count` values `step` apart. */
function largest(ix: Uint8Array | Uint16Array | Uint32Array, count: number, step: number): number {
  let max = 0;
  for (let i = 0, o = 0; i < count; i++, o += step) {
    const v = ix[o]!;
    if (v > max) max = v;
  }
  return max;
}

/**
 * Accessor `index` holds only finite floats (NaN and ±Infinity fail); `what` says what it is used as. True when
 * every value was read (false: data not readable yet, or not FLOAT).
 */
export function checkFinite(ctx: CheckContext, acc: readonly AccessorLayout[], index: number, what: string): boolean {
  const a = acc[index]!;
  if (a.componentType !== FLOAT) return false;
  if (a.bytes) {
    const f = typed<Float32Array>(Float32Array, a.bytes, a.byteOffset, span(a));
    const at = firstNonFinite(f, a.count, a.stride >> 2, a.components);
    if (at >= 0) notFinite(ctx, index, Math.floor(at / (a.stride >> 2)), f[at]!, '', what);
  }
  const s = a.sparse;
  if (s?.valueBytes) {
    const f = typed<Float32Array>(Float32Array, s.valueBytes, s.valueOffset, s.count * a.components * 4);
    const at = firstNonFinite(f, f.length, 1, 1);
    if (at >= 0) notFinite(ctx, index, Math.floor(at / a.components), f[at]!, 'sparse value ', what);
  }
  return complete(a);
}

function notFinite(ctx: CheckContext, index: number, element: number, v: number, where: string, what: string): never {
  return ctx.fail(`/accessors/${index}`, `${where}element ${element} holds ${v} (${what}); only finite numbers are allowed`);
}

/** True when the check can read all of the accessor's values: its bytes (or zeros) and its sparse values. */
function complete(a: AccessorLayout): boolean {
  return (a.bytes !== null || a.view < 0) && (a.sparse === null || a.sparse.valueBytes !== null);
}

/** Sparse indices strictly increase and stay below the accessor's count. */
export function checkSparseIndices(ctx: CheckContext, acc: readonly AccessorLayout[], index: number): void {
  const s = acc[index]!.sparse;
  if (!s?.indexBytes) return;
  const count = acc[index]!.count;
  const ix = typed<Uint8Array | Uint16Array | Uint32Array>(INDEX_CTOR[s.indexComponentType]!, s.indexBytes, s.indexOffset, s.count * COMPONENT_SIZE[s.indexComponentType]!);
  let prev = -1;
  for (let k = 0; k < ix.length; k++) {
    const v = ix[k]!;
    if (v >= count) ctx.fail(`/accessors/${index}/sparse/indices`, `index ${k} is ${v}, not below the accessor's count ${count}`);
    if (v <= prev) ctx.fail(`/accessors/${index}/sparse/indices`, `index ${k} is ${v}, not greater than the one before (${prev})`);
    prev = v;
  }
}

/** The largest value of an unsigned-integer SCALAR accessor, or -1 when its data is not readable yet. */
export function checkIndexValues(ctx: CheckContext, acc: readonly AccessorLayout[], index: number, vertexCount: number, ptr: string): void {
  const a = acc[index]!;
  const ctor = INDEX_CTOR[a.componentType];
  if (!ctor || a.type !== 'SCALAR') {
    ctx.fail(ptr, `accessor ${index} is ${a.type} of component type ${a.componentType}; indices must be SCALAR UNSIGNED_BYTE/SHORT/INT`);
  }
  const report = (element: number, v: number): never =>
    ctx.fail(ptr, `index ${element} of accessor ${index} is ${v}, but POSITION has only ${vertexCount} vertices`);
  if (a.bytes) {
    const size = ctor.BYTES_PER_ELEMENT;
    const ix = typed<Uint8Array | Uint16Array | Uint32Array>(ctor, a.bytes, a.byteOffset, span(a));
    const step = a.stride / size;
    if (largest(ix, a.count, step) >= vertexCount) {
      for (let i = 0, o = 0; i < a.count; i++, o += step) if (ix[o]! >= vertexCount) report(i, ix[o]!);
    }
  }
  const s = a.sparse;
  if (s?.valueBytes) {
    const v = typed<Uint8Array | Uint16Array | Uint32Array>(ctor, s.valueBytes, s.valueOffset, s.count * ctor.BYTES_PER_ELEMENT);
    for (let k = 0; k < v.length; k++) if (v[k]! >= vertexCount) report(k, v[k]!);
  }
}

/**
 * Key times: FLOAT SCALAR, finite, not negative, never decreasing. Equal neighbours are allowed with a
 * warning (the spec asks for strictly increasing times; real exporters repeat a key now and then).
 */
export function checkKeyTimes(ctx: CheckContext, acc: readonly AccessorLayout[], index: number, ptr: string): boolean {
  const a = acc[index]!;
  if (a.componentType !== FLOAT || a.type !== 'SCALAR') ctx.fail(ptr, `accessor ${index} holds ${a.type} of component type ${a.componentType}; key times must be FLOAT SCALAR`);
  if (!a.bytes || a.sparse) return checkFinite(ctx, acc, index, 'key times');
  const f = typed<Float32Array>(Float32Array, a.bytes, a.byteOffset, span(a));
  const step = a.stride >> 2;
  let prev = -Infinity;
  let repeats = 0;
  for (let i = 0, o = 0; i < a.count; i++, o += step) {
    const t = f[o]!;
    if (t - t !== 0) ctx.fail(`/accessors/${index}`, `key time ${i} is ${t}`);
    if (t < 0) ctx.fail(`/accessors/${index}`, `key time ${i} is ${t}; times may not be negative`);
    if (t < prev) ctx.fail(`/accessors/${index}`, `key time ${i} (${t}) is earlier than key ${i - 1} (${prev}); times must ascend`);
    if (t === prev) repeats++;
    prev = t;
  }
  if (repeats > 0) ctx.warn(`/accessors/${index}`, `${repeats} key time(s) repeat the one before them`);
  return true;
}
