import { mat3, mat4 } from 'gl-matrix';
import { normaliseInfluences, orientWinding } from '../../model/build.ts';
import { flipWinding, mirrorMat4, mirrorTangent, mirrorVec3 } from '../../model/handedness.ts';
import { MAX_INFLUENCES, type SkinnedMesh, type Subset } from '../../model/types.ts';
import { quoted } from '../../model/message.ts';
import type { MaterialTable } from './scene-material.ts';
import type { NodeList } from './scene-nodes.ts';
import { MORPH_TARGET_TEMPLATE, morphToVertices, readMorphTarget, splitPositions, type FileMorph, type NamedMorph } from './scene-morph.ts';
import { NumberCursor, describeObject, isTemplate, noteSkipped, objectError, type XContext } from './scene-read.ts';
import type { XObject } from './xnode.ts';

/**
 * One .x Mesh → one SkinnedMesh.
 *
 * Templates read (X File Format Reference):
 *   Mesh { DWORD nVertices; Vector vertices[nVertices]; DWORD nFaces; MeshFace faces[nFaces]; [...] }
 *   MeshFace { DWORD nFaceVertexIndices; DWORD faceVertexIndices[n]; }
 *   MeshNormals { DWORD nNormals; Vector normals[nNormals]; DWORD nFaceNormals; MeshFace faceNormals[nFaceNormals]; }
 *   MeshTextureCoords { DWORD nTextureCoords; Coords2d textureCoords[n]; }     per position
 *   MeshMaterialList { DWORD nMaterials; DWORD nFaceIndexes; DWORD faceIndexes[n]; [Material] }
 *   DeclData { DWORD nElements; VertexElement Elements[n]; DWORD nDWords; DWORD data[nDWords]; }
 *     VertexElement { DWORD Type; DWORD Method; DWORD Usage; DWORD UsageIndex; }, data per position
 *   FVFData { DWORD dwFVF; DWORD nDWords; DWORD data[nDWords]; }   per position, the FVF's components
 *     after the position, in FVF order: normal, point size, diffuse, specular, texture coordinate sets
 *   SkinWeights { STRING transformNodeName; DWORD nWeights; DWORD vertexIndices[n]; FLOAT weights[n];
 *                 Matrix4x4 matrixOffset; }
 *   SkinlabMorphTarget (skinlab's own template, scene-morph.ts): sparse morph deltas per position
 *
 * Vertices: one per distinct (position index, normal index) pair used by a face corner, so positions whose
 * corners carry different normals are split; texture coordinates, DeclData attributes and skin weights are
 * per position and shared by the split copies. Faces with more than 3 corners are fan-triangulated;
 * triangles are grouped by material (stable within a material) into subsets. A MeshMaterialList with
 * fewer face indexes than faces repeats its last index (the D3DX convention, e.g. `1;1;0;;`).
 *
 * Space: everything is mirrored into skinlab's right-handed frame and triangles reversed (handedness.ts).
 * Skinned meshes stay in the file's bind space; the palette slot of SkinWeights k is its bone's node with
 * invBind = its mirrored matrixOffset (D3DX: bone matrix = offset × the bone frame's combined matrix; the
 * mesh frame's own matrix is not applied). Rigid meshes (no SkinWeights) are stored in model space by
 * their frame's rest model matrix, with one slot = that frame and invBind = its inverse, so the bind pose
 * is the file's rest pose and the mesh moves rigidly with the frame.
 */

/** Bones named by SkinWeights that have no Frame, shared across the file's meshes. */
export type MissingBones = Map<string, number>;

/** Floats per D3DDECLTYPE (0..17) measured in DWORDs. */
const DECL_DWORDS = [1, 2, 3, 4, 1, 1, 1, 2, 1, 1, 2, 1, 2, 1, 1, 1, 2, 0];
const DECL_FLOAT1 = 0;
const DECL_FLOAT4 = 3;
const DECL_FLOAT16_2 = 15;
const DECL_FLOAT16_4 = 16;
const USAGE_NORMAL = 3;
const USAGE_TEXCOORD = 5;
const USAGE_TANGENT = 6;
const USAGE_BINORMAL = 7;
const USAGE_NAMES = ['POSITION', 'BLENDWEIGHT', 'BLENDINDICES', 'NORMAL', 'PSIZE', 'TEXCOORD', 'TANGENT', 'BINORMAL',
  'TESSFACTOR', 'POSITIONT', 'COLOR', 'FOG', 'DEPTH', 'SAMPLE'];

const bits = new DataView(new ArrayBuffer(4));

/** A DWORD holding a float's bit pattern → that float. */
function dwordFloat(d: number): number {
  bits.setUint32(0, d >>> 0, true);
  return bits.getFloat32(0, true);
}

function halfFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

/** Reads component `k` of a float-typed DeclData element whose first DWORD is `d0` in `data`. */
function declComponent(type: number, data: Float64Array, d0: number, k: number): number {
  if (type >= DECL_FLOAT1 && type <= DECL_FLOAT4) return k <= type ? dwordFloat(data[d0 + k]!) : k === 3 ? 1 : 0;
  const count = type === DECL_FLOAT16_2 ? 2 : 4;
  if (k >= count) return k === 3 ? 1 : 0;
  const word = (data[d0 + (k >> 1)]! >>> 0) >>> ((k & 1) * 16);
  return halfFloat(word & 0xffff);
}

function isFloatDecl(type: number): boolean {
  return (type >= DECL_FLOAT1 && type <= DECL_FLOAT4) || type === DECL_FLOAT16_2 || type === DECL_FLOAT16_4;
}

interface DeclAttributes {
  normals: Float32Array | null;
  uvs: Float32Array | null;
  tangents: Float32Array | null;
  binormals: Float32Array | null;
}

function readDeclData(ctx: XContext, obj: XObject, positions: number, meshName: string): DeclAttributes {
  const c = new NumberCursor(ctx, obj);
  const nElements = c.count('vertex elements', 4);
  const types: number[] = [];
  const usages: number[] = [];
  const usageIndices: number[] = [];
  let stride = 0;
  for (let e = 0; e < nElements; e++) {
    const type = c.index(`element ${e} type`, DECL_DWORDS.length);
    c.next(`element ${e} method`);
    const usage = c.index(`element ${e} usage`, Infinity);
    const usageIndex = c.index(`element ${e} usage index`, Infinity);
    types.push(type);
    usages.push(usage);
    usageIndices.push(usageIndex);
    stride += DECL_DWORDS[type]!;
  }
  const nDWords = c.count('data DWORDs', 1);
  const out: DeclAttributes = { normals: null, uvs: null, tangents: null, binormals: null };
  if (stride === 0 || nDWords !== stride * positions) {
    ctx.warnings.push(`mesh ${quoted(meshName)}: DeclData holds ${nDWords} DWORDs, not ${stride} per vertex for ${positions} vertices; ignored`);
    return out;
  }
  const data = obj.numbers;
  const base = c.pos;
  let offset = 0;
  for (let e = 0; e < nElements; e++) {
    const type = types[e]!;
    const usage = usages[e]!;
    const wanted =
      usage === USAGE_NORMAL || usage === USAGE_TANGENT || usage === USAGE_BINORMAL || (usage === USAGE_TEXCOORD && usageIndices[e] === 0);
    if (wanted && !isFloatDecl(type)) {
      ctx.warnings.push(`mesh ${quoted(meshName)}: DeclData ${USAGE_NAMES[usage] ?? usage} of vertex type ${type} is not a float type; ignored`);
    } else if (wanted) {
      const width = usage === USAGE_TEXCOORD ? 2 : 3;
      const dst = new Float32Array(positions * width);
      for (let v = 0; v < positions; v++) {
        const d0 = base + v * stride + offset;
        for (let k = 0; k < width; k++) dst[v * width + k] = declComponent(type, data, d0, k);
      }
      if (usage === USAGE_NORMAL) out.normals = dst;
      else if (usage === USAGE_TEXCOORD) out.uvs = dst;
      else if (usage === USAGE_TANGENT) out.tangents = dst;
      else out.binormals = dst;
    }
    offset += DECL_DWORDS[type]!;
  }
  return out;
}

/** Reads `count` MeshFace records into starts/corners; every index is checked against `limit`. */
function readFaces(c: NumberCursor, count: number, limit: number, what: string): { starts: Uint32Array; corners: Uint32Array } {
  const starts = new Uint32Array(count + 1);
  const corners = new Uint32Array(c.left);
  let n = 0;
  for (let f = 0; f < count; f++) {
    const k = c.count(`corners of ${what} ${f}`, 1);
    for (let i = 0; i < k; i++) corners[n++] = c.index(`${what} ${f} corner ${i}`, limit);
    starts[f + 1] = n;
  }
  return { starts, corners: corners.subarray(0, n) };
}

// D3DFVF bits (d3d9types.h).
const FVF_POSITION_MASK = 0x400e;
const FVF_NORMAL = 0x10;
const FVF_PSIZE = 0x20;
const FVF_DIFFUSE = 0x40;
const FVF_SPECULAR = 0x80;
const FVF_TEXCOUNT_SHIFT = 8;
/** D3DFVF_TEXCOORDSIZEn code (2 bits per set from bit 16) → floats: 0 → 2, 1 → 3, 2 → 4, 3 → 1. */
const FVF_TEXCOORD_FLOATS = [2, 3, 4, 1];

