import { describe, expect, it } from 'vitest';
import { AnimController } from '../../../src/anim/controller/controller.ts';
import { createClipCursor, sampleClip } from '../../../src/anim/sample-clip.ts';
import { axisAngle, channel, expectClose, expectSameRotation, makeClip, makeSkeleton, track } from '../fixtures.ts';

const Z: [number, number, number] = [0, 0, 1];
/** 0 root → 1 → 2, and 0 → 3. */
const skel = makeSkeleton([-1, 0, 1, 0], [{ t: [0, 0, 5] }, { t: [0, 1, 0] }, { t: [0, 1, 0] }, { t: [1, 0, 0] }]);
/** Every node at x = 1 (translation), root turned 0°. */
const allX = makeClip('allX', 1, [0, 1, 2, 3].map((n) => track(n, { translation: channel([0], [1, 0, 0]) })));
/** Every node at x = 3, rotated 90° about Z. */
const allY = makeClip(
  'allY',
  1,
  [0, 1, 2, 3].map((n) => track(n, { translation: channel([0], [3, 0, 0]), rotation: channel([0], [...axisAngle(Z, 90)]) })),
);
/** Animates node 1 only. */
const onlyOne = makeClip('onlyOne', 1, [track(1, { translation: channel([0], [7, 0, 0]) })]);

function x(c: AnimController, node: number): number {
  return c.locals[node * 10];
}

function controller(clips = [allX, allY, onlyOne]): AnimController {
  return new AnimController(skel, clips, { tracks: 4 });
}

function play(c: AnimController, t: number, clip: number, weight = 1): void {
  c.setTrackClip(t, clip);
  c.setTrackWeight(t, weight);
  c.setTrackPosition(t, 0);
  c.setTrackEnable(t, true);
}

describe('AnimController blending', () => {
  it('starts at the rest pose with every track disabled, at least 4 tracks', () => {
    const c = new AnimController(skel, [allX], { tracks: 2 });
    expect(c.trackCount).toBe(4);
    expect(new AnimController(skel, [allX]).trackCount).toBe(8);
    expect(Array.from(c.locals)).toEqual(Array.from(skel.restLocal));
    expect([c.trackEnabled(0), c.trackClip(0), c.trackWeight(0), c.trackMask(0), c.trackSync(0), c.trackPriority(0)]).toEqual([false, -1, 1, -1, -1, 'low']);
  });

  it('one full-weight track is exactly sampleClip (the fast path)', () => {
    const c = controller();
    play(c, 0, 1);
    c.setTrackPosition(0, 0.3);
    c.evaluate();
    const ref = new Float32Array(40);
    sampleClip(allY, 0.3, createClipCursor(allY), skel.restLocal, ref);
    expect(Array.from(c.locals)).toEqual(Array.from(ref));
  });

  it('two low tracks: normalised weighted average; W < 1 fills from the rest pose', () => {
    const c = controller();
    play(c, 0, 0, 0.25);
    play(c, 1, 1, 0.75);
    c.evaluate();
    expect(x(c, 3)).toBeCloseTo(0.25 * 1 + 0.75 * 3, 6);
    expectSameRotation(c.locals.subarray(33, 37), axisAngle(Z, 67.5));
    c.setTrackWeight(0, 0.2);
    c.setTrackWeight(1, 0.2);
    c.evaluate();
    // Average x = 2 at W = 0.4, then lerp from the rest (x = 1 for node 3) by 0.4.
    expect(x(c, 3)).toBeCloseTo(1 + (2 - 1) * 0.4, 6);
    expectSameRotation(c.locals.subarray(33, 37), axisAngle(Z, 18));
  });

  it('a clip that does not animate a frame leaves it to the other tracks; untouched nodes keep the rest', () => {
    const c = controller();
    play(c, 0, 0, 0.5);
    play(c, 1, 2, 0.5);
    c.evaluate();
    // Node 1: average of 1 and 7; the others: allX alone at W = 0.5, filled from the rest by 0.5.
    expect(x(c, 1)).toBeCloseTo(4, 6);
    expect(x(c, 3)).toBeCloseTo(1, 6);
    expect(x(c, 2)).toBeCloseTo(0.5, 6);
    c.setTrackEnable(0, false);
    c.evaluate();
    expect(x(c, 0)).toBe(0);
    expect(c.locals[2]).toBe(5);
  });

  it('a mask limits a track to the subtree of its node', () => {
    const c = controller();
    play(c, 0, 0);
    play(c, 1, 1);
    c.setTrackMask(1, 1);
    c.setTrackPriority(1, 'high');
    c.evaluate();
    expect([x(c, 0), x(c, 1), x(c, 2), x(c, 3)]).toEqual([1, 3, 3, 1]);
    expectSameRotation(c.locals.subarray(23, 27), axisAngle(Z, 90));
    expectSameRotation(c.locals.subarray(33, 37), axisAngle(Z, 0));
    expect(c.trackMask(1)).toBe(1);
    expect(() => c.setTrackMask(1, 4)).toThrow(RangeError);
  });

  it('priority: high overrides low where it animates, scaled by priorityBlend · min(W_high, 1), never towards the rest', () => {
    const c = controller();
    play(c, 0, 0);
    play(c, 1, 1);
    c.setTrackPriority(1, 'high');
    c.setTrackMask(1, 1);
    c.priorityBlend = 0.5;
    c.evaluate();
    expect(x(c, 1)).toBeCloseTo(2, 6);
    expectSameRotation(c.locals.subarray(13, 17), axisAngle(Z, 45));
    expect(x(c, 0)).toBe(1);
    c.priorityBlend = 1;
    c.setTrackWeight(1, 0.5);
    c.evaluate();
    // lerp(low x = 1, high average x = 3, 0.5): the high group is not filled from the rest (x = 0).
    expect(x(c, 2)).toBeCloseTo(2, 6);
    c.setTrackMask(1, -1);
    c.setTrackWeight(1, 1);
    c.priorityBlend = 0;
    c.evaluate();
    expect([x(c, 0), x(c, 3)]).toEqual([1, 1]);
    c.priorityBlend = 7;
    expect(c.priorityBlend).toBe(1);
  });
});

