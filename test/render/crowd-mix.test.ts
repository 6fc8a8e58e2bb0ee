import { describe, expect, it } from 'vitest';
import { assignModels, MAX_CROWD_MODELS, mixedSpeed, modelOfInstance, SPEED_JITTER, standingTransform, transformSphere, unwrapTime, walkClip } from '../../src/render/crowd-mix.ts';
import { crowdGrid } from '../../src/render/crowd-layout.ts';

describe('mixed crowds: which model each instance draws', () => {
  it('is deterministic, gives instance 0 the loaded model and one model for k = 1', () => {
    for (let i = 0; i < 100; i++) expect(modelOfInstance(i, 1)).toBe(0);
    expect(modelOfInstance(0, 3)).toBe(0);
    for (let i = 0; i < 1000; i++) expect(modelOfInstance(i, 4)).toBe(modelOfInstance(i, 4));
  });

  it('spreads any N evenly over the models (each within 2 % of N / k for N = 10,000)', () => {
    const members: Int32Array[] = [];
    const counts = new Int32Array(MAX_CROWD_MODELS);
    for (const k of [2, 3, 4, 8]) {
      assignModels(10000, k, members, counts);
      let total = 0;
      for (let m = 0; m < k; m++) {
        expect(Math.abs(counts[m]! - 10000 / k)).toBeLessThan(200);
        total += counts[m]!;
        let ordered = true;
        let own = true;
        for (let j = 1; j < counts[m]!; j++) ordered &&= members[m]![j]! > members[m]![j - 1]!;
        for (let j = 0; j < counts[m]!; j++) own &&= modelOfInstance(members[m]![j]!, k) === m;
        expect(ordered && own).toBe(true);
      }
      expect(total).toBe(10000);
    }
  });

  it('mixes like a random crowd: neighbours along rows and columns differ about (k − 1) / k of the time, no stripes', () => {
    const { columns } = crowdGrid(10000);
    for (const k of [2, 3]) {
      let row = 0;
      let column = 0;
      let diagonal = 0;
      let pairs = 0;
      for (let i = 0; i + columns + 1 < 10000; i++) {
        if ((i + 1) % columns === 0) continue;
        pairs++;
        const m = modelOfInstance(i, k);
        if (m !== modelOfInstance(i + 1, k)) row++;
        if (m !== modelOfInstance(i + columns, k)) column++;
        if (m !== modelOfInstance(i + columns + 1, k)) diagonal++;
      }
      for (const n of [row, column, diagonal]) expect(Math.abs(n / pairs - (k - 1) / k)).toBeLessThan(0.03);
    }
  });

  it('keeps each model\'s phases spread over the cycle (the assignment does not follow the golden-ratio phase)', () => {
    const members: Int32Array[] = [];
    const counts = new Int32Array(MAX_CROWD_MODELS);
    assignModels(1000, 2, members, counts);
    for (let m = 0; m < 2; m++) {
      const bins = new Int32Array(4);
      for (let j = 0; j < counts[m]!; j++) bins[Math.floor(((members[m]![j]! * 0.6180339887498949) % 1) * 4)]!++;
      for (const b of bins) expect(b).toBeGreaterThan(counts[m]! / 8);
    }
  });
});

describe('mixed crowds: speed, clip, transform, clock', () => {
  it('speeds lie in 1 ± SPEED_JITTER, spread both ways; instance 0 plays at 1', () => {
    expect(mixedSpeed(0)).toBe(1);
    let lo = 2;
    let hi = 0;
    for (let i = 1; i < 500; i++) {
      const s = mixedSpeed(i);
      expect(s).toBeGreaterThanOrEqual(1 - SPEED_JITTER);
      expect(s).toBeLessThanOrEqual(1 + SPEED_JITTER);
      lo = Math.min(lo, s);
      hi = Math.max(hi, s);
    }
    expect(lo).toBeLessThan(0.87);
    expect(hi).toBeGreaterThan(1.13);
  });

  it('picks a walk, else a run, else clip 0', () => {
    expect(walkClip(['Survey', 'Walk', 'Run'])).toBe(1);
    expect(walkClip(['idle', 'run'])).toBe(1);
    expect(walkClip(['Anim-1'])).toBe(0);
    expect(walkClip([])).toBe(-1);
  });

  it('sizes a long model by its length: a quadruped as long as the first is tall', () => {
    const first = { floorY: 0, centre: [0, 0.9, 0], min: [-0.3, 0, -0.2], max: [0.3, 1.8, 0.2] };
    const fox = { floorY: 0, centre: [0, 40, 0], min: [-20, 0, -70], max: [20, 80, 90] };
    const t = new Float32Array(4);
    standingTransform(first, fox, t);
    expect(t[0]! * 160).toBeCloseTo(1.8, 6);
    expect(t[0]! * 80).toBeCloseTo(0.9, 6);
  });

  it('stands a model at the first one\'s height on its floor, centred where the first stands', () => {
    const first = { floorY: 0, centre: [0, 0.9, 0], min: [-0.3, 0, -0.2], max: [0.3, 1.8, 0.2] };
    // Tiny-like: 500 units tall, floor at -250, centred at x 10.
    const other = { floorY: -250, centre: [10, 0, 0], min: [-200, -250, -100], max: [220, 250, 100] };
    const t = new Float32Array(4);
    standingTransform(first, other, t);
    expect(t[0]).toBeCloseTo(1.8 / 500, 7);
    const s = t[0]!;
    // Its feet land on the first's floor, its top at the first's top, its centre over the first's.
    expect(s * -250 + t[2]!).toBeCloseTo(0, 6);
    expect(s * 250 + t[2]!).toBeCloseTo(1.8, 6);
    expect(s * 10 + t[1]!).toBeCloseTo(0, 6);
    standingTransform(first, first, t);
    expect([...t]).toEqual([1, 0, 0, 0]);
    const sphere = new Float32Array(4);
    transformSphere([0, 0, 0, 0, 10, 0, 0, 100], 4, [0.5, 1, 2, 3], sphere);
    expect([...sphere]).toEqual([6, 2, 3, 50]);
  });

  it('unwraps the player\'s looping time: whole durations added at each wrap, none for a small step back', () => {
    const state = new Float64Array(2);
    expect(unwrapTime(0.2, 1, state)).toBeCloseTo(0.2);
    expect(unwrapTime(0.9, 1, state)).toBeCloseTo(0.9);
    expect(unwrapTime(0.1, 1, state)).toBeCloseTo(1.1);
    expect(unwrapTime(0.05, 1, state)).toBeCloseTo(1.05);
    expect(unwrapTime(0.7, 1, state)).toBeCloseTo(1.7);
    expect(unwrapTime(0.0, 1, state)).toBeCloseTo(2.0);
  });
});
