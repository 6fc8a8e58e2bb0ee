import { describe, expect, it } from 'vitest';
import { denseMorphDeltas, morphRegions, morphTexels } from '../../src/gpu/morph-buffers.ts';
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
});
