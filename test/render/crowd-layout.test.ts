import { describe, expect, it } from 'vitest';
import { crowdGrid, crowdHalfExtent, crowdOffset, crowdSpacing, crowdTime, GOLDEN_FRACTION } from '../../src/render/crowd-layout.ts';

describe('crowd layout', () => {
  it('makes a near-square grid that holds every instance', () => {
    expect(crowdGrid(1)).toEqual({ columns: 1, rows: 1 });
    expect(crowdGrid(10)).toEqual({ columns: 4, rows: 3 });
    expect(crowdGrid(100)).toEqual({ columns: 10, rows: 10 });
    expect(crowdGrid(1000)).toEqual({ columns: 32, rows: 32 });
    for (const n of [2, 3, 7, 99, 101, 999]) {
      const g = crowdGrid(n);
      expect(g.columns * g.rows).toBeGreaterThanOrEqual(n);
      expect(g.columns * (g.rows - 1)).toBeLessThan(n);
    }
  });

  it('puts one instance at the origin and centres a crowd on it, every cell distinct and spacing apart', () => {
    const o = [9, 9, 9];
    crowdOffset(0, 1, 2, o);
    expect(o).toEqual([0, 0, 0]);
    const n = 10;
    const seen = new Set<string>();
    let sx = 0;
    let sz = 0;
    let minDist = Infinity;
    const all: number[][] = [];
    for (let i = 0; i < n; i++) {
      crowdOffset(i, n, 2, o);
      expect(o[1]).toBe(0);
      seen.add(`${o[0]},${o[2]}`);
      all.push([o[0]!, o[2]!]);
    }
    for (const [x, z] of all) {
      sx += x!;
      sz += z!;
    }
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) minDist = Math.min(minDist, Math.hypot(all[a]![0]! - all[b]![0]!, all[a]![1]! - all[b]![1]!));
    expect(seen.size).toBe(n);
    expect(minDist).toBeCloseTo(2, 10);
    // Columns centred exactly, instance 0 at the +x +z corner; 10 = 4 + 4 + 2 so the last row is short.
    crowdOffset(0, n, 2, o);
    expect(o).toEqual([3, 0, 2]);
    crowdOffset(9, n, 2, o);
    expect(o).toEqual([1, 0, -2]);
    const half = [0, 0];
    crowdHalfExtent(n, 2, half);
    expect(half).toEqual([3, 2]);
    expect(Math.abs(sx / n)).toBeLessThan(3);
    expect(Math.abs(sz / n)).toBeLessThan(2);
  });

  it('offsets instance i by frac(i·φ) of the clip, wrapped, instance 0 at the player time', () => {
    const d = 2;
    expect(crowdTime(0, 0.7, d)).toBeCloseTo(0.7, 12);
    expect(crowdTime(1, 0, d)).toBeCloseTo(GOLDEN_FRACTION * d, 12);
    expect(crowdTime(1, 1.5, d)).toBeCloseTo((1.5 + GOLDEN_FRACTION * d) % d, 12);
    expect(crowdTime(3, 0, 0)).toBe(0);
    // Deterministic, inside [0, d), and spread: 100 phases leave no gap larger than a few hundredths of the cycle.
    const times = Array.from({ length: 100 }, (_, i) => crowdTime(i, 0.25, d));
    expect(times).toEqual(Array.from({ length: 100 }, (_, i) => crowdTime(i, 0.25, d)));
    for (const t of times) {
      expect(t).toBeGreaterThanOrEqual(0);
      expect(t).toBeLessThan(d);
    }
    const sorted = [...times].sort((a, b) => a - b);
    let gap = sorted[0]! + d - sorted[sorted.length - 1]!;
    for (let i = 1; i < sorted.length; i++) gap = Math.max(gap, sorted[i]! - sorted[i - 1]!);
    expect(gap / d).toBeLessThan(0.03);
    expect(new Set(times.map((t) => t.toFixed(6))).size).toBe(100);
  });

  it('spaces instances by the model footprint, with a floor for flat models', () => {
    expect(crowdSpacing([-1, 0, -0.5], [1, 2, 0.5], )).toBeCloseTo(2.5, 12);
    expect(crowdSpacing([0, 0, 0], [0.1, 10, 0.1])).toBeCloseTo(2, 12);
  });
});
