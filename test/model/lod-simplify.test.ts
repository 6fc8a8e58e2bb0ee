import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnimPlayer } from '../../src/anim/player.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import { loadModelAsync } from '../../src/loaders/load-model.ts';
import { generateLevels, LOD_RATIOS, MIN_TRIANGLES } from '../../src/model/lod-simplify.ts';
import type { Scene } from '../../src/model/types.ts';

/**
 * Generated detail levels (src/model/lod-simplify.ts): valid indices over the original vertices, weights that
 * still sum to 1, triangle counts near the asked shares, and posed bounds (three times of the first clip) within
 * the level's error plus 1 % of the top level's diagonal. Prints the figures docs/crowds.md quotes.
 */

const load = async (path: string): Promise<Scene> =>
  loadModelAsync(path, new Uint8Array(readFileSync(join(__dirname, '..', '..', 'public', 'models', path))));

/** Model-space box of the vertices `indices` use, skinned with `palettes` (per mesh). */
function box(scene: Scene, indices: Uint32Array[], skinned: Float32Array[]): number[] {
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  scene.meshes.forEach((_, i) => {
    const p = skinned[i]!;
    for (const v of indices[i]!) for (let a = 0; a < 3; a++) {
      b[a] = Math.min(b[a]!, p[v * 3 + a]!);
      b[a + 3] = Math.max(b[a + 3]!, p[v * 3 + a]!);
    }
  });
  return b;
}

describe('generated detail levels', () => {
  for (const [name, path] of [['tiny', 'tiny/tiny.x'], ['walker', 'generated/walker.m3d'], ['fox', 'fox/Fox.glb']] as const) {
    it(`${name}: valid levels, triangle counts as asked, posed bounds within the error`, async () => {
      const scene = await load(path);
      const t0 = performance.now();
      const levels = await generateLevels(scene.meshes);
      const ms = performance.now() - t0;
      const top = scene.meshes.reduce((n, m) => n + m.indices.length / 3, 0);
      console.log(`[lod] ${name}: ${top} triangles; ${levels.map((l) => `${l.triangles} (error ${l.error.toPrecision(3)})`).join(', ')}; ${ms.toFixed(0)} ms`);
      expect(levels.length).toBeGreaterThanOrEqual(2);
      levels.forEach((level, k) => {
        expect(level.error).toBeGreaterThanOrEqual(k > 0 ? levels[k - 1]!.error : 0);
        const floor = scene.meshes.reduce((n, m) => n + Math.min(m.indices.length / 3, MIN_TRIANGLES), 0);
        expect(level.triangles).toBeLessThanOrEqual(Math.max(floor, top * LOD_RATIOS[k]!) * 1.5);
        scene.meshes.forEach((m, i) => {
          const idx = level.indices[i]!;
          expect(idx.length % 3).toBe(0);
          expect(level.subsets[i]!.reduce((n, s) => n + s.count, 0) * 3).toBe(idx.length);
          let solid = 0;
          for (let t = 0; t < idx.length; t += 3) {
            const [a, b, c] = [idx[t]!, idx[t + 1]!, idx[t + 2]!];
            expect(Math.max(a, b, c)).toBeLessThan(m.vertexCount);
            if (a !== b && b !== c && a !== c) solid++;
          }
          expect(solid).toBeGreaterThan(0);
          for (const v of idx) {
            const w = m.weights;
            expect(Math.abs(w[v * 4]! + w[v * 4 + 1]! + w[v * 4 + 2]! + w[v * 4 + 3]! - 1)).toBeLessThan(1e-3);
          }
        });
      });
      const player = new AnimPlayer(scene.skeleton, scene.clips);
      player.play(0, 0);
      const palettes = scene.meshes.map((m) => new Float32Array(Math.max(1, m.bones.length) * 16));
      const skinned = scene.meshes.map((m) => new Float32Array(m.vertexCount * 3));
      for (const f of [0, 1 / 3, 2 / 3]) {
        player.setTime(f * (scene.clips[0]?.duration ?? 0));
        player.evaluate();
        scene.meshes.forEach((m, i) => {
          player.writePalette(m, palettes[i]!, 0);
          skinMesh(m, palettes[i]!, skinned[i]!, null);
        });
        const full = box(scene, scene.meshes.map((m) => m.indices), skinned);
        const diagonal = Math.hypot(full[3]! - full[0]!, full[4]! - full[1]!, full[5]! - full[2]!);
        for (const level of levels) {
          const b = box(scene, level.indices, skinned);
          for (let a = 0; a < 6; a++) expect(Math.abs(b[a]! - full[a]!)).toBeLessThanOrEqual(level.error + 0.01 * diagonal);
        }
      }
    }, 30_000);
  }
});
