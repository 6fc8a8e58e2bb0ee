/**
 * Allocation probe for WanderCrowd (wander.test.ts runs it through allocationOfProbe): 10 agents of the
 * MultiAnimation sample's Tiny, stepped, evaluated and written to a crowd palette array per call, over
 * enough calls (100 s of wander time per window) that agents change state, wave and fire footsteps inside
 * each window. `control` boxes one double per call. Parts: `step` alone, and the whole frame.
 */

import { readFileSync } from 'node:fs';
import { measureAllocation } from '../alloc-harness.ts';
import { WanderCrowd } from '../../src/anim/wander.ts';
import { loadModel } from '../../src/loaders/load-model.ts';

const scene = loadModel('tiny_4anim.x', new Uint8Array(readFileSync('public/models/tiny/tiny_4anim.x')));
const N = 10;
const crowd = new WanderCrowd(scene, { count: N, seed: 7 });
const meshBase = new Int32Array(scene.meshes.length);
let slots = 0;
scene.meshes.forEach((m, i) => {
  meshBase[i] = slots;
  slots += Math.max(1, m.bones.length);
});
const data = new Float32Array(N * slots * 16);

function frame(): void {
  crowd.step(1 / 60);
  crowd.evaluate();
  crowd.writePalettes(scene, data, slots, meshBase, N);
}

const sink: unknown[] = [null];
function control(i: number): void {
  sink[0] = i + 0.5;
}

function step(): void {
  crowd.step(1 / 60);
}

measureAllocation('control', 20_000, control);
measureAllocation('step', 6000, step, 6000);
measureAllocation('wander', 6000, frame, 6000);
console.log(`FOOTSTEPS ${crowd.footsteps}`);
