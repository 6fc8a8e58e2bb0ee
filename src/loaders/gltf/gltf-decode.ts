import type { DecoderModule } from 'draco3d';
import { LoadError } from '../../model/errors.ts';
import type { Layout } from './gltf-check-buffers.ts';
import { isObj, type Obj } from './gltf-check-util.ts';
import type { GltfJson } from './gltf-container.ts';
import type { Decoders } from './gltf-decoders.ts';
import type { ComponentArray } from './gltf-doc.ts';

/**
 * The compression extensions' data, decoded with their official decoders (gltf-decoders.ts):
 *
 * - EXT_meshopt_compression (and KHR_meshopt_compression): each compressed bufferView → count × byteStride
 *   bytes (sizes the layout check has bounded by the view's byteLength). Readers of the view then see these.
 * - KHR_draco_mesh_compression: each primitive's Draco bufferView → its attributes (by the unique ids the
 *   extension names, as the accessor's component type) and its triangle indices (UNSIGNED_SHORT up to 65534
 *   points, else UNSIGNED_INT), which replace the data of the accessors the primitive lists. A bufferView
 *   shared by several primitives is decoded once. The decoder's memory is released whatever happens.
 * Bad extension objects and data the decoder refuses are LoadErrors: `file: /json/pointer: what is wrong`.
 */

const DRACO = 'KHR_draco_mesh_compression';

/** The decoded bytes of every meshopt-compressed bufferView (absent: not compressed). */
export function decodeMeshoptViews(fileName: string, layout: Layout, decoders: Decoders): Map<number, Uint8Array> {
  const out = new Map<number, Uint8Array>();
  layout.meshopt.forEach((m, i) => {
    if (!m) return;
    const ptr = `${fileName}: /bufferViews/${i}/extensions/EXT_meshopt_compression`;
    if (!decoders.meshopt) throw new LoadError(`${ptr}: the file does not list the extension in extensionsUsed, so it is not decoded`);
    if (typeof m.mode !== 'string') throw new LoadError(`${ptr}/mode: is missing or not a string`);
    if (m.filter !== undefined && typeof m.filter !== 'string') throw new LoadError(`${ptr}/filter: is not a string`);
    const target = new Uint8Array(m.count * m.byteStride);
    try {
      decoders.meshopt.decodeGltfBuffer(target, m.count, m.byteStride, m.source, m.mode, m.filter as string | undefined);
    } catch (e) {
      throw new LoadError(`${ptr}: the meshopt data could not be decoded (${(e as Error).message})`);
    }
    out.set(i, target);
  });
  return out;
}

const ARRAY: Readonly<Record<number, new (buffer: ArrayBufferLike, offset: number, length: number) => ComponentArray>> = {
  5126: Float32Array,
  5125: Uint32Array,
  5123: Uint16Array,
  5121: Uint8Array,
  5122: Int16Array,
  5120: Int8Array,
};

function dataType(draco: DecoderModule, componentType: number): unknown {
  switch (componentType) {
    case 5126: return draco.DT_FLOAT32;
    case 5125: return draco.DT_UINT32;
    case 5123: return draco.DT_UINT16;
    case 5121: return draco.DT_UINT8;
    case 5122: return draco.DT_INT16;
    default: return draco.DT_INT8;
  }
}

/**
 * The Draco-decoded data of every primitive that has the extension (when the file uses it), by accessor index;
 * a later primitive's data wins for an accessor listed by several (as the decoding order is the file's).
 */
