import { LoadError } from '../../model/errors.ts';
import { elementCount, knownFinite, readFloats, readUints } from './gltf-accessor.ts';
import type { GltfPrimitive as Primitive } from './gltf-doc.ts';

/**
 * One glTF primitive → the vertex and triangle arrays of a SkinnedMesh (skin and morphs: gltf-skin.ts,
 * gltf-morph.ts). glTF shares skinlab's conventions (right-handed, +Y up, CCW front faces, UV origin top-left),
 * so nothing is mirrored or flipped.
 *
 * - Triangles: TRIANGLES as they are; TRIANGLE_STRIP (triangle i = i, i+1+(i&1), i+2−(i&1), keeping every
 *   triangle's winding) and TRIANGLE_FAN (i+1, i+2, 0) converted; indexed or not. POINTS and LINES modes
 *   return null (the caller skips them with one warning).
 * - NORMAL absent: `computedNormals` is set and `normals` is empty; the caller unwelds the primitive into
 *   flat-shaded triangles with their face normals, as glTF requires (gltf-flat.ts). TANGENT (xyz,
 *   w = ±1) kept when present.
 * - COLOR_0 (VEC3 or VEC4; FLOAT, or normalised UNSIGNED_BYTE / UNSIGNED_SHORT): linear RGBA, 4 floats per
 *   vertex (alpha 1 for VEC3), clamped to 0..1; another element size is skipped with a warning (`colourNote`).
 * - UVs: the TEXCOORD set the material's base colour texture reads, with its KHR_texture_transform baked in
 *   (u' = sx·cosθ·u + sy·sinθ·v + ox, v' = −sx·sinθ·u + sy·cosθ·v + oy: offset · rotation · scale).
 * Every index is checked against the vertex count (LoadError naming `where`).
 */

export interface UvTransform {
  readonly offset: readonly [number, number];
  readonly rotation: number;
  readonly scale: readonly [number, number];
}

export interface PrimitiveGeometry {
  readonly vertexCount: number;
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  readonly tangents: Float32Array | null;
  readonly uvs: Float32Array | null;
  /** COLOR_0 as linear RGBA, 4 floats per vertex, or null. */
  readonly colors: Float32Array | null;
  /** Why a COLOR_0 present in the file was not kept (for one warning), else null. */
  readonly colourNote: string | null;
  readonly indices: Uint32Array;
  /** True when `indices` is 0, 1, 2, … vertexCount − 1 (a non-indexed triangle list): every vertex is already one triangle's own. */
  readonly sequential: boolean;
  /** True when the file had no NORMAL: `normals` is then empty, and the caller computes flat ones (gltf-flat.ts). */
  readonly computedNormals: boolean;
}

export const MODE_TRIANGLES = 4;
export const MODE_TRIANGLE_STRIP = 5;
export const MODE_TRIANGLE_FAN = 6;

/** Null for POINTS / LINES / LINE_LOOP / LINE_STRIP. */
/** `checked` gets the arrays validateScene need not scan again: the indices (all in range here), finite positions. */
export function readGeometry(prim: Primitive, uvSet: number, uvTransform: UvTransform | null, where: string, checked: Set<ArrayBufferView>): PrimitiveGeometry | null {
  const mode = prim.getMode();
  if (mode !== MODE_TRIANGLES && mode !== MODE_TRIANGLE_STRIP && mode !== MODE_TRIANGLE_FAN) return null;
  const posAccessor = prim.getAttribute('POSITION');
  if (!posAccessor) throw new LoadError(`${where}: the primitive has no POSITION attribute`);
  const positions = readFloats(posAccessor, `${where}: POSITION`, 3);
  if (knownFinite(posAccessor)) checked.add(positions);
  const vertexCount = positions.length / 3;

  const indexAccessor = prim.getIndices();
  const raw = indexAccessor ? readUints(indexAccessor, `${where}: indices`) : null;
  const indices = triangulate(raw, vertexCount, mode);
  // Generated indices (no index accessor) are below vertexCount by construction; the file's are checked.
  if (raw) {
    for (let i = 0; i < indices.length; i++) {
      if (indices[i]! >= vertexCount) {
        throw new LoadError(`${where}: index ${indices[i]} at position ${i} is outside the primitive's ${vertexCount} vertices`);
      }
    }
  }
  checked.add(indices);

  const normalAccessor = prim.getAttribute('NORMAL');
  let normals: Float32Array = new Float32Array(0);
  const computedNormals = !normalAccessor;
  if (normalAccessor) {
    normals = readFloats(normalAccessor, `${where}: NORMAL`, 3);
    checkCount(normals.length / 3, vertexCount, `${where}: NORMAL`);
  }
  const tangentAccessor = prim.getAttribute('TANGENT');
  let tangents: Float32Array | null = null;
  if (tangentAccessor && tangentAccessor.getElementSize() === 4) {
    tangents = readFloats(tangentAccessor, `${where}: TANGENT`, 4);
    checkCount(tangents.length / 4, vertexCount, `${where}: TANGENT`);
    for (let v = 3; v < tangents.length; v += 4) tangents[v] = tangents[v]! < 0 ? -1 : 1;
  }
  const uvAccessor = prim.getAttribute(`TEXCOORD_${uvSet}`);
  let uvs: Float32Array | null = null;
  if (uvAccessor) {
    uvs = readFloats(uvAccessor, `${where}: TEXCOORD_${uvSet}`, 2);
    checkCount(uvs.length / 2, vertexCount, `${where}: TEXCOORD_${uvSet}`);
    if (uvTransform) transformUvs(uvs, uvTransform);
  }
  const { colors, colourNote } = readColours(prim, vertexCount, where);
  const sequential = !raw && mode === MODE_TRIANGLES && indices.length === vertexCount;
  return { vertexCount, positions, normals, tangents, uvs, colors, colourNote, indices, sequential, computedNormals };
}

