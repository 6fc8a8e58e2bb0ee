import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { applyTracksSpec, parseTracksSpec } from '../../src/anim/controller/track-spec.ts';
import { localToModel, localToModelScalar } from '../../src/anim/local-to-model.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
import { poseSimdAvailable, poseSimdInUse, usePoseSimd } from '../../src/anim/pose-simd.ts';
import { createClipCursor, sampleClip } from '../../src/anim/sample-clip.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import type { Scene } from '../../src/model/types.ts';
import { TRS_STRIDE } from '../../src/model/types.ts';
import { corpusBytes, describeCorpus } from '../corpus.ts';
import { axisAngle, channel, makeClip, makeSkeleton, rng, track } from './fixtures.ts';

/**
 * The pose kernels (pose-simd.wat: sampling and local-to-model in float32 WebAssembly) against the
 * JavaScript jobs they replace, on the models the benchmarks time: the same pose and the same matrices to
 * float32 rounding, frame after frame, with loops, crossfades and the two-track blend.
 */

const EPS = 2 ** -17;

/** Two players of one scene, one on the kernels and one on the JavaScript loops, stepped together. */
function pair(scene: Scene, setup: (p: AnimPlayer) => void = () => {}) {
  const simd = new AnimPlayer(scene.skeleton, scene.clips, scene.morphTargets.length);
  const js = new AnimPlayer(scene.skeleton, scene.clips, scene.morphTargets.length);
  setup(simd);
  setup(js);
  let worstPose = 0;
  let worstModel = 0;
  const step = (act: (p: AnimPlayer) => void): void => {
    usePoseSimd(true);
    act(simd);
    simd.evaluate();
    usePoseSimd(false);
    act(js);
    js.evaluate();
    usePoseSimd(true);
    // Translations are compared to the skeleton's size (a model-space translation is a sum of terms that
    // large), rotations and scales to 1 (or their own size).
    let size = 1;
    for (let i = 0; i < js.model.length; i += 16) size = Math.max(size, Math.abs(js.model[i + 12]), Math.abs(js.model[i + 13]), Math.abs(js.model[i + 14]));
    for (let i = 0; i < js.locals.length; i++) {
      const c = i % TRS_STRIDE;
      const d = Math.abs(simd.locals[i] - js.locals[i]) / (c >= 3 && c < 7 ? 1 : Math.max(1, Math.abs(js.locals[i])));
      if (!(d <= EPS)) expect(d, `locals[${i}]: ${simd.locals[i]} vs ${js.locals[i]}`).toBeLessThanOrEqual(EPS);
      worstPose = Math.max(worstPose, d);
    }
    for (let i = 0; i < js.model.length; i++) {
      const c = i % 16;
      const d = Math.abs(simd.model[i] - js.model[i]) / (c >= 12 ? size : Math.max(1, Math.abs(js.model[i])));
      if (!(d <= EPS)) expect(d, `model[${i}]: ${simd.model[i]} vs ${js.model[i]}`).toBeLessThanOrEqual(EPS);
      worstModel = Math.max(worstModel, d);
    }
    for (let i = 15; i < simd.model.length; i += 16) if (simd.model[i] !== 1) expect(simd.model[i], `model[${i}]`).toBe(1);
  };
  return { simd, js, step, worst: () => ({ pose: worstPose, model: worstModel }) };
}

/** 2.5 clip lengths at 60 Hz (a loop wrap), then backwards jumps and random times. */
function play(scene: Scene, p: ReturnType<typeof pair>): void {
  const d = scene.clips[0].duration;
  for (let f = 0; f < Math.min(240, Math.ceil(2.5 * d * 60)); f++) p.step((pl) => pl.advance(1 / 60));
  const r = rng(5);
  for (let i = 0; i < 40; i++) {
    const t = r() * d;
    p.step((pl) => pl.setTime(t));
  }
}

