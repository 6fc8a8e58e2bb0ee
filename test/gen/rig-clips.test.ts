import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { bakeLoop, periodicCurve, solveTwoBone } from '../../src/gen/clips.ts';
import { buildRig, Pose, qAxisAngle, qBend, qFrame, qRotate } from '../../src/gen/rig.ts';
import { buildAdjacency } from '../../src/gen/surface.ts';
import { computeSkinWeights } from '../../src/gen/weights.ts';

const leg = () =>
  buildRig([
    { name: 'root', parent: null, head: [0, 1, 0] },
    { name: 'thigh', parent: 'root', head: [0.1, 0.9, 0] },
    { name: 'calf', parent: 'thigh', head: [0.1, 0.5, 0.01] },
    { name: 'foot', parent: 'calf', head: [0.1, 0.1, 0], tail: [0.1, 0, 0.15] },
  ]);

describe('rig', () => {
  it('builds parents-before-children skeletons with translation-only binds', () => {
    const rig = leg();
    expect(Array.from(rig.skeleton.parents)).toEqual([-1, 0, 1, 2]);
    expect(Array.from(rig.skeleton.restLocal.subarray(10, 20))).toEqual([
      expect.closeTo(0.1), expect.closeTo(-0.1), 0, 0, 0, 0, 1, 1, 1, 1,
    ]);
    for (let i = 0; i < rig.count; i++) {
      const m = mat4.multiply(mat4.create(), rig.invBind.subarray(i * 16, i * 16 + 16) as unknown as mat4, rig.bindModel.subarray(i * 16, i * 16 + 16) as unknown as mat4);
      expect(mat4.equals(m, mat4.create())).toBe(true);
    }
    expect(() => buildRig([{ name: 'a', parent: 'b', head: [0, 0, 0] }, { name: 'b', parent: null, head: [0, 0, 0] }])).toThrow(/before/);
  });

  it('bends and frames in the stated direction', () => {
    const down = [0, -1, 0];
    const bent = qRotate(qBend(down, [0, 0, 1], Math.PI / 2), down);
    expect(bent[2]).toBeCloseTo(1, 9);
    // Positive rotation about +X swings a hanging limb back (−Z): the knee-flexion convention.
    expect(qRotate(qAxisAngle([1, 0, 0], 0.3), down)[2]).toBeLessThan(0);
    const q = qFrame([1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]);
    const x = qRotate(q, [1, 0, 0]);
    const y = qRotate(q, [0, 1, 0]);
    expect(x[2]).toBeCloseTo(1, 9);
    expect(y[0]).toBeCloseTo(1, 9);
  });

  it('solves two-bone IK onto the target with the knee toward the pole', () => {
    const pose = new Pose(leg());
    pose.translate('root', [0, -0.08, 0.02]);
    solveTwoBone(pose, 'thigh', 'calf', 'foot', [0.1, 0.1, 0], [0, 0, 1]);
    const foot = pose.bone('foot');
    const calf = pose.bone('calf');
    expect(pose.worldPos[foot * 3]).toBeCloseTo(0.1, 6);
    expect(pose.worldPos[foot * 3 + 1]).toBeCloseTo(0.1, 6);
    expect(pose.worldPos[foot * 3 + 2]).toBeCloseTo(0, 6);
    expect(pose.worldPos[calf * 3 + 2]).toBeGreaterThan(0.02);
  });
});

describe('clip builder', () => {
  it('interpolates periodic keys through every key and wraps', () => {
    const f = periodicCurve([[0, 1], [0.3, 5], [0.7, -2]]);
    expect(f(0)).toBeCloseTo(1, 9);
    expect(f(0.3)).toBeCloseTo(5, 9);
    expect(f(0.7)).toBeCloseTo(-2, 9);
    expect(f(1)).toBeCloseTo(1, 9);
    expect(f(1.3)).toBeCloseTo(5, 9);
    expect(f(0.999)).toBeCloseTo(f(-0.001), 9);
  });

  it('bakes looping tracks at the key rate, only for nodes that move', () => {
    const pose = new Pose(leg());
    const clip = bakeLoop(pose, {
      name: 'kick', duration: 1, fps: 30,
      pose: (t, p) => {
        p.setRot('calf', qAxisAngle([1, 0, 0], 0.5 + 0.5 * Math.sin(2 * Math.PI * t)));
        p.translate('root', [0, 0.01 * Math.cos(2 * Math.PI * t), 0]);
      },
    });
    expect(clip.tracks.map((t) => t.node)).toEqual([0, 2]);
    const calf = clip.tracks[1]!.rotation!;
    expect(calf.times.length).toBe(31);
    expect(calf.times[30]).toBe(1);
    expect(Array.from(calf.values.subarray(0, 4))).toEqual(Array.from(calf.values.subarray(120, 124)));
    expect(clip.tracks[0]!.rotation).toBeNull();
    expect(clip.tracks[0]!.translation).not.toBeNull();
    expect(clip.tracks[1]!.translation).toBeNull();
  });
});

describe('skin weights', () => {
  it('split a bar smoothly at its joint, sum to 1 and sort descending', () => {
    const rig = buildRig([
      { name: 'a', parent: null, head: [0, 0, 0] },
      { name: 'b', parent: 'a', head: [0.5, 0, 0], tail: [1, 0, 0] },
    ]);
    // A strip of vertices along x with a chain adjacency.
    const n = 101;
    const positions = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) positions[i * 3] = i / (n - 1);
    const tris: number[] = [];
    for (let i = 0; i + 2 < n; i++) tris.push(i, i + 1, i + 2);
    const owner = Int32Array.from({ length: n }, (_, i) => (i < 50 ? 0 : 1));
    const w = computeSkinWeights(positions, buildAdjacency(new Uint32Array(tris), n), owner, rig, {
      blends: [{ width: 0, reach: 1 }, { width: 0.1, reach: 1 }],
      smoothIterations: 4,
      smoothRate: 0.5,
      minWeight: 0.01,
    });
    const shareB = (i: number): number => (w.joints[i * 4] === 1 ? w.weights[i * 4]! : w.weights[i * 4 + 1]!);
    expect(shareB(0)).toBe(0);
    expect(shareB(100)).toBe(1);
    expect(shareB(50)).toBeCloseTo(0.5, 1);
    for (let i = 1; i < n; i++) expect(shareB(i)).toBeGreaterThanOrEqual(shareB(i - 1) - 1e-6);
    for (let i = 0; i < n; i++) {
      const s = w.weights[i * 4]! + w.weights[i * 4 + 1]! + w.weights[i * 4 + 2]! + w.weights[i * 4 + 3]!;
      expect(s).toBeCloseTo(1, 6);
      expect(w.weights[i * 4]).toBeGreaterThanOrEqual(w.weights[i * 4 + 1]!);
    }
    expect(w.maxInfluences).toBe(2);
  });
});
