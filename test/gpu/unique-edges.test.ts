import { describe, expect, it } from 'vitest';
import { uniqueEdges } from '../../src/gpu/mesh-buffers.ts';

/** The plain rule: each triangle's (i0, i1), (i1, i2), (i2, i0) in turn, lower index first, kept the first time it appears. */
function reference(indices: Uint32Array): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  for (let t = 0; t + 2 < indices.length; t += 3) {
    for (const [a, b] of [[indices[t]!, indices[t + 1]!], [indices[t + 1]!, indices[t + 2]!], [indices[t + 2]!, indices[t]!]] as const) {
      const pair = [Math.min(a, b), Math.max(a, b)];
      const key = pair.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(...pair);
    }
  }
  return out;
}

describe('uniqueEdges (the wireframe index buffer)', () => {
  it('two triangles sharing an edge: five edges, in the order the triangles name them', () => {
    expect([...uniqueEdges(Uint32Array.of(0, 1, 2, 2, 1, 3))]).toEqual([0, 1, 1, 2, 0, 2, 1, 3, 2, 3]);
  });

  it('matches the plain rule on random meshes, degenerate and repeated triangles included', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (const [triangles, vertices] of [[1, 3], [50, 10], [2000, 300], [20000, 70000]] as const) {
      const indices = new Uint32Array(triangles * 3);
      for (let i = 0; i < indices.length; i++) indices[i] = random(vertices);
      // Some triangles again, some with a repeated corner.
      for (let t = 3; t < triangles; t += 7) indices.copyWithin(t * 3, (t - 3) * 3, (t - 2) * 3);
      for (let t = 1; t < triangles; t += 11) indices[t * 3 + 1] = indices[t * 3]!;
      expect([...uniqueEdges(indices)], `${triangles} triangles over ${vertices} vertices`).toEqual(reference(indices));
    }
  });
});
