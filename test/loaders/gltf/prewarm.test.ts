import { describe, expect, it } from 'vitest';
import { prewarmDecoders, readGltf } from '../../../src/loaders/gltf/read-gltf.ts';
import { fixture, toGlb } from './check-fixture.ts';

/**
 * prewarmDecoders (the early parse's head start on a glTF's decoders, app/parse-early.ts) never throws and never
 * changes what readGltf then gives: the same Scene, or the same error.
 */
describe('glTF decoders started ahead', () => {
  it('ignores what it cannot read: not a glTF, a broken GLB, an empty file', () => {
    expect(() => prewarmDecoders('x.glb', new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).not.toThrow();
    expect(() => prewarmDecoders('x.gltf', new TextEncoder().encode('{ not json'))).not.toThrow();
    expect(() => prewarmDecoders('x.glb', new Uint8Array(0))).not.toThrow();
  });

  it('leaves readGltf’s result as it was, with a decoder named and without', async () => {
    const plain = fixture();
    const bytes = toGlb(plain.json, plain.bin);
    const before = await readGltf('t.glb', bytes);
    prewarmDecoders('t.glb', bytes);
    const after = await readGltf('t.glb', bytes);
    expect(after.meshes.map((m) => Array.from(m.positions))).toEqual(before.meshes.map((m) => Array.from(m.positions)));

    const f = fixture();
    f.json.extensionsUsed = ['KHR_draco_mesh_compression'];
    f.json.meshes[0].primitives[0].extensions = { KHR_draco_mesh_compression: { bufferView: 0, attributes: { POSITION: 0 } } };
    const draco = toGlb(f.json, f.bin);
    const cold = await readGltf('t.glb', draco).then(() => 'loaded', (e: Error) => e.message);
    prewarmDecoders('t.glb', draco);
    const warm = await readGltf('t.glb', draco).then(() => 'loaded', (e: Error) => e.message);
    expect(warm).toBe(cold);
    expect(cold).toContain('KHR_draco_mesh_compression');
  });
});
