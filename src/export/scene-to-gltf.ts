import { Document } from '@gltf-transform/core';
import type { Scene } from '../model/types.ts';
import { buildAnimations } from './animations.ts';
import { buildMaterials, type TextureSource } from './materials.ts';
import { buildMeshNodes } from './mesh-nodes.ts';
import { buildSkeletonNodes } from './skeleton-nodes.ts';

/**
 * Scene → glTF 2.0 document (gltf-transform `Document`): the composition root of the export layer.
 * One buffer, one scene (the default), skeleton nodes (skeleton-nodes.ts), meshes with their skins and
 * morph targets (mesh-nodes.ts), materials with embedded images (materials.ts) and every clip as an
 * animation (animations.ts). asset.generator is "skinlab"; asset.copyright is the source's own (Scene.copyright), when it has one.
 *
 * Layer: export depends on model, anim and loaders/textures; only app, ui and cli depend on it.
 * No DOM and no node: imports: it runs in the browser and in Node.
 */

export interface SceneToGltfResult {
  readonly doc: Document;
  /** What the export could not carry over or changed, in words a user understands. */
  readonly warnings: string[];
}

export async function sceneToGltf(scene: Scene, textures: TextureSource): Promise<SceneToGltfResult> {
  const warnings: string[] = [];
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'skinlab';
  if (scene.copyright) doc.getRoot().getAsset().copyright = scene.copyright;
  const buffer = doc.createBuffer();
  const gltfScene = doc.createScene(scene.name);
  doc.getRoot().setDefaultScene(gltfScene);

  const { nodes, root } = buildSkeletonNodes(doc, scene, gltfScene);
  const materials = await buildMaterials(doc, scene, textures, warnings);
  const { meshNodes, shearedRigid } = buildMeshNodes(doc, buffer, scene, gltfScene, nodes, root, materials);
  if (shearedRigid.length > 0) {
    warnings.push(`the offset matrix of ${shearedRigid.length === 1 ? 'mesh' : 'meshes'} ${shearedRigid.join(', ')} has shear, which a glTF node cannot hold: written as a one-joint skin (same picture)`);
  }
  buildAnimations(doc, buffer, scene, nodes, meshNodes, warnings);
  return { doc, warnings };
}
