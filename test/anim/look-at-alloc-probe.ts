/**
 * Allocation probe for LookAt.apply, run by look-at.test.ts in a child process through allocationOfProbe
 * (test/alloc-harness.ts). The Walker rig (src/gen), a target that sweeps round the head each call (turns,
 * limits and the behind case all run), and the model matrices re-derived from the rest pose every call as a
 * frame would. `control` boxes one double per call so the probe is seen to work.
 */

import { measureAllocation } from '../alloc-harness.ts';
import { localToModel } from '../../src/anim/local-to-model.ts';
import { LookAt } from '../../src/anim/look-at.ts';
import { humanoidRig } from '../../src/gen/humanoid-body.ts';
import { readFileSync } from 'node:fs';
import { AnimController } from '../../src/anim/controller/controller.ts';
import { loadModel } from '../../src/loaders/load-model.ts';

const CALLS = 20_000;
const skeleton = humanoidRig().skeleton;
const n = skeleton.parents.length;
const locals = new Float32Array(n * 10);
const model = new Float32Array(n * 16);
const look = LookAt.find(skeleton)!;
const angle = new Float64Array(1);

function frame(i: number): void {
  locals.set(skeleton.restLocal);
  localToModel(skeleton.parents, locals, model);
  angle[0] = (i % 360) * (Math.PI / 180);
  look.target[0] = Math.sin(angle[0]);
  look.target[1] = 1.6 + 0.3 * Math.cos(angle[0] * 3);
  look.target[2] = Math.cos(angle[0]);
  look.apply(skeleton.parents, locals, model);
}

const sink: unknown[] = [null];
function control(i: number): void {
  sink[0] = i + 0.5;
}

measureAllocation('control', CALLS, control);
measureAllocation('look-at', CALLS, frame);

// The MultiAnimation Tiny walking (file orientation: up −Z) through the controller, look-at as its post-process,
// a target sweeping round the head: the chain with pinned clavicles under the neck.
const tiny = loadModel('tiny_4anim.x', new Uint8Array(readFileSync('public/models/tiny/tiny_4anim.x')));
const controller = new AnimController(tiny.skeleton, tiny.clips);
controller.setTrackClip(0, tiny.clips.findIndex((c) => c.name === 'Walk'));
controller.setTrackEnable(0, true);
const tinyLook = LookAt.find(tiny.skeleton)!;
controller.postProcess = tinyLook;
function tinyFrame(i: number): void {
  controller.advance(1 / 60);
  angle[0] = (i % 360) * (Math.PI / 180);
  tinyLook.target[0] = 300 * Math.sin(angle[0]);
  tinyLook.target[1] = 300 * Math.cos(angle[0]);
  tinyLook.target[2] = -450 + 60 * Math.cos(angle[0] * 3);
  controller.evaluate();
}
measureAllocation('look-at-tiny-walk', CALLS, tinyFrame);
