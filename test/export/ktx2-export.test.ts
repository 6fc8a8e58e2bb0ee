import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportGltf } from '../../src/export/export-gltf.ts';
import { loadModelAsync } from '../../src/loaders/load-model.ts';
import type { Scene } from '../../src/model/types.ts';
import { validateBytes, type ValidatorReport } from './validator.ts';
import { ktx2Quad } from '../fixtures/ktx2/quad.ts';

/**
 * KTX2 textures survive export (src/export/materials.ts): written as they are through KHR_texture_basisu,
 * the file validator-clean, the material keeping its texture, the bytes unchanged on reading back.
 */

const KTX2 = new Uint8Array(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'ktx2', 'quadrants-uastc.ktx2')));
const FACECAP = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus-materials', 'facecap.glb');

const imageOf = (s: Scene, name: string | null | undefined): Uint8Array | undefined => s.images?.find((i) => i.name === name)?.bytes;

async function roundTrip(scene: Scene): Promise<{ back: Scene; report: ValidatorReport; warnings: string[] }> {
  const { files, warnings } = await exportGltf(scene, { binary: true, textures: async () => null, fileName: 'out.glb' });
  const glb = files.get('out.glb')!;
  const report = (await validateBytes(glb, { maxIssues: 50 })) as ValidatorReport;
  return { back: await loadModelAsync('out.glb', glb), report, warnings };
}

const errors = (r: ValidatorReport): string[] => r.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer ?? ''} ${m.message}`);

describe('export of KTX2 textures', () => {
  it('a KTX2 base colour is written through KHR_texture_basisu and read back byte for byte', async () => {
    const scene = await loadModelAsync('quad.glb', await ktx2Quad(KTX2));
    expect(imageOf(scene, scene.materials[0]!.diffuseMap)).toEqual(KTX2);
    const { back, report, warnings } = await roundTrip(scene);
    expect(errors(report)).toEqual([]);
    expect(warnings.filter((w) => /texture/.test(w))).toEqual([]);
    expect(imageOf(back, back.materials[0]!.diffuseMap)).toEqual(KTX2);
  });

  it('the .gltf form embeds it as an image/ktx2 data URI', async () => {
    const scene = await loadModelAsync('quad.glb', await ktx2Quad(KTX2));
    const { files } = await exportGltf(scene, { binary: false, textures: async () => null, fileName: 'out.gltf' });
    const json = JSON.parse(new TextDecoder().decode(files.get('out.gltf')!)) as { images: { uri: string }[]; extensionsRequired: string[] };
    expect(json.extensionsRequired).toContain('KHR_texture_basisu');
    expect(json.images.map((i) => i.uri.slice(0, 23))).toEqual(['data:image/ktx2;base64,']);
  });

  it.skipIf(!existsSync(FACECAP))('facecap (KTX2 face, meshopt, 52 morph targets) exports validator-clean with its texture', async () => {
    const scene = await loadModelAsync('facecap.glb', new Uint8Array(readFileSync(FACECAP)));
    const { back, report } = await roundTrip(scene);
    expect(errors(report)).toEqual([]);
    const textured = scene.materials.filter((m) => m.diffuseMap);
    expect(textured.length).toBeGreaterThan(0);
    for (const m of textured) {
      const b = back.materials.find((x) => x.name === m.name)!;
      expect(imageOf(back, b.diffuseMap), m.name).toEqual(imageOf(scene, m.diffuseMap));
    }
  });
});
if (!existsSync(FACECAP)) console.warn(`[skinlab test] SKIPPING the facecap export check: no ${FACECAP}`);
