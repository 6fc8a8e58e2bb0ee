import { mat4, quat, vec3 } from 'gl-matrix';
import { mirrorMat4, mirrorQuat, mirrorTangent, mirrorVec3 } from '../../model/handedness.ts';
import { clipMarkerLines } from './m3d-markers.ts';
import { boneNameLines } from './m3d-bone-names.ts';
import { MAX_INFLUENCES, TRS_STRIDE, type Channel, type Material, type Scene, type Subset } from '../../model/types.ts';

/**
 * Writes a Scene as Luna .m3d text (the DX12-book flavour parse-m3d.ts reads), converting back to the
 * file's left-handed row-vector convention. Load-time tool, used by the model generators.
 *
 * Standard sections (seed 001 §23.4) as parse-m3d.ts describes them. A scene that uses only what Luna's
 * format holds (one mesh, no morph targets) is written exactly as before the skinlab extension; otherwise
 * the skinlab extension chunks follow the last standard section (docs/m3d-morph-extension.md):
 *
 *   ***Meshes***        only with several meshes: `#Meshes N`, then per mesh
 *                       `Mesh name VertexStart: a VertexCount: b FaceStart: c FaceCount: d`
 *   ***MorphTargets***  only with morph targets: `#MorphTargets N`, then per target
 *                       `MorphTarget name Kind: emotion|modifier #Vertices: n { n × Vertex: i dPos: x y z dNrm: x y z }`
 *   ***MorphTracks***   only when a written clip drives a target: `#MorphTracks N`, then per track
 *                       `MorphTrack clip target #Keyframes: n { n × Time: t Weight: w }`
 *   ***ClipMarkers***   only when a written clip has markers (m3d-markers.ts)
 *   ***BoneNames***     only when some bone k is not named `Bone${k}` (m3d-bone-names.ts: one word each, unique)
 *
 * Several meshes are merged into the file's one vertex list and one triangle list, in scene order: mesh k's
 * vertex i is file vertex VertexStart_k + i. Morph vertex indices are file indices (so each target is one
 * ascending list over all meshes); deltas are mirrored into D3D's frame like positions and normals.
 * Luna's own reader stops after the clips its header counts, so it loads such a file as one merged mesh.
 *
 * Requirements (else it throws): a skinned mesh's palette slots k map to nodes whose offset matrix agrees
 * across meshes; a single skinned mesh uses palette slot k = node k for every node (the format's bone list);
 * clips whose tracks carry all three channels on one shared key time list or are missing (a missing node is
 * written as one rest key); morph data as types.ts states it (names without whitespace, unique; vertex
 * indices strictly ascending and in range; finite deltas; track times ascending). When the subsets are not
 * "subset i uses material i", one material entry is written per subset (materials duplicated as needed).
 */
