import { describe, expect, it } from 'vitest';
import { AnimController } from '../../../src/anim/controller/controller.ts';
import { MAX_WHOLE_LOOPS } from '../../../src/anim/controller/markers.ts';
import { channel, makeSkeleton, track } from '../fixtures.ts';
import type { Clip } from '../../../src/model/types.ts';

const skel = makeSkeleton([-1], [{}]);
const clip: Clip = {
  name: 'step',
  duration: 1,
  ticksPerSecond: 0,
  tracks: [track(0, { translation: channel([0, 1], [0, 0, 0, 1, 0, 0]) })],
  markers: [
    { time: 0, name: 'start' },
    { time: 0.3, name: 'a' },
    { time: 0.6, name: 'b' },
  ],
};

function setup(): { c: AnimController; log: string[] } {
  const c = new AnimController(skel, [clip], { tracks: 4 });
  c.addMarker(0, 0.9, 'c');
  c.setTrackClip(0, 0);
  c.setTrackPosition(0, 0);
  c.setTrackEnable(0, true);
  const log: string[] = [];
  c.onMarker = (t, k, m) => log.push(`${t}:${c.marker(k, m).name}`);
  return { c, log };
}

function take(log: string[]): string {
  const s = log.map((e) => e.slice(2)).join(' ');
  log.length = 0;
  return s;
}

describe('AnimController markers', () => {
  it('merges file markers and addMarker in time order', () => {
    const { c } = setup();
    expect(c.markerCount(0)).toBe(4);
    expect([0, 1, 2, 3].map((i) => c.marker(0, i).name)).toEqual(['start', 'a', 'b', 'c']);
  });

  it('fires forward in (a, b], the start marker on the first advance, across a wrap in order, each once', () => {
    const { c, log } = setup();
    c.advance(0.1);
    expect(take(log)).toBe('start');
    c.advance(0.25);
    expect(take(log)).toBe('a');
    c.advance(0.25);
    expect(take(log)).toBe('b');
    c.advance(0.6);
    // 0.6 → 1.2: c, then across the wrap start (0).
    expect(take(log)).toBe('c start');
    c.advance(0.1);
    expect(take(log)).toBe('a');
    c.advance(0);
    expect(take(log)).toBe('');
  });

  it('a large step fires each whole loop, capped at MAX_WHOLE_LOOPS', () => {
    const { c, log } = setup();
    c.setTrackPosition(0, 0.35);
    c.advance(3);
    // 0.35 → 3.35: (0.35, 1], two whole loops, [0, 0.35].
    expect(take(log)).toBe('b c start a b c start a b c start a');
    c.advance(100);
    // (0.35, 1]: b c; MAX_WHOLE_LOOPS whole loops of 4; [0, 0.35]: start a.
    expect(log.length).toBe(2 + 4 * MAX_WHOLE_LOOPS + 2);
    expect(log.slice(-2)).toEqual(["0:start", "0:a"]);
  });

  it('fires backwards in [b, a), descending, across the wrap', () => {
    const { c, log } = setup();
    c.setTrackPosition(0, 0.35);
    c.setTrackSpeed(0, -1);
    c.advance(0);
    expect(take(log)).toBe('');
    c.advance(0.1);
    expect(take(log)).toBe('a');
    c.advance(0.5);
    // 0.25 → −0.25: start, then from the end down to 0.75: c.
    expect(take(log)).toBe('start c');
    c.advance(2);
    // 0.75 → −1.25: b a start, one whole loop c b a start, then [0.75, 1]: c.
    expect(take(log)).toBe('b a start c b a start c');
  });

  it('without loop fires up to the end once; disabled or zero-weight tracks fire nothing', () => {
    const { c, log } = setup();
    c.setTrackLoop(0, false);
    c.advance(5);
    expect(take(log)).toBe('start a b c');
    c.advance(5);
    expect(take(log)).toBe('');
    c.setTrackPosition(0, 0);
    c.setTrackWeight(0, 0);
    c.advance(0.5);
    c.setTrackWeight(0, 1);
    c.setTrackEnable(0, false);
    c.advance(0.5);
    expect(take(log)).toBe('');
  });

  it('keeps the last 32 in a ring with track, clip, marker and controller time; fires across tracks in track order', () => {
    const { c, log } = setup();
    c.setTrackClip(2, 0);
    c.setTrackPosition(2, 0.5);
    c.setTrackEnable(2, true);
    c.advance(0.2);
    expect(log).toEqual(['0:start', '2:b']);
    expect(c.firedCount).toBe(2);
    expect([c.firedTrack(0), c.firedClip(0), c.firedMarker(0), c.firedAt(0)]).toEqual([2, 0, 2, 0.2]);
    expect([c.firedTrack(1), c.firedMarker(1)]).toEqual([0, 0]);
    expect(c.firedTrack(2)).toBe(-1);
    c.advance(20);
    expect(c.firedCount).toBeGreaterThan(40);
    expect(c.firedAt(31)).toBeCloseTo(20.2, 12);
    expect(c.firedTrack(32)).toBe(-1);
  });
});
