import type { MorphDeltas } from './types.ts';

/**
 * Re-indexing a mesh's per-vertex data by a source map: new vertex i is old vertex src[i]. Used where a mesh's
 * vertices are split or re-welded after loading (glTF's flat unwelding, generated tangents' re-welding), so the
 * per-vertex arrays and the sparse morph deltas follow the same map. Load time only (allocates).
 */

/** out[i] = values[src[i]] for elements of `size` components; a new array of values' type. */
export function gatherVertices<T extends Float32Array | Uint16Array>(values: T, src: Uint32Array, size: number): T {
  const out = new (values.constructor as new (n: number) => T)(src.length * size);
  for (let i = 0; i < src.length; i++) {
    const s = src[i]! * size;
    const o = i * size;
    for (let k = 0; k < size; k++) out[o + k] = values[s + k]!;
  }
  return out;
}

/**
 * The sparse deltas of a mesh of `vertexCount` vertices, for the mesh re-indexed by `src`: every new vertex whose
 * source moved moves the same, listed in ascending order as MorphDeltas requires. Deltas that move nothing are
 * returned as they are.
 */
export function remapDeltas(d: MorphDeltas, src: Uint32Array, vertexCount: number): MorphDeltas {
  if (d.vertices.length === 0) return d;
  const slot = new Int32Array(vertexCount).fill(-1);
  for (let i = 0; i < d.vertices.length; i++) slot[d.vertices[i]!] = i;
  let moved = 0;
  for (let i = 0; i < src.length; i++) if (slot[src[i]!]! >= 0) moved++;
  const vertices = new Uint32Array(moved);
  const positions = new Float32Array(moved * 3);
  const normals = new Float32Array(moved * 3);
  let j = 0;
  for (let i = 0; i < src.length; i++) {
    const s = slot[src[i]!]!;
    if (s < 0) continue;
    vertices[j] = i;
    for (let k = 0; k < 3; k++) {
      positions[j * 3 + k] = d.positions[s * 3 + k]!;
      normals[j * 3 + k] = d.normals[s * 3 + k]!;
    }
    j++;
  }
  return { vertices, positions, normals };
}
