import { LoadError } from './errors.ts';
import { quoted } from './message.ts';
import { MAX_INFLUENCES, TRS_STRIDE, type Scene, type SkinnedMesh } from './types.ts';
import { checkClip } from './validate-clips.ts';
import { plural } from './validate-common.ts';
import { checkMeshValues } from './validate-mesh.ts';
import { checkHierarchy, checkRestPose, warnOrphanBones } from './validate-skeleton.ts';

/**
 * The checks every loader's output passes before anything downstream sees it (both loaders call this
 * last, through build.ts). Structure first — array lengths and every index (triangle corners, palette
 * bones, blend indices, subsets, tracks, morph targets) — then the semantics, each pass linear in the
 * data it reads:
 * - hierarchy (validate-skeleton.ts): bad parents and cycles refused; parents after children reordered;
 * - rest pose: finite, unit rotations;
 * - meshes (validate-mesh.ts): finite vertices, offset matrices and morph deltas; normals and weights repaired;
 * - clips (validate-clips.ts): finite keys, sorted, shifted to start at 0, durations that cover the keys;
 * - orphan bones a skin uses but no clip moves.
 *
 * Contract: throws LoadError with a complete message starting with the scene's name for data that cannot
 * be drawn or animated faithfully; repairs what has an obvious repair, in place (the scene is fresh
 * from its loader and not yet shared), appending one warning per kind of repair, with counts, to
 * `scene.warnings`. Never lets an out-of-range index through. Idempotent: a validated scene passes again
 * unchanged and without new warnings, except the static-pose notes of clips, which describe the model.
 * Cost: linear passes over the typed arrays, allocating only to repair (soldier.m3d, 13.7k vertices and
 * 13.2k keys: about 1 ms warm in Node).
 *
 * `checked`: arrays of this scene whose values the loader has already checked as this would (a float array all
 * finite, a mesh's index array all below its vertex count, a mesh's joints and weights both: tidy as the weight
 * check leaves them); those scans are skipped. Lengths are still checked.
 */
export function validateScene(scene: Scene, checked: ReadonlySet<ArrayBufferView> = NONE_CHECKED): void {
  checkStructure(scene, checked);
  checkHierarchy(scene);
  checkRestPose(scene);
  for (const m of scene.meshes) checkMeshValues(scene, m, checked);
  for (let c = 0; c < scene.clips.length; c++) checkClip(scene, c, checked);
  warnOrphanBones(scene);
}

const NONE_CHECKED: ReadonlySet<ArrayBufferView> = new Set();

/** Lengths and index ranges; LoadError on the first problem. */
function checkStructure(scene: Scene, checked: ReadonlySet<ArrayBufferView>): void {
  const where = scene.name;
  const { parents, names, restLocal } = scene.skeleton;
  const n = parents.length;
  if (n === 0) throw new LoadError(`${where}: the model has no nodes`);
  if (names.length !== n || restLocal.length !== n * TRS_STRIDE) {
    throw new LoadError(`${where}: skeleton arrays disagree in length (${n} parents, ${names.length} names, ${restLocal.length / TRS_STRIDE} rest transforms)`);
  }
  if (scene.meshes.length === 0) throw new LoadError(`${where}: the file contains no mesh`);
  const targets = scene.morphTargets.length;
  if (scene.morphKinds && scene.morphKinds.length !== targets) {
    throw new LoadError(`${where}: ${plural(targets, 'morph target')} but ${scene.morphKinds.length} morph kinds`);
  }
  for (const m of scene.meshes) checkMeshStructure(scene, m, checked);
  for (const c of scene.clips) {
    for (const t of c.tracks) {
      if (!(t.node >= 0 && t.node < n)) throw new LoadError(`${where}: clip ${quoted(c.name)} animates node ${t.node}, but there are ${n}`);
    }
    for (const t of c.morphTracks ?? []) {
      if (!(t.target >= 0 && t.target < targets)) {
        throw new LoadError(`${where}: clip ${quoted(c.name)} has a morph track for target ${t.target}, but the model has ${plural(targets, 'morph target')}`);
      }
    }
  }
}

