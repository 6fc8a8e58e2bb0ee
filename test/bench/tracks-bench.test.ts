import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prepareTracksCase, runTracksBench, tracksPaletteDiff } from '../../src/bench/tracks-bench.ts';
import { loadModel } from '../../src/loaders/load-model.ts';

// Not a timing test: the walk + wave comparison runs, its metrics are well-formed, and the three.js peer
// computes our palette where the two blends mean the same thing (and not where they do not).

const MODEL = fileURLToPath(new URL('../../public/models/tiny/tiny_4anim.x', import.meta.url));

describe('tracks bench (tiny_4anim walk + wave), reduced', () => {
  it('produces well-formed metrics and a palette difference under 1e-4', () => {
    const metrics = runTracksBench({ quick: true, path: MODEL, blocks: 4, framesPerBlock: 20 });
    expect(metrics.map((m) => m.name)).toEqual([
      'anim_tiny4_walkwave_us',
      'anim_tiny4_walkwave_threejs_us',
      'anim_tiny4_walkwave_ratio_vs_threejs',
      'anim_tiny4_walkwave_palette_diff_vs_threejs',
    ]);
    for (const m of metrics) {
      expect(Number.isFinite(m.value), m.name).toBe(true);
      expect(m.value, m.name).toBeGreaterThanOrEqual(0);
    }
    const byName = new Map(metrics.map((m) => [m.name, m.value]));
    expect(byName.get('anim_tiny4_walkwave_ratio_vs_threejs')).toBeCloseTo(byName.get('anim_tiny4_walkwave_threejs_us')! / byName.get('anim_tiny4_walkwave_us')!, 6);
    expect(byName.get('anim_tiny4_walkwave_palette_diff_vs_threejs')).toBeLessThan(1e-4);
  }, 60_000);

  it('after 200 played frames both sides agree off the arm; on the arm the high-priority Wave and three’s 50/50 average differ', () => {
    const scene = loadModel('tiny_4anim.x', new Uint8Array(readFileSync(MODEL)));
    const c = prepareTracksCase(scene);
    for (let i = 0; i < 200; i++) {
      c.ours();
      c.three();
    }
    const names = scene.skeleton.names;
    const arm = new Set(['Bip01_R_Clavicle', 'Bip01_R_UpperArm', 'Bip01_R_Forearm', 'Bip01_R_Hand'].map((n) => names.indexOf(n)));
    const leg = names.indexOf('Bip01_L_Thigh');
    let armDiff = 0;
    let legDiff = 0;
    for (let m = 0; m < scene.meshes.length; m++) {
      const bones = scene.meshes[m].bones;
      const a = c.palettes[m];
      const b = c.peer.skeletons[m].boneMatrices!;
      for (let i = 0; i < a.length; i++) {
        const d = Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(b[i]));
        if (arm.has(bones[i >> 4])) armDiff = Math.max(armDiff, d);
        if (bones[i >> 4] === leg) legDiff = Math.max(legDiff, d);
      }
    }
    expect(legDiff).toBeLessThan(1e-4);
    expect(armDiff).toBeGreaterThan(1e-3);
    const diff = tracksPaletteDiff(c, [[0.3, 1.1], [0.8, 2.4]]);
    expect(diff.averaged).toBeLessThan(1e-4);
    expect(diff.outsideMask).toBeLessThan(1e-4);
  }, 60_000);
});
