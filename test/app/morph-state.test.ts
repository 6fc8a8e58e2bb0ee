import { describe, expect, it } from 'vitest';
import { applyParams, defaultState, formatMorph, parseMorph } from '../../src/app/state.ts';
import { availablePresets } from '../../src/ui/morph-presets.ts';

describe('morph state and URL', () => {
  it('defaults: no hand-set weights, Dawn slots, expression track on', () => {
    const s = defaultState();
    expect(s.morph).toEqual({});
    expect(s.morphs).toBe('slots');
    expect(s.morphTrack).toBe(true);
  });

  it('parses morph=name:weight,... and replaces the hand-set weights', () => {
    const s = defaultState();
    expect(applyParams(s, { morph: 'happy:1, blink:0.5,jaw_open:-0.25' })).toEqual([]);
    expect(s.morph).toEqual({ happy: 1, blink: 0.5, jaw_open: -0.25 });
    expect(applyParams(s, { morph: 'sad:0.3' })).toEqual([]);
    expect(s.morph).toEqual({ sad: 0.3 });
    expect(applyParams(s, { morph: '' })).toEqual([]);
    expect(s.morph).toEqual({});
  });

  it('rejects malformed morph values and leaves the state as it was', () => {
    const s = defaultState();
    applyParams(s, { morph: 'happy:1' });
    for (const bad of ['happy', 'happy:x', 'happy:1,:2', 'ha ppy:1', 'happy:Infinity']) {
      const errors = applyParams(s, { morph: bad });
      expect(errors, bad).toHaveLength(1);
      expect(errors[0]).toMatch(/^morph=.*expected name:weight/);
    }
    expect(s.morph).toEqual({ happy: 1 });
  });

  it('morphs accepts slots, texture, cpu only; morphTrack toggles', () => {
    const s = defaultState();
    expect(applyParams(s, { morphs: 'texture' })).toEqual([]);
    expect(s.morphs).toBe('texture');
    expect(applyParams(s, { morphs: 'gpu' })[0]).toBe('morphs=gpu: unknown morph path; one of slots, texture, cpu');
    expect(s.morphs).toBe('texture');
    applyParams(s, { morphTrack: '0' });
    expect(s.morphTrack).toBe(false);
    applyParams(s, { morphTrack: true });
    expect(s.morphTrack).toBe(true);
  });

  it('formatMorph is parseMorph inverse', () => {
    const m = { happy: 1, blink: 0.5 };
    expect(formatMorph(m)).toBe('happy:1,blink:0.5');
    expect(parseMorph(formatMorph(m))).toEqual(m);
  });
});

describe('expression presets', () => {
  it('offers only presets whose required targets exist, with the extras the model has', () => {
    const p = availablePresets(['happy', 'smirk', 'blink', 'brow_up_left', 'jaw_open']);
    const names = p.map((x) => x.name);
    expect(names).toEqual(['joyful', 'sleepy', 'mischievous']);
    expect(p.find((x) => x.name === 'joyful')!.weights).toEqual({ happy: 1, brow_up_left: 0.2 });
    expect(p.find((x) => x.name === 'sleepy')!.weights).toEqual({ blink: 0.75, jaw_open: 0.15 });
    expect(availablePresets([])).toEqual([]);
  });
});
