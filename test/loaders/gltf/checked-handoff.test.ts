import { describe, expect, it } from 'vitest';
import { readGltf } from '../../../src/loaders/gltf/read-gltf.ts';
import { LoadError } from '../../../src/model/errors.ts';
import { f32Bytes, type Fixture, fixture, toGlb } from './check-fixture.ts';

/**
 * The reader tells validateScene which arrays the structural check has already scanned, so they are not scanned
 * twice. What a user sees must not change: data the check did not scan still meets validation's scan.
 */

/** Appends `values` to the fixture's buffer as a new FLOAT accessor of `type`; returns the accessor number. */
function addFloats(f: Fixture, values: number[], type: string): number {
  const bytes = f32Bytes(values);
  const offset = f.bin.length;
  const bin = new Uint8Array(offset + bytes.length);
  bin.set(f.bin);
  bin.set(bytes, offset);
  f.bin = bin;
  f.json.buffers[0].byteLength = bin.length;
  f.json.bufferViews.push({ buffer: 0, byteOffset: offset, byteLength: bytes.length });
  const per = type === 'SCALAR' ? 1 : Number(type.slice(3));
  f.json.accessors.push({ bufferView: f.json.bufferViews.length - 1, componentType: 5126, count: values.length / per, type });
  return f.json.accessors.length - 1;
}

async function load(f: Fixture): Promise<string> {
  try {
    await readGltf('t.glb', toGlb(f.json, f.bin));
  } catch (e) {
    expect(e).toBeInstanceOf(LoadError);
    return (e as LoadError).message;
  }
  return 'loaded';
}

describe('glTF reader: values the check scanned and values it did not', () => {
  it('loads the sound fixture', async () => {
    expect(await load(fixture())).toBe('loaded');
  });

  it('still refuses a CUBICSPLINE channel whose resampled keys overflow float32 (new numbers the check never saw)', async () => {
    const f = fixture();
    const big = 3.4e38;
    // Two keys of (in-tangent, value, out-tangent): finite in the file, but the spline between them rises above
    // the largest float32, so its linear keys hold Infinity.
    const out = addFloats(f, [0, 0, 0, big, 0, 0, big, 0, 0, big, 0, 0, big, 0, 0, 0, 0, 0], 'VEC3');
    f.json.animations[0].samplers.push({ input: 6, output: out, interpolation: 'CUBICSPLINE' });
    f.json.animations[0].channels.push({ sampler: 2, target: { node: 1, path: 'translation' } });
    expect(await load(f)).toMatch(/^t\.glb: clip 'bend': node 'tip': translation key \d+ has a NaN or infinite value$/);
  });
});
