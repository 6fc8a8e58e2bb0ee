import type { mat4 } from 'gl-matrix';
import { normaliseInfluences, orientWinding } from '../../model/build.ts';
import { flipWinding, mirrorTangent, mirrorVec3 } from '../../model/handedness.ts';
import { MAX_INFLUENCES, type SkinnedMesh, type Subset } from '../../model/types.ts';
import { quoted } from '../../model/message.ts';
import type { MaterialTable } from './scene-material.ts';
import { perVertexColours, readVertexColours } from './scene-mesh-colours.ts';
import { noDeclAttributes, preferDecl, readDeclData, readFVFData, type DeclAttributes } from './scene-mesh-decl.ts';
import { bitangentSign, computeNormals, normaliseOr, transformRigid } from './scene-mesh-geometry.ts';
import { addRigidSlot, InfluenceTable, readSkinWeights, type MissingBones } from './scene-mesh-skin.ts';
import type { NodeList } from './scene-nodes.ts';
import { MORPH_TARGET_TEMPLATE, morphToVertices, readMorphTarget, splitPositions, type FileMorph, type NamedMorph } from './scene-morph.ts';
import { NumberCursor, isTemplate, noteSkipped, objectError, type XContext } from './scene-read.ts';
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
 * DeclData and FVFData are decoded by scene-mesh-decl.ts, SkinWeights by scene-mesh-skin.ts, MeshVertexColors
 * (per position, like texture coordinates) by scene-mesh-colours.ts; normal,
 * tangent and rigid-transform maths live in scene-mesh-geometry.ts. This file reads the Mesh's own data,
 * MeshNormals, MeshTextureCoords and MeshMaterialList, and assembles the SkinnedMesh.
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

export type { MissingBones } from './scene-mesh-skin.ts';

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
  let colours: Float32Array | null = null;
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
    } else if (isTemplate(child, 'MeshVertexColors')) {
      colours = readVertexColours(ctx, child, nPos, name);
    } else if (isTemplate(child, 'MeshMaterialList')) {
      materialList = child;
    } else if (isTemplate(child, 'DeclData')) {
      decl = preferDecl(readDeclData(ctx, child, nPos, name), decl);
    } else if (isTemplate(child, 'FVFData')) {
      // DeclData, when the mesh has both, is the fuller description and wins.
      decl = preferDecl(decl ?? noDeclAttributes(), readFVFData(ctx, child, nPos, name));
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
      isTemplate(child, 'MeshFaceWraps') ||
      isTemplate(child, 'FaceAdjacency')
    ) {
      // Informational for D3DX (header counts, duplication).
    } else noteSkipped(ctx, child);
  }
  if (uvs === null && decl?.uvs) uvs = decl.uvs;
  colours ??= decl?.colours ?? null;

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
    ...(colours ? { colors: perVertexColours(colours, vertexPos) } : {}),
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
