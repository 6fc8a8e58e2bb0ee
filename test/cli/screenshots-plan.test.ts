import { describe, expect, it } from 'vitest';
import {
  clipTimes,
  defaultRequest,
  planShots,
  RecordRequestError,
  shotFileName,
  shotKey,
  validateManifest,
  type RecordRequest,
  type Subject,
} from '../../src/app/record-plan.ts';

const subject: Subject = {
  model: 'default',
  clip: 'walk',
  clips: [
    { name: 'idle', duration: 2 },
    { name: 'walk', duration: 1.1 },
  ],
  techniques: ['software', 'vs-hlsl', 'ff-indexed'],
  support: { software: null, 'vs-hlsl': null, 'ff-indexed': 'needs 40 matrices, this device holds 20' },
  views: ['shaded', 'wireframe'],
};

function request(patch: Partial<RecordRequest>): RecordRequest {
  return { ...defaultRequest(), ...patch };
}

describe('recording plan', () => {
  it('spaces N frames evenly over the clip without repeating the loop point', () => {
    expect(clipTimes(request({ frames: 4 }), 2)).toEqual([0, 0.5, 1, 1.5]);
    expect(clipTimes(request({ frames: 3 }), 1.1)).toEqual([0, 0.366667, 0.733333]);
    // A clip of zero length (or a static model) has one distinct time.
    expect(clipTimes(request({ frames: 5 }), 0)).toEqual([0]);
    expect(clipTimes(request({ frames: null, times: [1, 0, 1] }), 9)).toEqual([1, 0]);
  });

  it('plans a compare pair as one shot per state, named A-vs-B, skipped when a side cannot draw', () => {
    const shots = planShots(request({ frames: null, times: [0.5], techniques: ['vs-hlsl,software', 'vs-hlsl,ff-indexed'] }), subject);
    expect(shots.map((s) => [s.technique, s.file, s.skipped])).toEqual([
      ['vs-hlsl,software', 'default_walk_vs-hlsl-vs-software_shaded_auto_t0.500.png', null],
      ['vs-hlsl,ff-indexed', 'default_walk_vs-hlsl-vs-ff-indexed_shaded_auto_t0.500.png', 'ff-indexed: needs 40 matrices, this device holds 20'],
    ]);
    expect(shotKey(shots[0]!)).not.toBe(shotKey({ ...shots[0]!, technique: 'vs-hlsl' }));
  });

  it('expands the current clip × techniques × views × times in render order', () => {
    const shots = planShots(request({ frames: null, times: [0, 0.5], techniques: ['vs-hlsl', 'software'], views: ['shaded', 'wireframe'] }), subject);
    expect(shots.map((s) => `${s.clip} ${s.technique} ${s.view} ${s.t}`)).toEqual([
      'walk vs-hlsl shaded 0',
      'walk vs-hlsl shaded 0.5',
      'walk vs-hlsl wireframe 0',
      'walk vs-hlsl wireframe 0.5',
      'walk software shaded 0',
      'walk software shaded 0.5',
      'walk software wireframe 0',
      'walk software wireframe 0.5',
    ]);
    expect(shots.every((s) => s.skipped === null && s.width === 800 && s.height === 600 && s.camera === 'auto')).toBe(true);
    expect(shots[1]!.file).toBe('default_walk_vs-hlsl_shaded_auto_t0.500.png');
  });

  it('records unknown, unavailable and unsupported techniques and views as skipped, with the reason', () => {
    const shots = planShots(request({ frames: 1, techniques: ['vs-hlsl', 'texture', 'ff-indexed', 'magic'], views: ['shaded', 'weights', 'sepia'] }), subject);
    const reason = (technique: string, view: string): string | null => shots.find((s) => s.technique === technique && s.view === view)!.skipped;
    expect(reason('vs-hlsl', 'shaded')).toBeNull();
    expect(reason('texture', 'shaded')).toBe('technique not available in this build');
    expect(reason('ff-indexed', 'shaded')).toBe('needs 40 matrices, this device holds 20');
    expect(reason('magic', 'shaded')).toMatch(/^unknown technique \(known: software, /);
    expect(reason('vs-hlsl', 'weights')).toBe('view not available in this build');
    expect(reason('vs-hlsl', 'sepia')).toMatch(/^unknown view/);
    expect(shots).toHaveLength(12);
  });

  it('"all" means every technique of the build; clips by name, index or all', () => {
    expect(planShots(request({ frames: 1 }), subject).map((s) => s.technique)).toEqual(['software', 'vs-hlsl', 'ff-indexed']);
    expect(planShots(request({ frames: 1, clips: ['all'], techniques: ['software'] }), subject).map((s) => s.clip)).toEqual(['idle', 'walk']);
    expect(planShots(request({ frames: 1, clips: ['0'], techniques: ['software'] }), subject).map((s) => s.clip)).toEqual(['idle']);
    expect(() => planShots(request({ clips: ['run'] }), subject)).toThrow(/clip "run": no such clip in default \(clips: idle, walk\)/);
  });

  it('names cameras, static models and odd model names safely and uniquely', () => {
    const shots = planShots(request({ frames: 1, techniques: ['software'], cameras: ['front', '-90, 5, 2'] }), {
      ...subject,
      model: 'http://host/a b/Tiny Guy.X?v=2',
      clips: [],
      clip: null,
    });
    expect(shots.map((s) => s.file)).toEqual(['Tiny-Guy_static_software_shaded_front_t0.000.png', 'Tiny-Guy_static_software_shaded_-90-5-2_t0.000.png']);
    expect(shots[0]!.clip).toBeNull();
    expect(shotFileName({ ...shots[0]!, model: '../../x..y.x', t: 1 / 3 })).toBe('x.y_static_software_shaded_front_t0.333333.png');
  });

  it('rejects bad cameras, sizes and empty lists', () => {
    expect(() => planShots(request({ cameras: ['0,0,0'] }), subject)).toThrow(RecordRequestError);
    expect(() => planShots(request({ size: { width: 0, height: 10 } }), subject)).toThrow(/1 to 4096/);
    expect(() => planShots(request({ techniques: [] }), subject)).toThrow(/techniques: none/);
    expect(() => planShots(request({ frames: null, times: [] }), subject)).toThrow(/times: none/);
  });
});

describe('manifest matching', () => {
  const base = { model: 'default', clip: 'walk', technique: 'vs-hlsl', view: 'shaded', camera: 'auto', t: 0.5 };

  it('identifies a shot by model, clip, technique, view, camera and time, not by size or file', () => {
    expect(shotKey(base)).toBe(shotKey({ ...base, t: 0.5000000001 }));
    for (const change of [{ model: 'tiny' }, { clip: 'wave' }, { technique: 'software' }, { view: 'wireframe' }, { camera: 'front' }, { t: 0.501 }]) {
      expect(shotKey({ ...base, ...change })).not.toBe(shotKey(base));
    }
  });

  it('validates manifests and refuses paths outside the recording', () => {
    const shot = { ...base, file: 'a.png', width: 8, height: 8, status: 'ok' };
    const good = { format: 'skinlab-shots', version: 1, shots: [shot] };
    expect(validateManifest(good, 'm.json').shots).toHaveLength(1);
    expect(() => validateManifest({ ...good, format: 'other' }, 'm.json')).toThrow(/m.json: not a skinlab screenshot manifest/);
    expect(() => validateManifest({ ...good, version: 7 }, 'm.json')).toThrow(/version 7 is not supported/);
    expect(() => validateManifest({ ...good, shots: [{ ...shot, t: '1' }] }, 'm.json')).toThrow(/shots\[0\] lacks/);
    expect(() => validateManifest({ ...good, shots: [{ ...shot, file: '../etc/passwd' }] }, 'm.json')).toThrow(/not a plain file name/);
    expect(() => validateManifest(null, 'm.json')).toThrow(/not a JSON object/);
  });
});