export function writeM3d(scene: Scene): string {
  const mesh = flatten(scene);
  const { parents, restLocal } = scene.skeleton;
  const skinned = mesh.skinned;
  const boneCount = skinned ? parents.length : 0;
  const morphs = checkMorphs(scene);
  // 7 significant digits: what a float32 holds, without the noise digits of its double expansion.
  const f = (x: number): string => {
    if (Math.abs(x) < 1e-9) return '0';
    return String(Number(x.toPrecision(7)));
  };
  // Unit vectors, texture coordinates and weights: 5 decimals (1e-5) is far below what rendering shows.
  const u = (x: number): string => {
    const r = Math.round(x * 1e5) / 1e5;
    return r === 0 ? '0' : String(r);
  };
  const out: string[] = [];
  const line = (s: string): void => {
    out.push(s);
  };
  line('***************m3d-File-Header***************');
  line(`#Materials ${mesh.materials.length}`);
  line(`#Vertices ${mesh.vertexCount}`);
  line(`#Triangles ${mesh.indices.length / 3}`);
  line(`#Bones ${boneCount}`);
  line(`#AnimationClips ${skinned ? scene.clips.length : 0}`);
  line('');
  line('***************Materials*********************');
  mesh.materials.forEach((m) => {
    line(`Name: ${m.name.replace(/\s+/g, '_')}`);
    line(`Diffuse: ${f(m.diffuse[0])} ${f(m.diffuse[1])} ${f(m.diffuse[2])}`);
    line(`Fresnel0: ${f(m.specular[0])} ${f(m.specular[1])} ${f(m.specular[2])}`);
    line(`Roughness: ${f(Math.sqrt(2 / (m.specularPower + 2)))}`);
    line('AlphaClip: 0');
    line(`MaterialTypeName: ${skinned ? 'Skinned' : 'Static'}`);
    if (m.diffuseMap) line(`DiffuseMap: ${m.diffuseMap}`);
    if (m.normalMap) line(`NormalMap: ${m.normalMap}`);
    line('');
  });
  line('***************SubsetTable*******************');
  mesh.subsets.forEach((s, i) => {
    let lo = Infinity;
    let hi = -Infinity;
    for (let k = s.start * 3; k < (s.start + s.count) * 3; k++) {
      lo = Math.min(lo, mesh.indices[k]!);
      hi = Math.max(hi, mesh.indices[k]!);
    }
    if (s.count === 0) lo = hi = 0;
    line(`SubsetID: ${i} VertexStart: ${lo} VertexCount: ${hi - lo + 1} FaceStart: ${s.start} FaceCount: ${s.count}`);
  });
  line('');
  line('***************Vertices**********************');
  const p = [0, 0, 0];
  const n = [0, 0, 0];
  const t = [0, 0, 0, 1];
  for (let v = 0; v < mesh.vertexCount; v++) {
    for (let k = 0; k < 3; k++) {
      p[k] = mesh.positions[v * 3 + k]!;
      n[k] = mesh.normals[v * 3 + k]!;
    }
    for (let k = 0; k < 4; k++) t[k] = mesh.tangents ? mesh.tangents[v * 4 + k]! : k === 3 ? 1 : k === 0 ? 1 : 0;
    mirrorVec3(p);
    mirrorVec3(n);
    mirrorTangent(t);
    line(`Position: ${f(p[0]!)} ${f(p[1]!)} ${f(p[2]!)}`);
    line(`Tangent: ${u(t[0]!)} ${u(t[1]!)} ${u(t[2]!)} ${u(t[3]!)}`);
    line(`Normal: ${u(n[0]!)} ${u(n[1]!)} ${u(n[2]!)}`);
    line(`Tex-Coords: ${u(mesh.uvs ? mesh.uvs[v * 2]! : 0)} ${u(mesh.uvs ? mesh.uvs[v * 2 + 1]! : 0)}`);
    if (skinned) {
      const o = v * 4;
      line(`BlendWeights: ${u(mesh.weights[o]!)} ${u(mesh.weights[o + 1]!)} ${u(mesh.weights[o + 2]!)} ${u(mesh.weights[o + 3]!)}`);
      line(`BlendIndices: ${mesh.joints[o]} ${mesh.joints[o + 1]} ${mesh.joints[o + 2]} ${mesh.joints[o + 3]}`);
    }
    line('');
  }
  line('***************Triangles*********************');
  // D3D fronts are clockwise: the 2nd and 3rd index swap back (handedness.ts).
  for (let i = 0; i < mesh.indices.length; i += 3) line(`${mesh.indices[i]} ${mesh.indices[i + 2]} ${mesh.indices[i + 1]}`);
  line('');
  if (skinned) {
    line('***************BoneOffsets*******************');
    const m = mat4.create() as Float32Array;
    for (let b = 0; b < boneCount; b++) {
      m.set(mesh.invBind.subarray(b * 16, b * 16 + 16));
      mirrorMat4(m);
      line(`BoneOffset${b} ${Array.from(m, f).join(' ')}`);
    }
    line('');
    line('***************BoneHierarchy*****************');
    for (let b = 0; b < boneCount; b++) line(`ParentIndexOfBone${b}: ${parents[b]}`);
    line('');
    line('***************AnimationClips****************');
    for (const clip of scene.clips) {
      line(`AnimationClip ${clip.name.replace(/\s+/g, '_')}`);
      line('{');
      const byNode = new Map(clip.tracks.map((tr) => [tr.node, tr]));
      for (let b = 0; b < boneCount; b++) {
        const tr = byNode.get(b);
        const chans = [tr?.translation, tr?.rotation, tr?.scale].filter((c): c is Channel => !!c);
        const times = chans[0]?.times ?? new Float32Array([0]);
        for (const c of chans) {
          if (c.times.length !== times.length || c.times.some((x, i) => x !== times[i])) {
            throw new Error(`.m3d needs the channels of node ${b} in clip '${clip.name}' on one key time list`);
          }
        }
        // A node whose keys never change is written as one key (the format allows any key count).
        const count = chans.every((c) => isConstant(c.values, c.values.length / times.length)) ? 1 : times.length;
        line(`\tBone${b} #Keyframes: ${count}`);
        line('\t{');
        const r = restLocal.subarray(b * TRS_STRIDE, b * TRS_STRIDE + TRS_STRIDE);
        for (let k = 0; k < count; k++) {
          const tv = tr?.translation ? Array.from(tr.translation.values.subarray(k * 3, k * 3 + 3)) : [r[0]!, r[1]!, r[2]!];
          const q = tr?.rotation ? Array.from(tr.rotation.values.subarray(k * 4, k * 4 + 4)) : [r[3]!, r[4]!, r[5]!, r[6]!];
          const sv = tr?.scale ? Array.from(tr.scale.values.subarray(k * 3, k * 3 + 3)) : [r[7]!, r[8]!, r[9]!];
          mirrorVec3(tv);
          mirrorQuat(q);
          line(
            `\t\tTime: ${f(times[k]!)} Pos: ${tv.map(f).join(' ')} Scale: ${sv.map(f).join(' ')} Quat: ${q.map(f).join(' ')}`,
          );
        }
        line('\t}');
      }
      line('}');
    }
  }
  if (mesh.ranges.length > 1) {
    line('');
    line('***************Meshes************************');
    line(`#Meshes ${mesh.ranges.length}`);
    for (const r of mesh.ranges) {
      line(`Mesh ${r.name} VertexStart: ${r.vertexStart} VertexCount: ${r.vertexCount} FaceStart: ${r.faceStart} FaceCount: ${r.faceCount}`);
    }
  }
  if (scene.morphTargets.length > 0) {
    line('');
    line('***************MorphTargets******************');
    line(`#MorphTargets ${scene.morphTargets.length}`);
    const d = [0, 0, 0];
    scene.morphTargets.forEach((name, t) => {
      let total = 0;
      for (const m of scene.meshes) total += m.morphs?.[t]?.vertices.length ?? 0;
      line(`MorphTarget ${name} Kind: ${scene.morphKinds?.[t] ?? 'modifier'} #Vertices: ${total}`);
      line('{');
      scene.meshes.forEach((m, k) => {
        const deltas = m.morphs?.[t];
        if (!deltas) return;
        const base = mesh.ranges[k]!.vertexStart;
        for (let i = 0; i < deltas.vertices.length; i++) {
          let text = `\tVertex: ${base + deltas.vertices[i]!} dPos:`;
          for (let c = 0; c < 3; c++) d[c] = deltas.positions[i * 3 + c]!;
          mirrorVec3(d);
          text += ` ${f(d[0]!)} ${f(d[1]!)} ${f(d[2]!)} dNrm:`;
          for (let c = 0; c < 3; c++) d[c] = deltas.normals[i * 3 + c]!;
          mirrorVec3(d);
          line(`${text} ${u(d[0]!)} ${u(d[1]!)} ${u(d[2]!)}`);
        }
      });
      line('}');
    });
  }
  const written = skinned ? scene.clips : [];
  const trackCount = written.reduce((n, c) => n + (c.morphTracks?.length ?? 0), 0);
  if (trackCount > 0) {
    line('');
    line('***************MorphTracks*******************');
    line(`#MorphTracks ${trackCount}`);
    for (const clip of written) {
      for (const tr of clip.morphTracks ?? []) {
        line(`MorphTrack ${clip.name.replace(/\s+/g, '_')} ${scene.morphTargets[tr.target]} #Keyframes: ${tr.times.length}`);
        line('{');
        for (let k = 0; k < tr.times.length; k++) line(`\tTime: ${f(tr.times[k]!)} Weight: ${f(tr.values[k]!)}`);
        line('}');
      }
    }
  } else if (morphs.tracks > 0) {
    throw new Error('.m3d writes clips (and so morph tracks) only for skinned meshes; the scene has morph tracks but no skinned mesh');
  }
  for (const l of [...clipMarkerLines(written, (c) => c.name.replace(/\s+/g, '_'), f), ...boneNameLines(scene.skeleton.names, boneCount)]) line(l);
  return out.join('\r\n') + '\r\n';
}

