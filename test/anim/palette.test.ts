import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { localToModel } from '../../src/anim/local-to-model.ts';
import { buildPalette, writeIdentityPalette } from '../../src/anim/palette.ts';
import { createClipCursor, sampleClip } from '../../src/anim/sample-clip.ts';
import { axisAngle, expectClose, makeClip, makeSkeleton, rng } from './fixtures.ts';

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

// Four nodes with non-trivial bind transforms (rotation, translation, non-uniform scale).
const skel = makeSkeleton(
  [-1, 0, 1, 0],
  [
    { t: [0, 1, 0], r: axisAngle([0, 1, 0], 35), s: [1.5, 1.5, 1.5] },
    { t: [1, 0.2, 0], r: axisAngle([1, 0, 0], -60) },
    { t: [0.5, 0, -1], r: axisAngle([0, 0.6, 0.8], 140), s: [1, 2, 0.5] },
    { t: [-2, 0, 0.3], r: axisAngle([0, 0, 1], 10) },
  ],
);
// Palette slots use a subset of the nodes, out of order.
const bones = Int16Array.from([3, 0, 2]);

function bindInverse(): Float32Array {
  const model = new Float32Array(4 * 16);
  localToModel(skel.parents, skel.restLocal, model);
  const invBind = new Float32Array(bones.length * 16);
  bones.forEach((node, k) => {
    const m = mat4.invert(mat4.create(), model.subarray(node * 16, node * 16 + 16));
    invBind.set(m as Float32Array, k * 16);
  });
  return invBind;
}

describe('buildPalette', () => {
  it('is the identity in the bind pose', () => {
    const invBind = bindInverse();
    const locals = new Float32Array(skel.restLocal.length);
    const noTracks = makeClip('rest', 1, []);
    sampleClip(noTracks, 0.5, createClipCursor(noTracks), skel.restLocal, locals);
    const model = new Float32Array(4 * 16);
    localToModel(skel.parents, locals, model);
    const palette = new Float32Array(bones.length * 16);
    buildPalette(model, bones, invBind, palette);
    for (let k = 0; k < bones.length; k++) expectClose(palette.subarray(k * 16, k * 16 + 16), IDENTITY, 1e-5);
  });

  it('equals model[bones[k]] · invBind[k] and writes only its slots at the offset', () => {
    const r = rng(11);
    const model = new Float32Array(4 * 16);
    const posed = skel.restLocal.slice();
    for (let i = 0; i < 4; i++) posed.set(axisAngle([0, 0, 1], r() * 360), i * 10 + 3);
    localToModel(skel.parents, posed, model);
    const invBind = bindInverse();
    const offset = 8;
    const out = new Float32Array(offset + bones.length * 16 + 8).fill(5);
    buildPalette(model, bones, invBind, out, offset);
    bones.forEach((node, k) => {
      const ref = mat4.multiply(
        mat4.create(),
        model.subarray(node * 16, node * 16 + 16),
        invBind.subarray(k * 16, k * 16 + 16),
      );
      expectClose(out.subarray(offset + k * 16, offset + k * 16 + 16), ref, 1e-5);
    });
    expect(Array.from(out.subarray(0, offset))).toEqual(new Array(offset).fill(5));
    expect(Array.from(out.subarray(offset + bones.length * 16))).toEqual(new Array(8).fill(5));
  });
});

describe('writeIdentityPalette', () => {
  it('writes slotCount identities at the offset and nothing else', () => {
    const out = new Float32Array(4 + 2 * 16 + 4).fill(3);
    writeIdentityPalette(out, 2, 4);
    expect(Array.from(out.subarray(4, 20))).toEqual(IDENTITY);
    expect(Array.from(out.subarray(20, 36))).toEqual(IDENTITY);
    expect(Array.from(out.subarray(0, 4))).toEqual([3, 3, 3, 3]);
    expect(Array.from(out.subarray(36))).toEqual([3, 3, 3, 3]);
  });
});