/**
 * Normals and the first texture coordinate set from an FVFData block. Its data holds, per position, the
 * components the FVF code names after the position ("the mesh data minus the position data"); blend
 * weights of an XYZBn position are accepted either way, since exporters differ on whether they belong to
 * the position. A block whose size fits neither layout is ignored with a warning.
 */
function readFVFData(ctx: XContext, obj: XObject, positions: number, meshName: string): DeclAttributes {
  const c = new NumberCursor(ctx, obj);
  const fvf = c.index('FVF code', 2 ** 32) >>> 0;
  const nDWords = c.count('data DWORDs', 1);
  const out: DeclAttributes = { normals: null, uvs: null, tangents: null, binormals: null };
  const position = fvf & FVF_POSITION_MASK;
  // XYZB1..XYZB5 are 0x6, 0x8, 0xa, 0xc, 0xe: 1..5 extra DWORDs after x, y, z.
  const blendDWords = position >= 0x6 && position <= 0xe ? (position - 0x4) >> 1 : 0;
  let tail = 0;
  const normalAt = fvf & FVF_NORMAL ? tail : -1;
  if (normalAt >= 0) tail += 3;
  if (fvf & FVF_PSIZE) tail += 1;
  if (fvf & FVF_DIFFUSE) tail += 1;
  if (fvf & FVF_SPECULAR) tail += 1;
  const texSets = (fvf >>> FVF_TEXCOUNT_SHIFT) & 0xf;
  const uvAt = texSets > 0 ? tail : -1;
  const uvFloats = FVF_TEXCOORD_FLOATS[(fvf >>> 16) & 3]!;
  for (let t = 0; t < texSets; t++) tail += FVF_TEXCOORD_FLOATS[(fvf >>> (16 + 2 * t)) & 3]!;
  let skip = -1;
  if (tail > 0 && nDWords === tail * positions) skip = 0;
  else if (blendDWords > 0 && nDWords === (tail + blendDWords) * positions) skip = blendDWords;
  if (skip < 0) {
    ctx.warnings.push(`mesh ${quoted(meshName)}: FVFData 0x${fvf.toString(16)} holds ${nDWords} DWORDs, not ${tail} per vertex for ${positions} vertices; ignored`);
    return out;
  }
  const stride = tail + skip;
  const data = obj.numbers;
  const base = c.pos;
  if (normalAt >= 0) {
    const normals = new Float32Array(positions * 3);
    for (let v = 0; v < positions; v++) {
      for (let k = 0; k < 3; k++) normals[v * 3 + k] = dwordFloat(data[base + v * stride + skip + normalAt + k]!);
    }
    out.normals = normals;
  }
  if (uvAt >= 0) {
    const uvs = new Float32Array(positions * 2);
    for (let v = 0; v < positions; v++) {
      const d0 = base + v * stride + skip + uvAt;
      uvs[v * 2] = dwordFloat(data[d0]!);
      uvs[v * 2 + 1] = uvFloats > 1 ? dwordFloat(data[d0 + 1]!) : 0;
    }
    out.uvs = uvs;
  }
  return out;
}

/** Per-position influences while SkinWeights are read: the MAX_INFLUENCES largest kept. */
class InfluenceTable {
  readonly joints: Uint16Array;
  readonly weights: Float32Array;
  readonly total: Uint32Array;
  /** Sum of all weights given to each position, kept or not. */
  readonly sums: Float64Array;

  constructor(positions: number) {
    this.joints = new Uint16Array(positions * MAX_INFLUENCES);
    this.weights = new Float32Array(positions * MAX_INFLUENCES);
    this.total = new Uint32Array(positions);
    this.sums = new Float64Array(positions);
  }

  add(p: number, slot: number, w: number): void {
    const o = p * MAX_INFLUENCES;
    const t = this.total[p]!;
    this.sums[p] = this.sums[p]! + w;
    this.total[p] = t + 1;
    if (t < MAX_INFLUENCES) {
      this.joints[o + t] = slot;
      this.weights[o + t] = w;
      return;
    }
    let min = 0;
    for (let k = 1; k < MAX_INFLUENCES; k++) if (this.weights[o + k]! < this.weights[o + min]!) min = k;
    if (w > this.weights[o + min]!) {
      this.joints[o + min] = slot;
      this.weights[o + min] = w;
    }
  }
}

export interface MeshBuildInput {
  readonly ctx: XContext;
  readonly mesh: XObject;
  /** Node the mesh hangs under (its Frame, or the created root for top-level meshes). */
  readonly holder: number;
  readonly nodes: NodeList;
  readonly materials: MaterialTable;
  readonly missingBones: MissingBones;
  /** Name given to the SkinnedMesh (unique in the scene). */
  readonly name: string;
}

