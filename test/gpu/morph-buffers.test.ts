import { describe, expect, it } from 'vitest';
import { denseMorphDeltas, MorphSlotBuffer, morphRegions, morphTexels } from '../../src/gpu/morph-buffers.ts';
import { morphQuad } from '../anim/morph-fixtures.ts';

describe('morph GPU layouts', () => {
  const mesh = morphQuad();

  it('gives a region only to targets that move the mesh', () => {
    const { regionOf, regions } = morphRegions(mesh, 3);
    expect(Array.from(regionOf)).toEqual([0, 1, -1]);
    expect(regions).toBe(2);
    expect(morphRegions({ ...mesh, morphs: undefined }, 3).regions).toBe(0);
  });

  it('dense slot deltas follow the technique vertex order, duplicated vertices included', () => {
    const { regionOf, regions } = morphRegions(mesh, 3);
    // A partitioned order: vertex 3 twice, then 1, 2, 0.
    const sourceVertex = Uint32Array.from([3, 1, 3, 2, 0]);
    const d = denseMorphDeltas(mesh, sourceVertex, regionOf, regions);
    expect(d.length).toBe(2 * 5 * 6);
    const at = (region: number, v: number): number[] => Array.from(d.subarray((region * 5 + v) * 6, (region * 5 + v) * 6 + 6));
    const f = (xs: number[]): number[] => xs.map((x) => Math.fround(x));
    expect(at(0, 0)).toEqual(f([0, 0.2, 1, 0, 0, 0]));
    expect(at(0, 2)).toEqual(f([0, 0.2, 1, 0, 0, 0]));
    expect(at(0, 1)).toEqual(f([0, 0, 0.5, 0, 0, 0]));
    expect(at(0, 3)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(at(1, 3)).toEqual(f([0.1, 0, 0, 1, 0, -1]));
    expect(at(1, 4)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('texture texels: 2 per vertex per region in mesh order, wrapped at the width', () => {
    const { regionOf, regions } = morphRegions(mesh, 3);
    const { data, height } = morphTexels(mesh, regionOf, regions, 4);
    // 2 regions × 4 vertices × 2 texels = 16 texels → 4 rows of 4.
    expect(height).toBe(4);
    const texel = (i: number): number[] => Array.from(data.subarray(i * 4, i * 4 + 4));
    // region 1 (target 1), vertex 2: texels (4 + 2) · 2 = 12 and 13
    expect(texel(12)).toEqual([Math.fround(0.1), 0, 0, 0]);
    expect(texel(13)).toEqual([1, 0, -1, 0]);
    // region 0, vertex 3: texel 6 holds dp
    expect(texel(6)).toEqual([0, Math.fround(0.2), 1, 0]);
  });

  it("the slot buffer is allocated whole and each region uploaded once, the first time a slot takes its target", () => {
    const { regionOf, regions } = morphRegions(mesh, 3);
    const sourceVertex = Uint32Array.from([3, 1, 3, 2, 0]);
    const calls: { kind: string; offset?: number; size?: number; data?: number[] }[] = [];
    const gl = {
      ARRAY_BUFFER: 0x8892,
      STATIC_DRAW: 0x88e4,
      createBuffer: () => ({}),
      bindBuffer: () => {},
      bufferData: (_t: number, size: number) => void calls.push({ kind: 'data', size }),
      bufferSubData: (_t: number, offset: number, data: Float32Array) => void calls.push({ kind: 'sub', offset, data: [...data] }),
    } as unknown as WebGL2RenderingContext;
    const buffer = new MorphSlotBuffer(gl, mesh, sourceVertex, regionOf, regions);
    // 2 regions × 5 vertices × 24 bytes, with no data yet.
    expect(calls).toEqual([{ kind: 'data', size: 2 * 5 * 24 }]);
    expect(buffer.bytes).toBe(240);
    const dense = denseMorphDeltas(mesh, sourceVertex, regionOf, regions);
    // Slots holding target 1, an empty slot and target 2 (which does not move this mesh): region 1 only.
    buffer.fillSlots([1, -1, 2, -1, -1]);
    expect(calls.slice(1)).toEqual([{ kind: 'sub', offset: buffer.offsetOf(1), data: [...dense.subarray(30, 60)] }]);
    // Again, and with target 0 as well: only region 0 is new.
    buffer.fillSlots([0, 1, -1, -1, -1]);
    expect(calls.slice(2)).toEqual([{ kind: 'sub', offset: 0, data: [...dense.subarray(0, 30)] }]);
    buffer.fillSlots([0, 1, -1, -1, -1]);
    expect(calls.length).toBe(3);
  });
});