/** One mesh's place in the merged vertex and triangle lists. */
interface MeshRange {
  readonly name: string;
  readonly vertexStart: number;
  readonly vertexCount: number;
  readonly faceStart: number;
  readonly faceCount: number;
}

/** The scene's meshes as the one mesh an .m3d file holds: palette slot k = node k when skinned. */
interface FlatMesh {
  readonly vertexCount: number;
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  readonly tangents: Float32Array | null;
  readonly uvs: Float32Array | null;
  /** Node indices when skinned. */
  readonly joints: Uint16Array;
  readonly weights: Float32Array;
  readonly indices: Uint32Array;
  /** Subset i uses material i of `materials`. */
  readonly subsets: readonly Subset[];
  readonly materials: readonly Material[];
  /** One offset matrix per node when skinned. */
  readonly invBind: Float32Array;
  readonly skinned: boolean;
  readonly ranges: readonly MeshRange[];
}

function flatten(scene: Scene): FlatMesh {
  const meshes = scene.meshes;
  if (meshes.length === 0) throw new Error('.m3d needs at least one mesh');
  const nodes = scene.skeleton.parents.length;
  const ranges: MeshRange[] = [];
  let vertexCount = 0;
  let faceCount = 0;
  for (const m of meshes) {
    const faces = m.indices.length / 3;
    ranges.push({ name: m.name.replace(/\s+/g, '_') || 'mesh', vertexStart: vertexCount, vertexCount: m.vertexCount, faceStart: faceCount, faceCount: faces });
    vertexCount += m.vertexCount;
    faceCount += faces;
  }
  const skinned = meshes.some((m) => m.skinned);
  let flat: Omit<FlatMesh, 'materials' | 'subsets'> & { subsets: readonly Subset[] };
  if (meshes.length === 1) {
    const mesh = meshes[0]!;
    if (skinned) {
      if (mesh.bones.length !== nodes) throw new Error('.m3d needs one palette slot per node');
      for (let k = 0; k < nodes; k++) if (mesh.bones[k] !== k) throw new Error('.m3d needs palette slot k to be node k');
    }
    flat = { ...mesh, ranges };
  } else {
    const positions = new Float32Array(vertexCount * 3);
    const normals = new Float32Array(vertexCount * 3);
    const anyTangents = meshes.some((m) => m.tangents);
    const anyUvs = meshes.some((m) => m.uvs);
    const tangents = anyTangents ? new Float32Array(vertexCount * 4) : null;
    const uvs = anyUvs ? new Float32Array(vertexCount * 2) : null;
    const joints = new Uint16Array(vertexCount * MAX_INFLUENCES);
    const weights = new Float32Array(vertexCount * MAX_INFLUENCES);
    const indices = new Uint32Array(faceCount * 3);
    const subsets: Subset[] = [];
    const invBind = skinned ? nodeOffsets(scene) : new Float32Array(0);
    meshes.forEach((m, k) => {
      const r = ranges[k]!;
      positions.set(m.positions, r.vertexStart * 3);
      normals.set(m.normals, r.vertexStart * 3);
      if (tangents) {
        if (m.tangents) tangents.set(m.tangents, r.vertexStart * 4);
        else for (let v = 0; v < m.vertexCount; v++) tangents.set([1, 0, 0, 1], (r.vertexStart + v) * 4);
      }
      if (uvs && m.uvs) uvs.set(m.uvs, r.vertexStart * 2);
      for (let i = 0; i < m.vertexCount * MAX_INFLUENCES; i++) {
        const w = m.weights[i]!;
        weights[r.vertexStart * MAX_INFLUENCES + i] = w;
        joints[r.vertexStart * MAX_INFLUENCES + i] = w > 0 ? m.bones[m.joints[i]!]! : 0;
      }
      for (let i = 0; i < m.indices.length; i++) indices[r.faceStart * 3 + i] = m.indices[i]! + r.vertexStart;
      for (const s of m.subsets) subsets.push({ material: s.material, start: s.start + r.faceStart, count: s.count });
    });
    flat = { vertexCount, positions, normals, tangents, uvs, joints, weights, indices, subsets, invBind, skinned, ranges };
  }
  // Luna: subset i is drawn with material i. When the scene's subsets do not line up with its materials,
  // each subset gets its own (possibly repeated) material entry.
  const inOrder = flat.subsets.length === scene.materials.length && flat.subsets.every((s, i) => s.material === i);
  if (inOrder) return { ...flat, materials: scene.materials };
  const materials = flat.subsets.map((s) => {
    const m = scene.materials[s.material];
    if (!m) throw new Error(`.m3d: a subset uses material ${s.material}, but the scene has ${scene.materials.length}`);
    return m;
  });
  return { ...flat, materials, subsets: flat.subsets.map((s, i) => ({ ...s, material: i })) };
}

