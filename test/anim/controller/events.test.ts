import { describe, expect, it } from 'vitest';
import { AnimController } from '../../../src/anim/controller/controller.ts';
import { EVENT_CAPACITY } from '../../../src/anim/controller/events.ts';
import { channel, makeClip, makeSkeleton, track } from '../fixtures.ts';

const skel = makeSkeleton([-1], [{}]);
/** x = 10 · t over 10 s. */
const clip = makeClip('ramp', 10, [track(0, { translation: channel([0, 10], [0, 0, 0, 100, 0, 0]) })]);

function controller(): AnimController {
  const c = new AnimController(skel, [clip, clip], { tracks: 4 });
  c.setTrackClip(0, 0);
  c.setTrackEnable(0, true);
  c.setTrackPosition(0, 0);
  return c;
}

describe('AnimController events', () => {
  it('weight: linear and ease (smoothstep) values at mid-points, then the target held and the event retired', () => {
    const lin = controller();
    const ease = controller();
    lin.setTrackWeight(0, 0);
    ease.setTrackWeight(0, 0);
    lin.keyTrackWeight(0, 1, 0, 2, 'linear');
    ease.keyTrackWeight(0, 1, 0, 2, 'ease');
    expect(lin.pendingEvents).toBe(1);
    for (const c of [lin, ease]) c.advance(0.5);
    expect(lin.trackWeight(0)).toBeCloseTo(0.25, 12);
    expect(ease.trackWeight(0)).toBeCloseTo(3 * 0.0625 - 2 * 0.015625, 12);
    for (const c of [lin, ease]) c.advance(1);
    expect(lin.trackWeight(0)).toBeCloseTo(0.75, 12);
    expect(ease.trackWeight(0)).toBeCloseTo(3 * 0.5625 - 2 * 0.421875, 12);
    for (const c of [lin, ease]) c.advance(1);
    expect([lin.trackWeight(0), ease.trackWeight(0), lin.pendingEvents, ease.pendingEvents]).toEqual([1, 1, 0, 0]);
  });

  it('a future event starts from the value the property has when the clock reaches its start', () => {
    const c = controller();
    c.setTrackSpeed(0, 1);
    c.keyTrackSpeed(0, 3, 1, 1, 'linear');
    c.advance(0.5);
    expect(c.trackSpeed(0)).toBe(1);
    c.setTrackSpeed(0, 2);
    c.advance(1);
    expect(c.trackSpeed(0)).toBeCloseTo(2.5, 12);
  });

  it('priority blend events', () => {
    const c = controller();
    c.keyPriorityBlend(0, 1, 2, 'linear');
    c.advance(2);
    expect(c.priorityBlend).toBeCloseTo(0.5, 12);
    c.advance(5);
    expect(c.priorityBlend).toBe(0);
  });

  it('position and enable events act at their start', () => {
    const c = controller();
    c.keyTrackPosition(0, 5, 1);
    c.keyTrackEnable(0, false, 2);
    c.advance(0.8);
    expect(c.trackTime(0)).toBeCloseTo(0.8, 12);
    c.advance(0.4);
    // Placed at 5 at clock 1, then moved 0.2 s.
    expect(c.trackTime(0)).toBeCloseTo(5.2, 12);
    expect(c.trackEnabled(0)).toBe(true);
    c.advance(0.79);
    expect(c.trackEnabled(0)).toBe(true);
    c.advance(0.02);
    expect(c.trackEnabled(0)).toBe(false);
    expect(c.pendingEvents).toBe(0);
  });

  it('several events on one property: the later start wins', () => {
    const c = controller();
    c.setTrackWeight(0, 0);
    c.keyTrackWeight(0, 1, 0, 2, 'linear');
    c.keyTrackWeight(0, 0, 1, 1, 'linear');
    c.advance(1);
    expect(c.trackWeight(0)).toBeCloseTo(0.5, 12);
    c.advance(0.5);
    // The second event took over at 1 from 0.5, halfway to 0.
    expect(c.trackWeight(0)).toBeCloseTo(0.25, 12);
    c.advance(2);
    expect(c.trackWeight(0)).toBe(0);
    expect(c.pendingEvents).toBe(0);
  });

  it('unkey removes a track\'s events; a full pool throws a clear error', () => {
    const c = controller();
    c.keyTrackWeight(0, 0, 5, 1, 'linear');
    c.keyTrackWeight(1, 0, 5, 1, 'linear');
    c.unkeyTrackEvents(0);
    expect(c.pendingEvents).toBe(1);
    c.unkeyAllEvents();
    expect(c.pendingEvents).toBe(0);
    for (let i = 0; i < EVENT_CAPACITY; i++) c.keyTrackSpeed(0, 1, 10 + i, 1, 'linear');
    expect(() => c.keyTrackSpeed(0, 1, 100, 1, 'linear')).toThrow(/event pool is full/);
  });

  it('advance ignores negative and NaN steps; seek places tracks at start + t · speed without running events', () => {
    const c = controller();
    c.advance(-1);
    c.advance(NaN);
    expect(c.time).toBe(0);
    c.setTrackPosition(0, 2);
    c.setTrackSpeed(0, 0.5);
    c.keyTrackEnable(0, false, 3);
    c.seek(4);
    expect(c.time).toBe(4);
    expect(c.trackTime(0)).toBe(4);
    expect(c.trackEnabled(0)).toBe(true);
    expect(c.pendingEvents).toBe(1);
    c.seek(20);
    expect(c.trackTime(0)).toBe(2);
  });
});
