import { expect, it } from 'vitest';
import { animatedFraming } from '../../src/app/framing.ts';
import { HAVE_GLTF_CORPUS, describeGltfCorpus, gltfOracle, loadCorpus } from '../loaders/gltf/gltf-corpus.ts';

/**
 * The camera frames what is drawn: for every sound file of the glTF corpus, the framing box holds three.js's box of
 * the first clip at its start (or the rest pose, for a file without clips) and is no larger than a few times the
 * union of three.js's boxes. (glTF's bind space is not the scene's — CesiumMan's is Z-up — and a rigid mesh's
 * stored vertices are in its node's space — KHR_mesh_quantization's integers before the node's scale: neither
 * may count.)
 */
describeGltfCorpus('framing of glTF models', () => {
  for (const entry of (HAVE_GLTF_CORPUS ? gltfOracle() : []).filter((e) => e.success && e.bounds)) {
    it(entry.file, async () => {
      const scene = await loadCorpus(entry.file);
      const f = animatedFraming(scene);
      const rest = entry.bounds!.anims[0]?.poses[0]?.all ?? entry.bounds!.rest.all;
      const min = [...entry.bounds!.rest.all.min];
      const max = [...entry.bounds!.rest.all.max];
      for (const a of entry.bounds!.anims) for (const p of a.poses) for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k]!, p.all.min[k]!);
        max[k] = Math.max(max[k]!, p.all.max[k]!);
      }
      const diag = Math.hypot(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!);
      for (let k = 0; k < 3; k++) {
        expect(f.min[k]!).toBeLessThanOrEqual(rest.min[k]! + 1e-4 * diag);
        expect(f.max[k]!).toBeGreaterThanOrEqual(rest.max[k]! - 1e-4 * diag);
      }
      expect(f.radius * 2).toBeLessThanOrEqual(4 * diag);
    });
  }
});
