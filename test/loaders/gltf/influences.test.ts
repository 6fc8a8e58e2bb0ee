import { describe, expect, it } from 'vitest';
import { mergeInfluenceSets, oneInfluenceSet, type InfluenceSet } from '../../../src/loaders/gltf/gltf-influences.ts';
import type { Influences } from '../../../src/loaders/gltf/gltf-skin.ts';
// A deterministic generator, so a failure names a reproducible vertex.
import { rng } from '../../techniques/fixtures.ts';


/** Weights as exporters write them (sorted, summing to 1) mixed with every kind of trouble. */
const ODD = [0, -0, -0.25, Number.NaN, Infinity, -Infinity, 1e-45, 0.5, 0.5, 2, 0.1, 0.3];

function randomSet(vertices: number, joints: number, seed: number): InfluenceSet {
  const r = rng(seed);
  const j = new Uint16Array(vertices * 4);
  const w = new Float32Array(vertices * 4);
  for (let v = 0; v < vertices; v++) {
    const kind = r();
    const ws = [r(), r(), r(), r()];
    if (kind < 0.5) {
      ws.sort((a, b) => b - a);
      const sum = ws[0]! + ws[1]! + ws[2]! + ws[3]!;
      for (let k = 0; k < 4; k++) ws[k] = ws[k]! / sum;
      if (r() < 0.3) ws[3] = 0;
      if (r() < 0.2) ws[2] = ws[3] = 0;
    } else if (kind < 0.8) {
      for (let k = 0; k < 4; k++) if (r() < 0.4) ws[k] = ODD[Math.floor(r() * ODD.length)]!;
    } else if (kind < 0.9) {
      ws.fill(0.25);
    }
    for (let k = 0; k < 4; k++) {
      w[v * 4 + k] = ws[k]!;
      j[v * 4 + k] = Math.floor(r() * joints);
    }
  }
  return { j, w };
}

function bytes(inf: Influences): unknown {
  return {
    joints: Array.from(inf.joints),
    // Object.is separates +0 from -0: the arrays must match bit for bit.
    weights: Array.from(inf.weights, (x) => (Object.is(x, -0) ? '-0' : x)),
    maxInfluences: inf.maxInfluences,
    overflow: inf.overflow,
    rescaled: inf.rescaled,
    empty: inf.empty,
  };
}

describe('one JOINTS_0/WEIGHTS_0 set', () => {
  it('gives the same arrays and counts as the general merge, for tidy and untidy weights alike', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const set = randomSet(500, 40, seed);
      expect(bytes(oneInfluenceSet(set, 500, 40, 'f'))).toEqual(bytes(mergeInfluenceSets([set], 500, 40, 'f')));
    }
  });

  it('matches the general merge on hand-picked untidy vertices', () => {
    const rows: [number[], number[]][] = [
      [[Infinity, Infinity, 0, 0], [5, 6, 7, 8]], // no usable weight: the first +Infinity's joint
      [[0, Number.NaN, Infinity, -1], [1, 2, 3, 4]],
      [[0, 0, 0, 0], [9, 9, 9, 9]],
      [[0.2, 0.3, 0.3, 0.2], [1, 2, 3, 4]], // ties keep file order
      [[-0, 0.5, -0, 0.5], [1, 2, 3, 4]],
      [[0.1, 0, 0.7, 0.2], [1, 2, 3, 4]],
    ];
    const set = { j: Uint16Array.from(rows.flatMap((r) => r[1])), w: Float32Array.from(rows.flatMap((r) => r[0])) };
    const one = oneInfluenceSet(set, rows.length, 10, 'f');
    expect(bytes(one)).toEqual(bytes(mergeInfluenceSets([set], rows.length, 10, 'f')));
    expect(Array.from(one.joints.subarray(0, 4))).toEqual([5, 0, 0, 0]);
    expect(Array.from(one.joints.subarray(12, 16))).toEqual([2, 3, 1, 4]);
    expect(one.empty).toBe(3);
  });

  it('says tidy only when the arrays need nothing from validation: sorted, summing to 1, unused slots (0, 0)', () => {
    let tidySets = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const inf = oneInfluenceSet(randomSet(300, 40, seed), 300, 40, 'f');
      if (!inf.tidy) continue;
      tidySets++;
      let most = 0;
      for (let v = 0; v < 300; v++) {
        const w = Array.from(inf.weights.subarray(v * 4, v * 4 + 4));
        const j = Array.from(inf.joints.subarray(v * 4, v * 4 + 4));
        expect(w[0]! >= w[1]! && w[1]! >= w[2]! && w[2]! >= w[3]! && w[3]! >= 0).toBe(true);
        expect(Math.abs(w[0]! + w[1]! + w[2]! + w[3]! - 1)).toBeLessThan(1e-3);
        for (let k = 0; k < 4; k++) if (w[k] === 0) expect(j[k]).toBe(0);
        most = Math.max(most, w.filter((x) => x > 0).length);
      }
      expect(inf.maxInfluences).toBe(most);
    }
    expect(tidySets).toBeGreaterThan(2);
    // The smallest float32 weight next to a large one divides to below float32's range: a 0 weight with a joint.
    const underflow = { j: Uint8Array.of(1, 2, 0, 0), w: Float32Array.of(3, 1e-45, 0, 0) };
    expect(oneInfluenceSet(underflow, 1, 4, 'f').tidy).toBe(false);
  });

  it('keeps the tidy case as written, divided by its sum', () => {
    const set = { j: Uint8Array.of(3, 1, 7, 9), w: Float32Array.of(0.5, 0.3, 0.2, 0) };
    const inf = oneInfluenceSet(set, 1, 10, 'f');
    expect(Array.from(inf.joints)).toEqual([3, 1, 7, 0]);
    expect(Array.from(inf.weights)).toEqual([0.5, 0.3, 0.2, 0].map(Math.fround));
    expect(inf.maxInfluences).toBe(3);
  });

  it('names the same vertex and joint as the general merge for a joint outside the skin', () => {
    const set = { j: Uint16Array.of(0, 1, 2, 3, 4, 12, 11, 1), w: Float32Array.of(1, 0, 0, 0, 0.5, 0, 0.25, 0.25) };
    const message = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    const one = message(() => oneInfluenceSet(set, 2, 10, 'file: mesh'));
    expect(one).toBe('file: mesh: vertex 1 is weighted to joint 11, but the skin has 10 joints');
    expect(message(() => mergeInfluenceSets([set], 2, 10, 'file: mesh'))).toBe(one);
  });
});
