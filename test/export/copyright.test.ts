import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportGltf } from '../../src/export/export-gltf.ts';
import { loadModelAsync } from '../../src/loaders/load-model.ts';

describe('copyright', () => {
  it("keeps a glTF file's asset.copyright through a conversion, so the authors stay credited", async () => {
    const scene = await loadModelAsync('Fox.glb', new Uint8Array(readFileSync('public/models/fox/Fox.glb')));
    expect(scene.copyright).toMatch(/CC-BY 4\.0 Model by PixelMannen/);
    const { files } = await exportGltf(scene, { binary: true, textures: async () => null, fileName: 'Fox.glb' });
    const again = await loadModelAsync('Fox.glb', [...files.values()][0]!);
    expect(again.copyright).toBe(scene.copyright);
  });
});