/** A built mesh and the morph targets its file Mesh carries (merged across meshes by scene-morph.ts). */
export interface BuiltMesh {
  readonly mesh: SkinnedMesh;
  readonly morphs: readonly NamedMorph[];
}

export function buildMesh(input: MeshBuildInput): BuiltMesh {
  const { ctx, mesh: obj, holder, nodes, materials, name } = input;
  const c = new NumberCursor(ctx, obj);
  const nPos = c.count('vertices', 3);
  const filePos = new Float64Array(nPos * 3);
  c.read(filePos, 0, nPos * 3, 'vertex positions');
  const nFaces = c.count('faces', 1);
  const faces = readFaces(c, nFaces, nPos, 'face');
  if (c.left > 0) ctx.warnings.push(`mesh ${quoted(name)}: ${c.left} numbers after the faces ignored`);

  let normalData: Float64Array | null = null;
  let normalFaces: { starts: Uint32Array; corners: Uint32Array } | null = null;
  let nNormals = 0;
  let uvs: Float32Array | null = null;
  let decl = null as DeclAttributes | null;
  let materialList: XObject | null = null;
  const skins: XObject[] = [];
  const fileMorphs: FileMorph[] = [];
  const morphNames = new Set<string>();
  for (const child of obj.children) {
    if (child.kind === 'ref') {
      ctx.warnings.push(`mesh ${quoted(name)}: reference '{ ${child.name} }' ignored`);
      continue;
    }
    if (isTemplate(child, 'MeshNormals')) {
      const nc = new NumberCursor(ctx, child);
      nNormals = nc.count('normals', 3);
      const data = new Float64Array(nNormals * 3);
      nc.read(data, 0, nNormals * 3, 'normals');
      const nFaceNormals = nc.count('face normals', 1);
      const fn = readFaces(nc, nFaceNormals, nNormals, 'normal face');
      if (nFaceNormals !== nFaces || !sameFaceShapes(fn.starts, faces.starts)) {
        ctx.warnings.push(`mesh ${quoted(name)}: MeshNormals faces do not match the mesh faces (${nFaceNormals} vs ${nFaces}); normals recomputed`);
      } else {
        normalData = data;
        normalFaces = fn;
      }
    } else if (isTemplate(child, 'MeshTextureCoords')) {
      const tc = new NumberCursor(ctx, child);
      const n = tc.count('texture coordinates', 2);
      if (n < nPos) {
        ctx.warnings.push(`mesh ${quoted(name)}: ${n} texture coordinates for ${nPos} vertices; ignored`);
      } else {
        uvs = new Float32Array(nPos * 2);
        tc.read(uvs, 0, nPos * 2, 'texture coordinates');
      }
    } else if (isTemplate(child, 'MeshMaterialList')) {
      materialList = child;
    } else if (isTemplate(child, 'DeclData')) {
      const d = readDeclData(ctx, child, nPos, name);
      decl = { normals: d.normals ?? decl?.normals ?? null, uvs: d.uvs ?? decl?.uvs ?? null, tangents: d.tangents, binormals: d.binormals };
    } else if (isTemplate(child, 'FVFData')) {
      const fvf = readFVFData(ctx, child, nPos, name);
      // DeclData, when the mesh has both, is the fuller description and wins.
      decl = { normals: decl?.normals ?? fvf.normals, uvs: decl?.uvs ?? fvf.uvs, tangents: decl?.tangents ?? null, binormals: decl?.binormals ?? null };
    } else if (isTemplate(child, 'SkinWeights')) {
      skins.push(child);
    } else if (isTemplate(child, MORPH_TARGET_TEMPLATE)) {
      const m = readMorphTarget(ctx, child, nPos);
      if (morphNames.has(m.name)) throw objectError(ctx, child, `mesh ${quoted(name)} has two morph targets named ${quoted(m.name)}`);
      morphNames.add(m.name);
      fileMorphs.push(m);
    } else if (
      isTemplate(child, 'XSkinMeshHeader') ||
      isTemplate(child, 'VertexDuplicationIndices') ||
      isTemplate(child, 'MeshVertexColors') ||
      isTemplate(child, 'MeshFaceWraps') ||
      isTemplate(child, 'FaceAdjacency')
    ) {
      // Informational for D3DX (header counts, duplication, colours skinlab has no channel for).
    } else noteSkipped(ctx, child);
  }
  if (uvs === null && decl?.uvs) uvs = decl.uvs;

  // Triangles per face and material per face.
  const faceMaterial = new Uint32Array(nFaces);
  const subsetMaterial: number[] = [];
  if (materialList !== null) readMaterialList(ctx, materialList, nFaces, materials, faceMaterial, subsetMaterial, name);
  else subsetMaterial.push(materials.defaultMaterial());

  // Vertices: distinct (position, normal) pairs over all corners of usable faces.
  const cornerCount = faces.corners.length;
  const cornerVertex = new Uint32Array(cornerCount);
  const vertexPos: number[] = [];
  const vertexNormal: number[] = [];
  const seen = new Map<number, number>();
  let degenerate = 0;
  let triangles = 0;
  for (let f = 0; f < nFaces; f++) {
    const a = faces.starts[f]!;
    const b = faces.starts[f + 1]!;
    if (b - a < 3) {
      degenerate++;
      continue;
    }
    triangles += b - a - 2;
    for (let i = a; i < b; i++) {
      const p = faces.corners[i]!;
      const nIdx = normalFaces ? normalFaces.corners[i]! : 0;
      const key = p * (nNormals || 1) + nIdx;
      let v = seen.get(key);
      if (v === undefined) {
        v = vertexPos.length;
        seen.set(key, v);
        vertexPos.push(p);
        vertexNormal.push(nIdx);
      }
      cornerVertex[i] = v;
    }
  }
  if (degenerate > 0) ctx.warnings.push(`mesh ${quoted(name)}: ${degenerate} faces with fewer than 3 corners skipped`);
  const vertexCount = vertexPos.length;

  // Triangles grouped by material: counting sort on the face's subset.
  const subsetCount = subsetMaterial.length;
  const perSubset = new Uint32Array(subsetCount + 1);
  for (let f = 0; f < nFaces; f++) {
    const k = faces.starts[f + 1]! - faces.starts[f]!;
    if (k >= 3) perSubset[faceMaterial[f]! + 1]! += k - 2;
  }
  for (let s = 0; s < subsetCount; s++) perSubset[s + 1]! += perSubset[s]!;
  const subsets: Subset[] = [];
  for (let s = 0; s < subsetCount; s++) {
    const count = perSubset[s + 1]! - perSubset[s]!;
    if (count > 0) subsets.push({ material: subsetMaterial[s]!, start: perSubset[s]!, count });
  }
  const fill = perSubset.slice(0, subsetCount);
  const indices = new Uint32Array(triangles * 3);
  for (let f = 0; f < nFaces; f++) {
    const a = faces.starts[f]!;
    const b = faces.starts[f + 1]!;
    if (b - a < 3) continue;
    const s = faceMaterial[f]!;
    for (let i = a + 1; i + 1 < b; i++) {
      const t = fill[s]!++ * 3;
      indices[t] = cornerVertex[a]!;
      indices[t + 1] = cornerVertex[i]!;
      indices[t + 2] = cornerVertex[i + 1]!;
    }
  }

  // Attributes in the file's space.
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const outUvs = uvs ? new Float32Array(vertexCount * 2) : null;
  const tangents = decl?.tangents ? new Float32Array(vertexCount * 4) : null;
  const positionNormals = normalData === null ? (decl?.normals ?? computeNormals(filePos, faces)) : null;
  if (normalData === null && !decl?.normals) ctx.warnings.push(`mesh ${quoted(name)} has no normals; computed smooth normals from its faces`);
  for (let v = 0; v < vertexCount; v++) {
    const p = vertexPos[v]!;
    for (let k = 0; k < 3; k++) positions[v * 3 + k] = filePos[p * 3 + k]!;
    if (normalData) {
      const nIdx = vertexNormal[v]!;
      for (let k = 0; k < 3; k++) normals[v * 3 + k] = normalData[nIdx * 3 + k]!;
    } else {
      for (let k = 0; k < 3; k++) normals[v * 3 + k] = positionNormals![p * 3 + k]!;
    }
    normaliseOr(normals, v * 3);
    if (outUvs) {
      outUvs[v * 2] = uvs![p * 2]!;
      outUvs[v * 2 + 1] = uvs![p * 2 + 1]!;
    }
    if (tangents) {
      const t = decl!.tangents!;
      for (let k = 0; k < 3; k++) tangents[v * 4 + k] = t[p * 3 + k]!;
      normaliseOr(tangents, v * 4);
      tangents[v * 4 + 3] = bitangentSign(normals, v * 3, tangents, v * 4, decl!.binormals, p * 3);
    }
  }
  for (let v = 0; v < vertexCount; v++) {
    mirrorVec3(positions, v * 3);
    mirrorVec3(normals, v * 3);
    if (tangents) mirrorTangent(tangents, v * 4);
  }

  const joints = new Uint16Array(vertexCount * MAX_INFLUENCES);
  const weights = new Float32Array(vertexCount * MAX_INFLUENCES);
  const bones: number[] = [];
  const invBind: number[] = [];
  const skinned = skins.length > 0;
  // Morph deltas follow the vertices: mirrored, and for a rigid mesh carried through its frame (scene-morph.ts).
  const rigidModel = skinned ? null : (nodes.restModel.subarray(holder * 16, holder * 16 + 16) as unknown as mat4);
  const split = fileMorphs.length > 0 ? splitPositions(nPos, vertexPos) : null;
  const morphs: NamedMorph[] = fileMorphs.map((m) => ({
    obj: m.obj,
    name: m.name,
    kind: m.kind,
    deltas: morphToVertices(m, split!, rigidModel, skinned ? null : normals),
  }));
  if (skinned) {
    const table = new InfluenceTable(nPos);
    for (const skin of skins) readSkinWeights(input, skin, nPos, table, bones, invBind);
    // Vertices no SkinWeights reaches keep their stored position: they take a slot bound to the node the
    // mesh hangs under with invBind = that node's inverse rest model matrix, so in the rest pose their
    // palette matrix is the identity and they move like a rigid mesh under that frame would.
    let unweighted = 0;
    let overfull = 0;
    let holderSlot = -1;
    for (let p = 0; p < nPos; p++) {
      if (table.total[p]! <= MAX_INFLUENCES) continue;
      overfull++;
      // Truncated: the kept four are rescaled here so the later sum check reports only the file's own sums.
      const o = p * MAX_INFLUENCES;
      let kept = 0;
      for (let k = 0; k < MAX_INFLUENCES; k++) kept += table.weights[o + k]!;
      const scale = kept > 0 ? table.sums[p]! / kept : 1;
      for (let k = 0; k < MAX_INFLUENCES; k++) table.weights[o + k] = table.weights[o + k]! * scale;
    }
    for (let v = 0; v < vertexCount; v++) {
      const p = vertexPos[v]!;
      if (table.total[p] === 0) {
        if (holderSlot < 0) holderSlot = addRigidSlot(nodes, holder, bones, invBind);
        unweighted++;
        joints[v * MAX_INFLUENCES] = holderSlot;
        weights[v * MAX_INFLUENCES] = 1;
        continue;
      }
      for (let k = 0; k < MAX_INFLUENCES; k++) {
        joints[v * MAX_INFLUENCES + k] = table.joints[p * MAX_INFLUENCES + k]!;
        weights[v * MAX_INFLUENCES + k] = table.weights[p * MAX_INFLUENCES + k]!;
      }
    }
    if (overfull > 0) {
      ctx.warnings.push(`mesh ${quoted(name)}: ${overfull} vertices had more than ${MAX_INFLUENCES} bone influences; kept the ${MAX_INFLUENCES} largest and renormalised`);
    }
    if (unweighted > 0) {
      ctx.warnings.push(`mesh ${quoted(name)}: ${unweighted} vertices have no skin weight; they stay where the file puts them, following frame ${quoted(nodes.names[holder])}`);
    }
  } else {
    addRigidSlot(nodes, holder, bones, invBind);
    const m = nodes.restModel.subarray(holder * 16, holder * 16 + 16) as unknown as mat4;
    transformRigid(m, positions, normals, tangents, vertexCount);
    for (let v = 0; v < vertexCount; v++) weights[v * MAX_INFLUENCES] = 1;
  }
  const influence = normaliseInfluences(joints, weights, vertexCount);
  if (skinned && influence.rescaled > 0) {
    ctx.warnings.push(`mesh ${quoted(name)}: ${influence.rescaled} vertices had skin weights not summing to 1; rescaled`);
  }

  // Winding is judged in model space, after a rigid mesh's frame transform, as D3D culls it: a mirroring
  // frame (Dwarf_MS.x's root) turns its mesh's triangles the right way round.
  flipWinding(indices);
  if (orientWinding(indices, positions, normals)) ctx.turnedRound.push(name);

  const mesh: SkinnedMesh = {
    name,
    vertexCount,
    positions,
    normals,
    tangents,
    uvs: outUvs,
    joints,
    weights,
    maxInfluences: influence.maxInfluences,
    indices,
    subsets,
    bones: Int16Array.from(bones),
    invBind: Float32Array.from(invBind),
    skinned,
  };
  return { mesh, morphs };
}