describe('AnimController additive tracks', () => {
  const arm = makeSkeleton([-1, 0], [{}, { t: [0, 1, 0], s: [2, 2, 2] }]);
  const q0 = axisAngle(Z, 10);
  const q1 = axisAngle(Z, 70);
  const move = makeClip('move', 1, [
    track(1, {
      translation: channel([0, 1], [0, 1, 0, 2, 3, 0]),
      rotation: channel([0, 1], [...q0, ...q1]),
      scale: channel([0, 1], [2, 2, 2, 4, 1, 2]),
    }),
  ]);
  const base = makeClip('base', 1, [track(1, { translation: channel([0], [5, 5, 5]), rotation: channel([0], [...axisAngle(Z, 30)]) })]);

  it('is zero at the clip first key', () => {
    const c = new AnimController(arm, [move, base], { tracks: 4 });
    play(c, 0, 1);
    play(c, 1, 0);
    c.setTrackAdditive(1, true);
    c.evaluate();
    expectClose(c.locals.subarray(10, 20), [5, 5, 5, ...axisAngle(Z, 30), 2, 2, 2], 1e-6);
  });

  it('a clip added onto itself at t gives t + w(t − t0), slerp(1, r·r0⁻¹, w)·r, s·(1 + w(s/s0 − 1))', () => {
    const c = new AnimController(arm, [move], { tracks: 4 });
    play(c, 0, 0);
    play(c, 1, 0);
    c.setTrackAdditive(1, true);
    c.setTrackPosition(0, 0.5);
    c.setTrackPosition(1, 0.5);
    c.evaluate();
    // At 0.5: t = (1, 2, 0), r = 40° about Z, s = (3, 1.5, 2); at 0: t0 = (0, 1, 0), r0 = 10°, s0 = (2, 2, 2).
    expectClose(c.locals.subarray(10, 13), [2, 3, 0], 1e-5);
    expectSameRotation(c.locals.subarray(13, 17), axisAngle(Z, 70));
    expectClose(c.locals.subarray(17, 20), [4.5, 1.125, 2], 1e-5);
    c.setTrackWeight(1, 0.5);
    c.evaluate();
    expectClose(c.locals.subarray(10, 13), [1.5, 2.5, 0], 1e-5);
    expectSameRotation(c.locals.subarray(13, 17), axisAngle(Z, 55));
    expectClose(c.locals.subarray(17, 20), [3.75, 1.3125, 2], 1e-5);
  });
});
