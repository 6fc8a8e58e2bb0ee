import { describe, expect, it } from 'vitest';
import { AnimPlayer } from '../../src/anim/player.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import { validateScene } from '../../src/model/build.ts';
import type { Clip, Scene } from '../../src/model/types.ts';
import { corpusBytes, describeCorpus } from '../corpus.ts';
import { morphScene } from './fixtures.ts';
import { threadCpuMs } from '../thread-cpu.ts';

/**
 * What validation leaves behind plays: a zero-length clip (warned as a static pose) never makes the player
 * divide by zero, whether played, looped, clamped or crossfaded; and on the real corpus validation adds no
 * error, a re-run adds no repair warning, and it costs a few milliseconds of a load.
 */

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

describe('zero-length clips in the player', () => {
  it('a single-key clip with a morph track plays as a static pose through every player path', () => {
    const scene = morphScene();
    const pose: Clip = {
      name: 'Pose',
      duration: 0,
      ticksPerSecond: 0,
      tracks: [{ node: 1, translation: null, rotation: { times: new Float32Array([0]), values: new Float32Array([0, 0, 1, 0]) }, scale: null }],
      morphTracks: [{ target: 0, times: new Float32Array([0]), values: new Float32Array([0.75]) }],
    };
    (scene as Mutable<Scene>).clips = [scene.clips[0]!, pose];
    validateScene(scene);
    expect(scene.warnings).toEqual(["clip 'Pose' has zero length (every key at 0 s): it plays as a static pose"]);

    const p = new AnimPlayer(scene.skeleton, scene.clips, 1);
    const finite = (): void => {
      expect(p.locals.every(Number.isFinite)).toBe(true);
      expect(p.model.every(Number.isFinite)).toBe(true);
      expect(p.morphWeights.every(Number.isFinite)).toBe(true);
    };
    p.play(1);
    for (const dt of [0.016, 1, -3, 1e9]) {
      p.advance(dt);
      p.evaluate();
      expect(p.time).toBe(0);
      finite();
    }
    expect(Array.from(p.locals.subarray(13, 17))).toEqual([0, 0, 1, 0]);
    expect(p.morphWeights[0]).toBe(0.75);
    p.loop = false;
    p.setTime(2);
    p.evaluate();
    expect(p.time).toBe(0);
    // Crossfades into and out of the static pose.
    p.play(0, 0.5);
    p.advance(0.25);
    p.evaluate();
    finite();
    p.play(1, 0.5);
    p.advance(0.1);
    p.evaluate();
    finite();
    p.advance(1);
    p.evaluate();
    expect(p.fading).toBe(false);
    expect(p.morphWeights[0]).toBe(0.75);
  });
});

describeCorpus('validation on the corpus', () => {
  const files = ['soldier.m3d', 'tiny.x', 'bat.x', 'Testwuson.X', 'BCN_Epileptic.X', 'anim_test.x', 'Dwarf_MS.x'];

  it.each(files)('%s: loads; validating again changes nothing and adds no repair warning', (file) => {
    const scene = loadModel(file, corpusBytes(file));
    const before = scene.warnings.length;
    validateScene(scene);
    const added = scene.warnings.slice(before);
    // Only the notes that describe the model (static clips) may repeat.
    expect(added.filter((w) => !/ has zero length | has no keys: | a single key per channel: /.test(w))).toEqual([]);
  });

  it("Testwuson.X: the bind-pose clip is noted as a static pose and plays", () => {
    const scene = loadModel('Testwuson.X', corpusBytes('Testwuson.X'));
    expect(scene.warnings).toContain("clip 'Wuson_Bind' has zero length (every key at 0 s): it plays as a static pose");
    const p = new AnimPlayer(scene.skeleton, scene.clips);
    p.play(scene.clips.findIndex((c) => c.name === 'Wuson_Bind'), 0.2);
    p.advance(0.1);
    p.evaluate();
    expect(p.model.every(Number.isFinite)).toBe(true);
  });

  it('soldier.m3d: validation costs a few milliseconds of CPU (median of 9 runs, generous bound)', () => {
    const scene = loadModel('soldier.m3d', corpusBytes('soldier.m3d'));
    const times: number[] = [];
    for (let i = 0; i < 9; i++) {
      const t0 = threadCpuMs();
      validateScene(scene);
      times.push(threadCpuMs() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`[validate] soldier.m3d: validateScene median ${times[4]!.toFixed(2)} ms of CPU, min ${times[0]!.toFixed(2)} ms`);
    expect(times[4]).toBeLessThan(20);
  });
});
