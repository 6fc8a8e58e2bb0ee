import { LoadError } from '../../model/errors.ts';
import type { GltfAccessor as Accessor } from './gltf-doc.ts';

/**
 * Accessor data → the float and index arrays the Scene stores. The document (gltf-doc.ts) hands out each
 * accessor's components in one typed array of its component type (sparse accessors already resolved,
 * Draco/meshopt already decoded; it may alias the file's bytes) plus the `normalized` flag; the dequantisation KHR_mesh_quantization allows (normalised or plain integer
 * components) is done here, by the glTF 2.0 rules (§3.11: c / (2^b − 1), signed clamped at −1).
 * Every function returns a fresh array (the accessor's own may be shared by several primitives), never
 * allocates per element beyond it, and throws LoadError naming `where` for a missing or mis-sized array.
 */

/** The accessor's components as floats: count × elementSize, dequantised when normalised. */
export function readFloats(accessor: Accessor, where: string, elementSize?: number): Float32Array {
  const src = accessor.getArray();
  if (!src) throw new LoadError(`${where}: the accessor has no data`);
  const size = accessor.getElementSize();
  if (elementSize !== undefined && size !== elementSize) {
    throw new LoadError(`${where}: expected ${elementSize} components per element, the accessor has ${size}`);
  }
  const n = src.length;
  if (src instanceof Float32Array) return src.slice();
  const out = new Float32Array(n);
  if (accessor.getNormalized()) {
    if (src instanceof Uint8Array) for (let i = 0; i < n; i++) out[i] = src[i]! / 255;
    else if (src instanceof Uint16Array) for (let i = 0; i < n; i++) out[i] = src[i]! / 65535;
    else if (src instanceof Int8Array) for (let i = 0; i < n; i++) out[i] = Math.max(src[i]! / 127, -1);
    else if (src instanceof Int16Array) for (let i = 0; i < n; i++) out[i] = Math.max(src[i]! / 32767, -1);
    else if (src instanceof Uint32Array) for (let i = 0; i < n; i++) out[i] = src[i]! / 4294967295;
    else for (let i = 0; i < n; i++) out[i] = Number(src[i]);
  } else {
    for (let i = 0; i < n; i++) out[i] = Number(src[i]);
  }
  return out;
}

/** Integer components (indices, joint numbers) as a Uint32Array; floats or negatives are refused. */
export function readUints(accessor: Accessor, where: string): Uint32Array {
  const src = accessor.getArray();
  if (!src) throw new LoadError(`${where}: the accessor has no data`);
  if (src instanceof Uint32Array) return src.slice();
  if (src instanceof Uint8Array || src instanceof Uint16Array) {
    const out = new Uint32Array(src.length);
    out.set(src);
    return out;
  }
  throw new LoadError(`${where}: expected unsigned integer components, the accessor holds ${src.constructor.name}`);
}

/**
 * Read-only forms for data that is only looked at, not kept: the accessor's own array when it already has the
 * wanted form (unsigned integers of any width; non-normalised floats), else a converted copy as above. The
 * caller must not write into the result (it may be the document's, or a view over the file).
 */
export function lookUints(accessor: Accessor, where: string): Uint32Array | Uint16Array | Uint8Array {
  const src = accessor.getArray();
  if (src instanceof Uint32Array || src instanceof Uint16Array || src instanceof Uint8Array) return src;
  return readUints(accessor, where);
}

export function lookFloats(accessor: Accessor, where: string, elementSize: number): Float32Array {
  const src = accessor.getArray();
  if (src instanceof Float32Array && accessor.getElementSize() === elementSize) return src;
  return readFloats(accessor, where, elementSize);
}

/**
 * True when every value of `accessor` is known finite: the structural check scanned it, or it holds integers
 * (dequantised to finite floats).
 */
export function knownFinite(accessor: Accessor): boolean {
  return accessor.checkedFinite || !(accessor.getArray() instanceof Float32Array);
}

/** Element count of an accessor (0 when it has no data). */
export function elementCount(accessor: Accessor | null): number {
  if (!accessor) return 0;
  const a = accessor.getArray();
  return a ? a.length / accessor.getElementSize() : 0;
}
