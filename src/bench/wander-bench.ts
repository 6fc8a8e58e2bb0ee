/**
 * Wander crowd benchmark (CPU part of `npm run bench`): per frame, WanderCrowd.step (state machines,
 * steering, every controller's clock and events) + evaluate (every agent's blend and local-to-model) +
 * writePalettes (every instance's palettes premultiplied by its place) — the code the page runs in wander
 * mode — for the MultiAnimation sample's Tiny at N = 100 and 1000, reported per instance.
 *
 * Metrics: wander_cpu_us_per_instance_n100, wander_cpu_us_per_instance_n1000 (µs per instance per frame,
 * median over blocks), wander_footsteps_per_s_n100 (footsteps fired per second of wander time, a check that
 * the agents walk).
 */

import { existsSync, readFileSync } from 'node:fs';
import { WanderCrowd } from '../anim/wander.ts';
import { loadModel } from '../loaders/load-model.ts';
import type { Metric } from './metric.ts';
import { interleaved } from './timing.ts';

const MODEL = 'public/models/tiny/tiny_4anim.x';
const DT = 1 / 60;

export interface WanderBenchOptions {
  readonly quick: boolean;
  readonly log?: (line: string) => void;
}

export function runWanderBench(opts: WanderBenchOptions): Metric[] {
  const log = opts.log ?? ((): void => {});
  if (!existsSync(MODEL)) throw new Error(`${MODEL} is missing`);
  const scene = loadModel('tiny_4anim.x', new Uint8Array(readFileSync(MODEL)));
  const meshBase = new Int32Array(scene.meshes.length);
  let slots = 0;
  scene.meshes.forEach((m, i) => {
    meshBase[i] = slots;
    slots += Math.max(1, m.bones.length);
  });
  const out: Metric[] = [];
  for (const n of [100, 1000]) {
    const crowd = new WanderCrowd(scene, { count: n, seed: 1 });
    const data = new Float32Array(n * slots * 16);
    const frame = (): void => {
      crowd.step(DT);
      crowd.evaluate();
      crowd.writePalettes(scene, data, slots, meshBase, n);
    };
    // Warm-up past the first second, so agents have left their first loiter.
    for (let f = 0; f < 90; f++) frame();
    const blocks = opts.quick ? 5 : n === 100 ? 40 : 12;
    const perBlock = n === 100 ? 20 : 5;
    const [us] = interleaved([frame], blocks, perBlock);
    const perInstance = us! / n;
    const note = `${n} agents of tiny_4anim.x (Loiter/Walk/Jog/Wave, ${scene.skeleton.parents.length} nodes, ${slots} palette slots): step + evaluate + writePalettes per frame at dt 1/60 s, median of ${blocks} blocks of ${perBlock} frames, divided by N`;
    out.push({ name: `wander_cpu_us_per_instance_n${n}`, value: perInstance, unit: 'us', note });
    if (n === 100) out.push({ name: 'wander_footsteps_per_s_n100', value: crowd.footstepRate, unit: '1/s', note: 'footsteps fired per second of wander time over the last second (weight ≥ 0.5)' });
    log(`wander N=${n}: ${perInstance.toFixed(2)} µs per instance per frame (${(us! / 1000).toFixed(2)} ms per frame), ${crowd.footstepRate.toFixed(1)} footsteps/s`);
  }
  return out;
}
