/**
 * Allocation probe for morph evaluation (the pattern of alloc-probe.ts), run by morph-alloc.test.ts through
 * allocationOfProbe (test/alloc-harness.ts). Each frame: advance + evaluate (pose and morph tracks, with
 * manual overrides), effectiveWeights (slot choice) and applyMorphs with tangents. `control` boxes one
 * double per call (16 bytes).
 */

import { measureAllocation } from '../alloc-harness.ts';
import { applyMorphs, effectiveWeightsInto, MORPH_SLOTS } from '../../src/anim/morph.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
import type { Clip, MorphDeltas, MorphTrack, SkinnedMesh } from '../../src/model/types.ts';
import { MAX_INFLUENCES, TRS_STRIDE } from '../../src/model/types.ts';

const NODES = 8;
const TARGETS = 12;
const VERTICES = 256;
const KEYS = 16;
const CALLS = 10_000;

const parents = Int16Array.from({ length: NODES }, (_, i) => i - 1);
const restLocal = new Float32Array(NODES * TRS_STRIDE);
for (let i = 0; i < NODES; i++) restLocal.set([0, 1, 0, 0, 0, 0, 1, 1, 1, 1], i * TRS_STRIDE);

function makeClip(name: string, phase: number): Clip {
  const times = Float32Array.from({ length: KEYS }, (_, k) => k / (KEYS - 1));
  const morphTracks: MorphTrack[] = Array.from({ length: TARGETS }, (_, target) => ({
    target,
    times,
    values: Float32Array.from({ length: KEYS }, (_, k) => 0.5 + 0.5 * Math.sin(k + target + phase)),
  }));
  return { name, duration: 1, ticksPerSecond: 0, tracks: [], morphTracks };
}

const player = new AnimPlayer({ names: [], parents, restLocal }, [makeClip('a', 0), makeClip('b', 2)], TARGETS);
player.setMorphManual(3, 0.25);
const morphs: MorphDeltas[] = Array.from({ length: TARGETS }, (_, t) => {
  const vertices = Uint32Array.from({ length: 40 }, (_, i) => (i * 5 + t) % VERTICES).sort();
  const unique = Uint32Array.from(new Set(vertices));
  return { vertices: unique, positions: new Float32Array(unique.length * 3).fill(0.01), normals: new Float32Array(unique.length * 3).fill(0.1) };
});
const mesh: SkinnedMesh = {
  name: 'probe',
  vertexCount: VERTICES,
  positions: Float32Array.from({ length: VERTICES * 3 }, (_, i) => i * 0.01),
  normals: Float32Array.from({ length: VERTICES * 3 }, (_, i) => (i % 3 === 2 ? 1 : 0)),
  tangents: Float32Array.from({ length: VERTICES * 4 }, (_, i) => (i % 4 === 0 || i % 4 === 3 ? 1 : 0)),
  uvs: null,
  joints: new Uint16Array(VERTICES * MAX_INFLUENCES),
  weights: Float32Array.from({ length: VERTICES * MAX_INFLUENCES }, (_, i) => (i % 4 === 0 ? 1 : 0)),
  maxInfluences: 1,
  indices: new Uint32Array(0),
  subsets: [],
  bones: Int16Array.from([0]),
  invBind: new Float32Array(16),
  skinned: true,
  morphs,
};
const positions = new Float32Array(VERTICES * 3);
const normals = new Float32Array(VERTICES * 3);
const tangents = new Float32Array(VERTICES * 4);
const applied = new Float32Array(TARGETS);
const slots = new Int32Array(MORPH_SLOTS);
const dropped = new Float64Array(1);

function frame(): void {
  player.advance(1 / 60);
  player.evaluate();
  effectiveWeightsInto('slots', player.morphWeights, applied, slots, dropped);
  applyMorphs(mesh, applied, positions, normals, tangents);
}

const sink: unknown[] = [null];
function control(i: number): void {
  sink[0] = i + 0.5;
}

measureAllocation('control', CALLS, control);
measureAllocation('morphing', CALLS, frame);
player.play(1, 1e9);
measureAllocation('morph-crossfading', CALLS, frame);
player.play(0, 1e9);
measureAllocation('morph-crossfading-from-frozen', CALLS, frame);
