import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeCrowd, bakedFrame, blendBaked, crowdSlots } from '../../src/anim/crowd-bake.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import type { Scene } from '../../src/model/types.ts';

/**
 * The bake's interpolation error (docs/crowds.md): the largest distance between a vertex skinned with the
 * baked-and-blended palette (two frames, matrices blended linearly, as the vertex stage does) and with the
 * palette sampled exactly at the same time, over every clip at 200 times per second, as a share of the
 * model's bind-pose height, at 30 and 60 samples/s and at the default rate (30/s or the clip's own key rate
 * when sparser). Printed for the docs; the bound checks it stays small.
 */
function bakeError(scene: Scene, rate: number, keyCap: boolean): number {
  const bake = bakeCrowd(scene, rate, false, keyCap);
  const base = new Int32Array(scene.meshes.length);
  crowdSlots(scene, base);
  const player = new AnimPlayer(scene.skeleton, scene.clips);
  let lo = Infinity;
  let hi = -Infinity;
  for (const m of scene.meshes) for (let v = 0; v < m.vertexCount; v++) {
    lo = Math.min(lo, m.positions[v * 3 + 1]!);
    hi = Math.max(hi, m.positions[v * 3 + 1]!);
  }
  const exact = scene.meshes.map((m) => new Float32Array(m.bones.length * 16));
  const blended = scene.meshes.map((m) => new Float32Array(m.bones.length * 16));
  const pa = scene.meshes.map((m) => new Float32Array(m.vertexCount * 3));
  const pb = scene.meshes.map((m) => new Float32Array(m.vertexCount * 3));
  const n = scene.meshes.map((m) => new Float32Array(m.vertexCount * 3));
  const at = [0, 0];
  let worst = 0;
  scene.clips.forEach((clip, c) => {
    player.play(c, 0);
    const steps = Math.max(1, Math.ceil(clip.duration * 50));
    for (let s = 0; s < steps; s++) {
      const t = (s * clip.duration) / steps;
      player.setTime(t);
      player.evaluate();
      bakedFrame(t, bake.clips[c]!, at);
      scene.meshes.forEach((m, i) => {
        if (m.bones.length === 0) return;
        player.writePalette(m, exact[i]!, 0);
        blendBaked(bake, at[0]!, at[1]!, base[i]!, m.bones.length, blended[i]!);
        skinMesh(m, exact[i]!, pa[i]!, n[i]!);
        skinMesh(m, blended[i]!, pb[i]!, n[i]!);
        const a = pa[i]!;
        const b = pb[i]!;
        for (let k = 0; k < a.length; k += 3) worst = Math.max(worst, Math.hypot(a[k]! - b[k]!, a[k + 1]! - b[k + 1]!, a[k + 2]! - b[k + 2]!));
      });
    }
  });
  return (100 * worst) / (hi - lo);
}

const load = (path: string): Scene => loadModel(path, new Uint8Array(readFileSync(join(__dirname, '..', '..', 'public', 'models', path))));

describe('crowd bake error', () => {
  for (const [name, path] of [['tiny', 'tiny/tiny.x'], ['walker', 'generated/walker.m3d']] as const) {
    it(`${name}: baked and blended vs exactly sampled, 30 and 60 samples/s`, () => {
      const scene = load(path);
      const e30 = bakeError(scene, 30, false);
      const e60 = bakeError(scene, 60, false);
      const chosen = bakeError(scene, 30, true);
      const rates = scene.clips.map((c) => `${c.name} ${bakeCrowd(scene, 30, false).clips[scene.clips.indexOf(c)]!.rate.toFixed(1)}/s`).join(', ');
      console.log(`[bake error] ${name}: ${e30.toFixed(3)} % of height at 30/s, ${e60.toFixed(3)} % at 60/s, ${chosen.toFixed(3)} % as baked (${rates})`);
      expect(e30).toBeLessThan(2);
      expect(e60).toBeLessThan(e30);
      expect(chosen).toBeLessThan(2);
    }, 60_000);
  }
});
