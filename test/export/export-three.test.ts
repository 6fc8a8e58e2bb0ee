import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnimationMixer, Mesh, Vector3, type Object3D } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import { exportGltf } from '../../src/export/export-gltf.ts';
import { EXPORT_ROOT_NAME } from '../../src/export/skeleton-nodes.ts';
import { generateDawn } from '../../src/gen/dawn.ts';
import { generateHumanoid } from '../../src/gen/humanoid.ts';
import { generateTwist } from '../../src/gen/twist.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import type { Scene } from '../../src/model/types.ts';
import { CORPUS_DIR, HAVE_CORPUS } from '../corpus.ts';
import { validateBytes } from './validator.ts';
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

async function expectValid(glb: Uint8Array): Promise<void> {
  const report = (await validateBytes(glb));
  expect(report.issues.messages.filter((m) => m.severity === 0).map((m) => m.code)).toEqual([]);
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

  it('a rigid mesh whose offset has shear is written as a one-joint skin, with one warning naming it', async () => {
    const twist = generateTwist();
    const mesh = twist.meshes[0]!;
    const n = mesh.vertexCount;
    const weights = new Float32Array(n * 4);
    for (let v = 0; v < n; v++) weights[v * 4] = 1;
    // Column-major: x' = x + 0.5 y (shear), then moved by (0.1, 0.2, 0.3).
    const shear = Float32Array.from([1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0.1, 0.2, 0.3, 1]);
    const rigid = { ...mesh, name: 'sheared', skinned: false, bones: Int16Array.of(2), invBind: shear, joints: new Uint16Array(n * 4), weights, maxInfluences: 1 };
    const scene: Scene = { ...twist, meshes: [rigid] };
    const { files, warnings } = await exportGltf(scene, { binary: true, textures: async () => null });
    await expectValid([...files.values()][0]!);
    expect(warnings).toEqual([expect.stringMatching(/mesh sheared has shear.*one-joint skin/)]);
    const worst = await compare(scene);
    console.log(`[export three] sheared rigid mesh: worst bounds error ${worst.toExponential(2)} of the diagonal`);
  });

  it('a skin whose joints hang from two roots gets one added common root (same picture)', async () => {
    const twist = generateTwist();
    const parents = Int16Array.from(twist.skeleton.parents);
    parents[2] = -1;
    const scene: Scene = { ...twist, skeleton: { ...twist.skeleton, parents } };
    const { files } = await exportGltf(scene, { binary: true, textures: async () => null });
    await expectValid([...files.values()][0]!);
    const gltf = await parseGlb([...files.values()][0]!);
    expect(gltf.scene.children.map((c) => c.name)).toContain(EXPORT_ROOT_NAME);
    const worst = await compare(scene);
    console.log(`[export three] two-root skin: worst bounds error ${worst.toExponential(2)} of the diagonal`);
  });

  const corpus = ['tiny.x', 'tiny_4anim.x', 'mak_running.x', 'Dwarf_MS.x', 'heli.x', 'BCN_Epileptic.X', 'dbpro_zombie.x', 'bat.x', 'soldier.m3d', 'anim_test.x', 'Testwuson.X'];
  (HAVE_CORPUS ? it : it.skip)(`corpus files pose as in skinlab (${corpus.join(', ')})`, async () => {
    for (const file of corpus) {
      const scene = loadModel(file, new Uint8Array(readFileSync(join(CORPUS_DIR, file))));
      const worst = await compare(scene);
      console.log(`[export three] ${file}: worst bounds error ${worst.toExponential(2)} of the diagonal`);
    }
  }, 60_000);
});
