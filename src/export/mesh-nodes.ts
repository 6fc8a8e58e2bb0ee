import type { Accessor, Buffer, Document, Material as GltfMaterial, Node, Scene as GltfScene, Skin } from '@gltf-transform/core';
import type { Scene, SkinnedMesh } from '../model/types.ts';
import { matrixAsTrs } from './trs.ts';
import { indexAccessor, morphAccessors, skinAccessors, vertexAccessors } from './vertex-accessors.ts';

/**
 * The Scene's meshes as glTF meshes on nodes, placed so that they draw where skinlab draws them
 * (vertex = Σ w · model[bone] · invBind · p):
 * - a skinned mesh: a node at the scene root with no transform (glTF ignores a skinned node's own
 *   transform, and three.js binds at the node's world matrix, which is then the identity) and a skin of
 *   its bones with their inverse binds; meshes whose bones and inverse binds are equal share one skin;
 * - a rigid mesh (`skinned: false`, one bone): a child node of its bone carrying invBind[0] as TRS, or,
 *   where invBind[0] is not a TRS (shear), a root node with a one-joint skin;
 * - a mesh with no bone at all: a root node with no transform.
 * One primitive per material (a material's subsets merged), all sharing the vertex accessors; morph targets
 * (those that move the mesh) on every primitive, named in `mesh.extras.targetNames`, rest weights from
 * Scene.morphDefaults in `mesh.weights`.
 */

export interface MeshNode {
  readonly mesh: SkinnedMesh;
  readonly node: Node;
  /** Scene.morphTargets indices of the glTF targets, in target order (empty: no targets). */
  readonly targets: readonly number[];
}

export interface MeshNodes {
  readonly meshNodes: readonly MeshNode[];
  /** Names of rigid meshes written with a one-joint skin because their offset is not a TRS. */
  readonly shearedRigid: readonly string[];
}

function skinKey(mesh: SkinnedMesh): string {
  return `${Array.from(mesh.bones).join(',')}|${Array.from(mesh.invBind).join(',')}`;
}

function createSkin(doc: Document, buffer: Buffer, mesh: SkinnedMesh, joints: readonly Node[], ibm: Float32Array, root: Node | null): Skin {
  const skin = doc.createSkin(`${mesh.name}_skin`);
  for (const b of mesh.bones) skin.addJoint(joints[b]!);
  skin.setInverseBindMatrices(doc.createAccessor(`${mesh.name}_inverse_binds`).setType('MAT4').setArray(ibm.slice()).setBuffer(buffer));
  if (root) skin.setSkeleton(root);
  return skin;
}

export function buildMeshNodes(
  doc: Document,
  buffer: Buffer,
  scene: Scene,
  gltfScene: GltfScene,
  joints: readonly Node[],
  commonRoot: Node | null,
  materials: readonly (GltfMaterial | null)[],
): MeshNodes {
  const skins = new Map<string, Skin>();
  const meshNodes: MeshNode[] = [];
  const shearedRigid: string[] = [];
  for (const mesh of scene.meshes) {
    if (mesh.vertexCount === 0 || mesh.indices.length === 0) continue;
    const attrs = vertexAccessors(doc, buffer, mesh);
    const node = doc.createNode(mesh.name);
    let skinStreams: { joints: Accessor; weights: Accessor } | null = null;
    if (mesh.bones.length === 0) {
      gltfScene.addChild(node);
    } else if (!mesh.skinned && mesh.bones.length === 1 && matrixAsTrs(mesh.invBind.subarray(0, 16)) !== null) {
      const trs = matrixAsTrs(mesh.invBind.subarray(0, 16))!;
      node.setTranslation(trs.t).setRotation(trs.r).setScale(trs.s);
      joints[mesh.bones[0]!]!.addChild(node);
    } else {
      if (!mesh.skinned && mesh.bones.length === 1) shearedRigid.push(mesh.name);
      const key = skinKey(mesh);
      let skin = skins.get(key);
      if (!skin) {
        skin = createSkin(doc, buffer, mesh, joints, mesh.invBind.slice(0, mesh.bones.length * 16), commonRoot);
        skins.set(key, skin);
      }
      node.setSkin(skin);
      gltfScene.addChild(node);
      skinStreams = skinAccessors(doc, buffer, mesh);
    }

    const targets: number[] = [];
    const targetStreams: { position: Accessor; normal: Accessor }[] = [];
    (mesh.morphs ?? []).forEach((deltas, t) => {
      if (deltas.vertices.length === 0 || t >= scene.morphTargets.length) return;
      targets.push(t);
      targetStreams.push(morphAccessors(doc, buffer, mesh, deltas, scene.morphTargets[t]!));
    });

    const gltfMesh = doc.createMesh(mesh.name);
    const byMaterial = new Map<number, { start: number; count: number }[]>();
    for (const s of mesh.subsets) {
      if (s.count <= 0) continue;
      const runs = byMaterial.get(s.material) ?? [];
      runs.push(s);
      byMaterial.set(s.material, runs);
    }
    if (byMaterial.size === 0) byMaterial.set(-1, [{ start: 0, count: mesh.indices.length / 3 }]);
    for (const [material, runs] of byMaterial) {
      const prim = doc.createPrimitive()
        .setAttribute('POSITION', attrs.position)
        .setAttribute('NORMAL', attrs.normal)
        .setIndices(indexAccessor(doc, buffer, mesh, runs, `${mesh.name}_indices_${material}`));
      if (attrs.tangent) prim.setAttribute('TANGENT', attrs.tangent);
      if (attrs.texcoord) prim.setAttribute('TEXCOORD_0', attrs.texcoord);
      if (attrs.colour) prim.setAttribute('COLOR_0', attrs.colour);
      if (skinStreams) prim.setAttribute('JOINTS_0', skinStreams.joints).setAttribute('WEIGHTS_0', skinStreams.weights);
      const mat = materials[material];
      if (mat) prim.setMaterial(mat);
      targetStreams.forEach((streams, i) => {
        prim.addTarget(doc.createPrimitiveTarget(scene.morphTargets[targets[i]!]!).setAttribute('POSITION', streams.position).setAttribute('NORMAL', streams.normal));
      });
      gltfMesh.addPrimitive(prim);
    }
    if (targets.length > 0) {
      gltfMesh.setWeights(targets.map((t) => scene.morphDefaults?.[t] ?? 0));
      gltfMesh.setExtras({ targetNames: targets.map((t) => scene.morphTargets[t]!) });
    }
    node.setMesh(gltfMesh);
    meshNodes.push({ mesh, node, targets });
  }
  return { meshNodes, shearedRigid };
}
