import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { localToModel } from '../../src/anim/local-to-model.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
import { createClipCursor, sampleClip } from '../../src/anim/sample-clip.ts';
import { applyTracksSpec, parseTracksSpec } from '../../src/anim/controller/track-spec.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import {
  armSkeleton,
  axisAngle,
  channel,
  expectClose,
  expectSameRotation,
  makeClip,
  makeMesh,
  makeSkeleton,
  translationOf,
  track,
} from './fixtures.ts';

const Z: [number, number, number] = [0, 0, 1];
const skel = makeSkeleton([-1, 0], [{ t: [0, 0, 5] }, { t: [0, 1, 0] }]);
/** Root x = t over one second. */
const walk = makeClip('walk', 1, [track(0, { translation: channel([0, 1], [0, 0, 0, 1, 0, 0]) })]);
/** Root held at x = 10, turned 90 degrees about Z. */
const jump = makeClip('jump', 2, [
  track(0, { translation: channel([0], [10, 0, 0]), rotation: channel([0], [...axisAngle(Z, 90)]) }),
]);
const still = makeClip('still', 0, [track(1, { translation: channel([0], [0, 3, 0]) })]);

function rootX(p: AnimPlayer): number {
  p.evaluate();
  return p.locals[0];
}

describe('AnimPlayer validity', () => {
  it('evaluates a skeleton without clips to its rest pose', () => {
    const p = new AnimPlayer(skel, []);
    p.advance(0.5);
    p.evaluate();
    expect(p.clipIndex).toBe(-1);
    expect(p.time).toBe(0);
    expect(Array.from(p.locals)).toEqual(Array.from(skel.restLocal));
    const model = new Float32Array(32);
    localToModel(skel.parents, skel.restLocal, model);
    expect(Array.from(p.model)).toEqual(Array.from(model));
    expect(() => p.play(0)).toThrow(RangeError);
  });

  it('survives a clip of duration 0 and rejects bad clip indices', () => {
    const p = new AnimPlayer(skel, [walk, still]);
    p.play(1);
    p.advance(0.3);
    p.setTime(5);
    p.evaluate();
    expect(p.time).toBe(0);
    expect(p.locals.every(Number.isFinite)).toBe(true);
    expect(p.model.every(Number.isFinite)).toBe(true);
    expect(Array.from(p.locals.subarray(10, 13))).toEqual([0, 3, 0]);
    p.loop = false;
    p.advance(0.3);
    expect(p.time).toBe(0);
    expect(() => p.play(2)).toThrow(RangeError);
    expect(() => p.play(-1)).toThrow(RangeError);
    expect(() => p.play(0.5)).toThrow(RangeError);
  });

  it('starts on clip 0 at time 0 with speed 1, looping, not paused', () => {
    const p = new AnimPlayer(skel, [walk, jump]);
    expect([p.clipIndex, p.time, p.speed, p.loop, p.paused]).toEqual([0, 0, 1, true, false]);
    expect(p.locals.length).toBe(20);
    expect(p.model.length).toBe(32);
    // The constructor already evaluated: the model is valid before the first frame.
    expectClose(translationOf(p.model, 1), [0, 1, 0]);
  });
});

