import { MAX_INFLUENCES, type MorphDeltas, type Scene, type SkinnedMesh, type Subset } from '../model/types.ts';
import {
  DAWN_MATERIALS, DawnRegion, NECK_CUT, NECK_ZIP, dawnBlends, dawnHairPrimitives, dawnPrimitives, dawnRig, FACE, leftWings,
} from './dawn-body.ts';
import { DAWN_TARGETS, computeMorphs } from './dawn-face.ts';
import { dawnClips } from './dawn-motion.ts';
import { emptyPiece, eyeball, wing, type Piece } from './dawn-parts.ts';
import { assembleMesh, extractSurface, humanoidRegionOf, triangleRegions } from './humanoid.ts';
import { compileField, fieldBounds, type Field } from './implicit-field.ts';
import type { Rig } from './rig.ts';
import type { Vec3 } from './sdf-primitives.ts';
import { boundaryLoops, clipAtY, zipLoops } from './seam.ts';

/**
 * Dawn, the fairy of NVIDIA's demo (GPU Gems ch. 4), generated: 100 bones, a body mesh and a separate
 * head mesh joined without a seam, hair and wings as their own skinned meshes, 50 facial morph targets
 * on the head (30 emotions, 20 modifiers), `idle` (breathing, sway, head and eye motion, ear and wing
 * flutter, an expression track) and `breathe` clips.
 *
 * Contract
 * - Output: a valid Scene (format 'm3d') with meshes [body, head, hair, wings] in bind space (model
 *   conventions of src/model/types.ts); palette slot k = node k in every mesh; invBind = inverse bind
 *   matrices; subsets only for the materials a mesh uses, in material order.
 * - Seam (Dawn §4.3): the body ends at the plane y = NECK_CUT; the head mesh is meshed on its own finer
 *   grid, cut at NECK_CUT + NECK_ZIP, and closed down to the body's cut by a strip whose lower border
 *   vertices are exact copies of the body's border vertices (position, normal, UV, tangent, skin
 *   weights). Body + head together are closed. No morph target moves the strip or anything near it.
 * - `morphTargets`/`morphKinds` follow DAWN_TARGETS; only the head mesh has `morphs` (dawn-face.ts).
 * - Detail levels (`DAWN_LEVELS`) change only grid spacing and parametric segment counts.
 * - Deterministic: same options → identical arrays (no Math.random, time or unordered iteration).
 * - Allocates freely; a build-time tool (`npm run gen`).
 */

export type DawnDetail = 'low' | 'medium' | 'high';

export interface DawnLevel {
  /** Grid spacing (metres) of the body, the head and the hair. */
  readonly bodyStep: number;
  readonly headStep: number;
  readonly hairStep: number;
  /** Segments around an eyeball; rings along and segments around a wing. */
  readonly eyeSegments: number;
  readonly wingAlong: number;
  readonly wingAround: number;
}

export const DAWN_LEVELS: Readonly<Record<DawnDetail, DawnLevel>> = {
  low: { bodyStep: 0.021, headStep: 0.0085, hairStep: 0.0165, eyeSegments: 14, wingAlong: 18, wingAround: 12 },
  medium: { bodyStep: 0.014, headStep: 0.0036, hairStep: 0.0087, eyeSegments: 24, wingAlong: 32, wingAround: 16 },
  high: { bodyStep: 0.0068, headStep: 0.0026, hairStep: 0.0045, eyeSegments: 40, wingAlong: 64, wingAround: 28 },
};

export interface DawnOptions {
  readonly detail?: DawnDetail;
  /** PRNG seed for small secondary motions of the clips. Default 1. */
  readonly seed?: number;
}

const RELAX_ITERATIONS = 3;

export function generateDawn(options: DawnOptions = {}): Scene {
  const level = DAWN_LEVELS[options.detail ?? 'medium'];
  const seed = Math.trunc(options.seed ?? 1);
  const rig = dawnRig();
  const field = compileField(dawnPrimitives(rig));
  const { body, head } = buildBodyAndHead(rig, field, level);
  const hair = buildHair(rig, level);
  const wings = buildWings(rig, level);
  return {
    name: 'dawn',
    format: 'm3d',
    floatBits: 0,
    skeleton: rig.skeleton,
    meshes: [body, head, hair, wings],
    clips: dawnClips(rig, seed),
    materials: DAWN_MATERIALS,
    morphTargets: DAWN_TARGETS.map((t) => t.name),
    morphKinds: DAWN_TARGETS.map((t) => t.kind),
    warnings: [],
  };
}

const SKIN_WEIGHTS = { smoothIterations: 6, smoothRate: 0.5, minWeight: 0.01 };

