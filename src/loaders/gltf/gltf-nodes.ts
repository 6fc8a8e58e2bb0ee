import type { mat4 } from 'gl-matrix';
import { decomposeTRS } from '../../model/build.ts';
import { LoadError } from '../../model/errors.ts';
import { TRS_STRIDE } from '../../model/types.ts';
import type { GltfJson } from './gltf-container.ts';
import type { GltfDoc, GltfNode as Node } from './gltf-doc.ts';
import { UniqueNames } from './gltf-names.ts';

/**
 * The glTF node hierarchy → the Scene's skeleton.
 *
 * - Nodes: every node of the default scene (`scene`, else scene 0; every root node when the file has no
 *   scenes), depth-first from the scene's roots in file order, so parents come before children. Joints of
 *   the skins those nodes use that lie outside the scene are added with their whole root subtree (they are
 *   needed to pose the skin). Non-joint nodes are ordinary skeleton nodes: they animate and carry rigid meshes.
 * - Names: the node's name, else `node_<index>`; a repeated name gets `-2`, `-3`… appended.
 * - Rest locals: the node's TRS, or its `matrix` decomposed (decomposeTRS: a mirrored basis is carried by a
 *   negative X scale; shear is lost).
 * The JSON is read only for `matrix` (the document keeps TRS as written).
 */

export interface GltfSkeleton {
  readonly names: string[];
  readonly parents: Int16Array;
  readonly restLocal: Float32Array;
  /** Skeleton node → document node. */
  readonly nodes: readonly Node[];
  /** Document node → skeleton index (absent: not in the skeleton). */
  readonly indexOf: ReadonlyMap<Node, number>;
}

/** Largest skeleton the Scene can index (Int16Array parents and bones). */
export const MAX_NODES = 32767;

export function buildSkeleton(doc: GltfDoc, json: GltfJson, fileName: string): GltfSkeleton {
  const all = doc.nodes;
  const roots: readonly Node[] = doc.sceneRoots ?? all.filter((n) => n.getParentNode() === null);

  const order: Node[] = [];
  const parentOf: number[] = [];
  const indexOf = new Map<Node, number>();
  const visit = (start: Node, parent: number): void => {
    const stack: [Node, number][] = [[start, parent]];
    while (stack.length > 0) {
      const [node, p] = stack.pop()!;
      if (indexOf.has(node)) continue;
      if (order.length >= MAX_NODES) throw new LoadError(`${fileName}: more than ${MAX_NODES} nodes in the scene; skinlab's skeletons hold at most ${MAX_NODES}`);
      const self = order.length;
      indexOf.set(node, self);
      order.push(node);
      parentOf.push(p);
      const children = node.listChildren();
      for (let c = children.length - 1; c >= 0; c--) stack.push([children[c]!, self]);
    }
  };
  for (const r of roots) visit(r, -1);
  // Joints outside the scene: add their topmost ancestor's subtree.
  const sceneNodes = order.slice();
  for (const node of sceneNodes) {
    const skin = node.getMesh() ? node.getSkin() : null;
    if (!skin) continue;
    for (const joint of skin.listJoints()) {
      if (indexOf.has(joint)) continue;
      let top = joint;
      for (let guard = 0; top.getParentNode() && guard <= all.length; guard++) top = top.getParentNode()!;
      visit(top, -1);
    }
  }

  const names: string[] = [];
  const unique = new UniqueNames();
  const jsonNodes = Array.isArray(json['nodes']) ? (json['nodes'] as unknown[]) : [];
  const restLocal = new Float32Array(order.length * TRS_STRIDE);
  for (let i = 0; i < order.length; i++) {
    const node = order[i]!;
    const fi = node.index;
    names.push(unique.take(node.getName() || `node_${fi}`));
    const def = jsonNodes[fi] as Record<string, unknown> | undefined;
    const matrix = def?.['matrix'];
    const o = i * TRS_STRIDE;
    if (Array.isArray(matrix) && matrix.length === 16 && matrix.every((v) => typeof v === 'number')) {
      decomposeTRS(Float32Array.from(matrix as number[]) as unknown as mat4, restLocal, o);
    } else {
      restLocal.set(node.getTranslation(), o);
      restLocal.set(node.getRotation(), o + 3);
      restLocal.set(node.getScale(), o + 7);
    }
  }
  return { names, parents: Int16Array.from(parentOf), restLocal, nodes: order, indexOf };
}
