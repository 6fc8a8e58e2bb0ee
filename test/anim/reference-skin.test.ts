import { readFileSync } from 'node:fs';
import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { AnimPlayer } from '../../src/anim/player.ts';
import { referenceSkinPositions } from '../../src/anim/reference-skin.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import { MAX_INFLUENCES } from '../../src/model/types.ts';
import { expectClose, makeMesh } from './fixtures.ts';

/**
 * Two bones along +X: node 0 (shoulder) at (0, 0, 2), node 1 (elbow) one unit further, bent 90° about +Z.
 * Model matrices are written by hand, so the numbers below follow from the picture alone:
 *   slot 0: p ↦ p + (0, 0, 2)
 *   slot 1: p ↦ elbow + Rz(90°)(p − (1, 0, 0)), elbow = (1, 0, 2), Rz(90°)(x, y) = (−y, x)
 */
function twoBones(): { model: Float32Array; invBind: Float32Array } {
  const model = new Float32Array(32);
  model.set(mat4.fromTranslation(mat4.create(), [0, 0, 2]) as Float32Array, 0);
  const elbow = mat4.fromTranslation(mat4.create(), [1, 0, 2]);
  mat4.rotateZ(elbow, elbow, Math.PI / 2);
  model.set(elbow as Float32Array, 16);
  const invBind = new Float32Array(32);
  invBind.set(mat4.create() as Float32Array, 0);
  invBind.set(mat4.fromTranslation(mat4.create(), [-1, 0, 0]) as Float32Array, 16);
  return { model, invBind };
}

describe('referenceSkinPositions', () => {
  const { model, invBind } = twoBones();
  const mesh = makeMesh(
    [
      { p: [0.5, 0.1, 0], influences: [[0, 1]] },
      { p: [1.5, 0.1, 0], influences: [[1, 1]] },
      { p: [1.5, 0, 0], influences: [[1, 0.75], [0, 0.25]] },
      // Three influences (the third on slot 0 again): truncation to 2 renormalises 0.5 / 0.3.
      { p: [2, 0, 0], influences: [[1, 0.5], [0, 0.3], [0, 0.2]] },
      // No positive weight: follows joints[0] (slot 1) with weight 1.
      { p: [2, 1, 0], influences: [[1, 0]] },
    ],
    [0, 1],
    invBind,
  );

  it('skins a hand-built 2-bone mesh to hand-computed positions', () => {
    expectClose(referenceSkinPositions(mesh, model, 4), [
      0.5, 0.1, 2, // slot 0 only
      0.9, 0.5, 2, // (0.5, 0.1) from the elbow turns to (−0.1, 0.5)
      1.125, 0.375, 2, // 0.75 · (1, 0.5) + 0.25 · (1.5, 0)
      1.5, 0.5, 2, // 0.5 · (1, 1) + 0.3 · (2, 0) + 0.2 · (2, 0)
      0, 1, 2, // (1, 1) from the elbow turns to (−1, 1)
    ], 1e-6);
  });

  it('keeps the first `influences` weights, renormalised (rigid at 1)', () => {
    const two = referenceSkinPositions(mesh, model, 2);
    // 0.625 · (1, 1) + 0.375 · (2, 0)
    expectClose(two.subarray(9, 12), [1.375, 0.625, 2], 1e-6);
    expectClose(two.subarray(6, 9), [1.125, 0.375, 2], 1e-6);
    const one = referenceSkinPositions(mesh, model, 1);
    expectClose(one.subarray(6, 9), [1, 0.5, 2], 1e-6);
    expectClose(one.subarray(9, 12), [1, 1, 2], 1e-6);
    // Out-of-range counts clamp to 1..4.
    expectClose(referenceSkinPositions(mesh, model, 0), one);
    expectClose(referenceSkinPositions(mesh, model, 9), referenceSkinPositions(mesh, model, 4));
  });

  it('agrees with skinMesh on tiny.x at several times and influence counts', () => {
    const scene = loadModel('tiny.x', new Uint8Array(readFileSync('public/models/tiny/tiny.x')));
    const player = new AnimPlayer(scene.skeleton, scene.clips);
    const mesh = scene.meshes[0]!;
    expect(mesh.vertexCount).toBeGreaterThan(4000);
    // tiny.x really blends: some vertices carry several weights, so truncation is exercised.
    let blended = 0;
    for (let v = 0; v < mesh.vertexCount; v++) if (mesh.weights[v * MAX_INFLUENCES + 1]! > 0) blended++;
    expect(blended).toBeGreaterThan(100);
    let bounds = 0;
    for (const x of mesh.positions) bounds = Math.max(bounds, Math.abs(x));
    const palette = new Float32Array(mesh.bones.length * 16);
    const cpu = new Float32Array(mesh.vertexCount * 3);
    let moved = 0;
    for (const t of [0.5, 1.5, 3]) {
      player.setTime(t);
      player.evaluate();
      player.writePalette(mesh, palette);
      for (const influences of [4, 3, 2, 1]) {
        skinMesh(mesh, palette, cpu, null, influences);
        const ref = referenceSkinPositions(mesh, player.model, influences);
        let err = 0;
        for (let i = 0; i < cpu.length; i++) {
          err = Math.max(err, Math.abs(cpu[i]! - ref[i]!));
          moved = Math.max(moved, Math.abs(ref[i]! - mesh.positions[i]!));
        }
        expect(err, `t=${t} influences=${influences}`).toBeLessThan(1e-5 * bounds);
      }
    }
    // The pose is not the bind pose: the agreement is about skinning, not about nothing moving.
    expect(moved).toBeGreaterThan(0.01 * bounds);
  });
});
