import { readFileSync } from 'node:fs';
import { WebIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS, EXTMeshoptCompression } from '@gltf-transform/extensions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import { describe, expect, it } from 'vitest';
import { AnimPlayer } from '../../../src/anim/player.ts';
import { PosedBounds } from '../../../src/anim/posed-bounds.ts';
import { loadModelAsync } from '../../../src/loaders/load-model.ts';
import type { Scene } from '../../../src/model/types.ts';

/**
 * EXT_meshopt_compression through meshoptimizer's official decoder: the built-in Fox re-written with its
 * vertex, index and animation buffers meshopt-compressed (meshoptimizer's encoder, the extension required)
 * reads back to the same vertices and the same posed bounds as the uncompressed file (within 1e-4 of the
 * diagonal: the encoder's FILTER method stores rotation keys with fewer bits; measured 1.5e-5).
 */

function boundsAt(scene: Scene, clip: number, t: number): number[] {
  const player = new AnimPlayer(scene.skeleton, scene.clips, scene.morphTargets.length, scene.morphDefaults);
  player.play(clip);
  player.setTime(t);
  player.evaluate();
  const min = [0, 0, 0];
  const max = [0, 0, 0];
  new PosedBounds(scene).measure(player, min, max);
  return [...min, ...max];
}

describe('EXT_meshopt_compression', () => {
  it('reads a meshopt-compressed Fox like the original: vertices, clips and posed bounds', async () => {
    await MeshoptEncoder.ready;
    const io = new WebIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({ 'meshopt.encoder': MeshoptEncoder, 'meshopt.decoder': MeshoptDecoder });
    const source = new Uint8Array(readFileSync('public/models/fox/Fox.glb'));
    const doc = await io.readBinary(source);
    doc.createExtension(EXTMeshoptCompression).setRequired(true).setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.FILTER });
    const compressed = await io.writeBinary(doc);
    const json = (await io.binaryToJSON(compressed)).json;
    expect(json.extensionsRequired).toContain('EXT_meshopt_compression');
    expect(json.bufferViews!.some((v) => v.extensions?.EXT_meshopt_compression)).toBe(true);

    const a = await loadModelAsync('Fox.glb', source);
    const b = await loadModelAsync('Fox-meshopt.glb', compressed);
    expect(b.warnings).toEqual([]);
    expect(b.meshes.map((m) => m.vertexCount)).toEqual(a.meshes.map((m) => m.vertexCount));
    expect(Array.from(b.meshes[0]!.positions)).toEqual(Array.from(a.meshes[0]!.positions));
    expect(b.clips.map((c) => c.name)).toEqual(a.clips.map((c) => c.name));
    for (let c = 0; c < a.clips.length; c++) {
      const t = a.clips[c]!.duration * 0.37;
      const ba = boundsAt(a, c, t);
      const bb = boundsAt(b, c, t);
      const diag = Math.hypot(ba[3]! - ba[0]!, ba[4]! - ba[1]!, ba[5]! - ba[2]!);
      for (let k = 0; k < 6; k++) expect(Math.abs(bb[k]! - ba[k]!)).toBeLessThanOrEqual(1e-4 * diag);
    }
  });
});
