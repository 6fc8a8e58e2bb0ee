import type { Document, Node, Scene as GltfScene } from '@gltf-transform/core';
import type { Scene } from '../model/types.ts';
import { restTrs } from './trs.ts';

/**
 * The Scene's frame hierarchy as glTF nodes: one node per skeleton node, same index, same name, its rest
 * local as the node's TRS, children lists from `parents`. Roots go into the glTF scene — unless a mesh's
 * bones hang from more than one root (glTF wants a skin's joints under one common root): then every
 * root is put under one added identity node, `EXPORT_ROOT_NAME`, so the world transforms do not change.
 */

export const EXPORT_ROOT_NAME = 'skinlab_root';

export interface SkeletonNodes {
  /** nodes[i] is skeleton node i. */
  readonly nodes: readonly Node[];
  /** The added common root, or null when the skeleton's own roots went into the scene. */
  readonly root: Node | null;
}

function rootOf(parents: Int16Array, i: number): number {
  let n = i;
  for (let guard = 0; guard <= parents.length && parents[n]! >= 0; guard++) n = parents[n]!;
  return n;
}

/** True when some mesh's bones (palette slots) belong to more than one tree of the skeleton. */
export function needsCommonRoot(scene: Scene): boolean {
  const parents = scene.skeleton.parents;
  for (const m of scene.meshes) {
    if (m.bones.length < 2) continue;
    const first = rootOf(parents, m.bones[0]!);
    for (let k = 1; k < m.bones.length; k++) if (rootOf(parents, m.bones[k]!) !== first) return true;
  }
  return false;
}

export function buildSkeletonNodes(doc: Document, scene: Scene, gltfScene: GltfScene): SkeletonNodes {
  const { names, parents, restLocal } = scene.skeleton;
  const nodes: Node[] = [];
  for (let i = 0; i < parents.length; i++) {
    const trs = restTrs(restLocal, i);
    nodes.push(doc.createNode(names[i] ?? `node_${i}`).setTranslation(trs.t).setRotation(trs.r).setScale(trs.s));
  }
  const root = needsCommonRoot(scene) ? doc.createNode(EXPORT_ROOT_NAME) : null;
  if (root) gltfScene.addChild(root);
  for (let i = 0; i < nodes.length; i++) {
    const p = parents[i]!;
    if (p >= 0 && p < i) nodes[p]!.addChild(nodes[i]!);
    else if (root) root.addChild(nodes[i]!);
    else gltfScene.addChild(nodes[i]!);
  }
  return { nodes, root };
}
