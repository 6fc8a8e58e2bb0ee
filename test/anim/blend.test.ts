import { describe, expect, it } from 'vitest';
import { blendLocals } from '../../src/anim/blend.ts';
import { TRS_STRIDE } from '../../src/model/types.ts';
import { axisAngle, expectClose, expectSameRotation, makeSkeleton, nodeTRS } from './fixtures.ts';

const Z: [number, number, number] = [0, 0, 1];

// Two 2-node poses; node 1 of b has a rotation of opposite sign to a's, so the blend must flip it.
const a = makeSkeleton(
  [-1, 0],
  [
    { t: [0, 0, 0], r: axisAngle(Z, 0), s: [1, 1, 1] },
    { t: [1, 2, 3], r: axisAngle(Z, 20), s: [2, 2, 2] },
  ],
).restLocal;
const q100 = axisAngle(Z, 100);
const b = makeSkeleton(
  [-1, 0],
  [
    { t: [4, 0, -8], r: axisAngle(Z, 90), s: [3, 1, 1] },
    { t: [3, 2, 1], r: [-q100[0], -q100[1], -q100[2], -q100[3]], s: [4, 4, 4] },
  ],
).restLocal;

describe('blendLocals', () => {
  it('returns a at w = 0 and b at w = 1', () => {
    const out = new Float32Array(2 * TRS_STRIDE);
    blendLocals(a, b, 0, out, 2);
    for (let i = 0; i < 2; i++) {
      expectClose(nodeTRS(out, i).subarray(0, 3), nodeTRS(a, i).subarray(0, 3));
      expectSameRotation(nodeTRS(out, i).subarray(3, 7), nodeTRS(a, i).subarray(3, 7));
      expectClose(nodeTRS(out, i).subarray(7, 10), nodeTRS(a, i).subarray(7, 10));
    }
    blendLocals(a, b, 1, out, 2);
    for (let i = 0; i < 2; i++) {
      expectClose(nodeTRS(out, i).subarray(0, 3), nodeTRS(b, i).subarray(0, 3));
      expectSameRotation(nodeTRS(out, i).subarray(3, 7), nodeTRS(b, i).subarray(3, 7));
      expectClose(nodeTRS(out, i).subarray(7, 10), nodeTRS(b, i).subarray(7, 10));
    }
  });

  it('lerps t and s and slerps r the short way at w = 0.5', () => {
    const out = new Float32Array(2 * TRS_STRIDE);
    blendLocals(a, b, 0.5, out, 2);
    expectClose(nodeTRS(out, 0), [2, 0, -4, ...axisAngle(Z, 45), 2, 1, 1]);
    expectClose(nodeTRS(out, 1), [2, 2, 2, ...axisAngle(Z, 60), 3, 3, 3]);
  });

  it('writes unit rotations, only nodeCount nodes, and allows out to alias a or b', () => {
    const out = new Float32Array(2 * TRS_STRIDE).fill(-7);
    blendLocals(a, b, 0.3, out, 1);
    const r = nodeTRS(out, 0).subarray(3, 7);
    expect(Math.hypot(r[0], r[1], r[2], r[3])).toBeCloseTo(1, 6);
    expect(Array.from(nodeTRS(out, 1))).toEqual(new Array(TRS_STRIDE).fill(-7));

    const expected = new Float32Array(2 * TRS_STRIDE);
    blendLocals(a, b, 0.3, expected, 2);
    const aliasA = a.slice();
    blendLocals(aliasA, b, 0.3, aliasA, 2);
    expect(Array.from(aliasA)).toEqual(Array.from(expected));
    const aliasB = b.slice();
    blendLocals(a, aliasB, 0.3, aliasB, 2);
    expect(Array.from(aliasB)).toEqual(Array.from(expected));
  });
});
