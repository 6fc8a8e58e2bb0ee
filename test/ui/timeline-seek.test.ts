import { describe, expect, it } from 'vitest';
import { barFraction, seekClock } from '../../src/ui/timeline-seek.ts';
import { LABEL, WIDTH } from '../../src/ui/timeline.ts';

describe('timeline seeking', () => {
  it('maps the bar to 0..1, clamped beside it', () => {
    expect(barFraction(LABEL)).toBe(0);
    expect(barFraction(LABEL + (WIDTH - LABEL - 2) / 2)).toBeCloseTo(0.5, 9);
    expect(barFraction(WIDTH - 2)).toBe(1);
    expect(barFraction(0)).toBe(0);
    expect(barFraction(WIDTH + 50)).toBe(1);
  });

  it('one clip: the time is that share of the clip', () => {
    expect(seekClock(false, 0.9, 0.5, 1.1, 0.9, 1)).toBeCloseTo(0.55, 9);
    expect(seekClock(false, 0.3, 1.4, 2, 0.3, 1)).toBe(2);
    expect(seekClock(false, 0.3, -1, 2, 0.3, 1)).toBe(0);
  });

  it('tracks: the clock moves so that the pressed track reaches the point, at its speed', () => {
    // A track at 1.2 s of a 3 s clip, speed 0.5, clock 10: half the clip (1.5 s) is 0.3 s of track time on,
    // 0.6 s of clock.
    expect(seekClock(true, 10, 0.5, 3, 1.2, 0.5)).toBeCloseTo(10.6, 9);
    // Backwards in the track: the clock goes back too.
    expect(seekClock(true, 10, 0, 3, 1.2, 0.5)).toBeCloseTo(7.6, 9);
    // Playing backwards (speed −2): 0.3 s of track time on is 0.15 s of clock back.
    expect(seekClock(true, 10, 0.5, 3, 1.2, -2)).toBeCloseTo(9.85, 9);
  });

  it('tracks: a clock that would go below 0 moves on by whole periods of the track; speed 0 leaves it', () => {
    // Clock 0.1, track at 2.5 s of 3 s, speed 1: the start of the clip is 2.4 s back; one period (3 s) on.
    const c = seekClock(true, 0.1, 0, 3, 2.5, 1);
    expect(c).toBeCloseTo(0.6, 9);
    expect(c).toBeGreaterThanOrEqual(0);
    expect(seekClock(true, 4, 0.5, 3, 1, 0)).toBe(4);
    expect(seekClock(true, 4, 0.5, 0, 0, 1)).toBe(4);
  });
});
