import { describe, expect, it } from 'vitest';
import { computeBounds } from '../../src/anim/bounds.ts';

describe('computeBounds', () => {
  it('finds the per-axis min and max', () => {
    const min = new Float32Array(3);
    const max = [0, 0, 0];
    computeBounds(Float32Array.from([1, -2, 3, -4, 5, 0.5, 2, 0, -6]), min, max);
    expect(Array.from(min)).toEqual([-4, -2, -6]);
    expect(max).toEqual([2, 5, 3]);
  });

  it('handles one point, no points, NaN and a trailing partial point', () => {
    const min = [9, 9, 9];
    const max = [9, 9, 9];
    computeBounds([7, 8, 9], min, max);
    expect(min).toEqual([7, 8, 9]);
    expect(max).toEqual([7, 8, 9]);
    computeBounds([], min, max);
    expect(min).toEqual([0, 0, 0]);
    expect(max).toEqual([0, 0, 0]);
    computeBounds([1, 1, 1, Number.NaN, 3, -1, 100, 100], min, max);
    expect(min).toEqual([1, 1, -1]);
    expect(max).toEqual([1, 3, 1]);
  });
});
