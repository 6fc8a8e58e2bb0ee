import { describe, expect, it } from 'vitest';
import { linearScale, logScale, niceStep, tickLabel } from '../../src/ui/chart-scale.ts';

describe('chart scales', () => {
  it('nice steps are 1, 2 or 5 × 10^k', () => {
    expect([niceStep(0.3), niceStep(1), niceStep(1.5), niceStep(4), niceStep(7), niceStep(0)]).toEqual([0.5, 1, 2, 5, 10, 1]);
  });
  it('linear: 0 to a nice top at or over the largest value, mapped onto the range', () => {
    const s = linearScale([0.7, 3.2], 100, 300, 4);
    expect(s.domain).toEqual([0, 4]);
    expect(s.ticks).toEqual([0, 1, 2, 3, 4]);
    expect(s.map(0)).toBe(100);
    expect(s.map(4)).toBe(300);
    expect(s.map(2)).toBe(200);
  });
  it('log: whole decades around the data, equal spacing per decade, a reversed range for y', () => {
    const s = logScale([1, 10, 1000], 0, 300);
    expect(s.domain).toEqual([1, 1000]);
    expect(s.ticks).toEqual([1, 10, 100, 1000]);
    expect(s.map(10)).toBeCloseTo(100);
    const y = logScale([0.5, 20], 200, 0);
    expect(y.ticks).toEqual([0.1, 1, 10, 100]);
    expect(y.map(0.1)).toBe(200);
    expect(y.map(100)).toBe(0);
  });
  it('log: one value still spans a decade; values ≤ 0 are ignored', () => {
    const s = logScale([5, 0, -1], 0, 100);
    expect(s.domain).toEqual([1, 10]);
  });
  it('tick labels', () => {
    expect([tickLabel(0.001), tickLabel(2.5), tickLabel(1500), tickLabel(10000)]).toEqual(['0.001', '2.5', '1.5k', '10k']);
  });
});