describe('AnimPlayer playback', () => {
  it('wraps with loop', () => {
    const p = new AnimPlayer(skel, [walk]);
    p.advance(0.25);
    p.advance(0.25);
    p.advance(0.25);
    expect(p.time).toBeCloseTo(0.75, 12);
    p.advance(0.5);
    expect(p.time).toBeCloseTo(0.25, 12);
    expect(rootX(p)).toBeCloseTo(0.25, 6);
    p.advance(3.5);
    expect(p.time).toBeCloseTo(0.75, 12);
    p.speed = -1;
    p.advance(1);
    expect(p.time).toBeCloseTo(0.75, 12);
    p.advance(0.9);
    expect(p.time).toBeCloseTo(0.85, 12);
  });

  it('clamps without loop', () => {
    const p = new AnimPlayer(skel, [walk]);
    p.loop = false;
    p.advance(0.6);
    p.advance(0.6);
    expect(p.time).toBe(1);
    expect(rootX(p)).toBe(1);
    p.speed = -1;
    p.advance(5);
    expect(p.time).toBe(0);
    expect(rootX(p)).toBe(0);
  });

  it('speed 2 doubles the time step; pause freezes time and pose', () => {
    const p = new AnimPlayer(skel, [walk]);
    p.speed = 2;
    p.advance(0.2);
    expect(p.time).toBeCloseTo(0.4, 12);
    expect(rootX(p)).toBeCloseTo(0.4, 6);
    p.paused = true;
    p.advance(0.2);
    expect(p.time).toBeCloseTo(0.4, 12);
    expect(rootX(p)).toBeCloseTo(0.4, 6);
    p.paused = false;
    p.advance(0.1);
    expect(p.time).toBeCloseTo(0.6, 12);
  });

  it('setTime is exact and matches sampleClip', () => {
    const p = new AnimPlayer(skel, [walk]);
    p.advance(0.123);
    p.setTime(0.37);
    expect(p.time).toBe(0.37);
    p.evaluate();
    const ref = new Float32Array(20);
    sampleClip(walk, 0.37, createClipCursor(walk), skel.restLocal, ref);
    expect(Array.from(p.locals)).toEqual(Array.from(ref));
    p.setTime(1);
    expect(p.time).toBe(1);
    p.setTime(1.25);
    expect(p.time).toBe(0.25);
    p.setTime(-0.25);
    expect(p.time).toBe(0.75);
    p.loop = false;
    p.setTime(1.25);
    expect(p.time).toBe(1);
    p.setTime(-3);
    expect(p.time).toBe(0);
  });
});

describe('AnimPlayer crossfade', () => {
  it('starts at the old pose, blends linearly while the old clip keeps playing, ends at the new pose', () => {
    const p = new AnimPlayer(skel, [walk, jump]);
    p.advance(0.4);
    const before = (p.evaluate(), p.locals.slice());
    p.play(1, 0.5);
    expect(p.clipIndex).toBe(1);
    expect(p.time).toBe(0);
    expect(p.fading).toBe(true);
    expect(p.fadeWeight).toBe(0);
    p.evaluate();
    expectClose(p.locals, before);

    p.advance(0.25);
    expect(p.fadeWeight).toBeCloseTo(0.5, 12);
    p.evaluate();
    // Old clip at 0.65 (x = 0.65), new at x = 10, half and half.
    expect(p.locals[0]).toBeCloseTo(0.5 * 0.65 + 0.5 * 10, 5);
    expectSameRotation(p.locals.subarray(3, 7), axisAngle(Z, 45));

    p.advance(0.25);
    expect(p.fading).toBe(false);
    expect(p.time).toBeCloseTo(0.5, 12);
    p.evaluate();
    const ref = new Float32Array(20);
    sampleClip(jump, p.time, createClipCursor(jump), skel.restLocal, ref);
    expect(Array.from(p.locals)).toEqual(Array.from(ref));
  });

  it('fades in playback time: paused freezes it, speed scales it', () => {
    const p = new AnimPlayer(skel, [walk, jump]);
    p.play(1, 1);
    p.paused = true;
    p.advance(5);
    expect(p.fadeWeight).toBe(0);
    p.paused = false;
    p.speed = 2;
    p.advance(0.25);
    expect(p.fadeWeight).toBeCloseTo(0.5, 12);
  });

  it('a new play() during a crossfade fades every playing track from its current weight: no jump, weights sum to 1', () => {
    // Replaces the frozen-pose rule: the outgoing clips keep playing while they fade (AnimController tracks).
    const p = new AnimPlayer(skel, [walk, jump]);
    p.advance(0.2);
    p.play(1, 0.4);
    p.advance(0.1);
    p.evaluate();
    const mid = p.locals.slice();
    p.play(0, 0.4);
    p.evaluate();
    expectClose(p.locals, mid, 1e-6);
    expect(p.fadeWeight).toBe(0);
    const c = p.controller;
    const total = (): number => Array.from({ length: c.trackCount }, (_, t) => (c.trackEnabled(t) ? c.trackWeight(t) : 0)).reduce((a, b) => a + b);
    p.advance(0.1);
    expect(total()).toBeCloseTo(1, 12);
    expect(p.fadeWeight).toBeCloseTo(0.25, 12);
    p.advance(0.2);
    expect(total()).toBeCloseTo(1, 12);
    p.advance(0.1);
    expect(p.fading).toBe(false);
    expect(rootX(p)).toBeCloseTo(0.4, 6);
    expect(Array.from({ length: c.trackCount }, (_, t) => c.trackEnabled(t)).filter(Boolean)).toHaveLength(1);
  });

  it('clips fading out keep playing (the old rule froze their blended pose)', () => {
    const p = new AnimPlayer(skel, [walk, jump]);
    p.advance(0.2);
    p.play(1, 1);
    p.advance(0.2);
    p.play(0, 1);
    p.advance(0.5);
    // First walk at 0.9 with weight 0.8 → 0 (0.4 now), jump 0.2 → 0 (0.1), new walk at 0.5 with 0.5.
    expect(rootX(p)).toBeCloseTo(0.4 * 0.9 + 0.1 * 10 + 0.5 * 0.5, 5);
  });

  it('setTime ends a crossfade so the pose is exactly the new clip', () => {
    const p = new AnimPlayer(skel, [walk, jump]);
    p.play(1, 1);
    p.advance(0.3);
    p.play(0, 1);
    p.setTime(0.5);
    expect(p.fading).toBe(false);
    expect(rootX(p)).toBe(0.5);
  });
});

