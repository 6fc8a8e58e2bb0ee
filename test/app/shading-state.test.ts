import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyParams, defaultState, paramsFromSearch } from '../../src/app/state.ts';
import { linkQuery } from '../../src/app/url-sync.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import { loadedModel } from './loaded-fixture.ts';

/** The `shading` URL parameter and skinlab.set key (src/app/state.ts). */
describe('shading parameter', () => {
  it('defaults to auto, takes studio, pbr and auto, and refuses anything else with the choices named', () => {
    const s = defaultState();
    expect(s.shading).toBe('auto');
    expect(applyParams(s, { shading: 'studio' })).toEqual([]);
    expect(s.shading).toBe('studio');
    expect(applyParams(s, { shading: ' pbr ' })).toEqual([]);
    expect(s.shading).toBe('pbr');
    const errors = applyParams(s, { shading: 'phong' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^shading=phong: .*studio, pbr or auto/);
    expect(s.shading).toBe('pbr');
    expect(applyParams(s, { shading: 'auto' })).toEqual([]);
    expect(s.shading).toBe('auto');
  });

  it('a link carries a chosen shading and leaves auto out', () => {
    const model = loadedModel('tiny', loadModel('tiny.x', new Uint8Array(readFileSync('public/models/tiny/tiny.x'))), 'builtin', 'Tiny');
    const caps = { maxUniformBlockSize: 65536, maxVertexUniformVectors: 1024, maxTextureSize: 8192 };
    const state = defaultState();
    state.model = 'tiny';
    state.clip = model.startClip;
    expect(linkQuery({ state, model, caps }).query).not.toContain('shading');
    expect(applyParams(state, paramsFromSearch('?model=tiny&shading=pbr'))).toEqual([]);
    expect(`?${linkQuery({ state, model, caps }).query}`).toBe('?model=tiny&shading=pbr');
  });
});
