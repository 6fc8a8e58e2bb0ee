/** A tiny hand-built morph mesh for the morph tests: 4 vertices, 3 targets (names a, b, c). */

import { MAX_INFLUENCES, type MorphDeltas, type SkinnedMesh } from '../../src/model/types.ts';

export function deltas(vertices: number[], positions: number[], normals: number[]): MorphDeltas {
  return { vertices: Uint32Array.from(vertices), positions: Float32Array.from(positions), normals: Float32Array.from(normals) };
}

/** A unit quad in the XY plane facing +Z, one bone; target 0 lifts vertex 1 and 3, target 1 tilts vertex 2's normal, target 2 moves nothing. */
export function morphQuad(): SkinnedMesh {
  const n = 4;
  return {
    name: 'quad',
    vertexCount: n,
    positions: Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]),
    normals: Float32Array.from([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]),
    tangents: Float32Array.from([1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1]),
    uvs: null,
    joints: new Uint16Array(n * MAX_INFLUENCES),
    weights: Float32Array.from({ length: n * MAX_INFLUENCES }, (_, i) => (i % 4 === 0 ? 1 : 0)),
    maxInfluences: 1,
    indices: Uint32Array.from([0, 1, 2, 2, 1, 3]),
    subsets: [{ material: 0, start: 0, count: 2 }],
    bones: Int16Array.from([0]),
    invBind: Float32Array.from([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
    skinned: true,
    morphs: [
      deltas([1, 3], [0, 0, 0.5, 0, 0.2, 1], [0, 0, 0, 0, 0, 0]),
      deltas([2], [0.1, 0, 0], [1, 0, -1]),
      deltas([], [], []),
    ],
  };
}
