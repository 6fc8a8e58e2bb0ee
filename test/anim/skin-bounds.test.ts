import { afterAll, describe, expect, it } from 'vitest';
import { computeBounds } from '../../src/anim/bounds.ts';
import { skinBoundsSimd, skinBoundsSimdAvailable, useSkinBoundsSimd } from '../../src/anim/skin-bounds.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import type { SkinnedMesh } from '../../src/model/types.ts';
import { makeMesh, rng } from './fixtures.ts';

const SLOTS = 9;

/**
 * A mesh of `count` vertices with every kind of weight row skinMesh knows: one to four descending weights that
 * sum to 1, rows that do not sum to 1 (renormalised), a zero first weight (the first slot whole), a zero in the
 * middle (the weights after it are not used), and coordinates of all signs and sizes.
 */
function mesh(count: number, seed: number): SkinnedMesh {
  const r = rng(seed);
  const vertices = Array.from({ length: count }, (_, i) => {
    const p: [number, number, number] = [r() * 40 - 20, r() * 200 - 5, r() * 0.02 - 0.01];
    const kind = i % 6;
    const w = [r(), r(), r(), r()].sort((a, b) => b - a);
    const sum = w.reduce((a, b) => a + b, 0);
    const rows: [number, number][][] = [
      [[i % SLOTS, 1]],
      w.slice(0, 2).map((x, k) => [(i + k * 3) % SLOTS, x / (w[0]! + w[1]!)]),
      w.map((x, k) => [(i * 7 + k) % SLOTS, x / sum]),
      w.map((x, k) => [(i + k) % SLOTS, x * 3]),
      [[(i + 2) % SLOTS, 0], [(i + 4) % SLOTS, 0.5]],
      [[(i + 1) % SLOTS, 0.6], [(i + 5) % SLOTS, 0], [(i + 6) % SLOTS, 0.4]],
    ];
    return { p, influences: rows[kind]! };
  });
  return makeMesh(vertices, Array.from({ length: SLOTS }, (_, k) => k), new Float32Array(16));
}

/** A palette of affine matrices (rotation-ish, scale, translation), bottom rows as buildPalette writes them. */
function palette(seed: number): Float32Array {
  const r = rng(seed);
  const out = new Float32Array(SLOTS * 16);
  for (let s = 0; s < SLOTS; s++) {
    for (let c = 0; c < 4; c++) for (let row = 0; row < 3; row++) out[s * 16 + c * 4 + row] = c === 3 ? r() * 10 - 5 : r() * 2 - 1;
    out[s * 16 + 15] = 1;
  }
  return out;
}

function scalarBox(m: SkinnedMesh, positions: Float32Array, pal: Float32Array): { min: number[]; max: number[] } {
  const out = new Float32Array(m.vertexCount * 3);
  skinMesh({ ...m, positions }, pal, out, null);
  const min = [0, 0, 0];
  const max = [0, 0, 0];
  computeBounds(out, min, max);
  return { min, max };
}

/** Equal to float32 rounding: a few ulps of the box's size (each product and sum rounds to float32). */
function expectBoxClose(got: { min: number[]; max: number[] }, ref: { min: number[]; max: number[] }): void {
  const size = Math.max(...ref.max.map((x, k) => Math.abs(x) + Math.abs(ref.min[k]!)));
  for (let k = 0; k < 3; k++) {
    expect(Math.abs(got.min[k]! - ref.min[k]!), `min ${k}: ${got.min[k]} vs ${ref.min[k]}`).toBeLessThanOrEqual(size * 2 ** -20);
    expect(Math.abs(got.max[k]! - ref.max[k]!), `max ${k}: ${got.max[k]} vs ${ref.max[k]}`).toBeLessThanOrEqual(size * 2 ** -20);
  }
}

function simdBox(m: SkinnedMesh, positions: Float32Array, pal: Float32Array, rewritten = false): { min: number[]; max: number[] } {
  const min = [0, 0, 0];
  const max = [0, 0, 0];
  expect(skinBoundsSimd(m, positions, pal, min, max, rewritten)).toBe(true);
  return { min, max };
}

describe('the box of a skinned mesh through the WebAssembly SIMD kernel', () => {
  afterAll(() => useSkinBoundsSimd(true));

  it('agrees with skinMesh + computeBounds to float32 rounding, on every kind of weight row, pose after pose', () => {
    expect(skinBoundsSimdAvailable()).toBe(true);
    const m = mesh(601, 1);
    for (let pose = 0; pose < 4; pose++) {
      const pal = palette(10 + pose);
      expectBoxClose(simdBox(m, m.positions, pal), scalarBox(m, m.positions, pal));
    }
    // One vertex of each kind alone: each row's rule, not only the union's extremes.
    for (let kind = 0; kind < 6; kind++) {
      const one = mesh(6, 2);
      const single: SkinnedMesh = {
        ...one,
        vertexCount: 1,
        positions: one.positions.slice(kind * 3, kind * 3 + 3),
        joints: one.joints.slice(kind * 4, kind * 4 + 4),
        weights: one.weights.slice(kind * 4, kind * 4 + 4),
      };
      const pal = palette(20 + kind);
      expectBoxClose(simdBox(single, single.positions, pal), scalarBox(single, single.positions, pal));
    }
  });

  it('measures a rewritten copy of the positions (a morph) anew, and another mesh after one it copied', () => {
    const m = mesh(50, 3);
    const pal = palette(4);
    const copy = m.positions.slice();
    simdBox(m, copy, pal);
    for (let i = 0; i < copy.length; i++) copy[i] = copy[i]! * 2 + 1;
    expectBoxClose(simdBox(m, copy, pal, true), scalarBox(m, copy, pal));
    const other = mesh(3000, 5);
    expectBoxClose(simdBox(other, other.positions, pal), scalarBox(other, other.positions, pal));
    expectBoxClose(simdBox(m, m.positions, pal), scalarBox(m, m.positions, pal));
  });

  it('never lets a NaN coordinate into the box, as computeBounds', () => {
    const m = mesh(12, 6);
    const positions = m.positions.slice();
    positions[4] = NaN;
    const pal = palette(7);
    const box = simdBox(m, positions, pal);
    expect([...box.min, ...box.max].every(Number.isFinite)).toBe(true);
    expectBoxClose(box, scalarBox(m, positions, pal));
  });

  it('is off after useSkinBoundsSimd(false) (the caller measures with skinMesh) and on again after useSkinBoundsSimd(true)', () => {
    const m = mesh(10, 8);
    expect(useSkinBoundsSimd(false)).toBe(false);
    expect(skinBoundsSimd(m, m.positions, palette(9), [0, 0, 0], [0, 0, 0])).toBe(false);
    expect(useSkinBoundsSimd(true)).toBe(true);
    expect(skinBoundsSimd(m, m.positions, palette(9), [0, 0, 0], [0, 0, 0])).toBe(true);
  });
});
