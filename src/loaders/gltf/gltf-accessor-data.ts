import { LoadError } from '../../model/errors.ts';
import type { AccessorLayout } from './gltf-check-buffers.ts';
import { COMPONENT_SIZE } from './gltf-check-util.ts';
import type { ComponentArray } from './gltf-doc.ts';

/**
 * An accessor's bytes → one typed array of its component type, count × components values, element after
 * element (glTF 2.0 §3.6.2): a view over the bytes where the elements are packed and aligned to their
 * component size, a copy otherwise (interleaved by byteStride, misaligned); zeros where the accessor has no
 * bufferView; sparse substitutions written into a copy. Little-endian throughout (as glTF stores it and every
 * platform that runs the page is).
 *
 * The layout comes from checkLayout, which has matched every range against the bytes present, so nothing is
 * sized from an unchecked count. Bytes of a meshopt-compressed view are only known once decoded: `viewBytes`
 * hands them over, and their ranges are checked here (LoadError naming the accessor's pointer).
 */

type Ctor = new (buffer: ArrayBufferLike, byteOffset?: number, length?: number) => ComponentArray;
type SizedCtor = Ctor & { new (length: number): ComponentArray; readonly BYTES_PER_ELEMENT: number };

const CTOR: Readonly<Record<number, SizedCtor>> = {
  5120: Int8Array as unknown as SizedCtor,
  5121: Uint8Array as unknown as SizedCtor,
  5122: Int16Array as unknown as SizedCtor,
  5123: Uint16Array as unknown as SizedCtor,
  5125: Uint32Array as unknown as SizedCtor,
  5126: Float32Array as unknown as SizedCtor,
};

/** The bytes of bufferView `view` (decoded where compressed); null where it holds none. */
export type ViewBytes = (view: number) => Uint8Array | null;

/** `n` values of `ctor` from `offset` in `bytes`: a view when aligned, else a copy. */
function packed(ctor: SizedCtor, bytes: Uint8Array, offset: number, n: number): ComponentArray {
  const size = ctor.BYTES_PER_ELEMENT;
  if ((bytes.byteOffset + offset) % size === 0) return new ctor(bytes.buffer, bytes.byteOffset + offset, n);
  return new ctor(bytes.slice(offset, offset + n * size).buffer, 0, n);
}

/** `count` elements of `components` values, `stride` bytes apart from `offset`, into a packed copy. */
function deinterleave(ctor: SizedCtor, bytes: Uint8Array, offset: number, stride: number, count: number, components: number): ComponentArray {
  const size = ctor.BYTES_PER_ELEMENT;
  const out = new ctor(count * components);
  if (stride % size === 0 && (bytes.byteOffset + offset) % size === 0) {
    const span = stride * (count - 1) + components * size;
    const src = new ctor(bytes.buffer, bytes.byteOffset + offset, Math.floor(span / size));
    const step = stride / size;
    for (let i = 0, o = 0, p = 0; i < count; i++, o += step) for (let j = 0; j < components; j++) out[p++] = src[o + j]!;
    return out;
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const get = getter(dv, ctor);
  for (let i = 0, p = 0; i < count; i++) for (let j = 0; j < components; j++) out[p++] = get(offset + i * stride + j * size);
  return out;
}

function getter(dv: DataView, ctor: SizedCtor): (at: number) => number {
  switch (ctor as unknown) {
    case Float32Array: return (at) => dv.getFloat32(at, true);
    case Uint32Array: return (at) => dv.getUint32(at, true);
    case Uint16Array: return (at) => dv.getUint16(at, true);
    case Int16Array: return (at) => dv.getInt16(at, true);
    case Int8Array: return (at) => dv.getInt8(at);
    default: return (at) => dv.getUint8(at);
  }
}

/** Throws unless `need` bytes from `offset` lie inside `bytes` (only decoded views can fall short here). */
function inRange(bytes: Uint8Array, offset: number, need: number, where: string, view: number): void {
  if (offset + need > bytes.length) {
    throw new LoadError(`${where}: ${need} bytes from offset ${offset} run past the end of bufferView ${view} as decoded (${bytes.length} bytes)`);
  }
}

/** The accessor's values (see the file comment); `where` is `file: /accessors/i`. */
export function accessorArray(a: AccessorLayout, viewBytes: ViewBytes, where: string): ComponentArray | null {
  const ctor = CTOR[a.componentType]!;
  const size = COMPONENT_SIZE[a.componentType]!;
  const n = a.count * a.components;
  let out: ComponentArray;
  let owned = false;
  if (a.view < 0) {
    out = new ctor(n);
    owned = true;
  } else {
    const bytes = a.bytes ?? viewBytes(a.view);
    if (!bytes) return null;
    const elementBytes = a.components * size;
    if (!a.bytes) inRange(bytes, a.byteOffset, a.stride * (a.count - 1) + elementBytes, where, a.view);
    if (a.stride === elementBytes) out = packed(ctor, bytes, a.byteOffset, n);
    else {
      out = deinterleave(ctor, bytes, a.byteOffset, a.stride, a.count, a.components);
      owned = true;
    }
  }
  const s = a.sparse;
  if (!s) return out;
  const indexBytes = s.indexBytes ?? viewBytes(s.indexView);
  const valueBytes = s.valueBytes ?? viewBytes(s.valueView);
  if (!indexBytes || !valueBytes) return out;
  const indexCtor = CTOR[s.indexComponentType]!;
  if (!s.indexBytes) inRange(indexBytes, s.indexOffset, s.count * indexCtor.BYTES_PER_ELEMENT, `${where}/sparse/indices`, s.indexView);
  if (!s.valueBytes) inRange(valueBytes, s.valueOffset, s.count * a.components * size, `${where}/sparse/values`, s.valueView);
  const ix = packed(indexCtor, indexBytes, s.indexOffset, s.count);
  const values = packed(ctor, valueBytes, s.valueOffset, s.count * a.components);
  if (!owned) out = out.slice();
  const c = a.components;
  for (let k = 0; k < s.count; k++) {
    const e = ix[k]!;
    // The check keeps readable sparse indices below count; decoded ones are checked here.
    if (e >= a.count) throw new LoadError(`${where}/sparse/indices: index ${k} is ${e}, not below the accessor's count ${a.count}`);
    for (let j = 0; j < c; j++) out[e * c + j] = values[k * c + j]!;
  }
  return out;
}
