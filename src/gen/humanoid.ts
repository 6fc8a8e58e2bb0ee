import { MAX_INFLUENCES, type Material, type Scene, type SkinnedMesh, type Subset } from '../model/types.ts';
import { humanoidBlends, humanoidPrimitives, humanoidRig, regionAt, Region } from './humanoid-body.ts';
import { humanoidClips } from './humanoid-motion.ts';
import { compileField, fieldBounds, nearestPrimitive, paintAt, sampleGrid, type Field } from './implicit-field.ts';
import { marchingCubes } from './marching-cubes.ts';
import type { Rig } from './rig.ts';
import type { Primitive, Vec3 } from './sdf-primitives.ts';
import { buildAdjacency, dropSmallPieces, fieldNormals, relax, snapRegionBorders } from './surface.ts';
import { cylindricalUVs } from './uv.ts';
import { computeSkinWeights, type WeightOptions } from './weights.ts';

/**
 * skinlab's embedded default character: a ~1.8 m stylised person ("skinlab walker") built from an
 * implicit body around a 43-bone skeleton, meshed with marching cubes, skinned procedurally and
 * animated with looping `idle`, `walk`, `wave` and `run` clips.
 *
 * Contract
 * - Output is a complete, valid Scene (format 'm3d', floatBits 0): one closed, manifold, outward
 *   wound SkinnedMesh in bind space (model conventions of src/model/types.ts), palette slot k =
 *   node k, invBind = inverse bind model matrices, one subset per material in material order.
 * - `resolution`: grid cells per 1.8 m (the figure's height); the default (120) gives about 22k
 *   triangles, 64 about 6k, 96 about 14k.
 *   Clamped to [24, 256]. Cost grows with its cube in the field sampling and its square in triangles.
 * - `seed` changes only small secondary motions of `idle` and `wave` (never the mesh or the gaits). Same options → bit-identical arrays (no Math.random,
 *   no time, no unordered iteration).
 * - Allocates freely; meant for load time / build time (`npm run gen`), not per frame.
 */

export interface HumanoidOptions {
  /** Grid cells per 1.8 m. Default DEFAULT_RESOLUTION. */
  readonly resolution?: number;
  /** PRNG seed for idle variations. Default 1. */
  readonly seed?: number;
}

export const DEFAULT_RESOLUTION = 120;
const FIGURE_HEIGHT = 1.8;
const RELAX_ITERATIONS = 3;

