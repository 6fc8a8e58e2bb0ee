import type { MorphDeltas } from '../../model/types.ts';
import type { PrimitiveGeometry } from './gltf-mesh.ts';
import type { Influences } from './gltf-skin.ts';
import { gatherVertices, remapDeltas } from '../../model/remap.ts';

/**
 * Flat shading for a primitive without NORMAL (glTF 2.0 §3.7.2.1: "When normals are not specified, client
 * implementations MUST calculate flat normals"): every triangle gets its own three vertices, all carrying the
 * triangle's face normal, so the mesh draws faceted as the author saw it (low-poly models such as the Fox rely on
 * this). Every per-vertex array follows its source vertex: positions, UVs, tangents, vertex colours, joints and weights, and the
 * sparse morph deltas (a delta moves every copy of its vertex). The morph normal deltas stay those of the file
 * (none, for a primitive without normals): a morphed face keeps its rest normal.
 *
 * Load time only: allocates the unwelded arrays (3 vertices per triangle); a non-indexed triangle list keeps its
 * arrays (only its normals are new).
 */

export interface FlatPrimitive {
  readonly geometry: PrimitiveGeometry;
  readonly influences: Influences;
  readonly morphs: MorphDeltas[] | null;
}

/** `checked` (validateScene's): the new index array joins it, and the new positions when the old ones were in it. */
export function unweldFlat(geo: PrimitiveGeometry, inf: Influences, morphs: readonly MorphDeltas[] | null, checked: Set<ArrayBufferView>): FlatPrimitive {
  // A non-indexed triangle list is unwelded already: its arrays serve as they are (shared, like any primitive's).
  if (geo.sequential) return { geometry: { ...geo, normals: faceNormals(geo.positions), computedNormals: true }, influences: inf, morphs: morphs ? [...morphs] : null };
  const src = geo.indices;
  const n = src.length;
  const positions = gatherVertices(geo.positions, src, 3);
  const indices = new Uint32Array(n);
  for (let i = 0; i < n; i++) indices[i] = i;
  checked.add(indices);
  if (checked.has(geo.positions)) checked.add(positions);
  const geometry: PrimitiveGeometry = {
    vertexCount: n,
    positions,
    normals: faceNormals(positions),
    tangents: geo.tangents ? gatherVertices(geo.tangents, src, 4) : null,
    uvs: geo.uvs ? gatherVertices(geo.uvs, src, 2) : null,
    colors: geo.colors ? gatherVertices(geo.colors, src, 4) : null,
    colourNote: geo.colourNote,
    indices,
    sequential: true,
    computedNormals: true,
  };
  const influences: Influences = {
    joints: gatherVertices(inf.joints, src, 4),
    weights: gatherVertices(inf.weights, src, 4),
    maxInfluences: inf.maxInfluences,
    overflow: inf.overflow,
    rescaled: inf.rescaled,
    empty: inf.empty,
    tidy: inf.tidy,
  };
  return { geometry, influences, morphs: morphs ? morphs.map((d) => remapDeltas(d, src, geo.vertexCount)) : null };
}

/** The face normal of each triangle (vertices 3t, 3t + 1, 3t + 2 of `positions`) on its three vertices; a new array. */
function faceNormals(positions: Float32Array): Float32Array {
  const n = positions.length / 3;
  const normals = new Float32Array(n * 3);
  for (let t = 0; t + 2 < n; t += 3) {
    const a = t * 3;
    const e1x = positions[a + 3]! - positions[a]!, e1y = positions[a + 4]! - positions[a + 1]!, e1z = positions[a + 5]! - positions[a + 2]!;
    const e2x = positions[a + 6]! - positions[a]!, e2y = positions[a + 7]! - positions[a + 1]!, e2z = positions[a + 8]! - positions[a + 2]!;
    let nx = e1y * e2z - e1z * e2y;
    let ny = e1z * e2x - e1x * e2z;
    let nz = e1x * e2y - e1y * e2x;
    const len = Math.hypot(nx, ny, nz);
    // A degenerate triangle covers no pixel; any unit normal will do.
    if (len > 0 && Number.isFinite(len)) {
      nx /= len;
      ny /= len;
      nz /= len;
    } else {
      nx = 0;
      ny = 1;
      nz = 0;
    }
    for (let k = 0; k < 9; k += 3) {
      normals[a + k] = nx;
      normals[a + k + 1] = ny;
      normals[a + k + 2] = nz;
    }
  }
  return normals;
}
