import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { LoadedModel } from '../../src/app/loaded-model.ts';
import { applyMorphState, resolveBone } from '../../src/app/model-state.ts';
import { applyParams, defaultState, formatMorph } from '../../src/app/state.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import type { Scene } from '../../src/model/types.ts';
import { loadedModel } from './loaded-fixture.ts';
import { FIXTURE_TARGETS, morphWalkerScene } from './morph-fixture.ts';

/** A scene as the page holds it after a load (the GPU side is not needed here). */
const loaded = (id: string, scene: Scene): LoadedModel => loadedModel(id, scene);

describe('state resolved against a loaded model', () => {
  it('an unknown bone is an error naming the first 20 of the model\'s bones and how many there are', () => {
    const model = loaded('tiny', loadModel('tiny.x', new Uint8Array(readFileSync('public/models/tiny/tiny.x'))));
    const names = model.bones.map((b) => model.scene.skeleton.names[b]!);
    expect(names.length).toBeGreaterThan(20);
    const state = defaultState();
    expect(applyParams(state, { bone: 'nope', view: 'weights' })).toEqual([]);
    const { node, why } = resolveBone(state, model, true);
    expect(node).toBe(model.defaultBone);
    expect(why).toContain('bone=nope: no such bone');
    expect(why).toContain(`${names.length} bones: ${names.slice(0, 20).join(', ')}, … and ${names.length - 20} more`);
    expect(why).not.toContain(names[20]!);
    // A known name resolves without a message.
    state.bone = names[3]!;
    expect(resolveBone(state, model, true)).toEqual({ node: model.bones[3], why: null });
  });

  it('morph weights outside 0..1 are clamped, with a warning naming the target and the weight given', () => {
    const model = loaded('walker', morphWalkerScene());
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const state = defaultState();
      expect(applyParams(state, { morph: 'happy:5,blink:0.5,sad:-2' })).toEqual([]);
      expect(applyMorphState(state, model)).toEqual([]);
      expect(state.morph).toEqual({ happy: 1, blink: 0.5, sad: 0 });
      expect(formatMorph(state.morph)).toBe('happy:1,blink:0.5,sad:0');
      const happy = FIXTURE_TARGETS.indexOf('happy');
      model.player.evaluate();
      expect(model.player.morphWeights[happy]).toBe(1);
      expect(model.warnings).toHaveLength(2);
      expect(model.warnings[0]).toMatch(/^morph=happy:5: .*0 to 1.*using 1$/);
      expect(model.warnings[1]).toMatch(/^morph=sad:-2: .*using 0$/);
      expect(warn).toHaveBeenCalledTimes(2);
      // Applied again (the page re-applies the state on later calls): no repeated warning.
      expect(applyMorphState(state, model)).toEqual([]);
      expect(model.warnings).toHaveLength(2);
    } finally {
      warn.mockRestore();
    }
  });
});