export function decodeDraco(fileName: string, json: GltfJson, layout: Layout, decoders: Decoders): Map<number, ComponentArray> {
  const out = new Map<number, ComponentArray>();
  const draco = decoders.draco;
  if (!draco) return out;
  const meshes = Array.isArray(json['meshes']) ? (json['meshes'] as Obj[]) : [];
  const decoded = new Map<number, { decoder: ReturnType<typeof newDecoder>; mesh: InstanceType<DecoderModule['Mesh']> }>();
  try {
    for (let mi = 0; mi < meshes.length; mi++) {
      const prims = meshes[mi]!['primitives'] as Obj[];
      for (let pi = 0; pi < prims.length; pi++) {
        const prim = prims[pi]!;
        const ext = isObj(prim['extensions']) ? prim['extensions'][DRACO] : undefined;
        if (ext === undefined) continue;
        const ptr = `${fileName}: /meshes/${mi}/primitives/${pi}/extensions/${DRACO}`;
        if (!isObj(ext)) throw new LoadError(`${ptr}: is not an object`);
        const view = ext['bufferView'];
        if (typeof view !== 'number' || !Number.isInteger(view) || view < 0 || view >= layout.views.length) {
          throw new LoadError(`${ptr}/bufferView: ${JSON.stringify(view) ?? 'missing'} is not a bufferView of the file (it has ${layout.views.length})`);
        }
        const attributes = ext['attributes'];
        if (!isObj(attributes)) throw new LoadError(`${ptr}/attributes: is missing or not an object`);
        const primAttributes = prim['attributes'] as Obj;
        for (const [semantic, id] of Object.entries(attributes)) {
          const aptr = `${ptr}/attributes/${semantic}`;
          if (!Object.hasOwn(primAttributes, semantic)) throw new LoadError(`${aptr}: the primitive has no ${semantic} attribute to decode into`);
          if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) throw new LoadError(`${aptr}: ${JSON.stringify(id)} is not a Draco attribute id`);
        }
        let entry = decoded.get(view);
        if (!entry) {
          const bytes = layout.views[view]!.bytes;
          if (!bytes) throw new LoadError(`${ptr}/bufferView: bufferView ${view} holds no readable bytes`);
          entry = decodeMesh(draco, bytes, ptr);
          decoded.set(view, entry);
        }
        const { decoder, mesh } = entry;
        for (const [semantic, id] of Object.entries(attributes) as [string, number][]) {
          const aptr = `${ptr}/attributes/${semantic}`;
          const index = primAttributes[semantic] as number;
          const acc = layout.accessors[index]!;
          const attribute = decoder.GetAttributeByUniqueId(mesh, id);
          if (!attribute || (attribute as unknown as { ptr: number }).ptr === 0) throw new LoadError(`${aptr}: the Draco data has no attribute ${id}`);
          const components = attribute.num_components();
          if (components !== acc.components) {
            throw new LoadError(`${aptr}: the Draco attribute has ${components} components, accessor ${index} (${acc.type}) has ${acc.components}`);
          }
          const Ctor = ARRAY[acc.componentType]!;
          const values = mesh.num_points() * components;
          const byteLength = values * (Ctor as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
          const at = draco._malloc(byteLength);
          try {
            decoder.GetAttributeDataArrayForAllPoints(mesh, attribute, dataType(draco, acc.componentType) as never, byteLength, at);
            out.set(index, new Ctor(draco.HEAPU8.buffer, at, values).slice());
          } finally {
            draco._free(at);
          }
        }
        const indices = prim['indices'];
        if (typeof indices === 'number') out.set(indices, decodeIndices(draco, decoder, mesh));
      }
    }
  } catch (e) {
    if (e instanceof LoadError) throw e;
    throw new LoadError(`${fileName}: ${DRACO}: the Draco data could not be decoded (${(e as Error).message})`);
  } finally {
    for (const { decoder, mesh } of decoded.values()) {
      draco.destroy(decoder);
      draco.destroy(mesh);
    }
  }
  return out;
}

function newDecoder(draco: DecoderModule): InstanceType<DecoderModule['Decoder']> {
  return new draco.Decoder();
}

function decodeMesh(draco: DecoderModule, bytes: Uint8Array, ptr: string): { decoder: ReturnType<typeof newDecoder>; mesh: InstanceType<DecoderModule['Mesh']> } {
  const buffer = new draco.DecoderBuffer();
  const decoder = newDecoder(draco);
  const mesh = new draco.Mesh();
  // The compressed bytes go into the decoder's heap in one copy: given an array, the Emscripten binding copies it
  // there itself, a byte at a time in JavaScript; given a heap address, it passes it through. The DecoderBuffer
  // reads them in place until the mesh is decoded. A heap that cannot grow gives address 0, never written to.
  let input = 0;
  try {
    input = draco._malloc(bytes.byteLength);
    if (input === 0 && bytes.byteLength > 0) throw new LoadError(`${ptr}: the Draco data could not be decoded (no memory for its ${bytes.byteLength} bytes)`);
    draco.HEAPU8.set(bytes, input);
    buffer.Init(input as unknown as Int8Array, bytes.byteLength);
    if (decoder.GetEncodedGeometryType(buffer) !== draco.TRIANGULAR_MESH) throw new LoadError(`${ptr}: the Draco data is not a triangle mesh`);
    const status = decoder.DecodeBufferToMesh(buffer, mesh);
    if (!status.ok() || (mesh as unknown as { ptr: number }).ptr === 0) throw new LoadError(`${ptr}: the Draco data could not be decoded (${status.error_msg()})`);
    return { decoder, mesh };
  } catch (e) {
    draco.destroy(decoder);
    draco.destroy(mesh);
    throw e;
  } finally {
    draco.destroy(buffer);
    if (input !== 0) draco._free(input);
  }
}

function decodeIndices(draco: DecoderModule, decoder: ReturnType<typeof newDecoder>, mesh: InstanceType<DecoderModule['Mesh']>): Uint16Array | Uint32Array {
  const n = mesh.num_faces() * 3;
  const small = mesh.num_points() <= 65534;
  const byteLength = n * (small ? 2 : 4);
  const at = draco._malloc(byteLength);
  try {
    if (small) {
      decoder.GetTrianglesUInt16Array(mesh, byteLength, at);
      return new Uint16Array(draco.HEAPU8.buffer, at, n).slice();
    }
    decoder.GetTrianglesUInt32Array(mesh, byteLength, at);
    return new Uint32Array(draco.HEAPU8.buffer, at, n).slice();
  } finally {
    draco._free(at);
  }
}
