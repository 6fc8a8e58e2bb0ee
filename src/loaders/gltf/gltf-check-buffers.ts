import { CheckContext, COMPONENT_NAME, COMPONENT_SIZE, elementSize, FLOAT, isObj, type Obj, TYPE_COMPONENTS } from './gltf-check-util.ts';

/**
 * Checks the byte layout of a glTF file before any data is read from it: buffers against the bytes they
 * resolve to, buffer views against their buffers, accessors (and their sparse parts) against their views.
 * Every count and offset is compared with the bytes that exist, so nothing sized by the JSON is allocated
 * before this passes. Returns what the data scans need.
 */

export interface ViewLayout {
  readonly byteStride: number; // 0 = tightly packed
  /** The view's bytes, or null where they are not readable yet (meshopt-compressed, or a fallback buffer). */
  readonly bytes: Uint8Array | null;
}

export interface AccessorLayout {
  readonly componentType: number;
  readonly type: string;
  readonly components: number;
  readonly count: number;
  /** Bytes between element starts in the view. */
  readonly stride: number;
  /** Offset of element 0 in `bytes`, and the view bytes (null: no bufferView, or unreadable view). */
  readonly byteOffset: number;
  readonly bytes: Uint8Array | null;
  readonly hasView: boolean;
  /** The bufferView index (-1: none). */
  readonly view: number;
  readonly sparse: SparseLayout | null;
}

export interface SparseLayout {
  readonly count: number;
  readonly indexComponentType: number;
  readonly indexOffset: number;
  readonly indexBytes: Uint8Array | null;
  readonly valueOffset: number;
  readonly valueBytes: Uint8Array | null;
  /** The bufferViews of the indices and of the values. */
  readonly indexView: number;
  readonly valueView: number;
}

export interface Layout {
  /** Per bufferView; `views[i].bytes` is null where meshopt-compressed (`meshopt[i]` then says how to decode it). */
  readonly views: readonly ViewLayout[];
  readonly meshopt: readonly (MeshoptView | null)[];
  readonly accessors: readonly AccessorLayout[];
  /**
   * Per accessor, 1 where the finite scan (gltf-check-data.ts) read every value from the file and found it finite:
   * FLOAT POSITION, NORMAL, morph deltas, inverse binds, key times and values. Filled by the scene and animation checks.
   */
  readonly checked: Uint8Array;
}

/** A meshopt-compressed bufferView: the checked source bytes and the decoder's parameters (not yet checked). */
export interface MeshoptView {
  readonly source: Uint8Array;
  readonly count: number;
  readonly byteStride: number;
  readonly mode: unknown;
  readonly filter: unknown;
}

/** Zero-filled accessors (no bufferView, or Draco-decoded) may total this many times the buffer bytes, plus 16 MiB. */
const ZERO_ACCESSOR_RATIO = 64;
const ZERO_ACCESSOR_SLACK = 16 << 20;

/** An accessor's optional bounds fields. */
const BOUNDS = ['min', 'max'];

function meshopt(o: Obj): Obj | undefined {
  const ext = o['extensions'];
  if (!isObj(ext)) return undefined;
  const m = ext['EXT_meshopt_compression'] ?? ext['KHR_meshopt_compression'];
  return isObj(m) ? m : undefined;
}

