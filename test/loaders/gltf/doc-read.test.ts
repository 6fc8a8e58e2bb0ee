import { describe, expect, it } from 'vitest';
import { loadModelAsync } from '../../../src/loaders/load-model.ts';
import { fixture, toGlb, type Fixture } from './check-fixture.ts';

/**
 * The glTF reader's own data paths, on the small fixture: interleaved and misaligned vertex data, sparse
 * substitutions, normalised integer UVs, the Draco extension object's errors, and many equal names.
 */

/** Appends `data` to the fixture's buffer `pad` bytes after a 4-byte boundary; returns the new view's index. */
function addView(f: Fixture, data: Uint8Array, pad = 0, byteStride?: number): number {
  const start = Math.ceil(f.bin.length / 4) * 4 + pad;
  const bin = new Uint8Array(start + data.length);
  bin.set(f.bin);
  bin.set(data, start);
  f.bin = bin;
  f.json.buffers[0].byteLength = bin.length;
  f.json.bufferViews.push({ buffer: 0, byteOffset: start, byteLength: data.length, ...(byteStride ? { byteStride } : {}) });
  return f.json.bufferViews.length - 1;
}

function floats(values: number[]): Uint8Array {
  return new Uint8Array(new Float32Array(values).buffer);
}

async function load(f: Fixture): Promise<Awaited<ReturnType<typeof loadModelAsync>>> {
  return loadModelAsync('t.glb', toGlb(f.json, f.bin));
}

describe('glTF reader: accessor data', () => {
  it('reads POSITION and NORMAL interleaved in one misaligned view, with a sparse substitution into POSITION', async () => {
    const f = fixture();
    // Element i: position (x y z), normal (x y z); the view starts 2 bytes past a 4-byte boundary.
    const view = addView(f, floats([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1]), 2, 24);
    const sparse = addView(f, Uint8Array.of(2, 0, 0, 0, ...floats([0, 3, 0])));
    f.json.accessors[0] = {
      bufferView: view, componentType: 5126, count: 3, type: 'VEC3',
      sparse: { count: 1, indices: { bufferView: sparse, componentType: 5121 }, values: { bufferView: sparse, byteOffset: 4 } },
    };
    f.json.accessors[1] = { bufferView: view, byteOffset: 12, componentType: 5126, count: 3, type: 'VEC3' };
    const mesh = (await load(f)).meshes[0]!;
    expect(Array.from(mesh.positions)).toEqual([0, 0, 0, 1, 0, 0, 0, 3, 0]);
    expect(Array.from(mesh.normals)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1]);
  });

  it('dequantises normalised UNSIGNED_SHORT UVs (KHR_mesh_quantization) and leaves the file bytes as they were', async () => {
    const f = fixture();
    f.json.extensionsUsed = ['KHR_mesh_quantization'];
    const uv = new Uint8Array(new Uint16Array([0, 0, 65535, 0, 0, 32768]).buffer);
    const view = addView(f, uv);
    f.json.accessors.push({ bufferView: view, componentType: 5123, normalized: true, count: 3, type: 'VEC2' });
    f.json.meshes[0].primitives[0].attributes.TEXCOORD_0 = f.json.accessors.length - 1;
    const bytes = toGlb(f.json, f.bin);
    const copy = bytes.slice();
    const mesh = (await loadModelAsync('t.glb', bytes)).meshes[0]!;
    expect(Array.from(mesh.uvs!)).toEqual([0, 0, 1, 0, 0, Math.fround(32768 / 65535)]);
    expect(bytes).toEqual(copy);
  });
});

describe('glTF reader: extension objects and names', () => {
  it('names the Draco extension field at fault with its JSON pointer', async () => {
    const f = fixture();
    f.json.extensionsUsed = ['KHR_draco_mesh_compression'];
    const prim = f.json.meshes[0].primitives[0];
    prim.extensions = { KHR_draco_mesh_compression: { bufferView: 99, attributes: { POSITION: 0 } } };
    await expect(load(f)).rejects.toThrow(
      "t.glb: /meshes/0/primitives/0/extensions/KHR_draco_mesh_compression/bufferView: 99 is not a bufferView of the file (it has 10)",
    );
    prim.extensions.KHR_draco_mesh_compression = { bufferView: 0, attributes: { TANGENT: 0 } };
    await expect(load(f)).rejects.toThrow('/KHR_draco_mesh_compression/attributes/TANGENT: the primitive has no TANGENT attribute to decode into');
    prim.extensions.KHR_draco_mesh_compression = { bufferView: 0, attributes: { POSITION: 0 } };
    await expect(load(f)).rejects.toThrow('/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression: the Draco data');
  });

  it('gives 3000 nodes of one name the suffixes -2 … -3000, in file order', async () => {
    const f = fixture();
    const first = f.json.nodes.length;
    for (let i = 0; i < 3000; i++) f.json.nodes.push({ name: 'bone' });
    f.json.scenes[0].nodes.push(...Array.from({ length: 3000 }, (_, i) => first + i));
    const names = (await load(f)).skeleton.names;
    expect(names.slice(-3000, -2997)).toEqual(['bone', 'bone-2', 'bone-3']);
    expect(names.at(-1)).toBe('bone-3000');
  });
});