/** One sRGB channel (0..255) → linear 0..1. */
export function srgbToLinear(c: number): number {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** A texture-free material: diffuse from an sRGB pick (0..255) made linear, grey specular. */
export function material(name: string, srgb: [number, number, number], specular: number, specularPower: number): Material {
  return {
    name,
    diffuse: [srgbToLinear(srgb[0]), srgbToLinear(srgb[1]), srgbToLinear(srgb[2]), 1],
    specular: [specular, specular, specular],
    specularPower,
    emissive: [0, 0, 0],
    diffuseMap: null,
    normalMap: null,
  };
}

/**
 * Materials in Region order (humanoid-body.ts): skin, shirt, trousers, shoes (also the belt), hair
 * (also the eyebrows), eyes, lips. Diffuse colours are linear (converted from the sRGB picks below).
 */
export const HUMANOID_MATERIALS: readonly Material[] = [
  material('skin', [226, 170, 136], 0.12, 20),
  material('shirt', [58, 118, 168], 0.05, 10),
  material('trousers', [52, 56, 76], 0.04, 8),
  material('shoes', [92, 58, 38], 0.2, 32),
  material('hair', [58, 38, 26], 0.15, 24),
  material('eyes', [24, 20, 22], 0.5, 64),
  material('lips', [178, 98, 90], 0.15, 24),
];

export function generateHumanoid(options: HumanoidOptions = {}): Scene {
  const resolution = Math.min(256, Math.max(24, Math.round(options.resolution ?? DEFAULT_RESOLUTION)));
  const seed = Math.trunc(options.seed ?? 1);
  const rig = humanoidRig();
  const field = compileField(humanoidPrimitives(rig));
  const mesh = buildBodyMesh(rig, field, resolution);
  return {
    name: 'skinlab walker',
    format: 'm3d',
    floatBits: 0,
    skeleton: rig.skeleton,
    meshes: [mesh],
    clips: humanoidClips(rig, seed),
    materials: HUMANOID_MATERIALS,
    morphTargets: [],
    warnings: [],
  };
}

function buildBodyMesh(rig: Rig, field: Field, resolution: number): SkinnedMesh {
  const step = FIGURE_HEIGHT / resolution;
  const regionOf = humanoidRegionOf(rig, field);
  const surface = extractSurface(field, fieldBounds(field, 2 * step), step, regionOf, RELAX_ITERATIONS);
  const triRegion = triangleRegions(surface.positions, surface.indices, regionOf);
  return assembleMesh('body', rig, field, surface.positions, surface.indices, triRegion, HUMANOID_MATERIALS.length, {
    blends: humanoidBlends(rig),
    smoothIterations: 6,
    smoothRate: 0.5,
    minWeight: 0.01,
  }).mesh;
}

/** Region of a surface point of the walker's field: paint decals first, else the generating primitive's region. */
export function humanoidRegionOf(rig: Rig, field: Field): (x: number, y: number, z: number) => number {
  return (x, y, z) => {
    const paint = paintAt(field, x, y, z);
    if (paint >= 0) return field.primitives[paint]!.tag;
    const p = nearestPrimitive(field, x, y, z);
    return p < 0 ? Region.Skin : regionAt(rig, field.primitives[p]!, [x, y, z]);
  };
}

/**
 * The zero set of `field` inside `bounds`, meshed at grid spacing `step`: marching cubes, crumbs
 * dropped (pieces under 1 % of the largest), `relaxIterations` rounds of tangential relaxation with
 * re-projection, region borders (by `regionOf`) snapped onto the label curves. Closed and manifold
 * when the surface does not leave `bounds` (else closed by caps on the box faces). Positions in the
 * field's space; vertex numbering is the mesher's (vertices of dropped pieces stay, unused).
 */
export function extractSurface(
  field: Field,
  bounds: [Vec3, Vec3],
  step: number,
  regionOf: (x: number, y: number, z: number) => number,
  relaxIterations: number,
): { positions: Float32Array; indices: Uint32Array } {
  const grid = sampleGrid(field, bounds, step);
  const raw = marchingCubes(grid);
  const positions = raw.positions;
  const indices = dropSmallPieces(raw.indices, raw.positions.length / 3, 0.01);
  const count = positions.length / 3;
  const adjacency = buildAdjacency(indices, count);
  relax(field, positions, indices, adjacency, relaxIterations, 0.5);
  snapRegionBorders(field, positions, indices, adjacency, regionOf);
  return { positions, indices };
}

/** Region of each triangle: `regionOf` at its centroid. */
export function triangleRegions(
  positions: Float32Array,
  indices: Uint32Array,
  regionOf: (x: number, y: number, z: number) => number,
): Uint8Array {
  const triCount = indices.length / 3;
  const triRegion = new Uint8Array(triCount);
  for (let t = 0; t < triCount; t++) {
    const c = [0, 0, 0];
    for (let e = 0; e < 3; e++) for (let k = 0; k < 3; k++) c[k] += positions[indices[t * 3 + e]! * 3 + k]! / 3;
    triRegion[t] = regionOf(c[0]!, c[1]!, c[2]!);
  }
  return triRegion;
}

/**
 * A SkinnedMesh from a triangle soup on `field`'s surface: triangles sorted by region (stable; region
 * = material slot, one subset per slot 0..materialCount−1, empty ones included), vertices renumbered
 * by first use (`remap[raw] = new index`, −1 when unused), normals from the field gradient, owner of
 * each vertex = bone of the nearest union primitive (accepted by `accept`), skin weights (weights.ts),
 * cylindrical UVs and tangents (uv.ts). Palette slot k = node k, invBind = the rig's.
 */
export function assembleMesh(
  name: string,
  rig: Rig,
  field: Field,
  rawPositions: Float32Array,
  rawIndices: Uint32Array,
  triRegion: Uint8Array,
  materialCount: number,
  weightOptions: WeightOptions,
  accept?: (p: Primitive) => boolean,
): { mesh: SkinnedMesh; remap: Int32Array; owner: Int32Array } {
  const rawCount = rawPositions.length / 3;
  const triCount = rawIndices.length / 3;
  // Triangles sorted by region (stable), vertices renumbered by first use.
  const order = Array.from({ length: triCount }, (_, i) => i).sort((a, b) => triRegion[a]! - triRegion[b]! || a - b);
  const remap = new Int32Array(rawCount).fill(-1);
  const indices = new Uint32Array(rawIndices.length);
  let vertexCount = 0;
  const firstUse: number[] = [];
  order.forEach((t, i) => {
    for (let e = 0; e < 3; e++) {
      const v = rawIndices[t * 3 + e]!;
      if (remap[v] === -1) {
        remap[v] = vertexCount++;
        firstUse.push(v);
      }
      indices[i * 3 + e] = remap[v]!;
    }
  });
  const positions = new Float32Array(vertexCount * 3);
  firstUse.forEach((v, i) => positions.set(rawPositions.subarray(v * 3, v * 3 + 3), i * 3));

  const subsets: Subset[] = [];
  let start = 0;
  for (let m = 0; m < materialCount; m++) {
    let count = 0;
    while (start + count < triCount && triRegion[order[start + count]!] === m) count++;
    subsets.push({ material: m, start, count });
    start += count;
  }

  const normals = new Float32Array(vertexCount * 3);
  fieldNormals(field, positions, normals);

  const owner = new Int32Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    const p = nearestPrimitive(field, positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!, accept);
    owner[v] = p < 0 ? 0 : Math.max(0, field.primitives[p]!.bone);
  }
  const adjacency = buildAdjacency(indices, vertexCount);
  const skin = computeSkinWeights(positions, adjacency, owner, rig, weightOptions);
  const { uvs, tangents } = cylindricalUVs(positions, normals, owner, rig);

  const bones = new Int16Array(rig.count);
  for (let i = 0; i < rig.count; i++) bones[i] = i;
  const mesh: SkinnedMesh = {
    name,
    vertexCount,
    positions,
    normals,
    tangents,
    uvs,
    joints: skin.joints,
    weights: skin.weights,
    maxInfluences: Math.min(MAX_INFLUENCES, skin.maxInfluences),
    indices,
    subsets,
    bones,
    invBind: rig.invBind.slice(),
    skinned: true,
  };
  return { mesh, remap, owner };
}
