import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePoseSimd } from '../../src/anim/pose-simd.ts';
import { createClipCursor, sampleClip } from '../../src/anim/sample-clip.ts';
import { TRS_STRIDE } from '../../src/model/types.ts';
import {
  axisAngle,
  channel,
  expectClose,
  expectSameRotation,
  makeClip,
  makeSkeleton,
  nodeTRS,
  rng,
  rotate,
  track,
} from './fixtures.ts';

const Z: [number, number, number] = [0, 0, 1];

function sampleOnce(clip: ReturnType<typeof makeClip>, t: number, rest: Float32Array): Float32Array {
  const out = new Float32Array(rest.length);
  sampleClip(clip, t, createClipCursor(clip), rest, out);
  return out;
}

describe('sampleClip validity', () => {
  const skel = makeSkeleton(
    [-1, 0, 1],
    [
      { t: [0, 1, 0], r: axisAngle([1, 0, 0], 30), s: [2, 2, 2] },
      { t: [1, 0, 0], r: axisAngle([0, 1, 0], -20) },
      { t: [0, 0, 3], s: [1, 0.5, 1] },
    ],
  );
  const clip = makeClip('wave', 2, [
    track(1, { rotation: channel([0, 1, 2], [...axisAngle(Z, 0), ...axisAngle(Z, 120), ...axisAngle(Z, 300)]) }),
    track(7, { translation: channel([0], [9, 9, 9]) }),
  ]);

  it('writes every node, keeps untracked nodes and channels at rest, outputs unit rotations', () => {
    const cursor = createClipCursor(clip);
    const out = new Float32Array(skel.restLocal.length).fill(Number.NaN);
    for (let t = -0.5; t <= 2.5; t += 0.1) {
      sampleClip(clip, t, cursor, skel.restLocal, out);
      expect(out.every(Number.isFinite)).toBe(true);
      expect(Array.from(nodeTRS(out, 0))).toEqual(Array.from(nodeTRS(skel.restLocal, 0)));
      expect(Array.from(nodeTRS(out, 2))).toEqual(Array.from(nodeTRS(skel.restLocal, 2)));
      // Node 1: translation and scale from rest, rotation from the track.
      expect(Array.from(out.subarray(TRS_STRIDE, TRS_STRIDE + 3))).toEqual([1, 0, 0]);
      expect(Array.from(out.subarray(TRS_STRIDE + 7, TRS_STRIDE + 10))).toEqual([1, 1, 1]);
      const r = out.subarray(TRS_STRIDE + 3, TRS_STRIDE + 7);
      expect(Math.hypot(r[0], r[1], r[2], r[3])).toBeCloseTo(1, 6);
    }
  });

  it('rejects a cursor made for a clip with fewer tracks', () => {
    const small = createClipCursor(makeClip('empty', 1, []));
    expect(() => sampleClip(clip, 0, small, skel.restLocal, new Float32Array(30))).toThrow(/cursor/);
  });
});

