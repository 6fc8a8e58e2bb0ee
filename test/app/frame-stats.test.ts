import { describe, expect, it } from 'vitest';
import { FrameStats } from '../../src/app/frame-stats.ts';
import type { LoadedModel } from '../../src/app/loaded-model.ts';
import { emptyFigures } from '../../src/render/frame-types.ts';

const model = { paletteBytes: 6400, gpu: { morph: null }, scene: { morphTargets: [] } } as unknown as LoadedModel;

describe('the stats window', () => {
  it('reports one-time work once, as such, and never as a per-frame figure', () => {
    const stats = new FrameStats();
    const f = emptyFigures();
    // The first frame of a technique builds its morph storage: 335.9 ms of one-time work, 120 µs of skinning.
    f.setupUs = 335_900;
    f.setupWhat = 'slots morph storage';
    f.skinUs = 120;
    f.groups = 4;
    stats.record(model, f, 50, 0, 'vs-hlsl', 'shaded', '');
    let s = stats.snapshot(model);
    expect(s.oneTime).toEqual({ what: 'slots morph storage', ms: 335.9 });
    expect(s.cpuSkinUs).toBe(120);
    expect(s.technique).toBe('vs-hlsl');
    // A second of ordinary frames: the average holds none of the one-time work.
    f.setupUs = 0;
    f.setupWhat = '';
    for (let i = 1; i <= 61; i++) {
      f.skinUs = 100 + (i % 2) * 20;
      stats.record(model, f, 40, i * (1000 / 60), 'vs-hlsl', 'shaded', '');
    }
    s = stats.snapshot(model);
    expect(s.cpuSkinUs).toBeGreaterThan(99);
    expect(s.cpuSkinUs).toBeLessThan(121);
    expect(s.fps).toBeGreaterThan(55);
    expect(s.oneTime).toEqual({ what: 'slots morph storage', ms: 335.9 });
  });

  it('a technique switch shows the new costs at once', () => {
    const stats = new FrameStats();
    const f = emptyFigures();
    f.skinUs = 80;
    f.groups = 1;
    stats.record(model, f, 30, 0, 'vs-hlsl', 'shaded', '');
    f.groups = 7;
    f.skinUs = 300;
    stats.record(model, f, 30, 16, 'ff-indexed', 'shaded', '');
    const s = stats.snapshot(model);
    expect(s).toMatchObject({ technique: 'ff-indexed', groups: 7, cpuSkinUs: 300, paletteBytes: 6400 });
  });

  it('a switch whose first frame builds the new mesh state averages none of the old technique\'s figures', () => {
    const stats = new FrameStats();
    const f = emptyFigures();
    // Half a second of stream-out: its transform feedback writes 4000 bytes a frame.
    f.feedbackBytes = 4000;
    f.uploadBytes = 500;
    for (let i = 0; i < 30; i++) stats.record(model, f, 30, i * 16, 'stream-out', 'shaded', '');
    // Switch to software: the first frame builds its mesh state (one-time), then a second of ordinary frames.
    f.feedbackBytes = 0;
    f.uploadBytes = 9000;
    f.setupUs = 2000;
    f.setupWhat = 'software programs and mesh state';
    stats.record(model, f, 30, 500, 'software', 'shaded', '');
    f.setupUs = 0;
    f.setupWhat = '';
    for (let i = 1; i <= 70; i++) stats.record(model, f, 30, 500 + i * 16, 'software', 'shaded', '');
    const s = stats.snapshot(model);
    expect(s).toMatchObject({ technique: 'software', feedbackBytes: 0, uploadBytes: 9000 });
  });

  it('a wander crowd\'s cost per instance is the window\'s average, not zero when one frame\'s clock read 0', () => {
    const stats = new FrameStats();
    const f = emptyFigures();
    f.crowd = 50;
    f.wander = true;
    // A coarse clock (100 µs steps): the posing reads 0 on every other frame.
    for (let i = 0; i <= 61; i++) {
      f.crowdPoseUs = i % 2 === 0 ? 200 : 0;
      stats.record(model, f, 40, i * (1000 / 60), 'vs-hlsl · wander', 'shaded', '');
    }
    expect(stats.snapshot(model).wanderUsPerInstance).toBeCloseTo(100 / 50, 1);
    // Leaving wander mode reports 0 again.
    f.wander = false;
    f.crowd = 1;
    for (let i = 62; i <= 130; i++) stats.record(model, f, 40, i * (1000 / 60), 'vs-hlsl', 'shaded', '');
    expect(stats.snapshot(model).wanderUsPerInstance).toBe(0);
  });
});
