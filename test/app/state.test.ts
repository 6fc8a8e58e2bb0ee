import { describe, expect, it } from 'vitest';
import { applyParams, defaultState, paramsFromSearch } from '../../src/app/state.ts';

describe('URL parameters → AppState', () => {
  it('reads every key this build supports', () => {
    const s = defaultState();
    const errors = applyParams(s, paramsFromSearch('?model=corpus/soldier.m3d&clip=Take1&t=0.5&speed=2&technique=vs-hlsl&influences=2&view=wireframe&camera=10,20,3&gui=0'));
    expect(errors).toEqual([]);
    expect(s).toMatchObject({ model: 'corpus/soldier.m3d', clip: 'Take1', t: 0.5, paused: true, speed: 2, technique: 'vs-hlsl', influences: 2, view: 'wireframe', gui: false });
    expect(s.camera).toEqual({ yaw: 10, pitch: 20, distance: 3 });
  });

  it('reports bad values and keeps the old ones', () => {
    const s = defaultState();
    const errors = applyParams(s, { t: '-1', speed: 'fast', influences: '5', view: 'xray', technique: 'magic', camera: '1,2' });
    expect(errors).toHaveLength(6);
    expect(errors[0]).toMatch(/^t=-1: /);
    expect(s).toMatchObject({ t: null, speed: 1, influences: 4, view: 'shaded', technique: 'vs-hlsl', camera: null });
  });

  it('ignores unknown keys and accepts named camera presets', () => {
    const s = defaultState();
    expect(applyParams(s, { banana: '1', camera: 'front', crowd: '10' })).toEqual([]);
    expect(s.camera).toMatchObject({ yaw: 0 });
  });
});
