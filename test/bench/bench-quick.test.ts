import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { paletteDiff, prepareAnimCase, runAnimBench, checkTimes } from '../../src/bench/anim-bench.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import { CORPUS_DIR, describeCorpus } from '../corpus.ts';
import { join } from 'node:path';
import { armSkeleton, axisAngle, channel, makeClip, makeMesh, track } from '../anim/fixtures.ts';
import type { Scene } from '../../src/model/types.ts';

// Not a timing test: it checks the CPU-animation comparison runs, its metrics are well-formed, and the
// three.js peer computes the very palette ours does (so the comparison is fair).

describeCorpus('CPU animation bench, reduced', () => {
  it('produces well-formed metrics for tiny.x, and the three.js palette equals ours', () => {
    const metrics = runAnimBench({
      quick: true,
      models: [{ id: 'tiny', path: join(CORPUS_DIR, 'tiny.x') }],
      blocks: 4,
      framesPerBlock: 50,
    });
    expect(metrics.map((m) => m.name)).toEqual([
      'anim_tiny_us',
      'anim_tiny_threejs_us',
      'anim_tiny_ratio_vs_threejs',
      'anim_tiny_palette_diff_vs_threejs',
    ]);
    for (const m of metrics) {
      expect(typeof m.name).toBe('string');
      expect(Number.isFinite(m.value), m.name).toBe(true);
      expect(m.value, m.name).toBeGreaterThanOrEqual(0);
      expect(m.unit.length, m.name).toBeGreaterThan(0);
    }
    const byName = new Map(metrics.map((m) => [m.name, m.value]));
    expect(byName.get('anim_tiny_ratio_vs_threejs')).toBeCloseTo(byName.get('anim_tiny_threejs_us')! / byName.get('anim_tiny_us')!, 6);
    expect(byName.get('anim_tiny_palette_diff_vs_threejs')).toBeLessThan(1e-4);
  }, 60_000);

  it('soldier.m3d: the peer matches ours after 200 frames of playback, not only at set times', () => {
    const scene = loadModel('soldier.m3d', new Uint8Array(readFileSync(join(CORPUS_DIR, 'soldier.m3d'))));
    const c = prepareAnimCase(scene);
    for (let i = 0; i < 200; i++) {
      c.ours();
      c.three();
    }
    const ours = c.palettes[0];
    const three = c.peer.skeletons[0].boneMatrices!;
    expect(three.length).toBe(ours.length);
    let worst = 0;
    for (let i = 0; i < ours.length; i++) worst = Math.max(worst, Math.abs(ours[i] - three[i]) / Math.max(1, Math.abs(three[i])));
    expect(worst).toBeLessThan(1e-4);
    expect(paletteDiff(c, checkTimes(scene))).toBeLessThan(1e-4);
  }, 60_000);
});

describe('three.js peer on a hand-built skeleton', () => {
  function armCase() {
    const skeleton = armSkeleton();
    const q0 = axisAngle([0, 0, 1], 0), q1 = axisAngle([0, 0, 1], 90), q2 = axisAngle([0, 1, 0], 60);
    const clip = makeClip('wave', 2, [
      track(0, { rotation: channel([0, 1, 2], [...q0, ...q1, ...q0]) }),
      track(1, { rotation: channel([0, 2], [...q0, ...q2]), translation: channel([0, 2], [1, 0, 0, 2, 0, 0]) }),
      track(2, { scale: channel([0, 1], [1, 1, 1, 2, 2, 2]) }),
    ]);
    // Inverse bind of the rest pose: translations -0, -1, -2 along X.
    const invBind = new Float32Array(48);
    for (let k = 0; k < 3; k++) invBind.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -k, 0, 0, 1], k * 16);
    const mesh = makeMesh([{ p: [0.5, 0, 0], influences: [[0, 1]] }], [0, 1, 2], invBind);
    const scene = { name: 'arm', format: 'm3d', floatBits: 0, skeleton, meshes: [mesh], clips: [clip], materials: [], morphTargets: [], warnings: [] } as Scene;
    return prepareAnimCase(scene);
  }

  it('gives our palette at several times, and the check fails when the peer is given different data', () => {
    const c = armCase();
    // Not t = 2 (the duration): three's LoopRepeat wraps it to 0, AnimPlayer.setTime keeps it (its contract).
    for (const t of [0, 0.3, 1, 1.7, 1.99]) expect(paletteDiff(c, [t]), `t=${t}`).toBeLessThan(1e-5);
    c.peer.skeletons[0].boneInverses[2].makeTranslation(-2, 0.01, 0);
    expect(paletteDiff(c, [0, 0.3, 1, 1.7, 1.99])).toBeGreaterThan(1e-3);
  });
});
