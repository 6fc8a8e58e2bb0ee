import { mat4 } from 'gl-matrix';
import { mirrorMat4, mirrorQuat, mirrorTangent, mirrorVec3 } from '../../model/handedness.ts';
import { TRS_STRIDE, type Channel, type Scene } from '../../model/types.ts';

/**
 * Writes a Scene as Luna .m3d text (the DX12-book flavour parse-m3d.ts reads), converting back to the
 * file's left-handed row-vector convention. Load-time tool, used by the model generators.
 *
 * Requirements (else it throws): exactly one mesh whose palette slots are the skeleton's nodes in
 * order (bones[k] = k), and clips whose tracks carry all three channels on one shared key time list
 * or are missing (a missing node is written as one rest key).
 */
export function writeM3d(scene: Scene): string {
  if (scene.meshes.length !== 1) throw new Error(`.m3d holds one mesh, the scene has ${scene.meshes.length}`);
  const mesh = scene.meshes[0]!;
  const { parents, restLocal } = scene.skeleton;
  const skinned = mesh.skinned;
  const boneCount = skinned ? parents.length : 0;
  if (skinned) {
    if (mesh.bones.length !== boneCount) throw new Error('.m3d needs one palette slot per node');
    for (let k = 0; k < boneCount; k++) if (mesh.bones[k] !== k) throw new Error('.m3d needs palette slot k to be node k');
  }
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
  line(`#Materials ${scene.materials.length}`);
  line(`#Vertices ${mesh.vertexCount}`);
  line(`#Triangles ${mesh.indices.length / 3}`);
  line(`#Bones ${boneCount}`);
  line(`#AnimationClips ${skinned ? scene.clips.length : 0}`);
  line('');
  line('***************Materials*********************');
  scene.materials.forEach((m) => {
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
  if (mesh.subsets.length !== scene.materials.length) throw new Error('.m3d needs one subset per material');
  mesh.subsets.forEach((s, i) => {
    if (s.material !== i) throw new Error('.m3d needs subset i to use material i');
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
  return out.join('\r\n') + '\r\n';
}

/** True when every key of a channel (stride floats each) equals the first, to float32 precision. */
function isConstant(values: Float32Array, stride: number): boolean {
  for (let i = stride; i < values.length; i++) {
    if (Math.abs(values[i]! - values[i % stride]!) > 1e-7) return false;
  }
  return true;
}
