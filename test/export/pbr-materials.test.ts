import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportGltf } from '../../src/export/export-gltf.ts';
import { loadModelAsync } from '../../src/loaders/load-model.ts';
import { validateBytes, type ValidatorReport } from './validator.ts';

/** Export keeps a glTF material's metallic-roughness fields and maps (src/export/materials.ts), validator-clean. */

const FIXTURE = join(import.meta.dirname, '..', '..', 'e2e', 'fixtures', 'pbr', 'fox-pbr.glb');

describe('export of metallic-roughness materials', () => {
  it('the normal-mapped Fox round-trips its factors and maps, 0 validator errors', async () => {
    const scene = await loadModelAsync('fox-pbr.glb', new Uint8Array(readFileSync(FIXTURE)));
    const { files } = await exportGltf(scene, { binary: true, textures: async () => null, fileName: 'out.glb' });
    const glb = files.get('out.glb')!;
    const report = (await validateBytes(glb, { maxIssues: 50 })) as ValidatorReport;
    expect(report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer ?? ''} ${m.message}`)).toEqual([]);
    const back = await loadModelAsync('out.glb', glb);
    const a = scene.materials[0]!;
    const b = back.materials[0]!;
    expect([b.metallic, b.roughness, b.normalScale, b.occlusionStrength]).toEqual([a.metallic, a.roughness, a.normalScale, a.occlusionStrength]);
    expect(b.baseColor).toEqual(a.baseColor);
    for (const field of ['diffuseMap', 'normalMap', 'metallicRoughnessMap', 'occlusionMap'] as const) {
      const bytes = (s: typeof scene, name: string | null | undefined) => s.images?.find((i) => i.name === name)?.bytes;
      expect(bytes(back, b[field]), field).toEqual(bytes(scene, a[field]));
    }
    // The metallic-roughness and occlusion maps are one image in the fixture, and stay one.
    expect(b.metallicRoughnessMap).toBe(b.occlusionMap);
  });
});