describe('pose kernels', () => {
  it('are on by default where WebAssembly SIMD is available (Node 20 has it)', () => {
    expect(poseSimdAvailable()).toBe(true);
    expect(poseSimdInUse()).toBe(true);
    expect(usePoseSimd(false)).toBe(false);
    expect(poseSimdInUse()).toBe(false);
    expect(usePoseSimd(true)).toBe(true);
  });

  it('leave the far-apart rotations to the JavaScript slerp (bit for bit) and nlerp the near ones', () => {
    const skel = makeSkeleton([-1, 0], [{ t: [1, 2, 3] }, { t: [0, 1, 0] }]);
    const times = [0, 0.5, 1];
    const far = [...axisAngle([0, 0, 1], 0), ...axisAngle([0, 0, 1], 170), ...axisAngle([1, 0, 0], 60)];
    // 1 degree apart, the second key with the opposite sign (the same rotation): nlerp on the short path.
    const q0 = axisAngle([0, 1, 0], 20);
    const q1 = axisAngle([0, 1, 0], 21).map((c) => -c);
    const clip = makeClip('c', 1, [
      track(0, { rotation: channel(times, far), translation: channel(times, [0, 0, 0, 4, 0, 0, 4, 4, 0]) }),
      track(1, { rotation: channel([0, 1], [...q0, ...q1]) }),
    ]);
    const simdOut = new Float32Array(2 * TRS_STRIDE);
    const jsOut = new Float32Array(2 * TRS_STRIDE);
    const cursor = createClipCursor(clip, skel.restLocal);
    const jsCursor = createClipCursor(clip, skel.restLocal);
    for (const t of [-1, 0, 0.1, 0.25, 0.5, 0.7, 1, 2]) {
      usePoseSimd(true);
      sampleClip(clip, t, cursor, skel.restLocal, simdOut);
      usePoseSimd(false);
      sampleClip(clip, t, jsCursor, skel.restLocal, jsOut);
      usePoseSimd(true);
      // Inside a segment the far keys are slerped by the same JavaScript; on a key both renormalise it.
      if (t > 0 && t < 1 && t !== 0.5) expect(Array.from(simdOut.subarray(3, 7)), `slerped rotation at t=${t}`).toEqual(Array.from(jsOut.subarray(3, 7)));
      for (let i = 0; i < simdOut.length; i++) expect(Math.abs(simdOut[i] - jsOut[i]), `[${i}] at t=${t}`).toBeLessThanOrEqual(4e-7);
      const q = simdOut.subarray(TRS_STRIDE + 3, TRS_STRIDE + 7);
      expect(Math.hypot(...q)).toBeCloseTo(1, 6);
    }
  });

  it('compose the same matrices as localToModelScalar for drifting, zero and scaled rotations', () => {
    const r = rng(3);
    const n = 30;
    const parents = Int16Array.from({ length: n }, (_, i) => (i === 0 || i === 7 ? -1 : Math.floor(r() * i)));
    const locals = Float32Array.from({ length: n * TRS_STRIDE }, (_, i) => (i % TRS_STRIDE < 3 ? r() * 4 - 2 : i % TRS_STRIDE < 7 ? r() * 1.4 - 0.7 : 0.5 + r()));
    locals.fill(0, 5 * TRS_STRIDE + 3, 5 * TRS_STRIDE + 7);
    const out = new Float32Array(n * 16).fill(NaN);
    const ref = new Float32Array(n * 16);
    localToModel(parents, locals, out);
    localToModelScalar(parents, locals, ref);
    for (let i = 0; i < out.length; i++) expect(Math.abs(out[i] - ref[i]), `[${i}]`).toBeLessThanOrEqual(64 * 2 ** -23 * Math.max(1, Math.abs(ref[i])));
    // An array of the wrong length goes to the JavaScript loop (which reads what it can), not to the kernel.
    const longer = new Float32Array(locals.length + 3);
    longer.set(locals);
    localToModel(parents, longer, out);
    localToModelScalar(parents, longer, ref);
    expect(Array.from(out)).toEqual(Array.from(ref));
  });
});