/** COLOR_0 → linear RGBA (4 floats per vertex, 0..1), or null with the reason when it cannot be used. */
function readColours(prim: Primitive, vertexCount: number, where: string): { colors: Float32Array | null; colourNote: string | null } {
  const accessor = prim.getAttribute('COLOR_0');
  if (!accessor) return { colors: null, colourNote: null };
  const size = accessor.getElementSize();
  if (size !== 3 && size !== 4) return { colors: null, colourNote: `${where}: COLOR_0 has ${size} components per element (VEC3 or VEC4 expected)` };
  const array = accessor.getArray();
  if (array && !(array instanceof Float32Array) && !accessor.getNormalized()) {
    return { colors: null, colourNote: `${where}: COLOR_0 holds integers that are not normalised` };
  }
  const src = readFloats(accessor, `${where}: COLOR_0`, size);
  if (src.length / size !== vertexCount) {
    return { colors: null, colourNote: `${where}: COLOR_0 has ${src.length / size} elements, but POSITION has ${vertexCount}` };
  }
  const colors = new Float32Array(vertexCount * 4);
  for (let v = 0; v < vertexCount; v++) {
    for (let k = 0; k < 4; k++) {
      const x = k < size ? src[v * size + k]! : 1;
      // NaN stays NaN here: validation replaces such a vertex's colour with white, with a warning.
      colors[v * 4 + k] = x < 0 ? 0 : x > 1 ? 1 : x;
    }
  }
  return { colors, colourNote: null };
}

function checkCount(n: number, vertexCount: number, where: string): void {
  if (n !== vertexCount) throw new LoadError(`${where}: ${n} elements, but POSITION has ${vertexCount}`);
}

/** Triangle list (3 indices per triangle) of a TRIANGLES, TRIANGLE_STRIP or TRIANGLE_FAN primitive. */
export function triangulate(raw: Uint32Array | null, vertexCount: number, mode: number): Uint32Array {
  const n = raw ? raw.length : vertexCount;
  const at = raw ? (i: number): number => raw[i]! : (i: number): number => i;
  if (mode === MODE_TRIANGLES) {
    const count = n - (n % 3);
    if (raw) return count === n ? raw : raw.slice(0, count);
    const out = new Uint32Array(count);
    for (let i = 0; i < count; i++) out[i] = i;
    return out;
  }
  const tris = Math.max(0, n - 2);
  const out = new Uint32Array(tris * 3);
  for (let i = 0; i < tris; i++) {
    if (mode === MODE_TRIANGLE_STRIP) {
      const odd = i & 1;
      out[i * 3] = at(i);
      out[i * 3 + 1] = at(i + 1 + odd);
      out[i * 3 + 2] = at(i + 2 - odd);
    } else {
      out[i * 3] = at(i + 1);
      out[i * 3 + 1] = at(i + 2);
      out[i * 3 + 2] = at(0);
    }
  }
  return out;
}

/** KHR_texture_transform, in place: uv ← offset + rotation(θ) · scale · uv. */
export function transformUvs(uvs: Float32Array, t: UvTransform): void {
  const c = Math.cos(t.rotation);
  const s = Math.sin(t.rotation);
  const [sx, sy] = t.scale;
  const [ox, oy] = t.offset;
  const m00 = c * sx, m01 = s * sy, m10 = -s * sx, m11 = c * sy;
  for (let i = 0; i < uvs.length; i += 2) {
    const u = uvs[i]!;
    const v = uvs[i + 1]!;
    uvs[i] = m00 * u + m01 * v + ox;
    uvs[i + 1] = m10 * u + m11 * v + oy;
  }
}

/** Vertex count a primitive declares through POSITION (0 without it). */
export function primitiveVertexCount(prim: Primitive): number {
  return elementCount(prim.getAttribute('POSITION'));
}