/**
 * One offset matrix per node for merged meshes: the one the meshes' palettes give it (they must agree),
 * else the inverse of its rest model matrix (so parse-m3d's rest pose, derived from the offsets, holds).
 */
function nodeOffsets(scene: Scene): Float32Array {
  const { parents, restLocal } = scene.skeleton;
  const n = parents.length;
  const out = new Float32Array(n * 16);
  const owner: string[] = new Array<string>(n).fill('');
  for (const m of scene.meshes) {
    for (let k = 0; k < m.bones.length; k++) {
      const b = m.bones[k]!;
      const src = m.invBind.subarray(k * 16, k * 16 + 16);
      if (owner[b] === '') {
        out.set(src, b * 16);
        owner[b] = m.name;
        continue;
      }
      for (let i = 0; i < 16; i++) {
        const a = out[b * 16 + i]!;
        if (Math.abs(a - src[i]!) > 1e-4 * Math.max(1, Math.abs(a))) {
          throw new Error(`.m3d holds one offset matrix per bone, but meshes '${owner[b]}' and '${m.name}' give node ${b} different ones`);
        }
      }
    }
  }
  const model: mat4[] = [];
  const local = mat4.create();
  for (let i = 0; i < n; i++) {
    const r = restLocal.subarray(i * TRS_STRIDE, i * TRS_STRIDE + TRS_STRIDE);
    mat4.fromRotationTranslationScale(local, quat.fromValues(r[3]!, r[4]!, r[5]!, r[6]!), vec3.fromValues(r[0]!, r[1]!, r[2]!), vec3.fromValues(r[7]!, r[8]!, r[9]!));
    const m = mat4.create();
    const p = parents[i]!;
    if (p < 0) mat4.copy(m, local);
    else mat4.multiply(m, model[p]!, local);
    model.push(m);
    if (owner[i] === '') {
      const inv = mat4.create();
      if (!mat4.invert(inv, m)) mat4.identity(inv);
      out.set(inv, i * 16);
    }
  }
  return out;
}

