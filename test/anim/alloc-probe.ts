/**
 * Allocation probe for the per-frame path, run by alloc.test.ts in a child process through
 * allocationOfProbe (test/alloc-harness.ts), which measures the heap growth per call of each section.
 * `control` boxes one double per call (16 bytes, the smallest allocation a frame could make), to show
 * the probe sees it.
 */

import { measureAllocation } from '../alloc-harness.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
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
measureAllocation('crossfading-from-frozen-pose', CALLS, frame);