function sameFaceShapes(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Normalises the 3-vector at o; a zero or non-finite one becomes +Y. */
function normaliseOr(v: Float32Array, o: number): void {
  const len = Math.hypot(v[o]!, v[o + 1]!, v[o + 2]!);
  if (len > 0 && Number.isFinite(len)) {
    v[o] = v[o]! / len;
    v[o + 1] = v[o + 1]! / len;
    v[o + 2] = v[o + 2]! / len;
  } else {
    v[o] = 0;
    v[o + 1] = 1;
    v[o + 2] = 0;
  }
}

/**
 * Bitangent sign in the file's space: +1 when the binormal agrees with cross(normal, tangent) (or when there
 * is no binormal), else -1. mirrorTangent then turns it into skinlab's convention.
 */
function bitangentSign(n: Float32Array, no: number, t: Float32Array, to: number, b: Float32Array | null, bo: number): number {
  if (b === null) return 1;
  const cx = n[no + 1]! * t[to + 2]! - n[no + 2]! * t[to + 1]!;
  const cy = n[no + 2]! * t[to]! - n[no]! * t[to + 2]!;
  const cz = n[no]! * t[to + 1]! - n[no + 1]! * t[to]!;
  return cx * b[bo]! + cy * b[bo + 1]! + cz * b[bo + 2]! < 0 ? -1 : 1;
}

/**
 * Area-weighted smooth normals per position, in the file's space. D3D front faces wind clockwise in its
 * left-handed frame, where (b − a) × (c − a) of a front face points outwards.
 */
function computeNormals(pos: Float64Array, faces: { starts: Uint32Array; corners: Uint32Array }): Float32Array {
  const out = new Float32Array(pos.length);
  const nFaces = faces.starts.length - 1;
  for (let f = 0; f < nFaces; f++) {
    const a = faces.starts[f]!;
    const b = faces.starts[f + 1]!;
    for (let i = a + 1; i + 1 < b; i++) {
      const p0 = faces.corners[a]! * 3;
      const p1 = faces.corners[i]! * 3;
      const p2 = faces.corners[i + 1]! * 3;
      const e1x = pos[p1]! - pos[p0]!, e1y = pos[p1 + 1]! - pos[p0 + 1]!, e1z = pos[p1 + 2]! - pos[p0 + 2]!;
      const e2x = pos[p2]! - pos[p0]!, e2y = pos[p2 + 1]! - pos[p0 + 1]!, e2z = pos[p2 + 2]! - pos[p0 + 2]!;
      const nx = e1y * e2z - e1z * e2y;
      const ny = e1z * e2x - e1x * e2z;
      const nz = e1x * e2y - e1y * e2x;
      for (const p of [p0, p1, p2]) {
        out[p] = out[p]! + nx;
        out[p + 1] = out[p + 1]! + ny;
        out[p + 2] = out[p + 2]! + nz;
      }
    }
  }
  return out;
}

/** Appends a palette slot bound to `node` with invBind = inverse of its rest model matrix; returns the slot. */
function addRigidSlot(nodes: NodeList, node: number, bones: number[], invBind: number[]): number {
  const inv = mat4.create();
  if (!mat4.invert(inv, nodes.restModel.subarray(node * 16, node * 16 + 16) as unknown as mat4)) mat4.identity(inv);
  bones.push(node);
  for (let k = 0; k < 16; k++) invBind.push(inv[k]!);
  return bones.length - 1;
}

/** Positions by m, normals by its inverse transpose, tangents by its upper 3x3 (sign flips with det < 0). */
function transformRigid(m: mat4, positions: Float32Array, normals: Float32Array, tangents: Float32Array | null, count: number): void {
  const nm = mat3.create();
  if (!mat3.normalFromMat4(nm, m)) mat3.identity(nm);
  const det = mat4.determinant(m);
  for (let v = 0; v < count; v++) {
    const o = v * 3;
    const x = positions[o]!, y = positions[o + 1]!, z = positions[o + 2]!;
    positions[o] = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
    positions[o + 1] = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
    positions[o + 2] = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
    const nx = normals[o]!, ny = normals[o + 1]!, nz = normals[o + 2]!;
    normals[o] = nm[0]! * nx + nm[3]! * ny + nm[6]! * nz;
    normals[o + 1] = nm[1]! * nx + nm[4]! * ny + nm[7]! * nz;
    normals[o + 2] = nm[2]! * nx + nm[5]! * ny + nm[8]! * nz;
    normaliseOr(normals, o);
    if (tangents) {
      const t = v * 4;
      const tx = tangents[t]!, ty = tangents[t + 1]!, tz = tangents[t + 2]!;
      tangents[t] = m[0]! * tx + m[4]! * ty + m[8]! * tz;
      tangents[t + 1] = m[1]! * tx + m[5]! * ty + m[9]! * tz;
      tangents[t + 2] = m[2]! * tx + m[6]! * ty + m[10]! * tz;
      normaliseOr(tangents, t);
      if (det < 0) tangents[t + 3] = -tangents[t + 3]!;
    }
  }
}

function readMaterialList(
  ctx: XContext,
  obj: XObject,
  nFaces: number,
  materials: MaterialTable,
  faceMaterial: Uint32Array,
  subsetMaterial: number[],
  meshName: string,
): void {
  const c = new NumberCursor(ctx, obj);
  const nMaterials = c.count('materials', 0);
  const nIndexes = c.count('face material indexes', 1);
  const used = Math.min(nIndexes, nFaces);
  let outOfRange = 0;
  for (let f = 0; f < used; f++) {
    const m = c.next(`material index of face ${f}`);
    if (Number.isInteger(m) && m >= 0 && m < nMaterials) faceMaterial[f] = m;
    else outOfRange++;
  }
  if (outOfRange > 0) ctx.warnings.push(`mesh ${quoted(meshName)}: ${outOfRange} faces name a material outside 0..${nMaterials - 1}; they use the first`);
  if (nIndexes < nFaces && nIndexes > 0) faceMaterial.fill(faceMaterial[nIndexes - 1]!, nIndexes);
  if (nIndexes > nFaces) ctx.warnings.push(`mesh ${quoted(meshName)}: MeshMaterialList has ${nIndexes} face indexes for ${nFaces} faces; the extra ones ignored`);

  for (const child of obj.children) {
    if (subsetMaterial.length >= nMaterials) break;
    if (child.kind === 'ref') {
      const m = materials.fromReference(child.name, meshName);
      subsetMaterial.push(m >= 0 ? m : materials.defaultMaterial());
    } else if (isTemplate(child, 'Material')) {
      subsetMaterial.push(materials.fromObject(child));
    } else noteSkipped(ctx, child);
  }
  if (subsetMaterial.length < nMaterials) {
    ctx.warnings.push(`mesh ${quoted(meshName)}: MeshMaterialList declares ${nMaterials} materials but holds ${subsetMaterial.length}; default material used for the rest`);
    // Only as many slots as the faces use: the declared count is not trusted for an allocation.
    let used = 0;
    for (let f = 0; f < nFaces; f++) used = Math.max(used, faceMaterial[f]! + 1);
    while (subsetMaterial.length < used) subsetMaterial.push(materials.defaultMaterial());
  }
  if (nMaterials === 0) {
    subsetMaterial.push(materials.defaultMaterial());
    faceMaterial.fill(0);
  }
}

/** One SkinWeights → one palette slot (its bone's node, invBind = mirrored matrixOffset) and its influences. */
function readSkinWeights(
  input: MeshBuildInput,
  obj: XObject,
  nPos: number,
  table: InfluenceTable,
  bones: number[],
  invBind: number[],
): void {
  const { ctx, nodes, missingBones, name: meshName } = input;
  const bone = obj.strings[0];
  if (bone === undefined) throw objectError(ctx, obj, 'has no transformNodeName string');
  const c = new NumberCursor(ctx, obj);
  const n = c.count(`weights of bone ${quoted(bone)}`, 2);
  if (2 * n + 16 > c.left) c.fail(`bone ${quoted(bone)}: ${n} weights and a 4x4 offset need ${2 * n + 16} numbers, but ${c.left} follow`);
  const first = c.pos;
  for (let i = 0; i < n; i++) {
    const p = obj.numbers[first + i]!;
    if (!Number.isInteger(p) || p < 0 || p >= nPos) {
      c.fail(`bone ${quoted(bone)}: vertex index ${p} (weight ${i}) is out of range; mesh ${quoted(meshName)} has ${nPos} vertices`);
    }
  }
  const offset = new Float32Array(16);
  for (let k = 0; k < 16; k++) offset[k] = obj.numbers[first + 2 * n + k]!;
  mirrorMat4(offset);
  if (bones.length >= 65535) c.fail(`more than 65535 SkinWeights in one mesh`);

  let node = nodes.byName.get(bone);
  if (node === undefined) node = missingBones.get(bone);
  if (node === undefined) {
    // A bone without a Frame: a static root node whose rest is the inverse of the offset, so the palette
    // matrix stays the identity and its vertices stay in the bind pose.
    const rest = mat4.create();
    if (!mat4.invert(rest, offset as unknown as mat4)) mat4.identity(rest);
    node = nodes.push(ctx, nodes.unique.make(bone), -1, rest as Float32Array, obj);
    missingBones.set(bone, node);
    ctx.warnings.push(`${describeObject(obj)} in mesh ${quoted(meshName)} names bone ${quoted(bone)}, which has no Frame; its vertices stay in the bind pose`);
  }
  const slot = bones.length;
  bones.push(node);
  for (let k = 0; k < 16; k++) invBind.push(offset[k]!);
  for (let i = 0; i < n; i++) {
    const w = obj.numbers[first + n + i]!;
    if (w > 0 && Number.isFinite(w)) table.add(obj.numbers[first + i]!, slot, w);
  }
}
