import { describe, expect, it } from 'vitest';
import { AnimPlayer } from '../../src/anim/player.ts';
import { PosedBounds } from '../../src/anim/posed-bounds.ts';
import type { Scene } from '../../src/model/types.ts';
import { armSkeleton, axisAngle, channel, expectClose, makeClip, makeMesh, track } from './fixtures.ts';

const translateX = (x: number): Float32Array => new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, 0, 1]);

describe('PosedBounds', () => {
  it('unions every mesh skinned in the current pose', () => {
    const skeleton = armSkeleton();
    // Mesh 0: a point at the wrist (bind x = 2), on the wrist bone. Mesh 1: a point at the shoulder.
    const hand = makeMesh([{ p: [2, 0, 0], influences: [[0, 1]] }], [2], translateX(-2));
    const body = makeMesh([{ p: [0, 0, 0], influences: [[0, 1]] }], [0], translateX(0));
    const bend = makeClip('bend', 1, [track(1, { rotation: channel([0], [...axisAngle([0, 0, 1], 90)]) })]);
    const scene: Scene = {
      name: 'arm', format: 'm3d', floatBits: 0, skeleton, meshes: [hand, body], clips: [bend],
      materials: [], morphTargets: [], warnings: [],
    };
    const player = new AnimPlayer(skeleton, scene.clips);
    const bounds = new PosedBounds(scene);
    const min = [0, 0, 0];
    const max = [0, 0, 0];
    player.setTime(0);
    player.evaluate();
    bounds.measure(player, min, max);
    // Elbow bent 90° about +Z: the wrist point goes from (2, 0, 0) to (1, 1, 0).
    expectClose(min, [0, 0, 0], 1e-5);
    expectClose(max, [1, 1, 0], 1e-5);
  });

  it('reports an empty box for a scene without vertices', () => {
    const skeleton = armSkeleton();
    const scene: Scene = {
      name: 'empty', format: 'm3d', floatBits: 0, skeleton, meshes: [makeMesh([], [0], translateX(0))], clips: [],
      materials: [], morphTargets: [], warnings: [],
    };
    const min = [0, 0, 0];
    const max = [0, 0, 0];
    new PosedBounds(scene).measure(new AnimPlayer(skeleton, []), min, max);
    expect(min[0]).toBe(Infinity);
    expect(max[0]).toBe(-Infinity);
  });
});
