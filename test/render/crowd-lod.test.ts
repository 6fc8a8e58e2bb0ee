import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { INSTANCE_FLOATS, type CrowdInstances } from '../../src/gpu/crowd-instances.ts';
import { CrowdInstanceData, type CrowdInstanceFrame } from '../../src/render/crowd-instance-data.ts';
import { distanceForPixels, levelForDistance2, LOD_PIXELS, lodDistances, sortByLevel } from '../../src/render/crowd-lod.ts';
import { lighterLevels } from '../../src/app/crowd-lod-loader.ts';

describe('crowd LOD: switch distances', () => {
  it('puts a figure of height h at p px on a viewport of H px at h·H / (2·tan(fov/2)·p)', () => {
    // 40° (the orbit camera's), 600 px: 150 px at 5.49 heights, 60 px at 13.7.
    expect(distanceForPixels(1, 40, 600, 150)).toBeCloseTo(600 / (2 * Math.tan((20 * Math.PI) / 180) * 150), 6);
    expect(distanceForPixels(1, 40, 600, 150)).toBeCloseTo(5.495, 3);
    expect(distanceForPixels(1, 40, 600, 60)).toBeCloseTo(13.74, 2);
    // Twice the figure, twice the distance; half the viewport, half the distance.
    expect(distanceForPixels(2, 40, 600, 60)).toBeCloseTo(2 * distanceForPixels(1, 40, 600, 60), 6);
    expect(distanceForPixels(1, 40, 300, 60)).toBeCloseTo(distanceForPixels(1, 40, 600, 60) / 2, 6);
  });

  it('gives the chosen level and the lighter ones their switches, increasing', () => {
    const out = new Float32Array(2);
    // Chosen high (index 2 of low, medium, high): high → medium under 150 px, medium → low under 60 px.
    expect(lodDistances(2, 1.7, 40, 600, out)).toBe(3);
    expect(out[0]).toBeCloseTo(distanceForPixels(1.7, 40, 600, LOD_PIXELS[1]), 4);
    expect(out[1]).toBeCloseTo(distanceForPixels(1.7, 40, 600, LOD_PIXELS[0]), 4);
    expect(out[0]!).toBeLessThan(out[1]!);
    // Chosen medium: one switch, to low under 60 px.
    expect(lodDistances(1, 1.7, 40, 600, out)).toBe(2);
    expect(out[0]).toBeCloseTo(distanceForPixels(1.7, 40, 600, 60), 4);
    // Chosen low: no LOD.
    expect(lodDistances(0, 1.7, 40, 600, out)).toBe(1);
  });

  it('picks the level by squared distance', () => {
    const s2 = [25, 100];
    expect(levelForDistance2(0, s2, 3)).toBe(0);
    expect(levelForDistance2(24.9, s2, 3)).toBe(0);
    expect(levelForDistance2(25, s2, 3)).toBe(1);
    expect(levelForDistance2(99, s2, 3)).toBe(1);
    expect(levelForDistance2(100, s2, 3)).toBe(2);
    expect(levelForDistance2(1e9, s2, 3)).toBe(2);
    expect(levelForDistance2(1e9, s2, 2)).toBe(1);
    expect(levelForDistance2(1e9, s2, 1)).toBe(0);
  });

  it('loads the lighter built-in levels, nearest first', () => {
    expect(lighterLevels({ id: 'dawn', origin: 'builtin', detail: 'high' }).levels.map((l) => l.detail)).toEqual(['medium', 'low']);
    expect(lighterLevels({ id: 'dawn', origin: 'builtin', detail: 'medium' })).toEqual({ chosen: 1, levels: [{ detail: 'low', url: 'models/generated/dawn-low.m3d' }] });
    expect(lighterLevels({ id: 'dawn', origin: 'builtin', detail: '' }).levels.map((l) => l.detail)).toEqual(['low']);
    expect(lighterLevels({ id: 'dawn', origin: 'builtin', detail: 'low' }).levels).toEqual([]);
    expect(lighterLevels({ id: 'default', origin: 'builtin', detail: '' }).levels).toEqual([]);
  });
});

describe('crowd LOD: compaction by level', () => {
  it('sorts the live instances stably into one range per level and leaves the culled alone', () => {
    const order = Int32Array.of(4, 0, 7, 2, 5, 1, 3, 6);
    const levelOf = Uint8Array.of(2, 0, 1, 0, 0, 2, 1, 1);
    const starts = new Int32Array(4);
    const scratch = new Int32Array(8);
    sortByLevel(order, 6, levelOf, 3, starts, scratch);
    // Live 4, 0, 7, 2, 5, 1 at levels 0, 2, 1, 1, 2, 0 → level 0: 4, 1; level 1: 7, 2; level 2: 0, 5. The culled 3, 6 stay behind.
    expect([...order]).toEqual([4, 1, 7, 2, 0, 5, 3, 6]);
    expect([...starts]).toEqual([0, 2, 4, 6]);
  });

  it('gives empty ranges to levels no instance uses', () => {
    const order = Int32Array.of(0, 1, 2);
    const starts = new Int32Array(4);
    sortByLevel(order, 3, Uint8Array.of(2, 2, 0), 3, starts, new Int32Array(3));
    expect([...order]).toEqual([2, 0, 1]);
    expect([...starts]).toEqual([0, 1, 1, 3]);
  });

  it('fills the instance buffer level by level, the far instances behind the near ones', () => {
    // 9 instances on the grid (spacing 1), camera at (0, 1, 6) looking at the crowd; one switch at 6.5.
    const data = new CrowdInstanceData();
    let uploaded: [number, number] = [0, 0];
    const instances = {
      data: new Float32Array(0),
      reserve(n: number): boolean {
        if (instances.data.length < n * INSTANCE_FLOATS) instances.data = new Float32Array(n * INSTANCE_FLOATS);
        return true;
      },
      upload(from: number, to: number) {
        uploaded = [from, to];
      },
      lastUploadBytes: 0,
    } as unknown as CrowdInstances;
    const eye = [0, 1, 6];
    const proj = mat4.perspective(mat4.create(), Math.PI / 2, 1, 0.1, 100);
    const view = mat4.lookAt(mat4.create(), eye as [number, number, number], [0, 1, 0], [0, 1, 0]);
    const f: CrowdInstanceFrame = {
      count: 9, spacing: 1, wander: false, cull: true, viewProj: mat4.multiply(mat4.create(), proj, view),
      sphere: [0, 1, 0, 0.5], baked: true, clip: 0, duration: 1, all: false,
      lodLevels: 2, lodSwitches2: [6.5 * 6.5], eye,
    };
    data.update(instances, f);
    expect(data.levels).toBe(2);
    expect(data.levelStarts[0]).toBe(0);
    expect(data.levelStarts[2]).toBe(data.live);
    const near = data.levelStarts[1]!;
    expect(near).toBeGreaterThan(0);
    expect(near).toBeLessThan(data.live);
    for (let j = 0; j < data.live; j++) {
      const o = j * INSTANCE_FLOATS;
      const d = Math.hypot(instances.data[o]! - eye[0]!, 0, instances.data[o + 1]! - eye[2]!);
      if (j < near) expect(d).toBeLessThan(6.5);
      else expect(d).toBeGreaterThanOrEqual(6.5);
    }
    expect(uploaded[1]).toBeGreaterThan(0);
    // Without LOD: one range of every live instance.
    f.lodLevels = 1;
    data.update(instances, f);
    expect(data.levels).toBe(1);
    expect([data.levelStarts[0], data.levelStarts[1]]).toEqual([0, data.live]);
  });
});
