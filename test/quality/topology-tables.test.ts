import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../src/quality/topology.ts';
import { loadModel } from '../../src/loaders/load-model.ts';

/**
 * buildTopology's tables (welding by position bits, edge use counts) against the plain rule written with keyed
 * Maps: the same welded ids in the same order, the same kept triangles, the same boundary count, on random meshes
 * with repeated positions, degenerate and out-of-range triangles, and on a real model.
 */

function reference(positions: Float32Array, indices: Uint32Array, vertexCount: number) {
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, vertexCount * 3);
  const weld: number[] = [];
  const representative: number[] = [];
  const byPosition = new Map<string, number>();
  for (let v = 0; v < vertexCount; v++) {
    const key = `${bits[v * 3]},${bits[v * 3 + 1]},${bits[v * 3 + 2]}`;
    let w = byPosition.get(key);
    if (w === undefined) {
      w = representative.length;
      byPosition.set(key, w);
      representative.push(v);
    }
    weld.push(w);
  }
  const kept: number[] = [];
  const uses = new Map<string, number>();
  const count = (a: number, b: number): void => {
    const key = `${Math.min(a, b)},${Math.max(a, b)}`;
    uses.set(key, (uses.get(key) ?? 0) + 1);
  };
  for (let i = 0; i + 2 < indices.length; i += 3) {
    const [a, b, c] = [indices[i]!, indices[i + 1]!, indices[i + 2]!];
    if (a >= vertexCount || b >= vertexCount || c >= vertexCount) continue;
    const [wa, wb, wc] = [weld[a]!, weld[b]!, weld[c]!];
    if (wa === wb || wb === wc || wa === wc) continue;
    kept.push(a, b, c);
    count(wa, wb);
    count(wb, wc);
    count(wc, wa);
  }
  const boundaryEdges = [...uses.values()].filter((n) => n === 1).length;
  return { weld, representative, kept, boundaryEdges };
}

function expectSame(positions: Float32Array, indices: Uint32Array, vertexCount: number): void {
  const t = buildTopology(positions, indices, vertexCount);
  const r = reference(positions, indices, vertexCount);
  expect(Array.from(t.weld)).toEqual(r.weld);
  expect(Array.from(t.representative)).toEqual(r.representative);
  expect(t.weldedCount).toBe(r.representative.length);
  expect(Array.from(t.triangles)).toEqual(r.kept);
  expect(t.boundaryEdges).toBe(r.boundaryEdges);
  expect(t.open).toBe(r.boundaryEdges > 0);
}

describe('buildTopology tables', () => {
  it('match the plain rule on random meshes: repeated positions, -0 and 0, degenerate, repeated and out-of-range triangles', () => {
    let seed = 11;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (let trial = 0; trial < 30; trial++) {
      const vertexCount = 1 + random(200);
      // Few distinct coordinates, so many vertices share a position; -0 welds apart from 0 (other bits).
      const values = [0, -0, 1, 0.5, -2, 3.25];
      const positions = Float32Array.from({ length: vertexCount * 3 }, () => values[random(values.length)]!);
      const triangles = random(400);
      const indices = Uint32Array.from({ length: triangles * 3 + random(3) }, () => random(vertexCount + (trial % 3 === 0 ? 3 : 0)));
      expectSame(positions, indices, vertexCount);
    }
  });

  it('match the plain rule on a closed real mesh and an open one', () => {
    const walker = loadModel('walker.m3d', new Uint8Array(readFileSync(join(process.cwd(), 'public', 'models', 'generated', 'walker.m3d'))));
    for (const m of walker.meshes) expectSame(m.positions, m.indices, m.vertexCount);
    const m = walker.meshes[0]!;
    expectSame(m.positions, m.indices.subarray(0, Math.floor(m.indices.length / 6) * 3), m.vertexCount);
  });
});
