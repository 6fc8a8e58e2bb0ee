import { Document, WebIO, type Node } from '@gltf-transform/core';
import { KHRTextureTransform } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { AnimPlayer } from '../../../src/anim/player.ts';
import { PosedBounds } from '../../../src/anim/posed-bounds.ts';
import { loadModel, loadModelAsync, MODEL_EXTENSIONS } from '../../../src/loaders/load-model.ts';
import { LoadError } from '../../../src/model/errors.ts';
import { MAX_INFLUENCES } from '../../../src/model/types.ts';

/** Hand-built glTF files (written by gltf-transform) for what the corpus does not exercise. */

const PNG = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4);

async function glb(doc: Document): Promise<Uint8Array> {
  return new WebIO().registerExtensions([KHRTextureTransform]).writeBinary(doc);
}

/** A quad as a 4-vertex TRIANGLE_STRIP without normals, under node `parent` (animated, not a joint). */
function stripDoc(): { doc: Document; parent: Node } {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc.createAccessor().setType('VEC3').setBuffer(buffer).setArray(Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0));
  const uv = doc.createAccessor().setType('VEC2').setBuffer(buffer).setArray(Float32Array.of(0, 0, 1, 0, 0, 1, 1, 1));
  const tex = doc.createTexture('skin').setImage(PNG).setMimeType('image/png');
  const material = doc.createMaterial('m').setBaseColorFactor([0.5, 0.25, 1, 0.5]).setBaseColorTexture(tex).setAlphaMode('MASK').setAlphaCutoff(0.3);
  const ext = doc.createExtension(KHRTextureTransform);
  material.getBaseColorTextureInfo()!.setExtension('KHR_texture_transform', ext.createTransform().setOffset([0.5, 0.25]).setScale([2, 2]).setRotation(Math.PI / 2));
  const prim = doc.createPrimitive().setMode(5).setAttribute('POSITION', pos).setAttribute('TEXCOORD_0', uv).setMaterial(material);
  const delta = doc.createAccessor().setType('VEC3').setBuffer(buffer).setArray(Float32Array.of(0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1));
  prim.addTarget(doc.createPrimitiveTarget().setAttribute('POSITION', delta));
  const mesh = doc.createMesh('quad').addPrimitive(prim).setWeights([0.25]);
  const child = doc.createNode('holder').setMesh(mesh).setTranslation([0, 0, 0]).setWeights([0.75]);
  const parent = doc.createNode('mover').addChild(child);
  doc.createScene('s').addChild(parent);
  const times = doc.createAccessor().setType('SCALAR').setBuffer(buffer).setArray(Float32Array.of(0.5, 1.5));
  const moves = doc.createAccessor().setType('VEC3').setBuffer(buffer).setArray(Float32Array.of(0, 0, 0, 10, 0, 0));
  const sampler = doc.createAnimationSampler().setInput(times).setOutput(moves).setInterpolation('STEP');
  const anim = doc.createAnimation('slide').addSampler(sampler);
  anim.addChannel(doc.createAnimationChannel().setTargetNode(parent).setTargetPath('translation').setSampler(sampler));
  anim.setExtras({ markers: [{ time: 1, name: 'step' }, { time: 'x', name: 'bad' }] });
  return { doc, parent };
}

