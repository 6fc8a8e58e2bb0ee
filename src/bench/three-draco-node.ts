import type { DecoderModule } from 'draco3d';
import { BufferAttribute, BufferGeometry } from 'three';

/**
 * A stand-in for three.js's DRACOLoader that GLTFLoader can use in Node (the real one starts Web Workers and
 * fetches its decoder by URL, neither of which Node has). It decodes in the calling thread with draco3d's
 * official decoder, the same module the glTF reader uses, so the benchmark's two sides decode with the same
 * code and three pays no worker round trip: GLTFLoader's Draco path at its fastest.
 *
 * What it implements: `preload()` and `decodeDracoFile(buffer, onLoad, attributeIDs, attributeTypes, _, onError)`
 * as GLTFLoader r187 calls them: the attributes by unique id, as the named typed-array type, and the triangle
 * indices (Uint32), in a BufferGeometry. Everything the decoder allocates is released.
 */

type ArrayName = 'Float32Array' | 'Int8Array' | 'Int16Array' | 'Int32Array' | 'Uint8Array' | 'Uint16Array' | 'Uint32Array';

const ARRAYS = { Float32Array, Int8Array, Int16Array, Int32Array, Uint8Array, Uint16Array, Uint32Array } as const;

export class NodeDracoLoader {
  constructor(private readonly draco: DecoderModule) {}

  preload(): this {
    return this;
  }

  decodeDracoFile(
    buffer: ArrayBuffer,
    onLoad: (geometry: BufferGeometry) => void,
    attributeIDs: Readonly<Record<string, number>>,
    attributeTypes: Readonly<Record<string, ArrayName>>,
    _colorSpace?: unknown,
    onError: (e: unknown) => void = (): void => {},
  ): Promise<void> {
    try {
      onLoad(this.decode(new Uint8Array(buffer), attributeIDs, attributeTypes));
    } catch (e) {
      onError(e);
    }
    return Promise.resolve();
  }

  private decode(bytes: Uint8Array, ids: Readonly<Record<string, number>>, types: Readonly<Record<string, ArrayName>>): BufferGeometry {
    const d = this.draco;
    const decoder = new d.Decoder();
    const input = new d.DecoderBuffer();
    const mesh = new d.Mesh();
    try {
      input.Init(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), bytes.byteLength);
      if (!decoder.DecodeBufferToMesh(input, mesh).ok()) throw new Error('Draco decoding failed');
      const geometry = new BufferGeometry();
      const n = mesh.num_faces() * 3;
      const at = d._malloc(n * 4);
      decoder.GetTrianglesUInt32Array(mesh, n * 4, at);
      geometry.setIndex(new BufferAttribute(new Uint32Array(d.HEAPU8.buffer, at, n).slice(), 1));
      d._free(at);
      for (const name of Object.keys(ids)) {
        const attribute = decoder.GetAttributeByUniqueId(mesh, ids[name]!);
        const Ctor = ARRAYS[types[name] ?? 'Float32Array'];
        const size = attribute.num_components();
        const values = mesh.num_points() * size;
        const byteLength = values * Ctor.BYTES_PER_ELEMENT;
        const ptr = d._malloc(byteLength);
        decoder.GetAttributeDataArrayForAllPoints(mesh, attribute, dataType(d, types[name] ?? 'Float32Array') as never, byteLength, ptr);
        geometry.setAttribute(name, new BufferAttribute(new Ctor(d.HEAPU8.buffer as ArrayBuffer, ptr, values).slice(), size));
        d._free(ptr);
      }
      return geometry;
    } finally {
      d.destroy(mesh);
      d.destroy(input);
      d.destroy(decoder);
    }
  }
}

function dataType(d: DecoderModule, name: ArrayName): unknown {
  switch (name) {
    case 'Float32Array': return d.DT_FLOAT32;
    case 'Int8Array': return d.DT_INT8;
    case 'Int16Array': return d.DT_INT16;
    case 'Int32Array': return d.DT_INT32;
    case 'Uint8Array': return d.DT_UINT8;
    case 'Uint16Array': return d.DT_UINT16;
    default: return d.DT_UINT32;
  }
}
