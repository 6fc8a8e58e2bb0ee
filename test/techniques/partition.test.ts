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

  it('maxFaceBones: the widest triangle under truncateInfluences, read from the mesh itself (zero, negative and NaN weights included)', () => {
    let seed = 3;
    const random = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let round = 0; round < 20; round++) {
      const vertexCount = 30;
      const joints = new Uint16Array(vertexCount * MAX_INFLUENCES);
      const weights = new Float32Array(vertexCount * MAX_INFLUENCES);
      for (let i = 0; i < joints.length; i++) {
        joints[i] = Math.floor(random() * 40);
        const r = random();
        weights[i] = r < 0.15 ? 0 : r < 0.2 ? -0.5 : r < 0.23 ? NaN : r;
      }
      const indices = Uint32Array.from({ length: 60 * 3 }, () => Math.floor(random() * vertexCount));
      const mesh = { vertexCount, joints, weights, indices } as unknown as SkinnedMesh;
      for (let influences = 1; influences <= 4; influences++) {
        // The rule spelled out on the truncated copy.
        const t = truncateInfluences(mesh, influences);
        let widest = 1;
        for (let f = 0; f < indices.length; f += 3) {
          const bones = new Set<number>();
          for (let c = 0; c < 3; c++) {
            const o = indices[f + c]! * MAX_INFLUENCES;
            for (let k = 0; k < MAX_INFLUENCES && (k === 0 || t.weights[o + k]! > 0); k++) bones.add(t.joints[o + k]!);
          }
          widest = Math.max(widest, bones.size);
        }
        expect(maxFaceBones(mesh, influences), `round ${round}, ${influences} influences`).toBe(widest);
      }
    }
  });
});