/** Throws when the scene's morph data breaks types.ts's contract or cannot be written as .m3d tokens. */
function checkMorphs(scene: Scene): { tracks: number } {
  const names = scene.morphTargets;
  const seen = new Set<string>();
  for (const name of names) {
    if (name === '' || /\s/.test(name)) throw new Error(`.m3d: morph target name '${name}' is empty or contains whitespace`);
    if (seen.has(name)) throw new Error(`.m3d: morph target name '${name}' appears twice`);
    seen.add(name);
  }
  if (scene.morphKinds && scene.morphKinds.length !== names.length) throw new Error('.m3d: morphKinds and morphTargets differ in length');
  for (const m of scene.meshes) {
    if (!m.morphs) continue;
    if (m.morphs.length !== names.length) throw new Error(`.m3d: mesh '${m.name}' has ${m.morphs.length} morph delta sets for ${names.length} targets`);
    m.morphs.forEach((d, t) => {
      const n = d.vertices.length;
      if (d.positions.length !== n * 3 || d.normals.length !== n * 3) throw new Error(`.m3d: mesh '${m.name}' target '${names[t]}': delta arrays disagree in length`);
      for (let i = 0; i < n; i++) {
        const v = d.vertices[i]!;
        if (v >= m.vertexCount || (i > 0 && v <= d.vertices[i - 1]!)) {
          throw new Error(`.m3d: mesh '${m.name}' target '${names[t]}': vertex ${v} (entry ${i}) is out of range or not ascending`);
        }
      }
      for (const a of [d.positions, d.normals]) for (const x of a) if (!Number.isFinite(x)) throw new Error(`.m3d: mesh '${m.name}' target '${names[t]}' has a non-finite delta`);
    });
  }
  let tracks = 0;
  const clipNames = new Map<string, number>();
  for (const c of scene.clips) clipNames.set(c.name.replace(/\s+/g, '_'), (clipNames.get(c.name.replace(/\s+/g, '_')) ?? 0) + 1);
  for (const c of scene.clips) {
    const list = c.morphTracks ?? [];
    if (list.length > 0 && clipNames.get(c.name.replace(/\s+/g, '_'))! > 1) throw new Error(`.m3d: two clips are named '${c.name}'; morph tracks name their clip`);
    const driven = new Set<number>();
    for (const tr of list) {
      if (!(tr.target >= 0 && tr.target < names.length)) throw new Error(`.m3d: clip '${c.name}' has a morph track for target ${tr.target}, but there are ${names.length}`);
      if (driven.has(tr.target)) throw new Error(`.m3d: clip '${c.name}' drives morph target '${names[tr.target]}' twice`);
      driven.add(tr.target);
      if (tr.values.length !== tr.times.length) throw new Error(`.m3d: clip '${c.name}' target '${names[tr.target]}': times and values differ in length`);
      for (let k = 0; k < tr.times.length; k++) {
        if (!Number.isFinite(tr.times[k]!) || !Number.isFinite(tr.values[k]!) || (k > 0 && tr.times[k]! < tr.times[k - 1]!)) {
          throw new Error(`.m3d: clip '${c.name}' target '${names[tr.target]}': key ${k} is not finite or goes back in time`);
        }
      }
      tracks++;
    }
  }
  return { tracks };
}

/** True when every key of a channel (stride floats each) equals the first, to float32 precision. */
function isConstant(values: Float32Array, stride: number): boolean {
  for (let i = stride; i < values.length; i++) {
    if (Math.abs(values[i]! - values[i % stride]!) > 1e-7) return false;
  }
  return true;
}
