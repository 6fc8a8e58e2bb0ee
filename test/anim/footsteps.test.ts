import { describe, expect, it } from 'vitest';
import { findFeet, footstepMarkers, groundSpeed } from '../../src/anim/footsteps.ts';
import { humanoidRig } from '../../src/gen/humanoid-body.ts';
import { humanoidClips } from '../../src/gen/humanoid-motion.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import type { ClipMarker, Scene } from '../../src/model/types.ts';
import { corpusBytes, describeCorpus } from '../corpus.ts';

const clipIndex = (s: Scene, name: string): number => {
  const i = s.clips.findIndex((c) => c.name === name);
  if (i < 0) throw new Error(`no clip ${name}`);
  return i;
};

/** Steps alternate feet, one per foot per cycle (the clip is one cycle or whole cycles). */
function expectAlternating(steps: ClipMarker[], duration: number): void {
  for (let i = 1; i < steps.length; i++) expect(steps[i]!.name, `step ${i}`).not.toBe(steps[i - 1]!.name);
  for (let i = 1; i < steps.length; i++) expect(steps[i]!.time).toBeGreaterThan(steps[i - 1]!.time);
  for (const s of steps) {
    expect(s.time).toBeGreaterThanOrEqual(0);
    expect(s.time).toBeLessThan(duration);
  }
}

describe('findFeet', () => {
  it('finds feet in the common naming conventions', () => {
    expect(findFeet(['Bip01', 'Bip01_L_Foot', 'Bip01_R_Foot'])).toEqual({ left: 1, right: 2 });
    expect(findFeet(['hips', 'foot_r', 'foot_l'])).toEqual({ left: 2, right: 1 });
    expect(findFeet(['mixamorig:LeftFoot', 'mixamorig:RightFoot'])).toEqual({ left: 0, right: 1 });
    expect(findFeet(['LeftAnkle', 'RightToe', 'RightAnkle'])).toEqual({ left: 0, right: 2 });
    expect(findFeet(['Bip01_Footsteps', 'head'])).toBeNull();
  });
});

describe('footsteps of the generated Walker (src/gen)', () => {
  const rig = humanoidRig();
  const scene = { name: 'walker', skeleton: rig.skeleton, clips: humanoidClips(rig, 1) } as unknown as Scene;

  it('walk: one plant per foot per cycle, alternating; run faster than walk; idle stands still', () => {
    const walk = clipIndex(scene, 'walk');
    const steps = footstepMarkers(scene, walk);
    expect(steps.map((s) => s.name).sort()).toEqual(['footstep_l', 'footstep_r']);
    expectAlternating(steps, scene.clips[walk]!.duration);
    // Half a cycle apart, give or take.
    expect(Math.abs(steps[1]!.time - steps[0]!.time - scene.clips[walk]!.duration / 2)).toBeLessThan(0.1 * scene.clips[walk]!.duration);
    const run = clipIndex(scene, 'run');
    expect(footstepMarkers(scene, run)).toHaveLength(2);
    const walkSpeed = groundSpeed(scene, walk);
    const runSpeed = groundSpeed(scene, run);
    // A grown-up's walk is about 1-1.5 m/s, a run 2-4 (the Walker is 1.8 m).
    expect(walkSpeed).toBeGreaterThan(0.8);
    expect(walkSpeed).toBeLessThan(1.6);
    expect(runSpeed).toBeGreaterThan(walkSpeed * 1.5);
    const idle = clipIndex(scene, 'idle');
    expect(footstepMarkers(scene, idle)).toEqual([]);
    expect(groundSpeed(scene, idle)).toBe(0);
  });

  it('the walk speed keeps the planted foot still: it matches the stance foot travel over the stance', () => {
    // Over the clip the two plants are half a cycle apart; in that time the body must cover one step.
    const walk = clipIndex(scene, 'walk');
    const speed = groundSpeed(scene, walk);
    expect(speed * scene.clips[walk]!.duration).toBeGreaterThan(0.9);
    expect(speed * scene.clips[walk]!.duration).toBeLessThan(1.6);
  });
});

describeCorpus('footsteps of tiny_4anim.x', () => {
  let tiny: Scene | null = null;
  const scene = (): Scene => (tiny ??= loadModel('tiny_4anim.x', corpusBytes('tiny_4anim.x')));

  it('Loiter: about no speed and no steps; Walk: two steps a cycle, one per foot, alternating; Jog faster than Walk', () => {
    const s = scene();
    const loiter = clipIndex(s, 'Loiter');
    expect(groundSpeed(s, loiter)).toBeLessThan(1);
    expect(footstepMarkers(s, loiter).length).toBeLessThanOrEqual(2);
    const walk = clipIndex(s, 'Walk');
    const steps = footstepMarkers(s, walk);
    expect(steps.map((m) => m.name).sort()).toEqual(['footstep_l', 'footstep_r']);
    expectAlternating(steps, s.clips[walk]!.duration);
    const jog = clipIndex(s, 'Jog');
    const jogSteps = footstepMarkers(s, jog);
    expect(jogSteps.length).toBeGreaterThanOrEqual(4);
    expectAlternating(jogSteps, s.clips[jog]!.duration);
    expect(groundSpeed(s, walk)).toBeGreaterThan(100);
    expect(groundSpeed(s, jog)).toBeGreaterThan(groundSpeed(s, walk) * 1.2);
  });
});
