import { describe, expect, it } from 'vitest';
import { applyMorphs, chooseSlots, effectiveWeights, MORPH_SLOTS, sampleMorphTracksAt } from '../../src/anim/morph.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
import { sampleTime } from '../../src/anim/sample-clip.ts';
import type { Clip, MorphTrack } from '../../src/model/types.ts';
import { armSkeleton } from './fixtures.ts';
import { morphQuad } from './morph-fixtures.ts';

function run(weights: number[], tangents = false) {
  const mesh = morphQuad();
  const p = new Float32Array(12);
  const n = new Float32Array(12);
  const t = tangents ? new Float32Array(16) : null;
  applyMorphs(mesh, Float32Array.from(weights), p, n, t);
  return { mesh, p, n, t };
}

describe('applyMorphs', () => {
  it('copies the neutral mesh when every weight is 0', () => {
    const { mesh, p, n } = run([0, 0, 0]);
    expect(p).toEqual(mesh.positions);
    expect(n).toEqual(mesh.normals);
  });

  it('adds weighted position deltas to the moved vertices only', () => {
    const { p } = run([0.5, 0, 0]);
    expect(Array.from(p)).toEqual([0, 0, 0, 1, 0, 0.25, 0, 1, 0, 1, 1.1, 0.5].map((x) => Math.fround(x)));
  });

  it('sums parallel targets (weights need not add to 1) and renormalises the normal', () => {
    const { p, n } = run([1, 1, 0]);
    // vertex 2: position + (0.1, 0, 0); normal (0,0,1) + (1,0,-1) = (1,0,0)
    expect(p[6]).toBeCloseTo(0.1, 6);
    expect(Array.from(n.subarray(6, 9))).toEqual([1, 0, 0]);
    // vertex 1 keeps its normal, vertex 3 lifted by 1 in z
    expect(p[11]).toBeCloseTo(1, 6);
    const { n: half } = run([0, 0.5, 0]);
    // (0.5, 0, 0.5) normalised
    expect(half[6]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(half[8]).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('re-orthonormalises the tangent against the morphed normal and keeps the bitangent sign (Dawn §4.3.2)', () => {
    const { n, t } = run([0, 0.5, 0], true);
    const nx = n[6]!, nz = n[8]!;
    const tx = t![8]!, ty = t![9]!, tz = t![10]!;
    expect(tx * nx + tz * nz).toBeCloseTo(0, 6);
    expect(Math.hypot(tx, ty, tz)).toBeCloseTo(1, 6);
    // t0 = (1,0,0), n = (√½, 0, √½) → t = normalize((1,0,0) − √½ n) = (√½, 0, −√½)
    expect(tx).toBeCloseTo(Math.SQRT1_2, 6);
    expect(tz).toBeCloseTo(-Math.SQRT1_2, 6);
    expect(t![11]).toBe(-1);
    // an unmoved vertex keeps its tangent exactly
    expect(Array.from(t!.subarray(0, 4))).toEqual([1, 0, 0, 1]);
  });

  it('negative weights subtract', () => {
    const { p } = run([-1, 0, 0]);
    expect(p[5]).toBeCloseTo(-0.5, 6);
  });
});

describe('chooseSlots', () => {
  const slots = new Int32Array(MORPH_SLOTS);
  it('keeps every non-zero target when at most 5, in index order, unused slots -1', () => {
    expect(chooseSlots(Float32Array.from([0, 0.3, 0, 1, 0.2]), 5, slots)).toBe(0);
    expect(Array.from(slots)).toEqual([1, 3, 4, -1, -1]);
  });
  it('picks the 5 largest |w| and returns the dropped sum', () => {
    const w = Float32Array.from([0.1, -0.9, 0.5, 0.2, 0.05, 0.7, 0.3, 0.6]);
    const dropped = chooseSlots(w, 5, slots);
    expect(Array.from(slots)).toEqual([1, 2, 5, 6, 7]);
    expect(dropped).toBeCloseTo(0.1 + 0.2 + 0.05, 6);
  });
  it('breaks ties by the lower index', () => {
    const w = Float32Array.from([0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]);
    expect(chooseSlots(w, 5, slots)).toBeCloseTo(1, 6);
    expect(Array.from(slots)).toEqual([0, 1, 2, 3, 4]);
  });
  it('effectiveWeights zeroes the dropped targets for the slots path only', () => {
    const w = Float32Array.from([0.1, 0.9, 0.5, 0.2, 0.05, 0.7, 0.3, 0.6]);
    const out = new Float32Array(8);
    expect(effectiveWeights('slots', w, out, slots)).toBeCloseTo(0.35, 6);
    expect(Array.from(out)).toEqual(Array.from(Float32Array.from([0, 0.9, 0.5, 0, 0, 0.7, 0.3, 0.6])));
    expect(effectiveWeights('texture', w, out, slots)).toBe(0);
    expect(out).toEqual(w);
  });
});

const track = (target: number, times: number[], values: number[]): MorphTrack => ({ target, times: Float32Array.from(times), values: Float32Array.from(values) });

describe('sampleMorphTracksAt', () => {
  it('interpolates linearly and clamps outside the keys', () => {
    const tracks = [track(1, [0, 1, 2], [0, 1, 0.5]), track(0, [0.5], [0.25])];
    const out = new Float32Array(3);
    const cursor = new Uint32Array(2);
    for (const [t, w] of [[-1, 0], [0.25, 0.25], [1.5, 0.75], [0.5, 0.5], [3, 0.5]] as const) {
      sampleTime[0] = t;
      sampleMorphTracksAt(tracks, cursor, out);
      expect(out[1]).toBeCloseTo(w, 6);
      expect(out[0]).toBeCloseTo(0.25, 6);
      expect(out[2]).toBe(0);
    }
  });
});

describe('AnimPlayer morph weights', () => {
  const clipA: Clip = { name: 'a', duration: 2, ticksPerSecond: 0, tracks: [], morphTracks: [track(0, [0, 2], [0, 1])] };
  const clipB: Clip = { name: 'b', duration: 2, ticksPerSecond: 0, tracks: [], morphTracks: [track(1, [0, 2], [1, 1])] };

  it('samples the playing clip and lets a manual value override one target until reset', () => {
    const p = new AnimPlayer(armSkeleton(), [clipA, clipB], 3);
    p.setTime(1);
    p.evaluate();
    expect(Array.from(p.morphWeights)).toEqual([0.5, 0, 0]);
    p.setMorphManual(0, 0.1);
    p.setMorphManual(2, 0.75);
    p.evaluate();
    expect(p.morphWeights[0]).toBeCloseTo(0.1, 6);
    expect(p.morphWeights[2]).toBe(0.75);
    expect(p.isMorphManual(0)).toBe(true);
    p.morphTracksEnabled = false;
    p.clearMorphManual(0);
    p.evaluate();
    expect(Array.from(p.morphWeights)).toEqual([0, 0, 0.75]);
    p.morphTracksEnabled = true;
    p.resetMorphs();
    p.evaluate();
    expect(Array.from(p.morphWeights)).toEqual([0.5, 0, 0]);
  });

  it('crossfades the track weights with the pose', () => {
    const p = new AnimPlayer(armSkeleton(), [clipA, clipB], 2);
    p.setTime(1);
    p.play(1, 1);
    p.advance(0.25);
    p.evaluate();
    // from clip a at t = 1.25 (0.625), to clip b (1), fade weight 0.25
    expect(p.morphWeights[0]).toBeCloseTo(0.625 * 0.75, 5);
    expect(p.morphWeights[1]).toBeCloseTo(0.25, 5);
    // play during the fade: fades from the frozen weights
    p.play(0, 1);
    p.evaluate();
    expect(p.morphWeights[0]).toBeCloseTo(0.625 * 0.75, 5);
    p.advance(1);
    p.evaluate();
    expect(p.morphWeights[0]).toBeCloseTo(0.5, 5);
    expect(p.morphWeights[1]).toBe(0);
  });

  it('a player without targets has empty weights and rejects manual values', () => {
    const p = new AnimPlayer(armSkeleton(), [clipA]);
    p.evaluate();
    expect(p.morphWeights.length).toBe(0);
    expect(() => p.setMorphManual(0, 1)).toThrow(RangeError);
  });
});
