import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { INSTANCE_FLOATS, type CrowdInstances } from '../../src/gpu/crowd-instances.ts';
import { CrowdInstanceData, type CrowdInstanceFrame } from '../../src/render/crowd-instance-data.ts';
import { distanceForError, ERROR_PIXELS, levelForDistance2, lodDistances, projectedErrorPx, sortByLevel } from '../../src/render/crowd-lod.ts';
import { lighterLevels } from '../../src/app/crowd-lod-loader.ts';

describe('crowd LOD: projected error', () => {
  it('projects e model units at distance d on a viewport of H px to e·H / (2·tan(fov/2)·d) px', () => {
    const k = 600 / (2 * Math.tan((20 * Math.PI) / 180));
    expect(projectedErrorPx(0.01, 40, 600, 2)).toBeCloseTo((0.01 * k) / 2, 6);
    // Twice as far, half the pixels; half the viewport, half the pixels.
    expect(projectedErrorPx(0.01, 40, 600, 4)).toBeCloseTo(projectedErrorPx(0.01, 40, 600, 2) / 2, 6);
    expect(projectedErrorPx(0.01, 40, 300, 2)).toBeCloseTo(projectedErrorPx(0.01, 40, 600, 2) / 2, 6);
    // The distance where an error falls to 1 px is where projectedErrorPx gives 1.
    const d = distanceForError(0.01, 40, 600);
    expect(d).toBeCloseTo(0.01 * k, 6);
    expect(projectedErrorPx(0.01, 40, 600, d)).toBeCloseTo(ERROR_PIXELS, 6);
  });

  it('switches each level where its error projects to 1 px, never nearer than a heavier level', () => {
    const out = new Float32Array(3);
    lodDistances([0, 0.01, 0.05, 0.2], 4, 40, 600, out);
    expect(out[0]).toBeCloseTo(distanceForError(0.01, 40, 600), 4);
    expect(out[1]).toBeCloseTo(distanceForError(0.05, 40, 600), 4);
    expect(out[2]).toBeCloseTo(distanceForError(0.2, 40, 600), 4);
    // A lighter level with a smaller error waits for the heavier one.
    lodDistances([0, 0.05, 0.01], 3, 40, 600, out);
    expect(out[1]).toBeCloseTo(out[0]!, 6);
    // The lightest level under 1 px: just past a switch the level's error is under a pixel, just before it is over.
    lodDistances([0, 0.01, 0.05, 0.2], 4, 40, 600, out);
    const s2 = Array.from(out, (x) => x * x);
    for (let l = 1; l < 4; l++) {
      const err = [0, 0.01, 0.05, 0.2][l]!;
      expect(levelForDistance2((out[l - 1]! * 1.01) ** 2, s2, 4)).toBe(l);
      expect(projectedErrorPx(err, 40, 600, out[l - 1]! * 1.01)).toBeLessThan(1);
      expect(projectedErrorPx(err, 40, 600, out[l - 1]! * 0.99)).toBeGreaterThan(1);
      expect(levelForDistance2((out[l - 1]! * 0.99) ** 2, s2, 4)).toBe(l - 1);
    }
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
    expect(lighterLevels({ id: 'dawn', origin: 'builtin', detail: 'medium' })).toEqual({ authored: true, chosen: 1, levels: [{ detail: 'low', url: 'models/generated/dawn-low.m3d' }] });
    expect(lighterLevels({ id: 'dawn', origin: 'builtin', detail: '' }).levels.map((l) => l.detail)).toEqual(['low']);
    expect(lighterLevels({ id: 'dawn', origin: 'builtin', detail: 'low' }).levels).toEqual([]);
    expect(lighterLevels({ id: 'default', origin: 'builtin', detail: '' })).toEqual({ authored: false, chosen: 0, levels: [] });
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
      count: 9, spacing: 1, layout: 'grid', facing: 0, pivot: [0, 0], tint: true, wander: false, cull: true, viewProj: mat4.multiply(mat4.create(), proj, view),
      sphere: [0, 1, 0, 0.5], baked: true, clip: 0, duration: 1, all: false, shadowDir: [0, -1, 0], floorY: 0, members: null, memberCount: 0,
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

describe('crowd LOD: the shadow casters\' level', () => {
  it('is the lightest drawn level whose error is under one shadow-map texel', async () => {
    const { CrowdLodSet } = await import('../../src/render/crowd-lod-set.ts');
    const set = new CrowdLodSet({} as WebGL2RenderingContext, 4096);
    set.errors.set([0, 1, 3.2, 7.1, 17.8, 103]);
    set.drawn = 6;
    expect(set.casterLevel(0.5)).toBe(0);
    expect(set.casterLevel(1)).toBe(1);
    expect(set.casterLevel(20)).toBe(4);
    expect(set.casterLevel(1000)).toBe(5);
    // Only the levels drawn this frame: with LOD off (one level) the casters draw the chosen one.
    set.drawn = 3;
    expect(set.casterLevel(1000)).toBe(2);
    set.drawn = 1;
    expect(set.casterLevel(1000)).toBe(0);
  });
});
