import { describe, expect, it } from 'vitest';
import { AnimController } from '../../../src/anim/controller/controller.ts';
import { channel, makeClip, makeSkeleton, track } from '../fixtures.ts';

const skel = makeSkeleton([-1], [{}]);
const walk = makeClip('walk', 1, [track(0, { translation: channel([0, 1], [0, 0, 0, 1, 0, 0]) })]);
const jog = makeClip('jog', 3, [track(0, { translation: channel([0, 3], [0, 0, 0, 3, 0, 0]) })]);
const sprint = makeClip('sprint', 0.5, [track(0, { translation: channel([0, 0.5], [0, 0, 0, 9, 0, 0]) })]);

function controller(): AnimController {
  const c = new AnimController(skel, [walk, jog, sprint], { tracks: 4 });
  [0, 1, 2].forEach((k) => {
    c.setTrackClip(k, k);
    c.setTrackPosition(k, 0);
    c.setTrackEnable(k, true);
  });
  return c;
}

const phase = (c: AnimController, t: number): number => c.trackTime(t) / c.trackDuration(t);

describe('AnimController phase sync', () => {
  it('keeps normalised phases equal at different speeds and durations; the rate is the weighted mean', () => {
    const c = controller();
    c.setTrackSync(0, 0);
    c.setTrackSync(1, 0);
    c.setTrackWeight(0, 0.5);
    c.setTrackWeight(1, 0.5);
    c.setTrackSpeed(1, 2);
    c.setTrackWeight(2, 0);
    c.advance(0.3);
    // φ rate = (0.5 · 1/1 + 0.5 · 2/3) / 1 per second.
    expect(phase(c, 0)).toBeCloseTo(0.3 * (0.5 + 1 / 3), 12);
    expect(phase(c, 1)).toBeCloseTo(phase(c, 0), 12);
    for (let i = 0; i < 50; i++) c.advance(0.037);
    expect(phase(c, 1)).toBeCloseTo(phase(c, 0), 12);
    expect(phase(c, 0)).toBeGreaterThanOrEqual(0);
    expect(phase(c, 0)).toBeLessThan(1);
    // Unsynced, track 2 would be at its own time.
    expect(phase(c, 2)).not.toBeCloseTo(phase(c, 0), 3);
  });

  it('a joining track adopts the group phase; weight-0 members do not drive it, all zero → the first member', () => {
    const c = controller();
    c.setTrackSync(0, 3);
    c.setTrackSync(1, 3);
    c.setTrackWeight(1, 0);
    c.advance(0.25);
    expect(phase(c, 0)).toBeCloseTo(0.25, 12);
    expect(phase(c, 1)).toBeCloseTo(0.25, 12);
    c.setTrackSync(2, 3);
    expect(phase(c, 2)).toBeCloseTo(0.25, 12);
    c.setTrackWeight(0, 0);
    c.setTrackWeight(2, 0);
    c.advance(0.25);
    expect(phase(c, 1)).toBeCloseTo(0.5, 12);
    expect(() => c.setTrackSync(0, 99)).toThrow(RangeError);
  });
});

describe('AnimController 1D blend space', () => {
  it('sets the neighbouring points to (1 − a, a), the others to 0, clamped at the ends, in one sync group', () => {
    const c = controller();
    c.setBlendSpace(
      [
        { track: 2, value: 3 },
        { track: 0, value: 0 },
        { track: 1, value: 1 },
      ],
      5,
    );
    expect([0, 1, 2].map((t) => c.trackSync(t))).toEqual([5, 5, 5]);
    const w = (): number[] => [0, 1, 2].map((t) => c.trackWeight(t));
    c.setBlendValue(0.25);
    expect(w()).toEqual([0.75, 0.25, 0]);
    expect(c.blendValue).toBe(0.25);
    c.setBlendValue(2);
    expect(w()).toEqual([0, 0.5, 0.5]);
    c.setBlendValue(-4);
    expect(w()).toEqual([1, 0, 0]);
    c.setBlendValue(9);
    expect(w()).toEqual([0, 0, 1]);
    c.setBlendValue(0.5);
    c.advance(0.2);
    expect(phase(c, 1)).toBeCloseTo(phase(c, 0), 12);
  });
});
