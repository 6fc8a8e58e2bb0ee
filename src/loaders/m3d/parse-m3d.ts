import { LoadError } from '../../model/errors.ts';
import { identityTRS, normaliseInfluences, orientWinding, restFromInvBind, validateScene } from '../../model/build.ts';
import { flipWinding, mirrorMat4, mirrorTangent, mirrorVec3 } from '../../model/handedness.ts';
import { MAX_INFLUENCES, type Clip, type Material, type MorphDeltas, type Scene, type SkinnedMesh, type Subset } from '../../model/types.ts';
import { quoted } from '../../model/message.ts';
import { TextScanner } from '../text/scanner.ts';
import { movedMeshes, readMeshTable, readMorphTargets, readMorphTracks, type MeshRange, type RawTarget } from './parse-m3d-morph.ts';
import { DEFAULT_MATERIAL, readClip, readMaterial, SECTION } from './parse-m3d-records.ts';
import { MARKER_CHUNK, readClipMarkers } from './m3d-markers.ts';
import { BONE_NAMES_CHUNK, defaultBoneName, readBoneNames } from './m3d-bone-names.ts';

/**
 * Frank Luna's .m3d text format (DirectX 11 and 12 books, seed 001 §23.4):
 *
 *   ***m3d-File-Header***   #Materials M #Vertices V #Triangles T #Bones B #AnimationClips C
 *   ***Materials***         M blocks of `Key: value` lines (DX12: Name Diffuse Fresnel0 Roughness AlphaClip
 *                           MaterialTypeName DiffuseMap NormalMap; DX11: Ambient Diffuse Specular SpecPower
 *                           Reflectivity AlphaClip Effect DiffuseMap NormalMap)
 *   ***SubsetTable***       M × `SubsetID: i VertexStart: a VertexCount: b FaceStart: c FaceCount: d`
 *   ***Vertices***          V × Position: x y z, Tangent: x y z w, Normal: x y z, Tex-Coords: u v,
 *                           and when B > 0 BlendWeights: w0..w3, BlendIndices: i0..i3
 *   ***Triangles***         T × `i0 i1 i2`
 *   ***BoneOffsets***       B × `BoneOffsetK` + 16 numbers (row-major, row vectors)
 *   ***BoneHierarchy***     B × `ParentIndexOfBoneK: p` (parents before children, else reordered with a warning)
 *   ***AnimationClips***    C × `AnimationClip name { B × BoneK #Keyframes: n { n × Time: t Pos: x y z
 *                           Scale: x y z Quat: x y z w } }`
 *
 * The file is D3D: left-handed, row vectors. Matrices read unchanged as our column-major column-vector
 * form; then everything is mirrored in Z and triangles reversed (src/model/handedness.ts). Files whose
 * triangles disagree with their own normals (soldier.m3d winds counter-clockwise) are turned round with a
 * warning. Quaternions are xyzw (XMFLOAT4).
 * Luna's format has no bind locals: the rest pose is derived from the inverse of the offsets.
 *
 * skinlab extension (docs/m3d-morph-extension.md), optional chunks after the last standard section, in
 * this order; Luna's reader never reaches them (it stops after the clips its header counts):
 *
 *   ***Meshes***        `#Meshes N`, N × `Mesh name VertexStart: a VertexCount: b FaceStart: c FaceCount: d`:
 *                       the file's vertex and triangle lists split into N meshes, in order, tiling both
 *                       lists exactly; a triangle uses vertices of its own mesh only; every subset lies
 *                       inside one mesh. Without it the file is one mesh named after the file.
 *   ***MorphTargets***  `#MorphTargets N`, N × `MorphTarget name Kind: emotion|modifier #Vertices: n
 *                       { n × Vertex: i dPos: x y z dNrm: x y z }`: sparse deltas against the neutral
 *                       mesh, i a file vertex index (strictly ascending within a target), deltas in the
 *                       file's left-handed frame (mirrored in Z like the vertices). Names unique.
 *   ***MorphTracks***   `#MorphTracks N`, N × `MorphTrack clip target #Keyframes: n { n × Time: t Weight: w }`:
 *                       a target's weight over a clip's time (seconds, ascending, >= 0); at most one track
 *                       per (clip, target). A clip lasts until its last bone or morph key.
 *   ***ClipMarkers***   `#ClipMarkers N`, N × `Clip name #Markers: n { n × Time: t Name: word }`: a clip's
 *                       callback keys (m3d-markers.ts); the clip must exist; validateScene clamps and sorts.
 *   ***BoneNames***     `#BoneNames B`, B × `BoneK: name`: the bones' names in file order (m3d-bone-names.ts),
 *                       B the header's #Bones; one word each, unique. Without it bone K is named `BoneK`.
 *
 * Materials and clips are read by parse-m3d-records.ts, the skinlab extension sections (Meshes,
 * MorphTargets, MorphTracks) by parse-m3d-morph.ts, ClipMarkers by m3d-markers.ts, BoneNames by
 * m3d-bone-names.ts; this file reads the header, vertices, triangles and bones, splits the meshes and
 * assembles the Scene. Bone names are set in file order before validateScene reorders the skeleton (when
 * parents come after children), so they move with their bones.
 */

