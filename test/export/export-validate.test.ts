import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportGltf } from '../../src/export/export-gltf.ts';
import { generateDawn } from '../../src/gen/dawn.ts';
import { generateHumanoid } from '../../src/gen/humanoid.ts';
import { generateTwist } from '../../src/gen/twist.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import type { Scene } from '../../src/model/types.ts';
import { corpusBytes, CORPUS_DIR, describeCorpus } from '../corpus.ts';
import { texturesBeside } from './pose-bounds.ts';
import { validateBytes, type ValidatorReport } from './validator.ts';

/**
 * Exported files pass Khronos's glTF-Validator with 0 errors (generated built-ins and corpus files:
 * skinned, morphed, rigid, textured with DDS / TGA / PNG / JPEG, matrix keys with mirrored frames), and
 * carry what the export promises: skins, joint and index types, morph target names and weights
 * channels, markers, embedded images, the .gltf + .bin pair with data: URI images, texture warnings.
 */

type Json = any;

function glbJson(glb: Uint8Array): Json {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  expect(view.getUint32(0, true)).toBe(0x46546c67);
  const length = view.getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

async function exportGlb(scene: Scene, textures: (name: string) => Promise<Uint8Array | null> = async () => null): Promise<{ glb: Uint8Array; json: Json; warnings: string[]; report: ValidatorReport }> {
  const { files, warnings } = await exportGltf(scene, { binary: true, textures, fileName: `${scene.name}.glb` });
  expect([...files.keys()]).toEqual([`${scene.name}.glb`]);
  const glb = files.get(`${scene.name}.glb`)!;
  const report = (await validateBytes(glb, { maxIssues: 50 })) as ValidatorReport;
  const errors = report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer ?? ''} ${m.message}`);
  expect(errors).toEqual([]);
  expect(report.issues.numErrors).toBe(0);
  return { glb, json: glbJson(glb), warnings, report };
}

describe('exported glTF passes the Khronos validator', () => {
  it('Twist: one skin, u8 joints, u16 indices, LINEAR TRS channels, markers in extras, generator skinlab', async () => {
    const twist = generateTwist();
    const scene: Scene = { ...twist, clips: twist.clips.map((c, i) => (i === 0 ? { ...c, markers: [{ time: 0.5, name: 'click' }, { time: 1.25, name: 'clack' }] } : c)) };
    const { json, warnings } = await exportGlb(scene);
    expect(warnings).toEqual([]);
    expect(json.asset.generator).toBe('skinlab');
    expect(json.asset.copyright).toBeUndefined();
    expect(json.skins).toHaveLength(1);
    expect(json.skins[0].joints.map((j: number) => json.nodes[j].name)).toEqual(['base', 'inner', 'outer', 'tip']);
    const prim = json.meshes[0].primitives[0];
    expect(json.accessors[prim.attributes.JOINTS_0].componentType).toBe(5121);
    expect(json.accessors[prim.attributes.WEIGHTS_0].componentType).toBe(5126);
    expect(json.accessors[prim.indices].componentType).toBe(5123);
    expect(json.animations.map((a: Json) => a.name)).toEqual(scene.clips.map((c) => c.name));
    expect(json.animations[0].extras.markers).toEqual([{ time: 0.5, name: 'click' }, { time: 1.25, name: 'clack' }]);
    expect(json.animations[1].extras).toBeUndefined();
    for (const a of json.animations) for (const s of a.samplers) expect(s.interpolation ?? 'LINEAR').toBe('LINEAR');
    // The skinned mesh's node is a root with no transform.
    const meshNode = json.nodes.findIndex((n: Json) => n.mesh === 0);
    expect(json.scenes[0].nodes).toContain(meshNode);
    expect(json.nodes[meshNode].translation ?? [0, 0, 0]).toEqual([0, 0, 0]);
  });

  it('Walker and Dawn (morph targets: names, rest weights, weights channels)', async () => {
    await exportGlb(generateHumanoid());
    const dawn = generateDawn({ detail: 'low' });
    const { json } = await exportGlb(dawn);
    const head = json.meshes.find((m: Json) => m.name === 'head');
    expect(head.extras.targetNames).toHaveLength(50);
    expect(head.extras.targetNames).toContain('jaw_open');
    expect(head.weights).toHaveLength(50);
    for (const p of head.primitives) expect(p.targets).toHaveLength(50);
    const headNode = json.nodes.findIndex((n: Json) => n.mesh === json.meshes.indexOf(head));
    const idle = json.animations.find((a: Json) => a.name === 'idle');
    const weights = idle.channels.filter((c: Json) => c.target.path === 'weights');
    expect(weights.map((c: Json) => c.target.node)).toEqual([headNode]);
    const out = json.accessors[idle.samplers[weights[0].sampler].output];
    const input = json.accessors[idle.samplers[weights[0].sampler].input];
    expect(out.count).toBe(input.count * 50);
  }, 30_000);
});

describeCorpus('exported corpus files pass the Khronos validator', () => {
  const files = ['tiny.x', 'tiny_4anim.x', 'Dwarf_MS.x', 'kwxport_test_cubewithvcolors.x', 'test.x', 'dbpro_zombie.x', 'soldier.m3d', 'mak_running.x', 'bat.x', 'BCN_Epileptic.X', 'Testwuson.X', 'anim_test.x', 'heli.x', 'tiger.x'];
  it(`${files.join(', ')}: 0 errors`, async () => {
    const summary: string[] = [];
    for (const file of files) {
      const { json, warnings, report } = await exportGlb(loadModel(file, corpusBytes(file)), texturesBeside(join(CORPUS_DIR, file)));
      summary.push(`${file}: ${report.issues.numWarnings} validator warnings, ${json.images?.length ?? 0} images, ${warnings.length} export warnings`);
    }
    console.log(`[export validate]\n${summary.join('\n')}`);
  }, 60_000);

  it('DDS (DXT) and TGA textures are embedded as PNG, JPEG as it is (found by base name, any case)', async () => {
    const cases: [string, number, string][] = [['tiny.x', 1, 'image/png'], ['Dwarf_MS.x', 6, 'image/png'], ['kwxport_test_cubewithvcolors.x', 3, 'image/png'], ['dbpro_zombie.x', 1, 'image/jpeg']];
    for (const [file, count, mime] of cases) {
      const { json } = await exportGlb(loadModel(file, corpusBytes(file)), texturesBeside(join(CORPUS_DIR, file)));
      expect(json.images, file).toHaveLength(count);
      for (const im of json.images) expect(im.mimeType, file).toBe(mime);
      for (const m of json.materials) if (m.pbrMetallicRoughness?.baseColorTexture) expect(json.textures[m.pbrMetallicRoughness.baseColorTexture.index].source).toBeLessThan(count);
    }
  }, 30_000);

  it('a texture that is missing or not writable gives one warning naming the file, and the material stays', async () => {
    const scene = loadModel('Dwarf_MS.x', corpusBytes('Dwarf_MS.x'));
    const { json, warnings } = await exportGlb(scene);
    const maps = [...new Set(scene.materials.map((m) => m.diffuseMap).filter((n): n is string => !!n))];
    expect(warnings).toHaveLength(maps.length);
    for (const name of maps) expect(warnings.filter((w) => w.includes(name))).toHaveLength(1);
    expect(json.materials).toHaveLength(scene.materials.length);
    expect(json.images).toBeUndefined();
    const tiger = await exportGlb(loadModel('tiger.x', corpusBytes('tiger.x')), texturesBeside(join(CORPUS_DIR, 'tiger.x')));
    expect(tiger.warnings).toEqual([expect.stringMatching(/tiger\.bmp.*BMP/)]);
  });

  it('rigid meshes hang under their bone with the offset as the node transform; OPAQUE, double-sided, sRGB diffuse as linear', async () => {
    const scene = loadModel('Dwarf_MS.x', corpusBytes('Dwarf_MS.x'));
    const { json } = await exportGlb(scene);
    expect(json.skins).toBeUndefined();
    for (let i = 0; i < scene.meshes.length; i++) {
      const mesh = scene.meshes[i]!;
      const node = json.nodes.findIndex((n: Json) => n.mesh !== undefined && json.meshes[n.mesh].name === mesh.name);
      const parent = json.nodes.findIndex((n: Json) => (n.children ?? []).includes(node));
      expect(json.nodes[parent].name).toBe(scene.skeleton.names[mesh.bones[0]!]);
    }
    for (let i = 0; i < scene.materials.length; i++) {
      const m = json.materials[i];
      expect(m.alphaMode ?? 'OPAQUE').toBe('OPAQUE');
      expect(m.doubleSided).toBe(true);
      const d = scene.materials[i]!.diffuse;
      const f = m.pbrMetallicRoughness.baseColorFactor ?? [1, 1, 1, 1];
      for (let k = 0; k < 3; k++) expect(f[k]).toBeCloseTo(Math.min(1, Math.max(0, d[k]!)) ** 2.2, 5);
    }
  });

  it('.gltf: the JSON, one .bin and images as data: URIs, 0 errors', async () => {
    const scene = loadModel('tiny.x', corpusBytes('tiny.x'));
    const { files } = await exportGltf(scene, { binary: false, textures: texturesBeside(join(CORPUS_DIR, 'tiny.x')), fileName: 'out/tiny.gltf' });
    expect([...files.keys()].sort()).toEqual(['tiny.bin', 'tiny.gltf']);
    const json = JSON.parse(new TextDecoder().decode(files.get('tiny.gltf')));
    expect(json.buffers).toEqual([expect.objectContaining({ uri: 'tiny.bin' })]);
    expect(json.images[0].uri).toMatch(/^data:image\/png;base64,/);
    const report = (await validateBytes(files.get('tiny.gltf')!, {
      externalResourceFunction: async (uri: string) => {
        const bytes = files.get(uri);
        if (!bytes) throw new Error(`no ${uri}`);
        return bytes;
      },
    })) as ValidatorReport;
    expect(report.issues.messages.filter((m) => m.severity === 0)).toEqual([]);
  });
});