describe('AnimPlayer palette', () => {
  it('bends the arm: the palette moves forearm vertices, not upper-arm ones, and is identity at rest', () => {
    const arm = armSkeleton();
    const bind = new Float32Array(48);
    localToModel(arm.parents, arm.restLocal, bind);
    const invBind = new Float32Array(48);
    for (let k = 0; k < 3; k++) {
      invBind.set(mat4.invert(mat4.create(), bind.subarray(k * 16, k * 16 + 16)) as Float32Array, k * 16);
    }
    const mesh = makeMesh(
      [
        { p: [0.5, 0, 0], influences: [[0, 1]] },
        { p: [1.5, 0, 0], influences: [[1, 1]] },
      ],
      [0, 1, 2],
      invBind,
    );
    const bend = makeClip('bend', 1, [
      track(1, { rotation: channel([0, 1], [...axisAngle(Z, 0), ...axisAngle(Z, 90)]) }),
    ]);
    const p = new AnimPlayer(arm, [bend]);
    const palette = new Float32Array(4 + 48);
    p.writePalette(mesh, palette, 4);
    for (let k = 0; k < 3; k++) {
      expectClose(palette.subarray(4 + k * 16, 4 + k * 16 + 16), mat4.create(), 1e-6);
    }
    p.setTime(1);
    p.evaluate();
    expectClose(translationOf(p.model, 2), [1, 1, 0], 1e-6);
    p.writePalette(mesh, palette, 4);
    const pos = new Float32Array(6);
    skinMesh(mesh, palette.subarray(4), pos, null);
    expectClose(pos, [0.5, 0, 0, 1, 0.5, 0], 1e-6);
  });
});

describe('AnimPlayer over a multi-track controller', () => {
  it('in tracks mode reports track 0 and seeks the controller clock; play() leaves it', () => {
    const p = new AnimPlayer(skel, [walk, jump, still]);
    p.play(1, 0.5);
    p.advance(1);
    expect(p.clipIndex).toBe(1);
    const c = p.controller;
    expect(applyTracksSpec(c, parseTracksSpec('walk:0.5,still@node1').specs)).toEqual([]);
    p.useTracks();
    expect(p.usesTracks).toBe(true);
    expect(p.clipIndex).toBe(0);
    p.advance(0.25);
    expect(p.time).toBeCloseTo(0.25, 12);
    p.setTime(0.75);
    expect(c.time).toBe(0.75);
    expect(p.time).toBe(0.75);
    expect(c.trackEnabled(1)).toBe(true);
    p.speed = -1;
    p.advance(0.5);
    expect(p.time).toBeCloseTo(0.25, 12);
    p.play(1);
    expect(p.usesTracks).toBe(false);
    expect(p.clipIndex).toBe(1);
    expect(Array.from({ length: c.trackCount }, (_, t) => c.trackEnabled(t)).filter(Boolean)).toHaveLength(1);
  });

  it('one track in tracks mode still runs on the controller clock: t pins every track at t × speed', () => {
    const p = new AnimPlayer(skel, [walk, jump, still]);
    const c = p.controller;
    expect(applyTracksSpec(c, parseTracksSpec('walk:1:2').specs)).toEqual([]);
    p.useTracks();
    p.setTime(0.3);
    expect(p.clockTime).toBe(0.3);
    expect(c.trackTime(0)).toBeCloseTo(0.6 % walk.duration, 12);
    // Outside tracks mode the clock time is the clip's own.
    p.play(0);
    p.setTime(0.3);
    expect(p.clockTime).toBe(p.time);
  });
});