/** Smallest text a record can take, used to refuse counts the file cannot hold before allocating. */
const MIN_CHARS_VERTEX = 30;
/** The words that start a vertex's lines: the next vertex's Position:, then its attributes (parseM3d). */
const VERTEX_KEYS = ['Position:', 'Tangent:', 'Normal:', 'Tex-Coords:', 'BlendWeights:', 'BlendIndices:'] as const;
const MIN_CHARS_TRIANGLE = 6;
const MIN_CHARS_BONE = 40;

export function parseM3d(text: string, fileName: string): Scene {
  const head = text.slice(0, 16);
  if (/^\s*3dmodel/i.test(head)) {
    throw new LoadError(`${fileName}: not a Luna .m3d: this is a "Model 3D" (3dmodel) file of another format that shares the extension`, 1);
  }
  const s = new TextScanner(text, fileName);

  const section = (name: string): void => {
    const t = s.next(`the ${name} section`);
    const m = SECTION.exec(t);
    if (!m || m[1] !== name) s.error(`expected the ${name} section header, found ${quoted(t)}`);
  };
  const headerCount = (key: string, max: number): number => {
    s.expect(key);
    return s.int(`${key} count`, 0, max);
  };

  const first = s.peek();
  if (first === null) throw new LoadError(`${fileName}: the file is empty`, 1);
  section('m3d-File-Header');
  const materialCount = headerCount('#Materials', 65535);
  const vertexCount = headerCount('#Vertices', 1 << 26);
  const triangleCount = headerCount('#Triangles', 1 << 26);
  const boneCount = headerCount('#Bones', 32767);
  const clipCount = headerCount('#AnimationClips', 65535);
  s.checkCount(vertexCount, MIN_CHARS_VERTEX, 'vertex');
  s.checkCount(triangleCount, MIN_CHARS_TRIANGLE, 'triangle');
  s.checkCount(boneCount, MIN_CHARS_BONE, 'bone');
  s.checkCount(materialCount, 10, 'material');

  const warnings: string[] = [];

  // Materials
  section('Materials');
  const materials: Material[] = [];
  for (let i = 0; i < materialCount; i++) materials.push(readMaterial(s, i, materialCount));

  // Subsets
  section('SubsetTable');
  const subsets: Subset[] = [];
  for (let i = 0; i < materialCount; i++) {
    s.expect('SubsetID:');
    const id = s.int('SubsetID', 0, Math.max(0, materialCount - 1));
    s.expect('VertexStart:');
    s.int('VertexStart', 0, vertexCount);
    s.expect('VertexCount:');
    s.int('VertexCount', 0, vertexCount);
    s.expect('FaceStart:');
    const start = s.int('FaceStart', 0, triangleCount);
    s.expect('FaceCount:');
    const count = s.int('FaceCount', 0, triangleCount - start);
    subsets.push({ material: id, start, count });
  }

  // Vertices
  section('Vertices');
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const tangents = new Float32Array(vertexCount * 4);
  const uvs = new Float32Array(vertexCount * 2);
  const joints = new Uint16Array(vertexCount * MAX_INFLUENCES);
  const weights = new Float32Array(vertexCount * MAX_INFLUENCES);
  const maxJoint = Math.max(0, boneCount - 1);
  // What each value is, said only on an error: one function per attribute rather than a string per value.
  let v = 0;
  const vertexPosition = (): string => `vertex ${v} position`;
  const vertexTangent = (): string => `vertex ${v} tangent`;
  const vertexNormal = (): string => `vertex ${v} normal`;
  const vertexUv = (): string => `vertex ${v} texture coordinate`;
  const vertexWeight = (): string => `vertex ${v} blend weight`;
  const vertexJoint = (): string => `vertex ${v} blend index`;
  for (v = 0; v < vertexCount; v++) {
    s.expect('Position:');
    for (let k = 0; k < 3; k++) positions[v * 3 + k] = s.number(vertexPosition);
    let sawWeights = false;
    let sawIndices = false;
    // Optional attribute lines, in any order, until the next vertex or section (keys compared in place).
    for (;;) {
      const known = s.peekWord(VERTEX_KEYS);
      if (known === 0) break;
      const key = known > 0 ? VERTEX_KEYS[known]! : s.peek();
      if (key === null || (known < 0 && SECTION.test(key))) break;
      if (known > 0) s.skipWord(key);
      else s.next();
      if (key === 'Tangent:') {
        tangents[v * 4 + 3] = 1;
        for (let k = 0; k < 4 && s.peekIsNumber(); k++) tangents[v * 4 + k] = s.number(vertexTangent);
      } else if (key === 'Normal:') {
        for (let k = 0; k < 3; k++) normals[v * 3 + k] = s.number(vertexNormal);
      } else if (key === 'Tex-Coords:') {
        for (let k = 0; k < 2; k++) uvs[v * 2 + k] = s.number(vertexUv);
      } else if (key === 'BlendWeights:') {
        sawWeights = true;
        for (let k = 0; k < MAX_INFLUENCES && s.peekIsNumber(); k++) weights[v * 4 + k] = s.number(vertexWeight);
      } else if (key === 'BlendIndices:') {
        sawIndices = true;
        for (let k = 0; k < MAX_INFLUENCES && s.peekIsNumber(); k++) joints[v * 4 + k] = s.int(vertexJoint, 0, maxJoint);
      } else {
        s.error(`unexpected ${quoted(key)} in vertex ${v} (expected Tangent:, Normal:, Tex-Coords:, BlendWeights:, BlendIndices: or the next Position:)`);
      }
    }
    if (boneCount > 0 && (!sawWeights || !sawIndices)) s.error(`vertex ${v} has no BlendWeights/BlendIndices but the file declares ${boneCount} bones`);
    if (boneCount === 0) weights[v * 4] = 1;
    mirrorVec3(positions, v * 3);
    mirrorVec3(normals, v * 3);
    mirrorTangent(tangents, v * 4);
  }

  // Triangles
  section('Triangles');
  const indices = new Uint32Array(triangleCount * 3);
  const maxIndex = Math.max(0, vertexCount - 1);
  let i = 0;
  const triangleIndex = (): string => `triangle ${Math.floor(i / 3)} index`;
  for (i = 0; i < triangleCount * 3; i++) indices[i] = s.int(triangleIndex, 0, maxIndex);

  // Skeleton
  let parents: Int16Array;
  let names: string[];
  let restLocal: Float32Array;
  let invBind: Float32Array;
  if (boneCount > 0) {
    section('BoneOffsets');
    invBind = new Float32Array(boneCount * 16);
    for (let b = 0; b < boneCount; b++) {
      s.expect(`BoneOffset${b}`);
      for (let k = 0; k < 16; k++) invBind[b * 16 + k] = s.number(`BoneOffset${b} element ${k}`);
      mirrorMat4(invBind, b * 16);
    }
    section('BoneHierarchy');
    parents = new Int16Array(boneCount);
    for (let b = 0; b < boneCount; b++) {
      s.expect(`ParentIndexOfBone${b}:`);
      const p = s.int(`parent of bone ${b}`, -1, boneCount - 1);
      // Parents listed after their children are reordered, and cycles refused, by validateScene.
      if (p === b) s.error(`bone ${b} is its own parent`);
      parents[b] = p;
    }
    names = Array.from({ length: boneCount }, (_, b) => defaultBoneName(b));
    restLocal = restFromInvBind(parents, invBind);
  } else {
    parents = new Int16Array([-1]);
    names = ['root'];
    restLocal = identityTRS(1);
    invBind = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  }

  // Clips
  const clips: Clip[] = [];
  if (clipCount > 0) {
    if (boneCount === 0) s.error(`the file declares ${clipCount} animation clips but no bones`);
    section('AnimationClips');
    for (let c = 0; c < clipCount; c++) clips.push(readClip(s, boneCount));
  }

  // skinlab extension chunks.
  const nextSection = (): string | null => {
    const t = s.peek();
    return t === null ? null : (SECTION.exec(t)?.[1] ?? null);
  };
  let ranges: MeshRange[] | null = null;
  if (nextSection() === 'Meshes') ranges = readMeshTable(s, vertexCount, triangleCount);
  let targets: RawTarget[] = [];
  if (nextSection() === 'MorphTargets') targets = readMorphTargets(s, vertexCount);
  if (nextSection() === 'MorphTracks') readMorphTracks(s, targets, clips);
  if (nextSection() === MARKER_CHUNK) readClipMarkers(s, clips);
  if (nextSection() === BONE_NAMES_CHUNK) {
    const named = readBoneNames(s, boneCount);
    if (boneCount > 0) names = named;
  }
  const late = nextSection();
  if (late === 'Meshes' || late === 'MorphTargets' || late === 'MorphTracks' || late === MARKER_CHUNK || late === BONE_NAMES_CHUNK) {
    s.next();
    s.error(`the ${late} chunk is out of place: skinlab's chunks follow the standard sections in the order Meshes, MorphTargets, MorphTracks, ClipMarkers, BoneNames, each at most once`);
  }

  const trailing = s.peek();
  if (trailing !== null) {
    s.next();
    warnings.push(`ignored data after the last section, from line ${s.tokenLine} ('${trailing.slice(0, 30)}')`);
  }

  flipWinding(indices);
  if (orientWinding(indices, positions, normals)) {
    warnings.push('triangles are wound against their normals (counter-clockwise front faces in D3D terms); turned round');
  }
  const influence = normaliseInfluences(joints, weights, vertexCount);
  if (influence.rescaled > 0) warnings.push(`${influence.rescaled} vert${influence.rescaled === 1 ? 'ex' : 'ices'} had blend weights not summing to 1 (rescaled)`);
  if (influence.empty > 0) warnings.push(`${influence.empty} vertices had no positive blend weight (bound to their first bone)`);
  const bones = new Int16Array(Math.max(1, boneCount));
  for (let b = 0; b < bones.length; b++) bones[b] = b;

  const allSubsets = subsets.length > 0 ? subsets : [{ material: 0, start: 0, count: triangleCount }];
  const whole: MeshRange = { name: baseName(fileName), vertexStart: 0, vertexCount, faceStart: 0, faceCount: triangleCount, line: 1 };
  const meshes: SkinnedMesh[] = [];
  const meshRanges = ranges ?? [whole];
  const moved = targets.length > 0 ? movedMeshes(fileName, meshRanges, targets, vertexCount) : null;
  // Slots of a moved mesh that a target does not touch share one empty set of deltas.
  const empty: MorphDeltas = { vertices: new Uint32Array(0), positions: new Float32Array(0), normals: new Float32Array(0) };
  for (const [m, r] of meshRanges.entries()) {
    const single = r === whole;
    const v0 = r.vertexStart;
    const v1 = v0 + r.vertexCount;
    const part = <T extends Float32Array | Uint16Array>(a: T, stride: number): T => (single ? a : (a.slice(v0 * stride, v1 * stride) as T));
    let meshIndices = indices;
    let meshSubsets = allSubsets;
    let meshInfluences = influence.maxInfluences;
    if (!single) {
      meshIndices = indices.slice(r.faceStart * 3, (r.faceStart + r.faceCount) * 3);
      for (let i = 0; i < meshIndices.length; i++) {
        const v = meshIndices[i]!;
        if (v < v0 || v >= v1) {
          throw new LoadError(`${fileName}: line ${r.line}: mesh ${quoted(r.name)}: triangle ${r.faceStart + Math.floor(i / 3)} uses vertex ${v}, outside the mesh's vertices ${v0}..${v1 - 1}`, r.line);
        }
        meshIndices[i] = v - v0;
      }
      meshSubsets = [];
      for (const sub of allSubsets) {
        const end = sub.start + sub.count;
        const inside = sub.start >= r.faceStart && end <= r.faceStart + r.faceCount;
        // An empty subset on a boundary belongs to the mesh it starts in.
        const owned = sub.count > 0 ? inside : sub.start >= r.faceStart && sub.start < r.faceStart + Math.max(1, r.faceCount);
        if (owned) meshSubsets.push({ material: sub.material, start: sub.start - r.faceStart, count: sub.count });
        else if (sub.start < r.faceStart + r.faceCount && end > r.faceStart && sub.count > 0) {
          throw new LoadError(`${fileName}: line ${r.line}: mesh ${quoted(r.name)} (triangles ${r.faceStart}..${r.faceStart + r.faceCount - 1}) cuts subset ${sub.material} (triangles ${sub.start}..${end - 1}); a subset must lie inside one mesh`, r.line);
        }
      }
      meshInfluences = 0;
      for (let v = v0; v < v1; v++) {
        let k = 0;
        while (k < MAX_INFLUENCES && weights[v * MAX_INFLUENCES + k]! > 0) k++;
        meshInfluences = Math.max(meshInfluences, k);
      }
    }
    const mesh: SkinnedMesh = {
      name: r.name,
      vertexCount: r.vertexCount,
      positions: part(positions, 3),
      normals: part(normals, 3),
      tangents: part(tangents, 4),
      uvs: part(uvs, 2),
      joints: part(joints, MAX_INFLUENCES),
      weights: part(weights, MAX_INFLUENCES),
      maxInfluences: meshInfluences,
      indices: meshIndices,
      subsets: meshSubsets,
      bones: single ? bones : bones.slice(),
      invBind: single ? invBind : invBind.slice(),
      skinned: boneCount > 0,
    };
    meshes.push(moved?.[m] ? { ...mesh, morphs: targets.map((t) => t.deltasIn(v0, v1, empty)) } : mesh);
  }
  const scene: Scene = {
    name: fileName,
    format: 'm3d',
    floatBits: 0,
    skeleton: { names, parents, restLocal },
    meshes,
    clips,
    materials: materials.length > 0 ? materials : [DEFAULT_MATERIAL],
    morphTargets: targets.map((t) => t.name),
    ...(targets.length > 0 ? { morphKinds: targets.map((t) => t.kind) } : {}),
    warnings,
  };
  validateScene(scene);
  return scene;
}

function baseName(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const base = path.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}
