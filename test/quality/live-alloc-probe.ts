/**
 * Allocation probe for the live artifact figures (the pattern of test/anim/morph-alloc-probe.ts), run by
 * live-alloc.test.ts through allocationOfProbe: each call measures a pose that differs from the last one
 * (two players posed once, alternated, so the probe measures LiveQuality.update alone: CPU skinning with the
 * technique's reference, volume, one-ring areas, p95, and for the distortion view the per-vertex log ratios).
 * `control` boxes one double per call (16 bytes).
 */

import { measureAllocation } from '../alloc-harness.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
import { generateTwist } from '../../src/gen/twist.ts';
import { LiveQuality } from '../../src/quality/live.ts';

const CALLS = 10_000;
const scene = generateTwist({ segments: 8, rings: 9 });
const players = [1, 2].map((t) => {
  const p = AnimPlayer.forScene(scene);
  p.play(0, 0);
  p.setTime(t);
  p.evaluate();
  return p;
});
const live = new LiveQuality(scene);

function frame(technique: string, logs: boolean): (i: number) => void {
  return (i) => {
    const player = players[i & 1]!;
    // A new pose every call, 1 s after the last: each call measures.
    live.update(player, technique, 4, player.morphWeights, logs, true, i * 1000);
  };
}

measureAllocation('linear', CALLS, frame('vs-hlsl', false));
measureAllocation('dual-quat-with-logs', CALLS, frame('dual-quat', true));

// The common frame: the pose has not moved (or moved too soon): compare and return.
measureAllocation('unchanged', CALLS, (i) => live.update(players[0]!, 'dual-quat', 4, players[0]!.morphWeights, true, true, 1e7 + i));

const boxes: unknown[] = [null];
function control(i: number): void {
  boxes[0] = i + 0.5;
}
measureAllocation('control', CALLS, control);
