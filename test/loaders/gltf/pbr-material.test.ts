import { Document, WebIO } from '@gltf-transform/core';
import { KHRMaterialsEmissiveStrength, KHRMaterialsIOR } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { loadModelAsync } from '../../../src/loaders/load-model.ts';

/** Metallic-roughness materials as the glTF reader hands them to the pbr shading (src/loaders/gltf/gltf-material.ts). */

const PNG = (tag: number): Uint8Array => Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, tag);

/** One triangle with material `pbr` (every map, factors, emissive strength) and one with glTF's defaults; `ior`: also KHR_materials_ior. */
async function fixture(ior: boolean): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc.createAccessor().setType('VEC3').setBuffer(buffer).setArray(Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0));
  const nrm = doc.createAccessor().setType('VEC3').setBuffer(buffer).setArray(Float32Array.of(0, 0, 1, 0, 0, 1, 0, 0, 1));
  const uv = doc.createAccessor().setType('VEC2').setBuffer(buffer).setArray(Float32Array.of(0, 0, 1, 0, 0, 1));
  const tex = (name: string, tag: number) => doc.createTexture(name).setImage(PNG(tag)).setMimeType('image/png');
  const strength = doc.createExtension(KHRMaterialsEmissiveStrength);
  const pbr = doc
    .createMaterial('pbr')
    .setBaseColorFactor([0.25, 0.5, 1, 1])
    .setBaseColorTexture(tex('base', 1))
    .setMetallicFactor(0.75)
    .setRoughnessFactor(0.375)
    .setMetallicRoughnessTexture(tex('mr', 2))
    .setNormalTexture(tex('normal', 3))
    .setNormalScale(0.5)
    .setOcclusionTexture(tex('ao', 4))
    .setOcclusionStrength(0.625)
    .setEmissiveFactor([1, 0.5, 0])
    .setEmissiveTexture(tex('glow', 5));
  pbr.setExtension('KHR_materials_emissive_strength', strength.createEmissiveStrength().setEmissiveStrength(4));
  if (ior) pbr.setExtension('KHR_materials_ior', doc.createExtension(KHRMaterialsIOR).createIOR().setIOR(1.3));
  const plain = doc.createMaterial('plain');
  const prim = (m: typeof pbr) => doc.createPrimitive().setAttribute('POSITION', pos).setAttribute('NORMAL', nrm).setAttribute('TEXCOORD_0', uv).setMaterial(m);
  const mesh = doc.createMesh('tri').addPrimitive(prim(pbr)).addPrimitive(prim(plain));
  doc.createScene('s').addChild(doc.createNode('n').setMesh(mesh));
  return new WebIO().registerExtensions([KHRMaterialsEmissiveStrength, KHRMaterialsIOR]).writeBinary(doc);
}

describe('glTF metallic-roughness materials', () => {
  it('reads factors, every map and the emissive strength, and warns about neither', async () => {
    const scene = await loadModelAsync('pbr.glb', await fixture(false));
    const warnings = scene.warnings;
    const m = scene.materials.find((x) => x.name === 'pbr')!;
    expect(m.baseColor).toEqual([0.25, 0.5, 1, 1]);
    expect(m.metallic).toBe(0.75);
    expect(m.roughness).toBe(0.375);
    expect(m.normalScale).toBe(0.5);
    expect(m.occlusionStrength).toBe(0.625);
    expect(m.emissiveFactor).toEqual([4, 2, 0]);
    const names = [m.diffuseMap, m.metallicRoughnessMap, m.normalMap, m.occlusionMap, m.emissiveMap];
    expect(names.every((n) => typeof n === 'string')).toBe(true);
    expect(new Set(names).size).toBe(5);
    // Each name is an embedded image carrying that texture's own bytes.
    const bytes = (n: string | null | undefined) => scene.images!.find((i) => i.name === n)!.bytes.at(-1);
    expect(names.map(bytes)).toEqual([1, 2, 3, 4, 5]);
    expect(warnings.filter((w) => /not rendered|not read/.test(w))).toEqual([]);
  });

  it("gives a material without factors glTF's defaults and no maps", async () => {
    const scene = await loadModelAsync('pbr.glb', await fixture(false));
    const m = scene.materials.find((x) => x.name === 'plain')!;
    expect([m.metallic, m.roughness, m.normalScale, m.occlusionStrength]).toEqual([1, 1, 1, 1]);
    expect(m.baseColor).toEqual([1, 1, 1, 1]);
    expect(m.emissiveFactor).toEqual([0, 0, 0]);
    expect([m.diffuseMap, m.metallicRoughnessMap, m.normalMap, m.occlusionMap, m.emissiveMap]).toEqual([null, null, null, null, null]);
  });

  it('names only the material extensions still not drawn', async () => {
    const said = (await loadModelAsync('pbr.glb', await fixture(true))).warnings.join('\n');
    expect(said).toContain('KHR_materials_ior');
    expect(said).not.toContain('KHR_materials_emissive_strength');
  });
});
