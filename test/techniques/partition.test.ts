import { describe, expect, it } from 'vitest';
import { MAX_INFLUENCES, type SkinnedMesh } from '../../src/model/types.ts';
import { truncateInfluences } from '../../src/techniques/influences.ts';
import { maxFaceBones, partitionMesh, type Partition } from '../../src/techniques/partition.ts';
import { humanoid } from './fixtures.ts';

/** Sorted "a,b,c" keys of the mesh's triangles (as source vertex ids), for multiset comparison. */
function triangleKeys(indices: ArrayLike<number>, map: (i: number) => number): string[] {
  const keys: string[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    keys.push([map(indices[t]!), map(indices[t + 1]!), map(indices[t + 2]!)].join(','));
  }
  return keys.sort();
}

function checkInvariants(mesh: SkinnedMesh, part: Partition, influences: number, limit: number): void {
  // Every triangle in exactly one group, corners unchanged (as mesh vertices, in winding order).
  expect(triangleKeys(part.indices, (i) => part.sourceVertex[i]!)).toEqual(triangleKeys(mesh.indices, (i) => i));
  const trunc = truncateInfluences(mesh, influences);
  let triangles = 0;
  let vertices = 0;
  for (const [gi, g] of part.groups.entries()) {
    expect(g.bones.length).toBeGreaterThan(0);
    expect(g.bones.length).toBeLessThanOrEqual(limit);
    expect(new Set(g.bones).size).toBe(g.bones.length);
    expect(g.vertexStart).toBe(vertices);
    vertices += g.vertexCount;
    triangles += g.triangleCount;
    for (const run of g.runs) {
      for (let i = run.first; i < run.first + run.count; i++) {
        const v = part.indices[i]!;
        // A group's triangles use only the group's own vertex copies.
        expect(v >= g.vertexStart && v < g.vertexStart + g.vertexCount, `group ${gi} index ${i}`).toBe(true);
      }
    }
    // Local joints map back to the right mesh bones with the right weights.
    for (let v = g.vertexStart; v < g.vertexStart + g.vertexCount; v++) {
      const s = part.sourceVertex[v]!;
      let sum = 0;
      for (let k = 0; k < MAX_INFLUENCES; k++) {
        const local = part.localJoints[v * MAX_INFLUENCES + k]!;
        expect(local).toBeLessThan(g.bones.length);
        const w = part.weights[v * MAX_INFLUENCES + k]!;
        sum += w;
        if (!part.approximated[v] && w > 0) {
          expect(g.bones[local]).toBe(trunc.joints[s * MAX_INFLUENCES + k]);
          expect(w).toBeCloseTo(trunc.weights[s * MAX_INFLUENCES + k]!, 6);
        }
      }
      expect(sum).toBeCloseTo(1, 5);
    }
  }
  expect(triangles).toBe(mesh.indices.length / 3);
  expect(vertices).toBe(part.vertexCount);
  // Duplicates: copies beyond one per distinct mesh vertex.
  expect(part.duplicatedVertices).toBe(part.vertexCount - new Set(part.sourceVertex).size);
}

describe('partitionMesh', () => {
  const mesh = humanoid().meshes[0]!;

  it('splits into palette-sized groups (ff-indexed) with every triangle once and local indices mapping back', () => {
    for (const influences of [1, 2, 4]) {
      const limit = Math.max(12, maxFaceBones(mesh, influences));
      const part = partitionMesh(mesh, influences, limit);
      checkInvariants(mesh, part, influences, limit);
      expect(part.approximatedTriangles).toBe(0);
      expect(part.groups.length).toBeGreaterThan(1);
      expect(part.duplicatedVertices).toBeGreaterThan(0);
    }
  });

  it('one group and no duplicates when the palette holds every bone', () => {
    const part = partitionMesh(mesh, 4, 255);
    checkInvariants(mesh, part, 4, 255);
    expect(part.groups.length).toBe(1);
    expect(part.duplicatedVertices).toBe(0);
    expect(part.vertexCount).toBe(mesh.vertexCount);
  });

  it('rigid (1 influence) needs as many bones per triangle as distinct corners bones, at most 3', () => {
    expect(maxFaceBones(mesh, 1)).toBeLessThanOrEqual(3);
    expect(maxFaceBones(mesh, 4)).toBeGreaterThan(4);
  });

  it('4-bone groups (ff-nonindexed) approximate only the triangles that need more, with private copies', () => {
    const part = partitionMesh(mesh, 4, 4, true);
    checkInvariants(mesh, part, 4, 4);
    expect(part.approximatedTriangles).toBeGreaterThan(0);
    expect(part.approximatedTriangles).toBeLessThan(mesh.indices.length / 3 / 10);
    let flagged = 0;
    for (const a of part.approximated) flagged += a;
    expect(flagged).toBe(part.approximatedTriangles * 3);
    // Without approximation the same limit is refused.
    expect(() => partitionMesh(mesh, 4, 4)).toThrow(/needs \d+ bones/);
    // With 2 influences fewer triangles need more than 4 bones.
    expect(partitionMesh(mesh, 2, 4, true).approximatedTriangles).toBeLessThan(part.approximatedTriangles);
  });

  it('a smaller palette gives more groups and more duplicated vertices', () => {
    const min = maxFaceBones(mesh, 4);
    const small = partitionMesh(mesh, 4, min);
    const large = partitionMesh(mesh, 4, 30);
    expect(small.groups.length).toBeGreaterThan(large.groups.length);
    expect(small.duplicatedVertices).toBeGreaterThan(large.duplicatedVertices);
  });
});
