import { beforeAll, expect, it } from 'vitest';
import * as THREE from 'three';
import { AnimController } from '../../../src/anim/controller/controller.ts';
import { buildThreePeer, toThreeClip, type ThreePeer } from '../../../src/bench/three-peer.ts';
import { loadModel } from '../../../src/loaders/load-model.ts';
import type { Scene } from '../../../src/model/types.ts';
import { TRS_STRIDE } from '../../../src/model/types.ts';
import { corpusBytes, describeCorpus } from '../../corpus.ts';

describeCorpus('AnimController on tiny_4anim.x (Loiter, Walk, Jog, Wave)', () => {
  let scene: Scene;
  let walk: number;
  let jog: number;
  let wave: number;
  beforeAll(() => {
    scene = loadModel('tiny_4anim.x', corpusBytes('tiny_4anim.x'));
    const names = scene.clips.map((c) => c.name);
    [walk, jog, wave] = ['Walk', 'Jog', 'Wave'].map((n) => names.indexOf(n));
    expect([walk, jog, wave].every((i) => i >= 0)).toBe(true);
  });

  /** three.js: the peer's skeleton with one action per (clip, weight, time), in that order. */
  function threePalettes(peer: ThreePeer, actions: THREE.AnimationAction[], weights: number[], times: number[]): Float32Array[] {
    actions.forEach((a, i) => {
      a.setEffectiveWeight(weights[i]!);
      a.time = times[i]!;
    });
    peer.mixer.update(0);
    peer.root.updateMatrixWorld();
    return peer.skeletons.map((s) => {
      s.update();
      return s.boneMatrices!.slice();
    });
  }

  function largestRelativeDiff(a: Float32Array, b: Float32Array): number {
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!) / Math.max(1, Math.abs(b[i]!)));
    return worst;
  }

  function setup(weights: number[], clips: number[]): { c: AnimController; peer: ThreePeer; actions: THREE.AnimationAction[] } {
    const c = new AnimController(scene.skeleton, scene.clips);
    const peer = buildThreePeer(scene, clips[0]);
    const actions = [peer.action];
    for (const k of clips.slice(1)) {
      const a = peer.mixer.clipAction(toThreeClip(scene.clips[k]!));
      a.setLoop(THREE.LoopRepeat, Infinity);
      a.play();
      actions.push(a);
    }
    clips.forEach((k, t) => {
      c.setTrackClip(t, k);
      c.setTrackWeight(t, weights[t]!);
      c.setTrackEnable(t, true);
    });
    return { c, peer, actions };
  }

  for (const weights of [[0.5, 0.5], [0.8, 0.2], [0.1, 0.9], [0.3, 0.3]]) {
    it(`Walk ${weights[0]} + Jog ${weights[1]} matches three.js AnimationMixer's palette within 1e-4 at several times`, () => {
      const { c, peer, actions } = setup(weights, [walk, jog]);
      const out = scene.meshes.map((m) => new Float32Array(m.bones.length * 16));
      for (const [tw, tj] of [[0, 0], [0.23, 1.7], [0.61, 2.95], [0.97, 0.4]]) {
        c.setTrackPosition(0, tw!);
        c.setTrackPosition(1, tj!);
        c.evaluate();
        const ref = threePalettes(peer, actions, weights, [tw!, tj!]);
        scene.meshes.forEach((m, i) => {
          c.writePalette(m, out[i]!);
          expect(largestRelativeDiff(out[i]!, ref[i]!), `mesh ${m.name} at ${tw}/${tj}`).toBeLessThan(1e-4);
        });
      }
    });
  }

  it('the comparison can fail: Walk alone differs from Walk + Jog', () => {
    const { c, peer, actions } = setup([1, 0], [walk, jog]);
    c.setTrackPosition(0, 0.23);
    c.evaluate();
    const ref = threePalettes(peer, actions, [0.5, 0.5], [0.23, 1.7]);
    const out = new Float32Array(scene.meshes[0]!.bones.length * 16);
    c.writePalette(scene.meshes[0]!, out);
    expect(largestRelativeDiff(out, ref[0]!)).toBeGreaterThan(1e-3);
  });

  it('Walk + Wave: frames Wave does not animate equal Walk alone, the right arm differs', () => {
    const both = new AnimController(scene.skeleton, scene.clips);
    const alone = new AnimController(scene.skeleton, scene.clips);
    for (const c of [both, alone]) {
      c.setTrackClip(0, walk);
      c.setTrackEnable(0, true);
      c.setTrackPosition(0, 0.4);
    }
    both.setTrackClip(1, wave);
    both.setTrackEnable(1, true);
    both.setTrackPosition(1, 1.2);
    both.evaluate();
    alone.evaluate();
    const waveNodes = new Set(scene.clips[wave]!.tracks.map((t) => t.node));
    expect(waveNodes.size).toBe(12);
    const names = scene.skeleton.names;
    let armDiffers = 0;
    for (let n = 0; n < names.length; n++) {
      const a = both.locals.subarray(n * TRS_STRIDE, (n + 1) * TRS_STRIDE);
      const b = alone.locals.subarray(n * TRS_STRIDE, (n + 1) * TRS_STRIDE);
      if (!waveNodes.has(n)) expect(Array.from(a), names[n]).toEqual(Array.from(b));
      else if (Array.from(a).some((v, i) => Math.abs(v - b[i]!) > 1e-4)) armDiffers++;
    }
    expect(waveNodes.has(names.indexOf('Bip01_R_UpperArm'))).toBe(true);
    expect(waveNodes.has(names.indexOf('Bip01_L_Thigh'))).toBe(false);
    expect(armDiffers).toBeGreaterThan(3);
  });
});
