import { describe, expect, it } from 'vitest';
import { compileField, evaluate, fieldBounds, gradient, paintAt, sampleGrid } from '../../src/gen/implicit-field.ts';
import { marchingCubes, marchingCubesTable } from '../../src/gen/marching-cubes.ts';
import { createRandom } from '../../src/gen/random.ts';
import {
  AXES_IDENTITY, ellipsoidDistance, roundConeDistance, smin, type Primitive, type Vec3,
} from '../../src/gen/sdf-primitives.ts';
import { buildAdjacency, countBadEdges, dropSmallPieces, relax } from '../../src/gen/surface.ts';

const cone = (a: Vec3, b: Vec3, ra: number, rb: number, k = 0, op: Primitive['op'] = 'union'): Primitive => ({
  kind: 'cone', a, b, ra, rb, k, op, bone: 0, tag: 0,
});

function signedVolume(positions: Float32Array, indices: Uint32Array): number {
  let v = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3];
    const p = positions;
    v += (p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!)
      - p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!)
      + p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!)) / 6;
  }
  return v;
}

describe('implicit primitives', () => {
  it('round cone distance equals the brute-force distance to its union of spheres', () => {
    const a: Vec3 = [0.1, 0.2, -0.1];
    const b: Vec3 = [0.5, 0.1, 0.2];
    const random = createRandom(3);
    for (let n = 0; n < 200; n++) {
      const p: Vec3 = [random() - 0.2, random() - 0.4, random() - 0.5];
      let brute = Infinity;
      for (let i = 0; i <= 4000; i++) {
        const t = i / 4000;
        const c = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
        brute = Math.min(brute, Math.hypot(p[0] - c[0]!, p[1] - c[1]!, p[2] - c[2]!) - (0.08 + (0.03 - 0.08) * t));
      }
      expect(roundConeDistance(p[0], p[1], p[2], a, b, 0.08, 0.03)).toBeCloseTo(brute, 4);
    }
  });

  it('ellipsoid distance is exact on its axes and negative inside', () => {
    const r: Vec3 = [0.3, 0.1, 0.2];
    expect(ellipsoidDistance(0.5, 0, 0, [0, 0, 0], r, AXES_IDENTITY)).toBeCloseTo(0.2, 9);
    expect(ellipsoidDistance(0, -0.15, 0, [0, 0, 0], r, AXES_IDENTITY)).toBeCloseTo(0.05, 9);
    expect(ellipsoidDistance(0.1, 0, 0.05, [0, 0, 0], r, AXES_IDENTITY)).toBeLessThan(0);
  });

  it('smooth union stays below both inputs within k and equals min beyond it', () => {
    expect(smin(0.1, 0.1, 0.05)).toBeLessThan(0.1);
    expect(smin(0.1, 0.3, 0.05)).toBe(0.1);
    expect(smin(0.1, 0.3, 0)).toBe(0.1);
  });

  it('grid samples equal pointwise evaluation, and paint volumes do not change the field', () => {
    const prims = [cone([0, 0, 0], [0.3, 0, 0], 0.1, 0.05, 0.02), cone([0.15, 0.1, 0], [0.15, 0.3, 0], 0.04, 0.04, 0.05)];
    const painted = [...prims, cone([0.3, 0, 0], [0.3, 0, 0], 0.06, 0.06, 0, 'paint')];
    const f = compileField(prims);
    const g = compileField(painted);
    const grid = sampleGrid(f, fieldBounds(f, 0.02), 0.02);
    for (let i = 0; i < grid.values.length; i += 37) {
      const x = grid.origin[0] + (i % grid.nx) * grid.step;
      const y = grid.origin[1] + (Math.floor(i / grid.nx) % grid.ny) * grid.step;
      const z = grid.origin[2] + Math.floor(i / (grid.nx * grid.ny)) * grid.step;
      const ii = i % grid.nx;
      const jj = Math.floor(i / grid.nx) % grid.ny;
      const kk = Math.floor(i / (grid.nx * grid.ny));
      const onBorder = ii === 0 || jj === 0 || kk === 0 || ii === grid.nx - 1 || jj === grid.ny - 1 || kk === grid.nz - 1;
      if (!onBorder) expect(grid.values[i]).toBeCloseTo(evaluate(f, x, y, z), 5);
      expect(evaluate(g, x, y, z)).toBe(evaluate(f, x, y, z));
    }
    expect(paintAt(g, 0.33, 0, 0)).toBe(2);
    expect(paintAt(g, 0, 0, 0)).toBe(-1);
    // Near the round end the gradient points away from it with unit length.
    const out = new Float64Array(3);
    gradient(f, -0.12, 0, 0, out, 0);
    expect(out[0]).toBeCloseTo(-1, 3);
    expect(Math.abs(out[1]!) + Math.abs(out[2]!)).toBeLessThan(1e-3);
  });
});