export function checkLayout(ctx: CheckContext, resolved: readonly (Uint8Array | null)[]): Layout {
  const buffers = ctx.top('buffers');
  const bufferLengths: number[] = [];
  const bufferData: (Uint8Array | null)[] = [];
  let totalBytes = 0;
  for (let i = 0; i < buffers.length; i++) {
    const b = buffers[i]!;
    const ptr = `/buffers/${i}`;
    const byteLength = ctx.reqInt(b, 'byteLength', ptr, 1);
    const uri = ctx.str(b, 'uri', ptr);
    const fallback = meshopt(b)?.['fallback'] === true;
    const data = resolved[i] ?? null;
    if (data === null) {
      if (fallback) {
        bufferLengths.push(byteLength);
        bufferData.push(null);
        continue;
      }
      if (uri === undefined) {
        ctx.fail(ptr, i === 0 ? 'has no uri and the file has no GLB BIN chunk to hold its data' : 'has no uri; only a GLB\'s buffer 0 may leave it out');
      }
      if (uri.slice(0, 5).toLowerCase() === 'data:') ctx.fail(`${ptr}/uri`, 'the data: URI could not be decoded');
      ctx.fail(`${ptr}/uri`, `the external file '${uri}' is missing`);
    }
    if (data.length < byteLength) {
      const src = uri === undefined ? 'the GLB BIN chunk' : uri.slice(0, 5).toLowerCase() === 'data:' ? 'its data: URI' : `'${uri}'`;
      ctx.fail(`${ptr}/byteLength`, `${byteLength} bytes is more than the ${data.length} bytes of ${src}`);
    }
    bufferLengths.push(byteLength);
    bufferData.push(data);
    totalBytes += byteLength;
  }

  const views: ViewLayout[] = [];
  const meshoptViews: (MeshoptView | null)[] = [];
  const viewDefs = ctx.top('bufferViews');
  for (let i = 0; i < viewDefs.length; i++) {
    const v = viewDefs[i]!;
    const ptr = `/bufferViews/${i}`;
    const buffer = ctx.ref(v, 'buffer', ptr, 'buffers');
    if (buffer === undefined) ctx.fail(`${ptr}/buffer`, 'is missing');
    const offset = ctx.int(v, 'byteOffset', ptr, 0) ?? 0;
    const length = ctx.reqInt(v, 'byteLength', ptr, 1);
    const stride = ctx.int(v, 'byteStride', ptr, 0) ?? 0;
    if (v['byteStride'] !== undefined && (stride < 4 || stride > 252 || stride % 4 !== 0)) {
      ctx.fail(`${ptr}/byteStride`, `${stride} is not a multiple of 4 in 4..252`);
    }
    if (offset + length > bufferLengths[buffer]!) {
      ctx.fail(ptr, `${length} bytes from offset ${offset} run past the end of buffer ${buffer} (${bufferLengths[buffer]} bytes)`);
    }
    const m = meshopt(v);
    if (m) {
      const mptr = `${ptr}/extensions/EXT_meshopt_compression`;
      const mb = ctx.ref(m, 'buffer', mptr, 'buffers');
      if (mb === undefined) ctx.fail(`${mptr}/buffer`, 'is missing');
      const mo = ctx.int(m, 'byteOffset', mptr, 0) ?? 0;
      const ml = ctx.reqInt(m, 'byteLength', mptr, 1);
      const mstride = ctx.reqInt(m, 'byteStride', mptr, 1, 256);
      const mcount = ctx.reqInt(m, 'count', mptr, 1);
      if (mo + ml > bufferLengths[mb]!) {
        ctx.fail(mptr, `${ml} bytes from offset ${mo} run past the end of buffer ${mb} (${bufferLengths[mb]} bytes)`);
      }
      if (bufferData[mb] === null) ctx.fail(`${mptr}/buffer`, `buffer ${mb} holds no data (it is a fallback buffer)`);
      if (mstride * mcount > length) {
        ctx.fail(mptr, `count ${mcount} × byteStride ${mstride} decodes to more than the view's ${length} bytes`);
      }
      views.push({ byteStride: stride, bytes: null });
      meshoptViews.push({ source: bufferData[mb]!.subarray(mo, mo + ml), count: mcount, byteStride: mstride, mode: m['mode'], filter: m['filter'] });
    } else {
      const data = bufferData[buffer];
      views.push({ byteStride: stride, bytes: data ? data.subarray(offset, offset + length) : null });
      meshoptViews.push(null);
    }
  }

  const accessors: AccessorLayout[] = [];
  let zeroBytes = 0;
  const zeroLimit = ZERO_ACCESSOR_RATIO * totalBytes + ZERO_ACCESSOR_SLACK;
  const accessorDefs = ctx.top('accessors');
  for (let i = 0; i < accessorDefs.length; i++) {
    const a = accessorDefs[i]!;
    const ptr = `/accessors/${i}`;
    const componentType = a['componentType'];
    if (typeof componentType !== 'number' || COMPONENT_SIZE[componentType] === undefined) {
      ctx.fail(`${ptr}/componentType`, `${JSON.stringify(componentType) ?? 'missing'} is not a glTF component type (5120..5126)`);
    }
    const type = a['type'];
    if (typeof type !== 'string' || TYPE_COMPONENTS[type] === undefined) {
      ctx.fail(`${ptr}/type`, `${JSON.stringify(type)?.slice(0, 40) ?? 'missing'} is not an accessor type (SCALAR, VEC2..4, MAT2..4)`);
    }
    const count = ctx.reqInt(a, 'count', ptr, 1);
    const normalized = a['normalized'];
    if (normalized !== undefined && typeof normalized !== 'boolean') ctx.fail(`${ptr}/normalized`, 'is not a boolean');
    if (normalized === true && (componentType === FLOAT || componentType === 5125)) {
      ctx.fail(`${ptr}/normalized`, `is true for ${COMPONENT_NAME[componentType]} components; only BYTE/SHORT types may be normalized`);
    }
    const components = TYPE_COMPONENTS[type]!;
    for (let b = 0; b < BOUNDS.length; b++) {
      const key = BOUNDS[b]!;
      const mm = ctx.arr(a, key, ptr);
      if (mm === undefined) continue;
      if (mm.length !== components) ctx.fail(`${ptr}/${key}`, `has ${mm.length} values; a ${type} has ${components}`);
      for (let k = 0; k < mm.length; k++) if (typeof mm[k] !== 'number') ctx.fail(`${ptr}/${key}/${k}`, 'is not a number');
    }
    const size = elementSize(type, componentType);
    const view = ctx.ref(a, 'bufferView', ptr, 'bufferViews');
    const byteOffset = ctx.int(a, 'byteOffset', ptr, 0) ?? 0;
    let stride = size;
    let bytes: Uint8Array | null = null;
    if (view !== undefined) {
      const v = views[view]!;
      const viewLength = (ctx.json['bufferViews'] as Obj[])[view]!['byteLength'] as number;
      if (v.byteStride) {
        if (v.byteStride < size) ctx.fail(ptr, `its ${size}-byte elements are wider than bufferView ${view}'s byteStride ${v.byteStride}`);
        stride = v.byteStride;
      }
      const span = stride * (count - 1) + size;
      if (byteOffset + span > viewLength) {
        ctx.fail(ptr, `${span} bytes from offset ${byteOffset} run past the end of bufferView ${view} (${viewLength} bytes)`);
      }
      bytes = v.bytes;
    } else {
      zeroBytes += count * size;
      if (zeroBytes > zeroLimit) {
        ctx.fail(`${ptr}/count`, `${count} elements without a bufferView: the file's data-less accessors would take ${zeroBytes} bytes, far more than its ${totalBytes} bytes of buffers can hold`);
      }
    }
    const sparse = checkSparse(ctx, a, ptr, count, size, views);
    accessors.push({ componentType, type, components, count, stride, byteOffset, bytes, hasView: view !== undefined, view: view ?? -1, sparse });
  }
  return { views, meshopt: meshoptViews, accessors, checked: new Uint8Array(accessors.length) };
}

