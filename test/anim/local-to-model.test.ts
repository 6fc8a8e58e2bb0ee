import { mat4, quat, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { composeTRS, localToModel } from '../../src/anim/local-to-model.ts';
import { TRS_STRIDE } from '../../src/model/types.ts';
import { armSkeleton, axisAngle, expectClose, makeSkeleton, rng, translationOf } from './fixtures.ts';

describe('composeTRS', () => {
  it('matches gl-matrix fromRotationTranslationScale (M = T · R · S)', () => {
    const skel = makeSkeleton([-1], [{ t: [1, -2, 3], r: axisAngle([0.6, 0, 0.8], 73), s: [2, 0.5, -1] }]);
    const out = new Float32Array(20).fill(9);
    composeTRS(skel.restLocal, 0, out, 4);
    const l = skel.restLocal;
    const ref = mat4.fromRotationTranslationScale(
      mat4.create(),
      quat.fromValues(l[3], l[4], l[5], l[6]),
      vec3.fromValues(l[0], l[1], l[2]),
      vec3.fromValues(l[7], l[8], l[9]),
    );
    expectClose(out.subarray(4, 20), ref, 1e-6);
    expect(Array.from(out.subarray(0, 4))).toEqual([9, 9, 9, 9]);
  });

  it('treats a non-unit quaternion as the rotation it points at', () => {
    const q = axisAngle([0, 1, 0], 40);
    const unit = makeSkeleton([-1], [{ r: q }]).restLocal;
    const scaled = makeSkeleton([-1], [{ r: [q[0] * 3, q[1] * 3, q[2] * 3, q[3] * 3] }]).restLocal;
    const mu = new Float32Array(16);
    const ms = new Float32Array(16);
    composeTRS(unit, 0, mu, 0);
    composeTRS(scaled, 0, ms, 0);
    expectClose(ms, mu, 1e-6);
  });
});

describe('localToModel', () => {
  it('matches model[i] = model[parent] · local[i] computed with gl-matrix on a branching skeleton', () => {
    const parents = [-1, 0, 1, 0, 3, -1, 5];
    const r = rng(3);
    const rest = parents.map(() => ({
      t: [r() * 4 - 2, r() * 4 - 2, r() * 4 - 2] as const,
      r: axisAngle([Math.SQRT1_2, 0, Math.SQRT1_2], r() * 360),
      s: [0.5 + r(), 0.5 + r(), 0.5 + r()] as const,
    }));
    const skel = makeSkeleton(parents, rest);
    const model = new Float32Array(parents.length * 16);
    localToModel(skel.parents, skel.restLocal, model);
    const refs: mat4[] = [];
    parents.forEach((p, i) => {
      const l = skel.restLocal.subarray(i * TRS_STRIDE);
      const local = mat4.fromRotationTranslationScale(
        mat4.create(),
        quat.fromValues(l[3], l[4], l[5], l[6]),
        vec3.fromValues(l[0], l[1], l[2]),
        vec3.fromValues(l[7], l[8], l[9]),
      );
      refs.push(p < 0 ? local : mat4.multiply(mat4.create(), refs[p], local));
      expectClose(model.subarray(i * 16, i * 16 + 16), refs[i], 1e-5);
    });
    expect(model.length).toBe(parents.length * 16);
  });

  it('arm: a 90 degree elbow turn about +Z puts the wrist at (1, 1, 0) and leaves the shoulder alone', () => {
    const skel = armSkeleton();
    const locals = skel.restLocal.slice();
    locals.set(axisAngle([0, 0, 1], 90), 1 * TRS_STRIDE + 3);
    const model = new Float32Array(3 * 16);
    localToModel(skel.parents, locals, model);
    expectClose(translationOf(model, 0), [0, 0, 0]);
    expectClose(model.subarray(0, 12), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
    expectClose(translationOf(model, 1), [1, 0, 0]);
    expectClose(translationOf(model, 2), [1, 1, 0], 1e-6);
    // The wrist's X axis now points along +Y.
    expectClose(model.subarray(32, 35), [0, 1, 0], 1e-6);
    // Rest pose: joints one unit apart along +X.
    localToModel(skel.parents, skel.restLocal, model);
    expectClose(translationOf(model, 2), [2, 0, 0]);
  });
});

describe('localToModel agrees with composeTRS · mulAffine', () => {
  it('on a random 3-level hierarchy with rotation, scale and translation', async () => {
    const { mulAffine } = await import('../../src/anim/affine.ts');
    const parents = Int16Array.from([-1, 0, 1, 1, 0]);
    const locals = new Float32Array(parents.length * 10);
    let seed = 9;
    const rnd = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    for (let i = 0; i < parents.length; i++) {
      const q = [rnd(), rnd(), rnd(), rnd()];
      const n = Math.hypot(...q);
      locals.set([rnd(), rnd(), rnd(), ...q.map((x) => x / n), 0.5 + Math.abs(rnd()), 0.5 + Math.abs(rnd()), 0.5 + Math.abs(rnd())], i * 10);
    }
    const fast = new Float32Array(parents.length * 16);
    localToModel(parents, locals, fast);
    const slow = new Float32Array(parents.length * 16);
    const local = new Float32Array(16);
    for (let i = 0; i < parents.length; i++) {
      composeTRS(locals, i, local, 0);
      if (parents[i]! < 0) slow.set(local, i * 16);
      else mulAffine(slow, parents[i]! * 16, local, 0, slow, i * 16);
    }
    for (let i = 0; i < fast.length; i++) expect(Math.abs(fast[i]! - slow[i]!)).toBeLessThan(1e-5);
  });
});
