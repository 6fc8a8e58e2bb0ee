import { Document, NodeIO, type Node as GltfNode } from '@gltf-transform/core';
import { KHRDracoMeshCompression } from '@gltf-transform/extensions';
import draco3d from 'draco3d';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';

/**
 * A synthetic scene for the benchmark's large-file rows (`draco_scene_glb` in the ttff and load parts), made here
 * so they run where no large compressed file is at hand: the shape of a keyframe-animated diorama such as
 * three.js's LittlestTokyo, not a copy of any. 60 Draco-compressed meshes (157,452 vertices, 299,464 triangles,
 * normals and UVs) under 240 animated nodes (one 23 s clip of 200 linear keys per node), 8 materials sharing
 * 3 PNG base-colour textures (one 2048², two 1024²), in one 2.9 MB .glb. Deterministic: the same bytes each time
 * (a fixed random sequence); written once per machine under the OS's temporary folder.
 */

/** Bumped whenever the scene changes, so a stale file is not measured. */
const VERSION = 1;

/** The scene's path, made first if it is not there yet. */
export async function dracoScenePath(): Promise<string> {
  const dir = join(tmpdir(), 'skinlab-bench');
  const path = join(dir, `draco-scene-v${VERSION}.glb`);
  if (existsSync(path)) return path;
  mkdirSync(dir, { recursive: true });
  const bytes = await makeDracoScene();
  const partial = `${path}.${process.pid}.part`;
  writeFileSync(partial, bytes);
  renameSync(partial, path);
  return path;
}

/** A 0–1 value on 16 levels of 0–255 (flat runs that PNG compresses well). */
const level = (f: number): number => Math.round(f * 15) * 17;

/** A smooth procedural RGBA image (bands and rings in `hue`, 16 levels a channel), PNG-encoded. */
function texturePng(size: number, hue: number): Uint8Array {
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const u = x / size;
      const v = y / size;
      const ring = 0.5 + 0.5 * Math.sin(40 * Math.hypot(u - 0.5, v - 0.5));
      const band = 0.5 + 0.5 * Math.sin(12 * (u + v) + hue);
      const o = (y * size + x) * 4;
      png.data[o] = level(0.3 + 0.5 * ring * Math.abs(Math.cos(hue)));
      png.data[o + 1] = level(0.25 + 0.5 * band);
      png.data[o + 2] = level(0.3 + 0.5 * (1 - ring) * Math.abs(Math.sin(hue)));
      png.data[o + 3] = 255;
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

export async function makeDracoScene(): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('Scene');
  const textures = [
    [2048, 0.4],
    [1024, 1.3],
    [1024, 2.2],
  ].map(([size, hue], i) => doc.createTexture(`atlas${i}`).setImage(texturePng(size!, hue!)).setMimeType('image/png'));
  const materials = Array.from({ length: 8 }, (_, i) => doc.createMaterial(`m${i}`).setBaseColorTexture(textures[i % 3]!).setRoughnessFactor(0.8).setMetallicFactor(0));
  let seed = 12345;
  const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const root = doc.createNode('root');
  scene.addChild(root);
  const animated: GltfNode[] = [];
  for (let m = 0; m < 60; m++) {
    const nu = 40 + Math.floor(random() * 40);
    const nv = 30 + Math.floor(random() * 30);
    const positions: number[] = [];
    const normals: number[] = [];
    const uvs: number[] = [];
    const indices: number[] = [];
    const [rx, ry, rz, bump] = [0.3 + random(), 0.3 + random(), 0.3 + random(), random() * 0.2];
    for (let j = 0; j <= nv; j++) {
      for (let i = 0; i <= nu; i++) {
        const a = (i / nu) * Math.PI * 2;
        const b = (j / nv) * Math.PI;
        const r = 1 + bump * Math.sin(5 * a) * Math.sin(4 * b);
        const [x, y, z] = [Math.cos(a) * Math.sin(b), Math.cos(b), Math.sin(a) * Math.sin(b)];
        positions.push(rx * r * x, ry * r * y, rz * r * z);
        normals.push(x, y, z);
        uvs.push(i / nu, j / nv);
      }
    }
    for (let j = 0; j < nv; j++) {
      for (let i = 0; i < nu; i++) {
        const a = j * (nu + 1) + i;
        const b = a + nu + 1;
        indices.push(a, b, a + 1, a + 1, b, b + 1);
      }
    }
    const primitive = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array(positions)).setBuffer(buffer))
      .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(new Float32Array(normals)).setBuffer(buffer))
      .setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(new Float32Array(uvs)).setBuffer(buffer))
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint32Array(indices)).setBuffer(buffer))
      .setMaterial(materials[m % materials.length]!);
    const group = doc.createNode(`group${m}`).setTranslation([(random() - 0.5) * 12, random() * 6, (random() - 0.5) * 12]);
    const node = doc.createNode(`mesh${m}`).setMesh(doc.createMesh(`mesh${m}`).addPrimitive(primitive));
    group.addChild(node);
    root.addChild(group);
    for (let k = 0; k < 2; k++) {
      const extra = doc.createNode(`prop${m}_${k}`).setTranslation([random(), random(), random()]);
      node.addChild(extra);
      animated.push(extra);
    }
    animated.push(group, node);
  }
  const clip = doc.createAnimation('Take 001');
  const KEYS = 200;
  const SECONDS = 23;
  const times = doc.createAccessor().setType('SCALAR').setArray(Float32Array.from({ length: KEYS }, (_, i) => (i / (KEYS - 1)) * SECONDS)).setBuffer(buffer);
  for (const node of animated) {
    const phase = random() * 6;
    const amplitude = random();
    const base = node.getTranslation();
    const translation = new Float32Array(KEYS * 3);
    const rotation = new Float32Array(KEYS * 4);
    for (let i = 0; i < KEYS; i++) {
      const s = (i / KEYS) * Math.PI * 2;
      translation.set([base[0] + amplitude * Math.sin(s + phase), base[1] + 0.3 * amplitude * Math.cos(2 * s), base[2]], i * 3);
      rotation.set([0, Math.sin((s + phase) / 2), 0, Math.cos((s + phase) / 2)], i * 4);
    }
    for (const [path, values, type] of [
      ['translation', translation, 'VEC3'],
      ['rotation', rotation, 'VEC4'],
    ] as const) {
      const sampler = doc.createAnimationSampler().setInput(times).setOutput(doc.createAccessor().setType(type).setArray(values).setBuffer(buffer)).setInterpolation('LINEAR');
      clip.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler));
    }
  }
  doc.createExtension(KHRDracoMeshCompression).setRequired(true).setEncoderOptions({ method: KHRDracoMeshCompression.EncoderMethod.EDGEBREAKER, encodeSpeed: 5, decodeSpeed: 5 });
  const io = new NodeIO().registerExtensions([KHRDracoMeshCompression]).registerDependencies({
    'draco3d.encoder': await draco3d.createEncoderModule(),
    'draco3d.decoder': await draco3d.createDecoderModule(),
  });
  return io.writeBinary(doc);
}