function checkSparse(ctx: CheckContext, a: Obj, ptr: string, count: number, size: number, views: readonly ViewLayout[]): SparseLayout | null {
  const s = ctx.obj(a, 'sparse', ptr);
  if (!s) return null;
  const sptr = `${ptr}/sparse`;
  const n = ctx.reqInt(s, 'count', sptr, 1);
  if (n > count) ctx.fail(`${sptr}/count`, `${n} is more than the accessor's count ${count}`);
  const indices = ctx.obj(s, 'indices', sptr);
  const values = ctx.obj(s, 'values', sptr);
  if (!indices) ctx.fail(`${sptr}/indices`, 'is missing');
  if (!values) ctx.fail(`${sptr}/values`, 'is missing');
  const ict = indices['componentType'];
  if (ict !== 5121 && ict !== 5123 && ict !== 5125) {
    ctx.fail(`${sptr}/indices/componentType`, `${JSON.stringify(ict) ?? 'missing'} is not an unsigned integer type (5121, 5123, 5125)`);
  }
  const part = (o: Obj, pptr: string, bytesEach: number): [number, Uint8Array | null, number] => {
    const view = ctx.ref(o, 'bufferView', pptr, 'bufferViews');
    if (view === undefined) ctx.fail(`${pptr}/bufferView`, 'is missing');
    const offset = ctx.int(o, 'byteOffset', pptr, 0) ?? 0;
    const vdef = (ctx.json['bufferViews'] as Obj[])[view]!;
    const viewLength = vdef['byteLength'] as number;
    if (vdef['byteStride'] !== undefined) ctx.fail(`${pptr}/bufferView`, `bufferView ${view} has a byteStride; sparse data must be tightly packed`);
    if (offset + n * bytesEach > viewLength) {
      ctx.fail(pptr, `${n * bytesEach} bytes from offset ${offset} run past the end of bufferView ${view} (${viewLength} bytes)`);
    }
    return [offset, views[view]!.bytes, view];
  };
  const [indexOffset, indexBytes, indexView] = part(indices, `${sptr}/indices`, COMPONENT_SIZE[ict]!);
  const [valueOffset, valueBytes, valueView] = part(values, `${sptr}/values`, size);
  return { count: n, indexComponentType: ict, indexOffset, indexBytes, valueOffset, valueBytes, indexView, valueView };
}
