import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linkQuery } from '../../src/app/url-sync.ts';
import { applyTracksSpec, parseTracksSpec } from '../../src/anim/controller/track-spec.ts';
import type { LoadedModel } from '../../src/app/loaded-model.ts';
import { applyParams, defaultState, formatCamera, paramsFromSearch, roundCamera } from '../../src/app/state.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import type { DeviceCaps } from '../../src/techniques/technique.ts';
import { loadedModel } from './loaded-fixture.ts';

const caps: DeviceCaps = { maxUniformBlockSize: 65536, maxVertexUniformVectors: 1024, maxTextureSize: 8192 };

/** tiny.x as the page holds it after a load from its built-in id (the GPU side is not needed here). */
function tiny(origin: LoadedModel['origin'] = 'builtin'): LoadedModel {
  return loadedModel('tiny', loadModel('tiny.x', new Uint8Array(readFileSync('public/models/tiny/tiny.x'))), origin, 'Tiny');
}

describe('links: state → query string', () => {
  it('carries the tracks, the look-at weight and the wander crowd, and reads them back', () => {
    const model = tiny();
    const state = defaultState();
    state.model = 'tiny';
    state.clip = model.startClip;
    const search = '?model=tiny&crowd=20&wander=1&tracks=Anim-1:0.5:1.5,Anim-1:0.25@Bip01_Spine~additive&lookAt=0.75';
    expect(applyParams(state, paramsFromSearch(search))).toEqual([]);
    expect(state.tracks).toBe('Anim-1:0.5:1.5,Anim-1:0.25@Bip01_Spine~additive');
    expect(state.lookAt).toBe(0.75);
    expect(state.wander).toBe(true);
    const { query } = linkQuery({ state, model, caps });
    expect(`?${query}`).toBe(search);
    // The tracks replace `clip` in a link: the first track is the clip.
    expect(query).not.toContain('clip=');
  });

  it('carries the crowd path and the culling switch, and reads them back; rejects an unknown path', () => {
    const model = tiny();
    const state = defaultState();
    state.model = 'tiny';
    state.clip = model.startClip;
    expect(state.crowdPath).toBe('baked');
    expect(state.cull).toBe(true);
    const search = '?model=tiny&crowd=10000&crowdPath=cpu&cull=0';
    expect(applyParams(state, paramsFromSearch(search))).toEqual([]);
    expect(state.crowd).toBe(10000);
    expect(state.crowdPath).toBe('cpu');
    expect(state.cull).toBe(false);
    expect(`?${linkQuery({ state, model, caps }).query}`).toBe(search);
    expect(applyParams(state, { crowdPath: 'gpu' }).length).toBe(1);
    expect(state.crowdPath).toBe('cpu');
    expect(applyParams(state, { crowdPath: 'baked', cull: 1 })).toEqual([]);
    expect(linkQuery({ state, model, caps }).query).toBe('model=tiny&crowd=10000');
  });

  it('carries the up axis after the model (also for a file), leaves out auto, and refuses other values', () => {
    const model = tiny();
    const state = defaultState();
    state.model = 'tiny';
    state.clip = model.startClip;
    expect(state.up).toBe('auto');
    expect(applyParams(state, paramsFromSearch('?model=tiny&up=z'))).toEqual([]);
    expect(linkQuery({ state, model, caps }).query).toBe('model=tiny&up=z');
    expect(linkQuery({ state, model: tiny('file'), caps }).query).toBe('up=z');
    expect(applyParams(state, { up: 'x' })).toEqual([expect.stringContaining('up=x')]);
    expect(state.up).toBe('z');
    expect(applyParams(state, { up: 'auto' })).toEqual([]);
    expect(linkQuery({ state, model, caps }).query).toBe('model=tiny');
  });

  it('carries a mixed crowd\'s models and reads them back; drops repeats, refuses too many', () => {
    const model = tiny();
    const state = defaultState();
    state.model = 'tiny';
    state.clip = model.startClip;
    const search = '?model=tiny&crowd=100&crowdModels=default,fox,walker,models/x/soldier.glb';
    expect(applyParams(state, paramsFromSearch(search))).toEqual([]);
    expect(state.crowdModels).toEqual(['default', 'fox', 'walker', 'models/x/soldier.glb']);
    expect(`?${linkQuery({ state, model, caps }).query}`).toBe(search);
    expect(applyParams(state, { crowdModels: ' fox , fox,, tiny ' })).toEqual([]);
    expect(state.crowdModels).toEqual(['fox', 'tiny']);
    expect(applyParams(state, { crowdModels: 'a/1,a/2,a/3,a/4,a/5,a/6,a/7,a/8,a/9' }).length).toBe(1);
    expect(state.crowdModels).toEqual(['fox', 'tiny']);
    expect(applyParams(state, { crowdModels: '' })).toEqual([]);
    expect(linkQuery({ state, model, caps }).query).toBe('model=tiny&crowd=100');
  });

  it('carries the crowd layout and the tint switch, and reads them back; rejects an unknown layout or switch value', () => {
    const model = tiny();
    const state = defaultState();
    state.model = 'tiny';
    state.clip = model.startClip;
    expect(state.crowdLayout).toBe('grid');
    expect(state.crowdTint).toBe(true);
    const search = '?model=tiny&crowd=300&crowdLayout=plaza&crowdTint=0';
    expect(applyParams(state, paramsFromSearch(search))).toEqual([]);
    expect(state.crowdLayout).toBe('plaza');
    expect(state.crowdTint).toBe(false);
    expect(`?${linkQuery({ state, model, caps }).query}`).toBe(search);
    expect(applyParams(state, { crowdLayout: 'ring', crowdTint: 'maybe' }).length).toBe(2);
    expect(state.crowdLayout).toBe('plaza');
    expect(state.crowdTint).toBe(false);
    expect(applyParams(state, { crowdLayout: 'grid', crowdTint: 1 })).toEqual([]);
    expect(linkQuery({ state, model, caps }).query).toBe('model=tiny&crowd=300');
  });

  it('carries where impostors are drawn (far by default, left out of the link), reading 1 and 0 as far and off', () => {
    const model = tiny();
    const state = defaultState();
    state.model = 'tiny';
    state.clip = model.startClip;
    expect(state.impostors).toBe('far');
    expect(applyParams(state, paramsFromSearch('?model=tiny&crowd=300&impostors=all'))).toEqual([]);
    expect(state.impostors).toBe('all');
    expect(linkQuery({ state, model, caps }).query).toBe('model=tiny&crowd=300&impostors=all');
    expect(applyParams(state, { impostors: 0 })).toEqual([]);
    expect(state.impostors).toBe('off');
    expect(applyParams(state, { impostors: 'near' }).length).toBe(1);
    expect(state.impostors).toBe('off');
    expect(applyParams(state, { impostors: true })).toEqual([]);
    expect(state.impostors).toBe('far');
    expect(linkQuery({ state, model, caps }).query).toBe('model=tiny&crowd=300');
  });

  it('paused in tracks mode, the link carries the controller clock (every track at t × speed), not track 0\'s wrapped time', () => {
    const model = tiny();
    const state = defaultState();
    state.model = 'tiny';
    state.clip = model.startClip;
    expect(applyParams(state, { tracks: 'Anim-1:1:2' })).toEqual([]);
    applyTracksSpec(model.player.controller, parseTracksSpec(state.tracks).specs);
    model.player.useTracks();
    model.player.advance(0.8);
    state.paused = true;
    // Anim-1 lasts 1.03 s: at speed 2 its track is at 1.6 s, wrapped to 0.567; the clock is at 0.8.
    expect(model.player.controller.trackTime(0)).toBeCloseTo(1.6 - model.scene.clips[0]!.duration, 5);
    expect(new URLSearchParams(linkQuery({ state, model, caps }).query).get('t')).toBe('0.8');
  });

  it('a pinned time is written in whole microseconds, and reading the link back pins the same time', () => {
    const model = tiny();
    const state = defaultState();
    state.model = 'tiny';
    state.clip = model.startClip;
    // One frame step (→) from 0, with the float noise a step by 1/30 leaves.
    state.t = 0 + 1 / 30 + 1 / 30 - 1 / 30;
    state.paused = true;
    expect(state.t).not.toBe(0.033333);
    const { query } = linkQuery({ state, model, caps });
    expect(new URLSearchParams(query).get('t')).toBe('0.033333');
    const again = defaultState();
    expect(applyParams(again, paramsFromSearch(query))).toEqual([]);
    expect(again.t).toBe(0.033333);
    // Read back, the link is written again unchanged: the page drawing it lands on the same frame.
    expect(new URLSearchParams(linkQuery({ state: again, model, caps }).query).get('t')).toBe('0.033333');
    // Many steps on: still at most 6 decimals, within half a microsecond of the time drawn.
    state.t = 0;
    for (let i = 0; i < 37; i++) state.t += 1 / 30;
    const t = new URLSearchParams(linkQuery({ state, model, caps }).query).get('t')!;
    expect(t).toMatch(/^\d+\.\d{1,6}$/);
    expect(Math.abs(Number(t) - state.t)).toBeLessThanOrEqual(5e-7);
  });

  it('refuses a malformed track list and a look-at weight outside 0..1, keeping the state', () => {
    const state = defaultState();
    expect(applyParams(state, { tracks: 'Walk:heavy' })[0]).toMatch(/^tracks=Walk:heavy: expected CLIP/);
    expect(applyParams(state, { lookAt: '2' })[0]).toMatch(/^lookAt=2: expected 0/);
    expect(state.tracks).toBe('');
    expect(state.lookAt).toBe(0);
  });

  it('the default state on the default model is an empty query', () => {
    const state = defaultState();
    expect(linkQuery({ state, model: null, caps }).query).toBe('');
  });

  it('writes what differs from the defaults, in a fixed key order, and reads back into the same state', () => {
    const model = tiny();
    const state = defaultState();
    state.model = 'tiny';
    state.clip = model.startClip;
    state.bone = model.scene.skeleton.names[model.defaultBone]!;
    const search =
      '?model=tiny&t=0.4167&speed=0.5&technique=ff-indexed&influences=2&palette=20&view=weights&bone=Bip01_L_Thigh&bindPose=1&skeleton=1&grid=0&morphs=texture&morphTrack=0&crowd=9&camera=12.5,-3,2.25,0.1,-4,7';
    expect(applyParams(state, paramsFromSearch(search))).toEqual([]);
    const { query, linkable } = linkQuery({ state, model, caps });
    expect(linkable).toBe(true);
    expect(`?${query}`).toBe(search);
    const again = defaultState();
    applyParams(again, paramsFromSearch(query));
    // The clip is resolved against the model after its load (the start clip when the link names none).
    expect({ ...again, clip: model.startClip }).toEqual(state);
  });

  it('leaves out the start clip, the default bone and the palette the page would clamp to anyway', () => {
    const model = tiny();
    const state = defaultState();
    state.model = 'tiny';
    state.clip = model.startClip;
    state.bone = model.scene.skeleton.names[model.defaultBone]!;
    expect(linkQuery({ state, model, caps }).query).toBe('model=tiny');
  });

  it('a paused player writes its time; a playing one does not', () => {
    const model = tiny();
    const state = defaultState();
    state.model = 'tiny';
    state.clip = model.startClip;
    model.player.play(0, 0);
    model.player.setTime(0.25);
    expect(linkQuery({ state, model, caps }).query).not.toContain('t=');
    state.paused = true;
    expect(linkQuery({ state, model, caps }).query).toContain('t=0.25');
  });

  it('a model opened from a file cannot be linked: only what applies to any model is kept', () => {
    const model = tiny('file');
    const state = defaultState();
    state.model = 'tiny.x';
    applyParams(state, { clip: 'Anim-1', t: '0.5', technique: 'dual-quat', view: 'weights', bone: 'Bip01_Spine', skeleton: '1', camera: '10,20,3,1,2,3', morph: 'x:1' });
    const out = linkQuery({ state, model, caps });
    expect(out.linkable).toBe(false);
    expect(out.query).toBe('technique=dual-quat&view=weights&skeleton=1');
  });

  it('hand-set morph weights and URLs stay readable', () => {
    const state = defaultState();
    state.model = 'corpus/dawn.m3d';
    state.morph = { jaw_open: 0.63, blink: 1 };
    expect(linkQuery({ state, model: null, caps }).query).toBe('model=corpus/dawn.m3d&morph=jaw_open:0.63,blink:1');
  });
});

describe('camera settings in links', () => {
  it('rounds to six significant digits and formats yaw,pitch,distance[,tx,ty,tz]', () => {
    const c = roundCamera({ yaw: 25.123456789, pitch: -0.0000001, distance: 2.00000049, target: [1 / 3, -250.123456, 0] });
    expect(c).toEqual({ yaw: 25.1235, pitch: -1e-7, distance: 2, target: [0.333333, -250.123, 0] });
    expect(formatCamera(c)).toBe('25.1235,-1e-7,2,0.333333,-250.123,0');
    const s = defaultState();
    expect(applyParams(s, { camera: formatCamera(c) })).toEqual([]);
    expect(s.camera).toEqual(c);
  });

  it('refuses 4 or 5 numbers', () => {
    const s = defaultState();
    expect(applyParams(s, { camera: '1,2,3,4' })).toHaveLength(1);
    expect(applyParams(s, { camera: '1,2,3,4,5' })).toHaveLength(1);
    expect(s.camera).toBeNull();
  });
});