describe('marching cubes', () => {
  it('derives a case table whose loops use each crossed cube edge exactly once', () => {
    const table = marchingCubesTable();
    expect(table).toHaveLength(256);
    expect(table[0]).toEqual([]);
    expect(table[255]).toEqual([]);
    for (let mask = 1; mask < 255; mask++) {
      const edges = table[mask]!.flat();
      expect(new Set(edges).size).toBe(edges.length);
      // The crossed edges are exactly those whose corners differ.
      let crossed = 0;
      for (let e = 0; e < 12; e++) {
        const axis = e >> 2;
        const others = [0, 1, 2].filter((a) => a !== axis);
        const c0 = ((e & 1) << others[0]!) | (((e >> 1) & 1) << others[1]!);
        const c1 = c0 | (1 << axis);
        if (((mask >> c0) & 1) !== ((mask >> c1) & 1)) crossed++;
      }
      expect(edges.length).toBe(crossed);
    }
  });

  it('meshes a sphere closed, outward and with the right volume', () => {
    const f = compileField([cone([0, 0, 0], [0, 0, 0], 0.2, 0.2)]);
    const m = marchingCubes(sampleGrid(f, fieldBounds(f, 0.02), 0.02));
    expect(countBadEdges(m.indices)).toBe(0);
    const v = signedVolume(m.positions, m.indices);
    expect(v).toBeGreaterThan(0);
    expect(v).toBeCloseTo((4 / 3) * Math.PI * 0.008, 3);
    // Genus 0: V − E + F = 2.
    const nv = m.positions.length / 3;
    const nf = m.indices.length / 3;
    expect(nv - (nf * 3) / 2 + nf).toBe(2);
  });

  it('stays closed and manifold on random blobby fields with thin parts, holes and subtractions', () => {
    const random = createRandom(11);
    for (let trial = 0; trial < 60; trial++) {
      const prims = Array.from({ length: 10 }, () => {
        const a: Vec3 = [random(), random(), random()];
        const b: Vec3 = [a[0] + random() * 0.3 - 0.15, a[1] + random() * 0.3 - 0.15, a[2] + random() * 0.3 - 0.15];
        return cone(a, b, 0.008 + random() * 0.05, 0.008 + random() * 0.05, random() * 0.05, random() < 0.25 ? 'subtract' : 'union');
      });
      const f = compileField(prims);
      const m = marchingCubes(sampleGrid(f, fieldBounds(f, 0.02), 0.015 + random() * 0.03));
      expect(countBadEdges(m.indices), `trial ${trial}`).toBe(0);
      // Relaxation keeps it closed (connectivity unchanged) and dropping crumbs keeps whole pieces.
      const kept = dropSmallPieces(m.indices, m.positions.length / 3, 0.05);
      expect(countBadEdges(kept)).toBe(0);
      relax(f, m.positions, m.indices, buildAdjacency(m.indices, m.positions.length / 3), 2, 0.5);
      expect(countBadEdges(m.indices)).toBe(0);
    }
  });

  it('detects a broken mesh (the manifold check can fail)', () => {
    const f = compileField([cone([0, 0, 0], [0, 0, 0], 0.2, 0.2)]);
    const m = marchingCubes(sampleGrid(f, fieldBounds(f, 0.02), 0.05));
    expect(countBadEdges(m.indices.subarray(3))).toBeGreaterThan(0);
    const flipped = m.indices.slice();
    [flipped[0], flipped[1]] = [flipped[1]!, flipped[0]!];
    expect(countBadEdges(flipped)).toBeGreaterThan(0);
  });
});
