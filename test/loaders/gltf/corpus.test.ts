import { expect, it } from 'vitest';
import { AnimPlayer } from '../../../src/anim/player.ts';
import { TRS_STRIDE } from '../../../src/model/types.ts';
import { describeGltfCorpus, loadCorpus } from './gltf-corpus.ts';

/** What the corpus files carry, as the Scene shows it (bounds against three.js: oracle.test.ts). */
describeGltfCorpus('glTF corpus', () => {
  it('RobotExpressive: named morph targets, 14 clips, two skins, rest weights 0', async () => {
    const scene = await loadCorpus('threejs/RobotExpressive.glb');
    expect(scene.morphTargets).toEqual(['Angry', 'Surprised', 'Sad']);
    expect(scene.morphDefaults).toEqual([0, 0, 0]);
    expect(scene.clips.map((c) => c.name)).toContain('Walking');
    expect(scene.clips.length).toBe(14);
    const skins = new Set(scene.meshes.filter((m) => m.skinned).map((m) => m.bones));
    expect(skins.size).toBe(2);
  });

  it('Fox: three clips, one skinned mesh with an embedded texture', async () => {
    const scene = await loadCorpus('khronos/Fox.glb');
    expect(scene.clips.map((c) => c.name)).toEqual(['Survey', 'Walk', 'Run']);
    expect(scene.meshes.length).toBe(1);
    expect(scene.images?.length).toBe(1);
    expect(scene.materials[0]!.diffuseMap).toBe(scene.images![0]!.name);
  });

  it('CesiumMan: the Draco copy loads the same figure as the plain GLB, its texture named as a companion file', async () => {
    const plain = await loadCorpus('khronos/CesiumMan.glb');
    const draco = await loadCorpus('khronos/CesiumMan-Draco/CesiumMan.gltf');
    expect(draco.meshes[0]!.indices.length).toBe(plain.meshes[0]!.indices.length);
    expect(draco.skeleton.names).toEqual(plain.skeleton.names);
    expect(draco.materials[0]!.diffuseMap).toBe('CesiumMan_img0.jpg');
  });

  it('SimpleSkin: external buffers read from the resources give the embedded file\'s scene', async () => {
    const embedded = await loadCorpus('khronos/SimpleSkin.gltf');
    const external = await loadCorpus('khronos/SimpleSkin-External/SimpleSkin.gltf');
    expect(Array.from(external.meshes[0]!.positions)).toEqual(Array.from(embedded.meshes[0]!.positions));
    expect(Array.from(external.clips[0]!.tracks[0]!.rotation!.values)).toEqual(Array.from(embedded.clips[0]!.tracks[0]!.rotation!.values));
  });

  it('InterpolationTest: the CUBICSPLINE translation clip follows the Hermite spline between its keys', async () => {
    const scene = await loadCorpus('khronos/InterpolationTest.glb');
    const index = scene.clips.findIndex((c) => c.name === 'CubicSpline Translation');
    const clip = scene.clips[index]!;
    const track = clip.tracks[0]!;
    const keys = track.translation!;
    // Resampled: more keys than the file's, none past the duration, and a smooth motion (no step larger than
    // a tenth of the travel between consecutive resampled keys).
    expect(keys.times.length).toBeGreaterThan(5);
    const player = new AnimPlayer(scene.skeleton, scene.clips);
    player.play(index, 0);
    let last = Number.NaN;
    let maxJump = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i <= 200; i++) {
      player.setTime((clip.duration * i) / 200);
      player.evaluate();
      const y = player.locals[track.node * TRS_STRIDE + 1]!;
      lo = Math.min(lo, y);
      hi = Math.max(hi, y);
      if (!Number.isNaN(last)) maxJump = Math.max(maxJump, Math.abs(y - last));
      last = y;
    }
    expect(maxJump).toBeLessThan((hi - lo) / 10);
    // The STEP clip jumps: one step between samples covers its whole travel.
    const step = scene.clips.findIndex((c) => c.name === 'Step Translation');
    const sTrack = scene.clips[step]!.tracks[0]!;
    player.play(step, 0);
    const ys: number[] = [];
    for (let i = 0; i <= 200; i++) {
      player.setTime((scene.clips[step]!.duration * i) / 200);
      player.evaluate();
      ys.push(player.locals[sTrack.node * TRS_STRIDE + 1]!);
    }
    expect(new Set(ys.map((y) => y.toFixed(6))).size).toBeLessThanOrEqual(sTrack.translation!.times.length);
  });
});

describeGltfCorpus('weights that do not sum to 1', () => {
  it("RobotExpressive: rescaled with one warning counting the vertices glTF-Validator flags (752 ACCESSOR_WEIGHTS_NON_NORMALIZED)", async () => {
    const scene = await loadCorpus('threejs/RobotExpressive.glb');
    expect(scene.warnings).toEqual(['752 vertices have blend weights not summing to 1: rescaled']);
    for (const m of scene.meshes) {
      for (let v = 0; v < m.vertexCount; v++) {
        const w = m.weights;
        expect(Math.abs(w[v * 4]! + w[v * 4 + 1]! + w[v * 4 + 2]! + w[v * 4 + 3]! - 1)).toBeLessThan(1e-6);
      }
    }
  });
});