describe('glTF reader', () => {
  it('lists glTF among the model extensions and refuses it on the synchronous path', async () => {
    expect(MODEL_EXTENSIONS).toContain('.gltf');
    expect(MODEL_EXTENSIONS).toContain('.glb');
    const bytes = await glb(stripDoc().doc);
    expect(() => loadModel('q.glb', bytes)).toThrow(/loadModelAsync/);
  });

  it('reads a rigid strip mesh on an animated node: triangles, normals, UV transform, material, image, morph rest weight, STEP, markers', async () => {
    const scene = await loadModelAsync('q.glb', await glb(stripDoc().doc));
    expect(scene.format).toBe('glb');
    expect(scene.skeleton.names).toEqual(['mover', 'holder']);
    const m = scene.meshes[0]!;
    expect(m.skinned).toBe(false);
    expect(Array.from(m.bones)).toEqual([1]);
    // Strip 0 1 2 3 → (0 1 2), (1 3 2): both wind CCW seen from +Z. Without NORMAL the primitive is drawn flat,
    // as glTF requires: unwelded into 6 vertices with the face normal, each a copy of its source vertex.
    expect(m.vertexCount).toBe(6);
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 3, 4, 5]);
    for (let v = 0; v < 6; v++) expect(Array.from(m.normals.subarray(v * 3, v * 3 + 3), (x) => x + 0)).toEqual([0, 0, 1]);
    expect(scene.warnings.some((w) => /normals/.test(w))).toBe(false);
    // uv (1, 0) of vertex 1 (unwelded vertex 1) → rotation 90°: (cos·2·1, −sin·2·1) + (0.5, 0.25) = (0.5, −1.75).
    expect(m.uvs![2]).toBeCloseTo(0.5, 6);
    expect(m.uvs![3]).toBeCloseTo(-1.75, 6);
    const mat = scene.materials[m.subsets[0]!.material]!;
    expect(mat.diffuse[0]).toBeCloseTo(Math.pow(0.5, 1 / 2.2), 6);
    expect(mat.diffuse[3]).toBe(0.5);
    expect(mat.alphaMode).toBe('mask');
    expect(mat.alphaCutoff).toBeCloseTo(0.3, 6);
    expect(mat.doubleSided).toBe(false);
    expect(scene.images?.map((i) => i.name)).toEqual([mat.diffuseMap]);
    expect(scene.images![0]!.bytes).toEqual(PNG);
    // node.weights overrides mesh.weights.
    expect(scene.morphTargets).toEqual(['target_0']);
    expect(scene.morphDefaults![0]).toBeCloseTo(0.75, 6);
    const clip = scene.clips[0]!;
    expect(clip.name).toBe('slide');
    expect(clip.duration).toBeCloseTo(1.5, 6);
    expect(clip.markers).toEqual([{ time: 1, name: 'step' }]);
    expect(scene.warnings.some((w) => /1 malformed marker/.test(w))).toBe(true);
    // STEP: held at 0 until 1.5 s (keys start at 0.5 s, not shifted), then 10.
    const player = new AnimPlayer(scene.skeleton, scene.clips, 1, scene.morphDefaults);
    const bounds = new PosedBounds(scene);
    const min = [0, 0, 0];
    const max = [0, 0, 0];
    for (const [t, x] of [[0, 0], [1.4999, 0], [1.5, 10]] as const) {
      player.setTime(t);
      player.evaluate();
      bounds.measure(player, min, max);
      expect(min[0]).toBeCloseTo(x, 5);
    }
    // The morph rest weight applies: z of the top vertices = 0.75.
    expect(max[2]).toBeCloseTo(0.75, 5);
  });

  it('keeps the 4 largest of 6 influences, renormalised, with one warning', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const j0 = doc.createNode('root');
    const joints = [j0];
    for (let k = 1; k < 6; k++) {
      const j = doc.createNode(`j${k}`).setTranslation([k, 0, 0]);
      j0.addChild(j);
      joints.push(j);
    }
    const skin = doc.createSkin('s');
    for (const j of joints) skin.addJoint(j);
    const ibm = new Float32Array(6 * 16);
    for (let k = 0; k < 6; k++) {
      ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -k, 0, 0, 1], k * 16);
    }
    skin.setInverseBindMatrices(doc.createAccessor().setType('MAT4').setBuffer(buffer).setArray(ibm));
    const acc = (type: 'VEC3' | 'VEC4', a: Float32Array | Uint16Array) => doc.createAccessor().setType(type).setBuffer(buffer).setArray(a);
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', acc('VEC3', Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0)))
      .setAttribute('JOINTS_0', acc('VEC4', Uint16Array.of(0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0)))
      .setAttribute('WEIGHTS_0', acc('VEC4', Float32Array.of(0.05, 0.3, 0.1, 0.2, 1, 0, 0, 0, 1, 0, 0, 0)))
      .setAttribute('JOINTS_1', acc('VEC4', Uint16Array.of(4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
      .setAttribute('WEIGHTS_1', acc('VEC4', Float32Array.of(0.25, 0.1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)));
    const holder = doc.createNode('skinned').setMesh(doc.createMesh('m').addPrimitive(prim)).setSkin(skin).setTranslation([100, 0, 0]);
    doc.createScene().addChild(j0).addChild(holder);
    const scene = await loadModelAsync('w.glb', await glb(doc));
    const m = scene.meshes[0]!;
    expect(m.skinned).toBe(true);
    const w = Array.from(m.weights.subarray(0, MAX_INFLUENCES));
    const kept = 0.3 + 0.25 + 0.2 + 0.1;
    expect(w[0]).toBeCloseTo(0.3 / kept, 6);
    expect(w[1]).toBeCloseTo(0.25 / kept, 6);
    expect(Array.from(m.joints.subarray(0, 2))).toEqual([1, 4]);
    expect(scene.warnings.filter((x) => /more than 4 bone influences/.test(x))).toEqual([
      '1 vertex has more than 4 bone influences (JOINTS_1/WEIGHTS_1): the 4 largest kept, renormalised',
    ]);
    // At rest (inverse binds undo the joints) the skinned node's own translation (100) is ignored: x ≤ 1.
    const player = new AnimPlayer(scene.skeleton, []);
    const min = [0, 0, 0];
    const max = [0, 0, 0];
    new PosedBounds(scene).measure(player, min, max);
    expect(max[0]).toBeCloseTo(1, 5);
  });

  it('names a missing external image by its URI and embeds one found in the resources', async () => {
    const text = JSON.stringify({
      asset: { version: '2.0' },
      buffers: [{ uri: 'geo.bin', byteLength: 36 }],
      bufferViews: [{ buffer: 0, byteLength: 36 }],
      accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
      images: [{ uri: 'tex/skin.png' }],
      textures: [{ source: 0 }],
      materials: [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 }, material: 0 }] }],
      nodes: [{ mesh: 0 }],
      scenes: [{ nodes: [0] }],
    });
    const bytes = new TextEncoder().encode(text);
    const geo = new Uint8Array(Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0).buffer);
    const without = await loadModelAsync('e.gltf', bytes, new Map([['geo.bin', geo]]));
    expect(without.format).toBe('gltf');
    expect(without.materials[0]!.diffuseMap).toBe('tex/skin.png');
    expect(without.images ?? []).toEqual([]);
    const withImage = await loadModelAsync('e.gltf', bytes, new Map([['geo.bin', geo], ['tex/skin.png', PNG]]));
    expect(withImage.images?.map((i) => i.name)).toEqual(['tex/skin.png']);
    await expect(loadModelAsync('e.gltf', bytes)).rejects.toThrow(LoadError);
  });

  it('loads a KHR_texture_basisu material (required) naming its KTX2 image, with no warning (the page transcodes it)', async () => {
    const ktx = Uint8Array.of(0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a);
    const b64 = (a: Uint8Array): string => Buffer.from(a).toString('base64');
    const geo = new Uint8Array(Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0).buffer);
    const text = JSON.stringify({
      asset: { version: '2.0' },
      extensionsUsed: ['KHR_texture_basisu'],
      extensionsRequired: ['KHR_texture_basisu'],
      buffers: [{ uri: `data:application/octet-stream;base64,${b64(geo)}`, byteLength: 36 }],
      bufferViews: [{ buffer: 0, byteLength: 36 }],
      accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
      images: [{ uri: `data:image/ktx2;base64,${b64(ktx)}`, mimeType: 'image/ktx2' }],
      textures: [{ extensions: { KHR_texture_basisu: { source: 0 } } }],
      materials: [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 }, material: 0 }] }],
      nodes: [{ mesh: 0 }],
      scenes: [{ nodes: [0] }],
    });
    const scene = await loadModelAsync('k.gltf', new TextEncoder().encode(text));
    const name = scene.materials[0]!.diffuseMap;
    expect(name).toMatch(/\.ktx2$/);
    expect(scene.images).toEqual([{ name, mimeType: 'image/ktx2', bytes: ktx }]);
    expect(scene.warnings.filter((w) => /KHR_texture_basisu|KTX2/.test(w))).toEqual([]);
  });
});