const dawnPath = 'public/models/generated/dawn-low.m3d';
const tinyFour = 'public/models/tiny/tiny_4anim.x';

describeCorpus('pose kernels on the corpus models (../shared/corpus)', () => {
  for (const file of ['tiny.x', 'soldier.m3d']) {
    it(`${file}: the pose and the model matrices of the JavaScript jobs, to float32 rounding`, () => {
      const scene = loadModel(file, corpusBytes(file));
      const p = pair(scene);
      play(scene, p);
      expect(p.worst().model).toBeGreaterThan(0);
    });
  }
});

describe('pose kernels on the generated and shipped models', () => {
  it.skipIf(!existsSync(dawnPath))('Dawn (low): the pose and the model matrices of the JavaScript jobs, over a crossfade', () => {
    const scene = loadModel('dawn-low.m3d', new Uint8Array(readFileSync(dawnPath)));
    const p = pair(scene);
    play(scene, p);
    p.step((pl) => pl.play(1 % scene.clips.length, 0.5));
    for (let f = 0; f < 60; f++) p.step((pl) => pl.advance(1 / 60));
  });

  it('tiny_4anim.x, Walk and the masked high-priority Wave (the two-track blend): the same pose and matrices', () => {
    const scene = loadModel('tiny_4anim.x', new Uint8Array(readFileSync(tinyFour)));
    const p = pair(scene, (pl) => {
      const parsed = parseTracksSpec('Walk,Wave@Bip01_R_Clavicle');
      expect([...parsed.errors, ...applyTracksSpec(pl.controller, parsed.specs)]).toEqual([]);
      pl.useTracks();
    });
    for (let f = 0; f < 200; f++) p.step((pl) => pl.advance(1 / 60));
    p.step((pl) => (pl.controller.priorityBlend = 0.5));
    for (let f = 0; f < 30; f++) p.step((pl) => pl.advance(1 / 60));
  });
});

describe('pose jobs where the kernels cannot run', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(() => {
    vi.resetModules();
  });

  async function fresh(stub: () => void) {
    vi.resetModules();
    vi.restoreAllMocks();
    stub();
    const simd = await import('../../src/anim/pose-simd.ts');
    const l2m = await import('../../src/anim/local-to-model.ts');
    return { simd, l2m };
  }

  function l2mMatches(l2m: typeof import('../../src/anim/local-to-model.ts')): void {
    const parents = Int16Array.from([-1, 0, 1]);
    const locals = Float32Array.from({ length: 3 * TRS_STRIDE }, (_, i) => Math.sin(i + 1));
    const out = new Float32Array(48);
    const ref = new Float32Array(48);
    l2m.localToModel(parents, locals, out);
    l2m.localToModelScalar(parents, locals, ref);
    expect(Array.from(out)).toEqual(Array.from(ref));
  }

  it('run the JavaScript loops by themselves, with no error, when WebAssembly SIMD does not validate', async () => {
    const { simd, l2m } = await fresh(() => vi.spyOn(WebAssembly, 'validate').mockReturnValue(false));
    expect(simd.poseSimdAvailable()).toBe(false);
    l2mMatches(l2m);
    expect(simd.poseSimdInUse()).toBe(false);
    expect(simd.usePoseSimd(true)).toBe(false);
  });

  it('run the JavaScript loops when compiling is refused (a Content-Security-Policy without wasm-unsafe-eval)', async () => {
    const { simd, l2m } = await fresh(() =>
      vi.spyOn(WebAssembly, 'Module').mockImplementation(function refused() {
        throw new WebAssembly.CompileError("Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is not an allowed source of script");
      }),
    );
    l2mMatches(l2m);
    expect(simd.poseSimdInUse()).toBe(false);
  });
});