describe('sampleClip numbers', () => {
  const skel = makeSkeleton([-1], [{ t: [5, 5, 5], s: [3, 3, 3] }]);

  it('interpolates translation and scale linearly inside uneven key segments', () => {
    const clip = makeClip('move', 3, [
      track(0, {
        translation: channel([0, 1, 3], [0, 0, 0, 2, 4, 6, 2, 4, 10]),
        scale: channel([0, 2], [1, 1, 1, 3, 5, 1]),
      }),
    ]);
    const mid = sampleOnce(clip, 0.5, skel.restLocal);
    expectClose(mid.subarray(0, 3), [1, 2, 3]);
    expectClose(mid.subarray(7, 10), [1.5, 2, 1]);
    const late = sampleOnce(clip, 2, skel.restLocal);
    expectClose(late.subarray(0, 3), [2, 4, 8]);
    expectClose(late.subarray(7, 10), [3, 5, 1]);
    const onKey = sampleOnce(clip, 1, skel.restLocal);
    expectClose(onKey.subarray(0, 3), [2, 4, 6]);
    // No rotation channel: rotation stays at rest.
    expectClose(onKey.subarray(3, 7), [0, 0, 0, 1]);
  });

  it('slerps rotation at constant angular speed (22.5 degrees a quarter of the way to 90)', () => {
    const clip = makeClip('turn', 1, [track(0, { rotation: channel([0, 1], [...axisAngle(Z, 0), ...axisAngle(Z, 90)]) })]);
    expectSameRotation(sampleOnce(clip, 0.5, skel.restLocal).subarray(3, 7), axisAngle(Z, 45));
    // nlerp would give about 21.6 degrees here.
    expectSameRotation(sampleOnce(clip, 0.25, skel.restLocal).subarray(3, 7), axisAngle(Z, 22.5));
    expectSameRotation(sampleOnce(clip, 0.75, skel.restLocal).subarray(3, 7), axisAngle(Z, 67.5));
  });

  it('takes the short path when consecutive keys have opposite sign', () => {
    const q90 = axisAngle(Z, 90);
    const negated = [-q90[0], -q90[1], -q90[2], -q90[3]];
    const clip = makeClip('flip', 1, [track(0, { rotation: channel([0, 1], [0, 0, 0, 1, ...negated]) })]);
    const r = sampleOnce(clip, 0.5, skel.restLocal).subarray(3, 7);
    expectSameRotation(r, axisAngle(Z, 45));
    const c = Math.SQRT1_2;
    expectClose(rotate(r, [1, 0, 0]), [c, c, 0]);
  });

  it('clamps before the first and after the last key', () => {
    const clip = makeClip('clamp', 2, [
      track(0, {
        translation: channel([0.5, 1.5], [1, 2, 3, 4, 5, 6]),
        rotation: channel([0.5, 1.5], [...axisAngle(Z, 10), ...axisAngle(Z, 50)]),
      }),
    ]);
    for (const t of [-3, 0, 0.5]) {
      const out = sampleOnce(clip, t, skel.restLocal);
      expectClose(out.subarray(0, 3), [1, 2, 3]);
      expectSameRotation(out.subarray(3, 7), axisAngle(Z, 10));
    }
    for (const t of [1.5, 2, 99]) {
      const out = sampleOnce(clip, t, skel.restLocal);
      expectClose(out.subarray(0, 3), [4, 5, 6]);
      expectSameRotation(out.subarray(3, 7), axisAngle(Z, 50));
    }
    expectClose(sampleOnce(clip, Number.NaN, skel.restLocal).subarray(0, 3), [1, 2, 3]);
  });

  it('holds a one-key channel constant and uses rest for a zero-key channel', () => {
    const clip = makeClip('still', 1, [
      track(0, { translation: channel([0.3], [7, 8, 9]), scale: channel([], []) }),
    ]);
    for (const t of [-1, 0.3, 0.9, 5]) {
      const out = sampleOnce(clip, t, skel.restLocal);
      expectClose(out.subarray(0, 3), [7, 8, 9]);
      expectClose(out.subarray(7, 10), [3, 3, 3]);
    }
  });
});

describe('ClipCursor', () => {
  // One node, 60 keys at irregular times, translation and rotation.
  const random = rng(42);
  const times: number[] = [];
  const tv: number[] = [];
  const rv: number[] = [];
  let time = 0;
  for (let k = 0; k < 60; k++) {
    times.push(time);
    time += 0.01 + random() * 0.1;
    tv.push(random() * 10 - 5, random() * 10 - 5, random() * 10 - 5);
    const q = axisAngle([0, 0, 1], random() * 720 - 360);
    const sign = random() < 0.5 ? -1 : 1;
    rv.push(q[0] * sign, q[1] * sign, q[2] * sign, q[3] * sign);
  }
  const duration = times[times.length - 1];
  const clip = makeClip('random', duration, [
    track(0, { translation: channel(times, tv), rotation: channel(times, rv) }),
  ]);
  const skel = makeSkeleton([-1], [{}]);
  const f32times = clip.tracks[0].translation!.times;
  const f32values = clip.tracks[0].translation!.values;

  /** Independent reference for the translation channel: linear scan, no cursor. */
  function referenceTranslation(t: number): number[] {
    const n = f32times.length;
    if (t <= f32times[0]) return Array.from(f32values.subarray(0, 3));
    if (t >= f32times[n - 1]) return Array.from(f32values.subarray((n - 1) * 3, n * 3));
    let i = 0;
    while (f32times[i + 1] <= t) i++;
    const a = (t - f32times[i]) / (f32times[i + 1] - f32times[i]);
    return [0, 1, 2].map((c) => f32values[i * 3 + c] + (f32values[i * 3 + 3 + c] - f32values[i * 3 + c]) * a);
  }

  function check(sequence: number[]): void {
    const cursor = createClipCursor(clip);
    const out = new Float32Array(TRS_STRIDE);
    for (const t of sequence) {
      sampleClip(clip, t, cursor, skel.restLocal, out);
      const fresh = sampleOnce(clip, t, skel.restLocal);
      expect(Array.from(out)).toEqual(Array.from(fresh));
      expectClose(out.subarray(0, 3), referenceTranslation(t), 1e-5);
    }
  }

  it('matches a fresh cursor and a linear-scan reference in forward playback', () => {
    const seq: number[] = [];
    for (let t = -0.1; t < duration + 0.1; t += 1 / 60) seq.push(t);
    check(seq);
    // Looping twice exercises the wrap from the end back to the start.
    check([...seq, ...seq]);
  });

  it('matches after backward jumps and in random order', () => {
    const backward: number[] = [];
    for (let t = duration + 0.05; t > -0.05; t -= 0.037) backward.push(t);
    check(backward);
    const r = rng(7);
    const shuffled = Array.from({ length: 400 }, () => r() * (duration + 0.4) - 0.2);
    check(shuffled);
    check([...times, ...times.slice().reverse()]);
  });

  it('caches the segment key for sequential playback', () => {
    const cursor = createClipCursor(clip);
    const out = new Float32Array(TRS_STRIDE);
    const mid = (f32times[10] + f32times[11]) / 2;
    sampleClip(clip, mid, cursor, skel.restLocal, out);
    expect(cursor.keys[0]).toBe(10);
    expect(cursor.keys[1]).toBe(10);
    sampleClip(clip, (f32times[11] + f32times[12]) / 2, cursor, skel.restLocal, out);
    expect(cursor.keys[0]).toBe(11);
    // Exactly on a key: that key starts the segment.
    sampleClip(clip, f32times[20], cursor, skel.restLocal, out);
    expect(cursor.keys[0]).toBe(20);
    expectClose(out.subarray(0, 3), f32values.subarray(60, 63));
  });
});