function buildBodyAndHead(rig: Rig, field: Field, level: DawnLevel): { body: SkinnedMesh; head: SkinnedMesh } {
  const regionOf = humanoidRegionOf(rig, field);
  const blends = dawnBlends(rig, 'skin');
  const [lo, hi] = fieldBounds(field, 2 * level.bodyStep);

  // Body: everything below the cut.
  const bodyTop = NECK_CUT + 3 * level.bodyStep;
  const bodyRaw = extractSurface(field, [lo, [hi[0], bodyTop, hi[2]]], level.bodyStep, regionOf, RELAX_ITERATIONS);
  const bodyCut = clipAtY(bodyRaw.positions, bodyRaw.indices, NECK_CUT, 'below');
  const bodyLoops = boundaryLoops(bodyCut.indices);
  if (bodyLoops.length !== 1) throw new Error(`dawn: the neck cut of the body has ${bodyLoops.length} borders, not 1`);
  const bodyRegions = triangleRegions(bodyCut.positions, bodyCut.indices, regionOf);
  const body = assembleMesh('body', rig, field, bodyCut.positions, bodyCut.indices, bodyRegions, DAWN_MATERIALS.length, { blends, ...SKIN_WEIGHTS });

  // Head: its own grid above the cut, cut a strip higher, then zipped down to the body's border.
  const headCutY = NECK_CUT + NECK_ZIP;
  const headLo: Vec3 = [-0.14, headCutY - 3 * level.headStep, -0.13];
  const headHi: Vec3 = [0.14, hi[1], 0.14];
  const headRaw = extractSurface(field, [headLo, headHi], level.headStep, regionOf, RELAX_ITERATIONS);
  const headCut = clipAtY(headRaw.positions, headRaw.indices, headCutY, 'above');
  const headLoops = boundaryLoops(headCut.indices);
  if (headLoops.length !== 1) throw new Error(`dawn: the neck cut of the head has ${headLoops.length} borders, not 1`);
  // Head vertex numbering for the zip: head raw vertices first, then copies of the body's border.
  const headCount = headCut.positions.length / 3;
  const bodyLoop = bodyLoops[0]!;
  const borderCopy = new Map<number, number>();
  bodyLoop.forEach((v, i) => borderCopy.set(v, headCount + i));
  const zip = zipLoops(bodyLoop, bodyCut.positions, headLoops[0]!, headCut.positions, (v) => borderCopy.get(v)!, (v) => v);
  const headPositions = new Float32Array((headCount + bodyLoop.length) * 3);
  headPositions.set(headCut.positions);
  bodyLoop.forEach((v, i) => headPositions.set(bodyCut.positions.subarray(v * 3, v * 3 + 3), (headCount + i) * 3));
  const headIndices = new Uint32Array(headCut.indices.length + zip.length);
  headIndices.set(headCut.indices);
  headIndices.set(zip, headCut.indices.length);
  const headRegions = new Uint8Array(headIndices.length / 3);
  headRegions.set(triangleRegions(headCut.positions, headCut.indices, regionOf));
  const headSkin = assembleMesh('head', rig, field, headPositions, headIndices, headRegions, DAWN_MATERIALS.length, { blends, ...SKIN_WEIGHTS });

  // Border vertices carry exactly the body's attributes (the zip's lower loop).
  const hm = headSkin.mesh;
  for (const v of bodyLoop) {
    const b = body.remap[v]!;
    const h = headSkin.remap[borderCopy.get(v)!]!;
    copyVertex(body.mesh, b, hm, h);
  }

  // Eyeballs, then the morph targets (the eyeballs never move).
  const eyes = emptyPiece();
  for (const s of ['l', 'r'] as const) {
    const c: Vec3 = s === 'l' ? FACE.eye : [-FACE.eye[0], FACE.eye[1], FACE.eye[2]];
    eyeball(eyes, c, FACE.eyeRadius, rig.index.get(`eye_${s}`)!, level.eyeSegments);
  }
  const head = appendPiece(hm, eyes);
  const movable = new Uint8Array(head.vertexCount);
  movable.fill(1, 0, hm.vertexCount);
  const morphs: MorphDeltas[] = computeMorphs(head.positions, head.normals, head.indices, movable);
  return { body: dropEmptySubsets(body.mesh), head: dropEmptySubsets({ ...head, morphs }) };
}

function copyVertex(src: SkinnedMesh, s: number, dst: SkinnedMesh, d: number): void {
  const w = dst as { -readonly [K in keyof SkinnedMesh]: SkinnedMesh[K] };
  w.positions.set(src.positions.subarray(s * 3, s * 3 + 3), d * 3);
  w.normals.set(src.normals.subarray(s * 3, s * 3 + 3), d * 3);
  w.uvs?.set(src.uvs!.subarray(s * 2, s * 2 + 2), d * 2);
  w.tangents?.set(src.tangents!.subarray(s * 4, s * 4 + 4), d * 4);
  w.joints.set(src.joints.subarray(s * MAX_INFLUENCES, (s + 1) * MAX_INFLUENCES), d * MAX_INFLUENCES);
  w.weights.set(src.weights.subarray(s * MAX_INFLUENCES, (s + 1) * MAX_INFLUENCES), d * MAX_INFLUENCES);
}

