/**
 * Allocation probe for the per-frame path, run by alloc.test.ts in a child process through
 * allocationOfProbe (test/alloc-harness.ts), which measures the heap growth per call of each section.
 * `control` boxes one double per call (16 bytes, the smallest allocation a frame could make), to show
 * the probe sees it.
 */

import { measureAllocation } from '../alloc-harness.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
import { AnimController } from '../../src/anim/controller/controller.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import type { Clip, SkinnedMesh, Track } from '../../src/model/types.ts';
import { MAX_INFLUENCES, TRS_STRIDE } from '../../src/model/types.ts';

const NODES = 40;
const KEYS = 24;
const VERTICES = 64;
const CALLS = 20_000;

const parents = Int16Array.from({ length: NODES }, (_, i) => (i === 0 ? -1 : (i - 1) >> 1));
const restLocal = new Float32Array(NODES * TRS_STRIDE);
for (let i = 0; i < NODES; i++) restLocal.set([0, 1, 0, 0, 0, 0, 1, 1, 1, 1], i * TRS_STRIDE);

function makeClip(name: string, phase: number): Clip {
  const times = Float32Array.from({ length: KEYS }, (_, k) => k / (KEYS - 1));
  const tv = Float32Array.from({ length: KEYS * 3 }, (_, i) => Math.sin(i + phase));
  const rv = new Float32Array(KEYS * 4);
  for (let k = 0; k < KEYS; k++) {
    const h = (k + phase) * 0.4;
    rv.set([Math.sin(h) * 0.6, 0, Math.sin(h) * 0.8, Math.cos(h)], k * 4);
  }
  const sv = Float32Array.from({ length: KEYS * 3 }, (_, i) => 1 + 0.1 * Math.cos(i));
  const tracks: Track[] = Array.from({ length: NODES }, (_, node) => ({
    node,
    translation: { times, values: tv },
    rotation: { times, values: rv },
    scale: { times, values: sv },
  }));
  return { name, duration: 1, ticksPerSecond: 0, tracks };
}

const player = new AnimPlayer({ names: [], parents, restLocal }, [makeClip('a', 0), makeClip('b', 3)]);
const bones = Int16Array.from({ length: NODES }, (_, i) => i);
const invBind = new Float32Array(NODES * 16);
for (let k = 0; k < NODES; k++) invBind.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0.5, 0, 1], k * 16);
const mesh: SkinnedMesh = {
  name: 'probe',
  vertexCount: VERTICES,
  positions: Float32Array.from({ length: VERTICES * 3 }, (_, i) => i * 0.01),
  normals: new Float32Array(VERTICES * 3).fill(Math.SQRT1_2),
  tangents: null,
  uvs: null,
  joints: Uint16Array.from({ length: VERTICES * MAX_INFLUENCES }, (_, i) => (i * 7) % NODES),
  weights: Float32Array.from({ length: VERTICES * MAX_INFLUENCES }, (_, i) => [0.4, 0.3, 0.2, 0.1][i % 4]),
  maxInfluences: 4,
  indices: new Uint32Array(0),
  subsets: [],
  bones,
  invBind,
  skinned: true,
};
const palette = new Float32Array(NODES * 16);
const positions = new Float32Array(VERTICES * 3);
const normals = new Float32Array(VERTICES * 3);

function frame(): void {
  player.advance(1 / 60);
  player.evaluate();
  player.writePalette(mesh, palette, 0);
  skinMesh(mesh, palette, positions, normals);
}

const sink: unknown[] = [null];
function control(i: number): void {
  sink[0] = i + 0.5;
}

measureAllocation('control', CALLS, control);
measureAllocation('playing', CALLS, frame);
player.play(1, 1e9);
measureAllocation('crossfading', CALLS, frame);
player.play(0, 1e9);
measureAllocation('crossfading-during-crossfade', CALLS, frame);
// Times held as tagged values (an array with a non-number element): a double chosen in the probe itself
// would be boxed by the probe when passed on.
const TIMES: unknown[] = [0.25, 0.75, 0.5, 1.25, 'tagged'];
player.setTime(0.25);
measureAllocation('player-setTime', CALLS, (i) => {
  player.setTime(TIMES[i & 1] as number);
  player.evaluate();
});

// A 4-track controller: two synced (blend space), one masked high-priority, one additive; events pending,
// markers firing every few frames.
const clipA = makeClip('a', 0);
const clipB = { ...makeClip('b', 3), duration: 0.7 };
const controller = new AnimController({ names: [], parents, restLocal }, [clipA, clipB], { tracks: 4 });
for (let t = 0; t < 4; t++) {
  controller.setTrackClip(t, t === 1 ? 1 : 0);
  controller.setTrackPosition(t, 0);
  controller.setTrackEnable(t, true);
}
controller.setBlendSpace([{ track: 0, value: 0 }, { track: 1, value: 1 }], 0);
controller.setBlendValue(0.4);
controller.setTrackMask(2, 3);
controller.setTrackPriority(2, 'high');
controller.setTrackWeight(2, 0.8);
controller.setTrackAdditive(3, true);
controller.setTrackWeight(3, 0.5);
for (let k = 0; k < 8; k++) controller.addMarker(0, k / 8, `m${k}`);
controller.addMarker(1, 0.35, 'b');
let fired = 0;
controller.onMarker = () => {
  fired++;
};
controller.keyTrackWeight(2, 0.2, 0, 1e9, 'ease');
controller.keyPriorityBlend(0.5, 0, 1e9, 'linear');
controller.keyTrackSpeed(3, 2, 1e9, 1, 'linear');
function controllerFrame(i: number): void {
  controller.setBlendValue((i & 15) / 16);
  controller.advance(1 / 60);
  controller.evaluate();
  controller.writePalette(mesh, palette, 0);
}
measureAllocation('controller-4-tracks', CALLS, controllerFrame);
measureAllocation('controller-seek-and-keys', CALLS, (i) => {
  controller.seek(TIMES[2 + (i & 1)] as number);
  controller.keyTrackWeight(0, 1, 0, 0.5, 'linear');
  controller.keyTrackPosition(1, 0.25, 0);
  controller.unkeyTrackEvents(0);
  controller.unkeyTrackEvents(1);
});
if (fired === 0 || controller.pendingEvents !== 3) throw new Error(`probe: ${fired} markers fired, ${controller.pendingEvents} events pending`);
