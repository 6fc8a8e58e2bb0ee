import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { localToModel } from '../../src/anim/local-to-model.ts';
import { buildPalette, writeIdentityPalette } from '../../src/anim/palette.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import { TRS_STRIDE } from '../../src/model/types.ts';
import { armSkeleton, axisAngle, expectClose, makeMesh } from './fixtures.ts';

function identityInvBind(slots: number): Float32Array {
  const out = new Float32Array(slots * 16);
  writeIdentityPalette(out, slots);
  return out;
}

describe('skinMesh', () => {
  const mesh = makeMesh(
    [
      { p: [1, 2, 3], n: [0, 0, 1], influences: [[0, 1]] },
      { p: [-1, 0.5, 0], n: [0.6, 0.8, 0], influences: [[1, 0.7], [0, 0.3]] },
      { p: [4, -4, 2], n: [1, 0, 0], influences: [[1, 0.4], [0, 0.3], [2, 0.2], [3, 0.1]] },
    ],
    [0, 1, 2, 3],
    identityInvBind(4),
  );

  it('returns the input under an identity palette', () => {
    const palette = new Float32Array(4 * 16);
    writeIdentityPalette(palette, 4);
    const pos = new Float32Array(9).fill(Number.NaN);
    const nrm = new Float32Array(9).fill(Number.NaN);
    skinMesh(mesh, palette, pos, nrm);
    expectClose(pos, mesh.positions);
    expectClose(nrm, mesh.normals);
  });

  it('translates every vertex by a single translated bone and leaves normals alone', () => {
    const palette = new Float32Array(4 * 16);
    for (let k = 0; k < 4; k++) palette.set(mat4.fromTranslation(mat4.create(), [1, -2, 0.5]) as Float32Array, k * 16);
    const pos = new Float32Array(9);
    const nrm = new Float32Array(9);
    skinMesh(mesh, palette, pos, nrm);
    expectClose(pos, [2, 0, 3.5, 0, -1.5, 0.5, 5, -6, 2.5], 1e-6);
    expectClose(nrm, mesh.normals);
    // Skipping normals, writing over the mesh's own positions.
    const own = makeMesh([{ p: [1, 1, 1], influences: [[2, 1]] }], [0, 1, 2, 3], identityInvBind(4));
    skinMesh(own, palette, own.positions, null);
    expectClose(own.positions, [2, -1, 1.5]);
  });

  it('renormalises the first `influences` weights and keeps normals unit length', () => {
    const palette = new Float32Array(4 * 16);
    writeIdentityPalette(palette, 4);
    palette.set(mat4.fromTranslation(mat4.create(), [4, 0, 0]) as Float32Array, 0);
    palette.set(mat4.fromScaling(mat4.create(), [2, 2, 2]) as Float32Array, 16);
    const v = makeMesh([{ p: [1, 1, 0], n: [0, 1, 0], influences: [[0, 0.75], [1, 0.25]] }], [0, 1], identityInvBind(2));
    const pos = new Float32Array(3);
    const nrm = new Float32Array(3);
    skinMesh(v, palette, pos, nrm, 4);
    // 0.75 · (5, 1, 0) + 0.25 · (2, 2, 0)
    expectClose(pos, [4.25, 1.25, 0], 1e-6);
    expectClose(nrm, [0, 1, 0], 1e-6);
    skinMesh(v, palette, pos, nrm, 1);
    expectClose(pos, [5, 1, 0], 1e-6);
    const scaled = makeMesh([{ p: [0, 0, 0], n: [0.6, 0, 0.8], influences: [[1, 1]] }], [0, 1], identityInvBind(2));
    skinMesh(scaled, palette, pos, nrm);
    expect(Math.hypot(nrm[0], nrm[1], nrm[2])).toBeCloseTo(1, 6);
    expectClose(nrm, [0.6, 0, 0.8], 1e-6);
  });

  it('arm: bending the elbow 90 degrees moves forearm vertices and not upper-arm ones', () => {
    const skel = armSkeleton();
    const bind = new Float32Array(3 * 16);
    localToModel(skel.parents, skel.restLocal, bind);
    const invBind = new Float32Array(3 * 16);
    for (let k = 0; k < 3; k++) {
      invBind.set(mat4.invert(mat4.create(), bind.subarray(k * 16, k * 16 + 16)) as Float32Array, k * 16);
    }
    const arm = makeMesh(
      [
        { p: [0.5, 0.1, 0], n: [0, 1, 0], influences: [[0, 1]] },
        { p: [1.5, 0.1, 0], n: [0, 1, 0], influences: [[1, 1]] },
        { p: [1.5, 0, 0], n: [0, 1, 0], influences: [[0, 0.5], [1, 0.5]] },
        { p: [2.2, 0, 0], n: [1, 0, 0], influences: [[2, 1]] },
      ],
      [0, 1, 2],
      invBind,
    );
    const locals = skel.restLocal.slice();
    locals.set(axisAngle([0, 0, 1], 90), 1 * TRS_STRIDE + 3);
    const model = new Float32Array(3 * 16);
    localToModel(skel.parents, locals, model);
    const palette = new Float32Array(3 * 16);
    buildPalette(model, arm.bones, arm.invBind, palette);
    const pos = new Float32Array(12);
    const nrm = new Float32Array(12);
    skinMesh(arm, palette, pos, nrm);
    // Upper arm: unchanged.
    expectClose(pos.subarray(0, 3), [0.5, 0.1, 0], 1e-6);
    expectClose(nrm.subarray(0, 3), [0, 1, 0], 1e-6);
    // Forearm: (0.5, 0.1) from the elbow turns to (-0.1, 0.5).
    expectClose(pos.subarray(3, 6), [0.9, 0.5, 0], 1e-6);
    expectClose(nrm.subarray(3, 6), [-1, 0, 0], 1e-6);
    // Half and half: the midpoint of (1.5, 0, 0) and (1, 0.5, 0).
    expectClose(pos.subarray(6, 9), [1.25, 0.25, 0], 1e-6);
    // Hand rides on the wrist, now at (1, 1, 0) pointing +Y.
    expectClose(pos.subarray(9, 12), [1, 1.2, 0], 1e-6);
    expectClose(nrm.subarray(9, 12), [0, 1, 0], 1e-6);
  });
});