describe('sampleClip shared timelines', () => {
  // Three nodes keyed at the same times (two separate but equal arrays, one shared array) and one keyed at
  // other times: the cursor must find three of them one timeline, and sample exactly as a channel-by-channel
  // search does (a cursor made for another clip takes that path). Bit for bit holds for the JavaScript
  // loop; the WebAssembly kernel (float32 arithmetic) is held to the same results in pose-simd.test.ts.
  beforeAll(() => usePoseSimd(false));
  afterAll(() => usePoseSimd(true));
  const skel = makeSkeleton([-1, 0, 1, 2], [{ t: [0, 1, 0] }, { t: [1, 0, 0] }, { t: [0, 0, 1] }, { s: [1, 2, 1] }]);
  const r = rng(11);
  const times = [0, 0.1, 0.25, 0.3, 0.55, 0.8, 1];
  const other = [0, 0.4, 0.9];
  const rot = (n: number): number[] => Array.from({ length: n }, () => axisAngle(Z, r() * 360)).flat();
  const vec = (n: number): number[] => Array.from({ length: n * 3 }, () => r() * 4 - 2);
  const a = channel(times, vec(times.length));
  const clip = makeClip('shared', 1, [
    track(0, { translation: a, rotation: channel(times, rot(times.length)) }),
    track(1, { rotation: channel([...times], rot(times.length)), scale: channel(times, vec(times.length)) }),
    track(2, { translation: channel(other, vec(other.length)), rotation: channel(other, rot(other.length)) }),
    // Nearly equal keys (under 1 degree apart, one pair on opposite hemispheres): the nlerp branch.
    track(3, {
      rotation: channel(times, times.map((_, i) => axisAngle([0, 1, 0], 10 + 0.7 * i)).flatMap((q, i) => (i === 3 ? q.map((c) => -c) : q))),
      scale: { times: a.times, values: channel(times, vec(times.length)).values },
    }),
  ]);
  const twin = makeClip('twin', 1, clip.tracks.slice());

  it('groups channels by equal key times', () => {
    const cursor = createClipCursor(clip, skel.restLocal);
    expect(cursor.timelines.length).toBe(2);
    expect(cursor.chanKind.length).toBe(8);
  });

  it('samples bit for bit as a search per channel, forwards, backwards and at random', () => {
    const cursor = createClipCursor(clip, skel.restLocal);
    const perChannel = createClipCursor(twin);
    const out = new Float32Array(skel.restLocal.length);
    const ref = new Float32Array(skel.restLocal.length);
    const seq: number[] = [];
    for (let t = -0.05; t < 1.1; t += 1 / 60) seq.push(t);
    for (let t = 1.1; t > -0.1; t -= 0.07) seq.push(t);
    for (let i = 0; i < 200; i++) seq.push(r() * 1.2 - 0.1);
    seq.push(...times, ...other);
    for (const t of seq) {
      sampleClip(clip, t, cursor, skel.restLocal, out);
      sampleClip(clip, t, perChannel, skel.restLocal, ref);
      expect(Array.from(out), `t=${t}`).toEqual(Array.from(ref));
    }
    // The per-channel key hints stay those of each channel's own timeline.
    sampleClip(clip, 0.6, cursor, skel.restLocal, out);
    expect(cursor.keys[0]).toBe(4);
    expect(cursor.keys[2 * 3]).toBe(1);
  });
});