function buildHair(rig: Rig, level: DawnLevel): SkinnedMesh {
  const field = compileField(dawnHairPrimitives(rig));
  const bounds = fieldBounds(field, 2 * level.hairStep);
  const regionOf = (): number => DawnRegion.Hair;
  const raw = extractSurface(field, bounds, level.hairStep, regionOf, RELAX_ITERATIONS);
  const regions = new Uint8Array(raw.indices.length / 3).fill(DawnRegion.Hair);
  const { mesh } = assembleMesh('hair', rig, field, raw.positions, raw.indices, regions, DAWN_MATERIALS.length, {
    blends: dawnBlends(rig, 'hair'), ...SKIN_WEIGHTS,
  });
  return dropEmptySubsets(mesh);
}

function buildWings(rig: Rig, level: DawnLevel): SkinnedMesh {
  const piece = emptyPiece();
  for (const s of ['l', 'r'] as const) {
    for (const w of leftWings()) {
      const bones = w.joints.map((_, k) => rig.index.get(`wing_${w.name}_0${k + 1}_${s}`)!);
      wing(piece, w, bones, s === 'r', level.wingAlong, level.wingAround);
    }
  }
  return pieceMesh('wings', rig, piece);
}

/** A mesh from a parametric piece, triangles sorted by material (stable). */
function pieceMesh(name: string, rig: Rig, piece: Piece): SkinnedMesh {
  const empty: SkinnedMesh = {
    name, vertexCount: 0, positions: new Float32Array(0), normals: new Float32Array(0), tangents: new Float32Array(0),
    uvs: new Float32Array(0), joints: new Uint16Array(0), weights: new Float32Array(0), maxInfluences: 0,
    indices: new Uint32Array(0), subsets: [], bones: identityBones(rig), invBind: rig.invBind.slice(), skinned: true,
  };
  return dropEmptySubsets(appendPiece(empty, piece));
}

function identityBones(rig: Rig): Int16Array {
  const bones = new Int16Array(rig.count);
  for (let i = 0; i < rig.count; i++) bones[i] = i;
  return bones;
}

/**
 * `mesh` with `piece` appended: vertices after the mesh's, triangles merged into the material order
 * (each material's run = the mesh's triangles of it, then the piece's).
 */
function appendPiece(mesh: SkinnedMesh, piece: Piece): SkinnedMesh {
  const nv0 = mesh.vertexCount;
  const nv = nv0 + piece.positions.length / 3;
  const cat = <T extends Float32Array | Uint16Array>(a: T, b: number[], make: (n: number) => T): T => {
    const out = make(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  };
  const f32 = (n: number): Float32Array => new Float32Array(n);
  const materialOfTri: number[] = [];
  for (const s of mesh.subsets) for (let t = 0; t < s.count; t++) materialOfTri[s.start + t] = s.material;
  const tris: { m: number; a: number; b: number; c: number }[] = [];
  for (let t = 0; t < mesh.indices.length / 3; t++) {
    tris.push({ m: materialOfTri[t] ?? 0, a: mesh.indices[t * 3]!, b: mesh.indices[t * 3 + 1]!, c: mesh.indices[t * 3 + 2]! });
  }
  for (let t = 0; t < piece.triMaterial.length; t++) {
    tris.push({ m: piece.triMaterial[t]!, a: nv0 + piece.indices[t * 3]!, b: nv0 + piece.indices[t * 3 + 1]!, c: nv0 + piece.indices[t * 3 + 2]! });
  }
  const order = tris.map((_, i) => i).sort((x, y) => tris[x]!.m - tris[y]!.m || x - y);
  const indices = new Uint32Array(tris.length * 3);
  const subsets: Subset[] = [];
  order.forEach((ti, i) => {
    const t = tris[ti]!;
    indices[i * 3] = t.a;
    indices[i * 3 + 1] = t.b;
    indices[i * 3 + 2] = t.c;
    const last = subsets[subsets.length - 1];
    if (last && last.material === t.m) subsets[subsets.length - 1] = { ...last, count: last.count + 1 };
    else subsets.push({ material: t.m, start: i, count: 1 });
  });
  let maxInfluences = mesh.maxInfluences;
  for (let v = 0; v < piece.weights.length / 4; v++) {
    let c = 0;
    for (let k = 0; k < 4; k++) if (piece.weights[v * 4 + k]! > 0) c++;
    maxInfluences = Math.max(maxInfluences, c);
  }
  return {
    ...mesh,
    vertexCount: nv,
    positions: cat(mesh.positions, piece.positions, f32),
    normals: cat(mesh.normals, piece.normals, f32),
    uvs: cat(mesh.uvs ?? new Float32Array(nv0 * 2), piece.uvs, f32),
    tangents: cat(mesh.tangents ?? new Float32Array(nv0 * 4), piece.tangents, f32),
    joints: cat(mesh.joints, piece.joints, (n) => new Uint16Array(n)),
    weights: cat(mesh.weights, piece.weights, f32),
    maxInfluences,
    indices,
    subsets,
  };
}

function dropEmptySubsets(mesh: SkinnedMesh): SkinnedMesh {
  return { ...mesh, subsets: mesh.subsets.filter((s) => s.count > 0) };
}

