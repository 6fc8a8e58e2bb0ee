import { describe, expect, it } from 'vitest';
import { AnimPlayer } from '../../../src/anim/player.ts';
import type { Clip, Skeleton } from '../../../src/model/types.ts';

/** Morph rest weights (Scene.morphDefaults, glTF mesh.weights) in the animation layer. */

const skeleton: Skeleton = { names: ['root'], parents: Int16Array.of(-1), restLocal: Float32Array.of(0, 0, 0, 0, 0, 0, 1, 1, 1, 1) };
const drivesTarget0: Clip = {
  name: 'a',
  duration: 1,
  ticksPerSecond: 0,
  tracks: [],
  morphTracks: [{ target: 0, times: Float32Array.of(0, 1), values: Float32Array.of(1, 1) }],
};
const drivesNothing: Clip = { name: 'b', duration: 1, ticksPerSecond: 0, tracks: [] };

describe('morph rest weights', () => {
  it('a target no clip drives keeps its rest weight; a driven one takes its track', () => {
    const player = new AnimPlayer(skeleton, [drivesTarget0, drivesNothing], 2, [0.3, 0.7]);
    player.setTime(0.5);
    player.evaluate();
    expect(Array.from(player.morphWeights)).toEqual([1, Math.fround(0.7)]);
  });

  it('a crossfade blends from the rest weight, not from 0', () => {
    const player = new AnimPlayer(skeleton, [drivesNothing, drivesTarget0], 2, [0.3, 0.7]);
    player.evaluate();
    expect(player.morphWeights[0]).toBeCloseTo(0.3, 6);
    player.play(1, 1);
    player.advance(0.25);
    player.evaluate();
    // Track weight 0.25 on target 0: 0.3 + 0.25 · (1 − 0.3).
    expect(player.morphWeights[0]).toBeCloseTo(0.3 + 0.25 * 0.7, 5);
    expect(player.morphWeights[1]).toBeCloseTo(0.7, 6);
  });

  it('with the expression track off, targets not set by hand rest at their rest weight', () => {
    const player = new AnimPlayer(skeleton, [drivesTarget0], 2, [0.3, 0.7]);
    player.morphTracksEnabled = false;
    player.evaluate();
    expect(player.morphWeights[0]).toBeCloseTo(0.3, 6);
    player.setMorphManual(1, 0.1);
    player.evaluate();
    expect(player.morphWeights[1]).toBeCloseTo(0.1, 6);
  });

  it('without rest weights every undriven target is 0, as before', () => {
    const player = new AnimPlayer(skeleton, [drivesNothing], 2);
    player.evaluate();
    expect(Array.from(player.morphWeights)).toEqual([0, 0]);
  });
});