function checkMeshStructure(scene: Scene, m: SkinnedMesh, checked: ReadonlySet<ArrayBufferView>): void {
  const label = `${scene.name}: mesh ${quoted(m.name)}`;
  const n = scene.skeleton.parents.length;
  const vc = m.vertexCount;
  if (!(Number.isInteger(vc) && vc >= 0)) throw new LoadError(`${label}: vertex count ${vc} is not a count`);
  if (m.positions.length !== vc * 3 || m.normals.length !== vc * 3) throw new LoadError(`${label}: vertex arrays disagree in length`);
  if ((m.uvs && m.uvs.length !== vc * 2) || (m.tangents && m.tangents.length !== vc * 4)) {
    throw new LoadError(`${label}: texture coordinate or tangent arrays disagree in length with its ${plural(vc, 'vertex', 'vertices')}`);
  }
  if (m.joints.length !== vc * MAX_INFLUENCES || m.weights.length !== vc * MAX_INFLUENCES) {
    throw new LoadError(`${label}: influence arrays disagree in length`);
  }
  if (m.indices.length % 3 !== 0) throw new LoadError(`${label}: index count is not a multiple of 3`);
  for (let i = checked.has(m.indices) ? m.indices.length : 0; i < m.indices.length; i++) {
    if (m.indices[i]! >= vc) throw new LoadError(`${label}: triangle ${Math.floor(i / 3)} uses vertex ${m.indices[i]}, but there are ${vc}`);
  }
  const slots = m.bones.length;
  if (slots === 0 && vc > 0) throw new LoadError(`${label}: its palette has no bone`);
  if (m.invBind.length !== slots * 16) throw new LoadError(`${label}: ${slots} bones but ${m.invBind.length / 16} offset matrices`);
  for (let k = 0; k < slots; k++) {
    const b = m.bones[k]!;
    if (b < 0 || b >= n) throw new LoadError(`${label}: bone slot ${k} names node ${b}, but there are ${n}`);
  }
  const tidyWeights = checked.has(m.joints) && checked.has(m.weights);
  for (let i = tidyWeights ? m.joints.length : 0; i < m.joints.length; i++) {
    if (m.joints[i]! < slots) continue;
    if (m.weights[i]! > 0) {
      throw new LoadError(`${label}: vertex ${Math.floor(i / MAX_INFLUENCES)} uses bone ${m.joints[i]}, but the mesh has ${slots}`);
    }
    // A slot without positive weight is unused (or dropped by the weight pass): its index only needs tidying.
    m.joints[i] = 0;
  }
  const triangles = m.indices.length / 3;
  for (const s of m.subsets) {
    if (s.start < 0 || s.count < 0 || s.start + s.count > triangles) {
      throw new LoadError(`${label}: subset [${s.start}, ${s.start + s.count}) is outside its ${triangles} triangles`);
    }
    if (s.material < 0 || s.material >= Math.max(1, scene.materials.length)) {
      throw new LoadError(`${label}: subset uses material ${s.material}, but there are ${scene.materials.length}`);
    }
  }
  const targets = scene.morphTargets;
  if (m.morphs) {
    if (m.morphs.length !== targets.length) {
      throw new LoadError(`${label}: has deltas for ${plural(m.morphs.length, 'morph target')}, but the model has ${targets.length}`);
    }
    for (let t = 0; t < m.morphs.length; t++) {
      const d = m.morphs[t]!;
      const what = `morph target ${quoted(targets[t])}`;
      const count = d.vertices.length;
      if (d.positions.length !== count * 3 || d.normals.length !== count * 3) {
        throw new LoadError(`${label}: ${what} moves ${plural(count, 'vertex', 'vertices')} but has ${d.positions.length / 3} position and ${d.normals.length / 3} normal deltas`);
      }
      for (let i = 0; i < count; i++) {
        const v = d.vertices[i]!;
        if (v >= vc) throw new LoadError(`${label}: ${what} moves vertex ${v}, but the mesh has ${plural(vc, 'vertex', 'vertices')}`);
        if (i > 0 && v <= d.vertices[i - 1]!) {
          throw new LoadError(`${label}: ${what} lists vertex ${v} after vertex ${d.vertices[i - 1]}; indices must be strictly ascending`);
        }
      }
    }
  }
}
