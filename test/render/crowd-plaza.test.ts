import { describe, expect, it } from 'vitest';
import { crowdSpacing } from '../../src/render/crowd-layout.ts';
import { PLAZA_AREA, plazaLayout, plazaRadius } from '../../src/render/crowd-plaza.ts';

function layout(n: number, spacing: number, seed = 1): Float32Array {
  const out = new Float32Array(3 * n);
  plazaLayout(n, spacing, seed, out);
  return out;
}

/** The smallest distance between two places, and each place's nearest neighbour (sweep over x). */
function neighbours(p: Float32Array, n: number): { min: number; nearest: Int32Array; dist: Float64Array } {
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => p[3 * a]! - p[3 * b]!);
  const nearest = new Int32Array(n).fill(-1);
  const dist = new Float64Array(n).fill(Infinity);
  for (let a = 0; a < n; a++) {
    const i = order[a]!;
    for (let b = a + 1; b < n; b++) {
      const j = order[b]!;
      const dx = p[3 * j]! - p[3 * i]!;
      if (dx > Math.max(dist[i]!, 4)) break;
      const d = Math.hypot(dx, p[3 * j + 1]! - p[3 * i + 1]!);
      if (d < dist[i]!) {
        dist[i] = d;
        nearest[i] = j;
      }
      if (d < dist[j]!) {
        dist[j] = d;
        nearest[j] = i;
      }
    }
  }
  let min = Infinity;
  for (let i = 0; i < n; i++) min = Math.min(min, dist[i]!);
  return { min, nearest, dist };
}

describe('plaza layout', () => {
  it('is deterministic: the same seed gives the same places, another seed others', () => {
    const a = layout(300, 1.5);
    expect(layout(300, 1.5)).toEqual(a);
    expect(layout(300, 1.5, 2)).not.toEqual(a);
  });

  it('keeps every two people at least a footprint apart, and every place inside the plaza', () => {
    // The Walker's box: a footprint of 0.8 (x) and a height of 1.8: spacing 1.0.
    const spacing = crowdSpacing([-0.4, 0, -0.3], [0.4, 1.8, 0.3]);
    const footprint = 0.8;
    for (const n of [1, 2, 3, 5, 8, 13, 60, 99, 300, 1000, 10000]) {
      const p = layout(n, spacing);
      const r = plazaRadius(n, spacing);
      for (let i = 0; i < n; i++) {
        expect(Number.isFinite(p[3 * i + 2]!)).toBe(true);
        expect(Math.hypot(p[3 * i]!, p[3 * i + 1]!)).toBeLessThanOrEqual(r * (1 + 1e-6));
      }
      if (n > 1) expect(neighbours(p, n).min, `N = ${n}`).toBeGreaterThanOrEqual(footprint);
    }
  });

  it('grows its area with N at about the grid density or a little looser, and fills it', () => {
    for (const n of [100, 1000, 10000]) {
      const r = plazaRadius(n, 2);
      // Area per person in spacing²: the grid's is 1.
      expect((Math.PI * r * r) / (n * 4)).toBeCloseTo(PLAZA_AREA, 6);
      const p = layout(n, 2);
      let far = 0;
      let sx = 0;
      let sz = 0;
      for (let i = 0; i < n; i++) {
        far = Math.max(far, Math.hypot(p[3 * i]!, p[3 * i + 1]!));
        sx += p[3 * i]!;
        sz += p[3 * i + 1]!;
      }
      expect(far).toBeGreaterThan(0.9 * r);
      // Centred on the origin (within a spacing).
      expect(Math.hypot(sx / n, sz / n)).toBeLessThan(2);
    }
    expect(plazaRadius(4000, 1) / plazaRadius(1000, 1)).toBeCloseTo(2, 6);
  });

  it('shows no lattice: neighbour distances and places vary, headings point every way', () => {
    const n = 1000;
    const spacing = 2;
    const p = layout(n, spacing);
    const { dist } = neighbours(p, n);
    const mean = dist.reduce((s, d) => s + d, 0) / n;
    const sd = Math.sqrt(dist.reduce((s, d) => s + (d - mean) ** 2, 0) / n);
    expect(sd / mean).toBeGreaterThan(0.08);
    // Positions modulo the spacing spread over the whole cell (a grid puts them all in one point).
    const bins = new Array(10).fill(0);
    for (let i = 0; i < n; i++) bins[Math.floor((((p[3 * i]! / spacing) % 1) + 1) % 1 * 10)]++;
    for (const b of bins) expect(b).toBeGreaterThan(n / 10 / 2);
    const headings = new Array(8).fill(0);
    for (let i = 0; i < n; i++) headings[Math.floor(((p[3 * i + 2]! + Math.PI) / (2 * Math.PI)) * 8) % 8]++;
    for (const h of headings) expect(h).toBeGreaterThan(n / 8 / 2);
  });

  it('stands some people in groups facing their centre and walks some in lines', () => {
    const n = 2000;
    const p = layout(n, 1);
    const { nearest } = neighbours(p, n);
    /** Shares of people whose nearest neighbour faces them as they face it, and who walk in line behind or before someone within 1.6 spacings. */
    const shares = (h: (i: number) => number): [number, number] => {
      let facing = 0;
      let inLine = 0;
      for (let i = 0; i < n; i++) {
        const j = nearest[i]!;
        const dx = p[3 * j]! - p[3 * i]!;
        const dz = p[3 * j + 1]! - p[3 * i + 1]!;
        const len = Math.hypot(dx, dz);
        // Facing (sin h, cos h): towards the neighbour, and the neighbour towards this one.
        const toward = (Math.sin(h(i)) * dx + Math.cos(h(i)) * dz) / len;
        const back = -(Math.sin(h(j)) * dx + Math.cos(h(j)) * dz) / len;
        if (toward > 0.3 && back > 0.3) facing++;
        for (let k = 0; k < n; k++) {
          const ex = p[3 * k]! - p[3 * i]!;
          const ez = p[3 * k + 1]! - p[3 * i + 1]!;
          const d = Math.hypot(ex, ez);
          if (k === i || d > 1.6) continue;
          if (Math.cos(h(i) - h(k)) > 0.97 && Math.abs(Math.sin(h(i)) * ex + Math.cos(h(i)) * ez) / d > 0.9) {
            inLine++;
            break;
          }
        }
      }
      return [facing / n, inLine / n];
    };
    const [facing, inLine] = shares((i) => p[3 * i + 2]!);
    // The same places with other people's headings (a fixed shuffle): what chance gives.
    const [facingByChance, inLineByChance] = shares((i) => p[3 * ((i * 7919) % n) + 2]!);
    console.log(`[plaza] nearest pairs facing each other ${facing} (by chance ${facingByChance}), in line ${inLine} (${inLineByChance})`);
    expect(facing).toBeGreaterThan(1.5 * facingByChance);
    expect(inLine).toBeGreaterThan(2 * inLineByChance);
  });

  it('orders the places nearest the default camera side first', () => {
    const n = 500;
    const p = layout(n, 1);
    const vx = Math.sin((25 * Math.PI) / 180);
    const vz = Math.cos((25 * Math.PI) / 180);
    for (let i = 1; i < n; i++) {
      expect(p[3 * i]! * vx + p[3 * i + 1]! * vz).toBeLessThanOrEqual(p[3 * (i - 1)]! * vx + p[3 * (i - 1) + 1]! * vz + 1e-5);
    }
  });
});
