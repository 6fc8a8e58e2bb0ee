import type { Scene, SkinnedMesh } from '../../model/types.ts';
import type { MikkTSpace } from './mikktspace.ts';
import { gatherVertices, remapDeltas } from '../../model/remap.ts';

/**
 * MikkTSpace tangents for the meshes that need them: a mesh drawn with a material that names a normal map
 * (`Material.normalMap`), with UVs and no tangents of its own. Normal maps are baked against MikkTSpace
 * tangents (Blender, Substance, xNormal…; glTF 2.0 §3.7.2.1 names it), so these are the tangents the map's
 * author saw.
 *
 * MikkTSpace works on triangle corners: the mesh is unwelded, MikkTSpace runs, and corners are welded back by
 * (source vertex, tangent): a vertex is split only where its corners' tangents disagree (UV seams, mirrored
 * UVs). Every per-vertex array follows its source vertex (PER_VERTEX below, and the sparse morph deltas: a
 * delta moves every copy of its vertex); the index buffer is rewritten; subsets are unchanged.
 *
 * Convention out: skinlab's (glTF's): xyz unit, w = ±1 with bitangent = w · cross(normal, tangent) pointing
 * along decreasing v (UV origin top-left, so towards the image's top, the normal map's +Y). MikkTSpace's own
 * sign is for v growing upwards, hence the flip.
 *
 * Meshes that share vertex arrays (one glTF mesh placed by several nodes) keep sharing them. Load time only;
 * allocates the new arrays, and corner arrays of 3·triangles entries while it works.
 */

/** The per-vertex arrays of a SkinnedMesh and their floats (or ints) per vertex: one line each. */
const PER_VERTEX = [
  ['positions', 3],
  ['normals', 3],
  ['uvs', 2],
  ['joints', 4],
  ['weights', 4],
  ['colors', 4],
] as const satisfies readonly (readonly [keyof SkinnedMesh, number])[];

/** True when the mesh wants generated tangents: a normal-mapped material, UVs, no tangents. */
export function needsTangents(mesh: SkinnedMesh, scene: Pick<Scene, 'materials'>): boolean {
  if (mesh.tangents || !mesh.uvs || mesh.indices.length === 0) return false;
  return mesh.subsets.some((s) => Boolean(scene.materials[s.material]?.normalMap));
}

/** True when some mesh of the scene wants generated tangents (the caller then loads MikkTSpace). */
export function sceneNeedsTangents(scene: Pick<Scene, 'meshes' | 'materials'>): boolean {
  return scene.meshes.some((m) => needsTangents(m, scene));
}

/** How a mesh's vertices map onto the welded result: out vertex j copies source vertex src[j]. */
interface Weld {
  readonly src: Uint32Array;
  readonly indices: Uint32Array;
  readonly tangents: Float32Array;
}

/**
 * The scene with MikkTSpace tangents on every mesh `needsTangents` picks (the others unchanged), and
 * `tangentsGenerated` set to how many meshes got them. A scene with none to do is returned as is.
 */
export function withGeneratedTangents(scene: Scene, mikk: MikkTSpace): Scene {
  const welds = new Map<Uint32Array, { positions: Float32Array; weld: Weld }>();
  const copies = new Map<object, object>();
  let generated = 0;
  const meshes = scene.meshes.map((mesh) => {
    if (!needsTangents(mesh, scene)) return mesh;
    let weld = welds.get(mesh.indices);
    if (weld?.positions !== mesh.positions) welds.set(mesh.indices, (weld = { positions: mesh.positions, weld: weldByTangent(mesh, mikk) }));
    generated++;
    return remapMesh(mesh, weld.weld, copies);
  });
  if (generated === 0) return scene;
  return { ...scene, meshes, tangentsGenerated: generated };
}

/** MikkTSpace on the unwelded corners, welded back by (source vertex, tangent). */
export function weldByTangent(mesh: Pick<SkinnedMesh, 'vertexCount' | 'positions' | 'normals' | 'uvs' | 'indices'>, mikk: MikkTSpace): Weld {
  const corners = mesh.indices;
  const n = corners.length;
  const cornerTangents = mikk(gatherVertices(mesh.positions, corners, 3), gatherVertices(mesh.normals, corners, 3), gatherVertices(mesh.uvs!, corners, 2));
  if (cornerTangents.length !== n * 4) throw new Error(`MikkTSpace returned ${cornerTangents.length / 4} tangents for ${n} corners`);
  // One chain per source vertex of the output vertices made from it so far.
  const first = new Int32Array(mesh.vertexCount).fill(-1);
  const next = new Int32Array(n);
  const src = new Uint32Array(n);
  const tangents = new Float32Array(n * 4);
  const indices = new Uint32Array(n);
  let count = 0;
  for (let c = 0; c < n; c++) {
    const v = corners[c]!;
    const t = c * 4;
    const tx = cornerTangents[t]!, ty = cornerTangents[t + 1]!, tz = cornerTangents[t + 2]!;
    const tw = cornerTangents[t + 3]! < 0 ? 1 : -1;
    let j = first[v]!;
    while (j >= 0) {
      const o = j * 4;
      if (tangents[o] === tx && tangents[o + 1] === ty && tangents[o + 2] === tz && tangents[o + 3] === tw) break;
      j = next[j]!;
    }
    if (j < 0) {
      j = count++;
      src[j] = v;
      const o = j * 4;
      tangents[o] = tx;
      tangents[o + 1] = ty;
      tangents[o + 2] = tz;
      tangents[o + 3] = tw;
      next[j] = first[v]!;
      first[v] = j;
    }
    indices[c] = j;
  }
  return { src: src.slice(0, count), indices, tangents: tangents.slice(0, count * 4) };
}

function remapMesh(mesh: SkinnedMesh, weld: Weld, copies: Map<object, object>): SkinnedMesh {
  const once = <T extends object>(from: T, make: () => T): T => {
    let out = copies.get(from) as T | undefined;
    if (!out) copies.set(from, (out = make()));
    return out;
  };
  const arrays: Record<string, Float32Array | Uint16Array | null> = {};
  for (const [key, size] of PER_VERTEX) {
    const values = mesh[key] as Float32Array | Uint16Array | null;
    arrays[key] = values && once(values, () => gatherVertices(values, weld.src, size));
  }
  return {
    ...mesh,
    ...arrays,
    vertexCount: weld.src.length,
    tangents: weld.tangents,
    indices: weld.indices,
    ...(mesh.morphs ? { morphs: once(mesh.morphs, () => mesh.morphs!.map((d) => remapDeltas(d, weld.src, mesh.vertexCount))) } : {}),
  };
}
