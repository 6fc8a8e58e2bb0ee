import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnimationMixer, Mesh, Vector3, type Object3D } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import { exportGltf } from '../../src/export/export-gltf.ts';
import { generateDawn } from '../../src/gen/dawn.ts';
import { generateHumanoid } from '../../src/gen/humanoid.ts';
import { generateTwist } from '../../src/gen/twist.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import type { Scene } from '../../src/model/types.ts';
import { CORPUS_DIR, HAVE_CORPUS } from '../corpus.ts';
import { boxError, emptyBox, POSE_FRACTIONS, ScenePoser, type Box } from './pose-bounds.ts';

/**
 * three.js's GLTFLoader (the most common consumer of glTF on the web) loads the exported .glb, and posed
 * by its AnimationMixer at 0, 0.37 and 0.81 of every clip it gives the world-space bounds skinlab's own
 * runtime gives the source Scene, within 1e-4 of the diagonal. Exported without textures (images need a DOM).
 */

const TOLERANCE = 1e-4;

async function parseGlb(glb: Uint8Array): Promise<{ scene: Object3D; animations: import('three').AnimationClip[] }> {
  const buf = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  return new Promise((resolve, reject) => new GLTFLoader().parse(buf, '', (g) => resolve(g), (e) => reject(e)));
}

function threeBounds(root: Object3D): Box {
  root.updateMatrixWorld(true);
  const box = emptyBox();
  const v = new Vector3();
  root.traverse((o) => {
    if (!(o instanceof Mesh)) return;
    const count = o.geometry.getAttribute('position').count;
    for (let i = 0; i < count; i++) {
      o.getVertexPosition(i, v);
      v.applyMatrix4(o.matrixWorld);
      for (let k = 0; k < 3; k++) {
        box.min[k] = Math.min(box.min[k]!, v.getComponent(k));
        box.max[k] = Math.max(box.max[k]!, v.getComponent(k));
      }
    }
  });
  return box;
}

/** Worst error over every clip and pose time; throws with the clip and time where it is over the tolerance. */
async function compare(scene: Scene): Promise<number> {
  const { files } = await exportGltf(scene, { binary: true, textures: async () => null });
  const gltf = await parseGlb([...files.values()][0]!);
  const poser = new ScenePoser(scene);
  let worst = 0;
  if (scene.clips.length === 0) return boxError(poser.bounds(0, 0), threeBounds(gltf.scene));
  expect(gltf.animations.map((a) => a.name)).toEqual(scene.clips.map((c) => c.name));
  for (let c = 0; c < scene.clips.length; c++) {
    const clip = scene.clips[c]!;
    expect(gltf.animations[c]!.duration).toBeCloseTo(clip.duration, 5);
    const mixer = new AnimationMixer(gltf.scene);
    const action = mixer.clipAction(gltf.animations[c]!);
    action.play();
    for (const f of POSE_FRACTIONS) {
      const t = f * clip.duration;
      mixer.setTime(t);
      const err = boxError(poser.bounds(c, t), threeBounds(gltf.scene));
      if (!(err <= TOLERANCE)) throw new Error(`${scene.name}: clip ${clip.name} at t = ${t}: bounds differ by ${err} of the diagonal`);
      worst = Math.max(worst, err);
    }
    action.stop();
    mixer.uncacheRoot(gltf.scene);
  }
  return worst;
}

describe('exported glTF in three.js', () => {
  it('Twist, Walker and Dawn (generated) pose as in skinlab', async () => {
    for (const scene of [generateTwist(), generateHumanoid(), generateDawn({ detail: 'low' })]) {
      const worst = await compare(scene);
      console.log(`[export three] ${scene.name}: worst bounds error ${worst.toExponential(2)} of the diagonal`);
    }
  }, 60_000);

  const corpus = ['tiny.x', 'tiny_4anim.x', 'mak_running.x', 'Dwarf_MS.x', 'heli.x', 'BCN_Epileptic.X', 'dbpro_zombie.x', 'bat.x', 'soldier.m3d', 'anim_test.x', 'Testwuson.X'];
  (HAVE_CORPUS ? it : it.skip)(`corpus files pose as in skinlab (${corpus.join(', ')})`, async () => {
    for (const file of corpus) {
      const scene = loadModel(file, new Uint8Array(readFileSync(join(CORPUS_DIR, file))));
      const worst = await compare(scene);
      console.log(`[export three] ${file}: worst bounds error ${worst.toExponential(2)} of the diagonal`);
    }
  }, 60_000);
});
