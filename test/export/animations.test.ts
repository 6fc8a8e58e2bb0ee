import { describe, expect, it } from 'vitest';
import { strictTimes } from '../../src/export/animations.ts';
import { exportGltf } from '../../src/export/export-gltf.ts';
import { matrixAsTrs } from '../../src/export/trs.ts';
import { generateTwist } from '../../src/gen/twist.ts';
import type { Clip, Scene } from '../../src/model/types.ts';

/** The numeric rules of the animation export on hand-built keys: strictly increasing times, one hemisphere, full duration. */

function glbJson(glb: Uint8Array): any {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

function accessorFloats(glb: Uint8Array, json: any, index: number): Float32Array {
  const jsonLength = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  const bin = 20 + jsonLength + 8;
  const acc = json.accessors[index];
  const view = json.bufferViews[acc.bufferView];
  const size = { SCALAR: 1, VEC3: 3, VEC4: 4 }[acc.type as string]!;
  const start = glb.byteOffset + bin + (view.byteOffset ?? 0) + (acc.byteOffset ?? 0);
  return new Float32Array(glb.buffer.slice(start, start + acc.count * size * 4));
}

describe('animation export', () => {
  it('strictTimes moves a repeated key one float32 step later and leaves increasing keys alone', () => {
    const out = strictTimes(Float32Array.of(0, 0, 0.5, 0.5, 0.5, 1));
    for (let i = 1; i < out.length; i++) expect(out[i]!).toBeGreaterThan(out[i - 1]!);
    expect(out[1]! - out[0]!).toBeLessThan(1e-40);
    expect(out[3]! - 0.5).toBeLessThan(1e-7);
    expect(Array.from(strictTimes(Float32Array.of(0, 0.25, 1)))).toEqual([0, 0.25, 1]);
  });

  it('keys in opposite hemispheres are flipped to follow the short arc; a clip longer than its keys keeps its duration', async () => {
    const twist = generateTwist();
    const q = Math.SQRT1_2;
    const clip: Clip = {
      name: 'flip',
      duration: 3,
      ticksPerSecond: 0,
      tracks: [{ node: 1, translation: null, scale: null, rotation: { times: Float32Array.of(0, 1, 1, 2), values: Float32Array.of(0, 0, 0, 1, 0, 0, -q, -q, 0, 0, q, q, 0, 0, -1, 0) } }],
    };
    const scene: Scene = { ...twist, clips: [clip] };
    const { files } = await exportGltf(scene, { binary: true, textures: async () => null });
    const glb = [...files.values()][0]!;
    const json = glbJson(glb);
    const sampler = json.animations[0].samplers[json.animations[0].channels[0].sampler];
    const times = accessorFloats(glb, json, sampler.input);
    const rot = accessorFloats(glb, json, sampler.output);
    expect(times.length).toBe(5);
    expect(times[4]).toBe(3);
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
    for (let k = 1; k < 5; k++) {
      let dot = 0;
      for (let c = 0; c < 4; c++) dot += rot[k * 4 + c]! * rot[(k - 1) * 4 + c]!;
      expect(dot).toBeGreaterThanOrEqual(0);
    }
    expect(json.accessors[sampler.input].max[0]).toBe(3);
  });

  it('matrixAsTrs: a mirrored matrix is a TRS with a negative scale, a sheared one is not', () => {
    const mirrored = matrixAsTrs([-2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1]);
    expect(mirrored?.s[0]).toBeCloseTo(-2, 6);
    expect(mirrored?.t).toEqual([1, 2, 3]);
    expect(matrixAsTrs([1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])).toBeNull();
  });
});
