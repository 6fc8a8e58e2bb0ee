import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, NodeIO } from '@gltf-transform/core';
import { PNG } from 'pngjs';

/**
 * Writes e2e/fixtures/zup/figure.gltf (+ figure.bin, textures/Skin.png): a small skinned stick figure stored
 * Z-up, as 3ds Max or Blender without conversion would write it — head along +Z, front towards −Y, thin
 * along Y. Seven joints named as DCC rigs name them (Hips, Spine, Head, LeftUpLeg, LeftFoot, …), one box per
 * joint, one clip ("Nod"). For the up-axis and folder-drop tests: `npx tsx scripts/make-zup-fixture.ts`.
 */
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'e2e', 'fixtures', 'zup');

// name, parent, world bind position; box (min, max) in model space skinned to it.
const joints: [string, number, [number, number, number], [number, number, number], [number, number, number]][] = [
  ['Hips', -1, [0, 0, 1], [-0.2, -0.1, 0.9], [0.2, 0.1, 1.0]],
  ['Spine', 0, [0, 0, 1.35], [-0.2, -0.1, 1.0], [0.2, 0.1, 1.5]],
  ['Head', 1, [0, 0, 1.75], [-0.1, -0.1, 1.5], [0.1, 0.1, 1.8]],
  ['LeftUpLeg', 0, [0.12, 0, 0.95], [0.05, -0.06, 0.1], [0.19, 0.06, 0.9]],
  ['LeftFoot', 3, [0.12, 0, 0.1], [0.05, -0.16, 0], [0.19, 0.06, 0.1]],
  ['RightUpLeg', 0, [-0.12, 0, 0.95], [-0.19, -0.06, 0.1], [-0.05, 0.06, 0.9]],
  ['RightFoot', 5, [-0.12, 0, 0.1], [-0.19, -0.16, 0], [-0.05, 0.06, 0.1]],
];

const positions: number[] = [];
const normals: number[] = [];
const uvs: number[] = [];
const jointIdx: number[] = [];
const weights: number[] = [];
const indices: number[] = [];
// Six faces: normal axis, sign; corners in CCW order seen from outside.
for (let j = 0; j < joints.length; j++) {
  const [, , , lo, hi] = joints[j]!;
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [-1, 1]) {
      const u = (axis + 1) % 3;
      const v = (axis + 2) % 3;
      const base = positions.length / 3;
      for (const [a, b] of [[0, 0], [1, 0], [1, 1], [0, 1]] as const) {
        const p = [0, 0, 0];
        p[axis] = sign > 0 ? hi[axis]! : lo[axis]!;
        p[u] = a ? hi[u]! : lo[u]!;
        p[v] = b ? hi[v]! : lo[v]!;
        positions.push(...p);
        const n = [0, 0, 0];
        n[axis] = sign;
        normals.push(...n);
        uvs.push(a, b);
        jointIdx.push(j, 0, 0, 0);
        weights.push(1, 0, 0, 0);
      }
      // (u, v) then axis is right-handed: CCW seen from +axis; reverse for the − face.
      if (sign > 0) indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
      else indices.push(base, base + 2, base + 1, base, base + 3, base + 2);
    }
  }
}

const doc = new Document();
const buffer = doc.createBuffer().setURI('figure.bin');
const acc = (type: 'VEC2' | 'VEC3' | 'VEC4' | 'SCALAR' | 'MAT4', array: Float32Array | Uint16Array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
const png = new PNG({ width: 2, height: 2 });
[[200, 120, 90], [90, 140, 200], [90, 140, 200], [200, 120, 90]].forEach((c, i) => png.data.set([...c, 255], i * 4));
const texture = doc.createTexture('Skin').setImage(PNG.sync.write(png)).setMimeType('image/png').setURI('textures/Skin.png');
const material = doc.createMaterial('Skin').setBaseColorTexture(texture).setRoughnessFactor(0.8).setMetallicFactor(0);
const prim = doc
  .createPrimitive()
  .setAttribute('POSITION', acc('VEC3', new Float32Array(positions)))
  .setAttribute('NORMAL', acc('VEC3', new Float32Array(normals)))
  .setAttribute('TEXCOORD_0', acc('VEC2', new Float32Array(uvs)))
  .setAttribute('JOINTS_0', acc('VEC4', new Uint16Array(jointIdx)))
  .setAttribute('WEIGHTS_0', acc('VEC4', new Float32Array(weights)))
  .setIndices(acc('SCALAR', new Uint16Array(indices)))
  .setMaterial(material);
const mesh = doc.createMesh('Figure').addPrimitive(prim);
const nodes = joints.map(([name, parent, world]) => {
  const p = parent >= 0 ? joints[parent]![2] : [0, 0, 0];
  return doc.createNode(name).setTranslation([world[0] - p[0]!, world[1] - p[1]!, world[2] - p[2]!]);
});
joints.forEach(([, parent], i) => {
  if (parent >= 0) nodes[parent]!.addChild(nodes[i]!);
});
const ibm = new Float32Array(joints.length * 16);
joints.forEach(([, , w], i) => ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -w[0], -w[1], -w[2], 1], i * 16));
const skin = doc.createSkin('Rig').setSkeleton(nodes[0]!).setInverseBindMatrices(acc('MAT4', ibm));
for (const n of nodes) skin.addJoint(n);
const figure = doc.createNode('Figure').setMesh(mesh).setSkin(skin);
doc.createScene('Scene').addChild(nodes[0]!).addChild(figure);
// Nod: the head tips forward (about +X, towards −Y) and back over a second.
const s = Math.sin(0.2), c = Math.cos(0.2);
const times = acc('SCALAR', new Float32Array([0, 0.5, 1]));
const rots = acc('VEC4', new Float32Array([0, 0, 0, 1, -s, 0, 0, c, 0, 0, 0, 1]));
const sampler = doc.createAnimationSampler().setInput(times).setOutput(rots).setInterpolation('LINEAR');
doc.createAnimation('Nod').addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(nodes[2]!).setTargetPath('rotation').setSampler(sampler));

mkdirSync(join(out, 'textures'), { recursive: true });
await new NodeIO().write(join(out, 'figure.gltf'), doc);
console.log(`wrote ${out}/figure.gltf`);
