/**
 * A small morph model for tests that cannot wait for the generated Dawn: the Walker (public/models/generated/
 * walker.m3d) with 11 synthetic Dawn-named targets on its head (the top 14 % of the figure) and an
 * expression track on `idle`. Built in Node from the same loaders and writer the app uses; the browser test
 * serves writeM3d's text as an .m3d. Every target moves head vertices only, by a few % of the height.
 */

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadModel } from '../../src/loaders/load-model.ts';
import type { Clip, MorphDeltas, MorphKind, Scene } from '../../src/model/types.ts';

export const FIXTURE_TARGETS = ['happy', 'sad', 'angry', 'surprised', 'thoughtful', 'jaw_open', 'blink', 'smirk', 'brow_up_left', 'brow_up_right', 'ear_wiggle'] as const;
const KINDS: MorphKind[] = ['emotion', 'emotion', 'emotion', 'emotion', 'emotion', 'modifier', 'modifier', 'modifier', 'modifier', 'modifier', 'modifier'];

export function morphWalkerScene(): Scene {
  const path = fileURLToPath(new URL('../../public/models/generated/walker.m3d', import.meta.url));
  const base = loadModel('walker.m3d', new Uint8Array(readFileSync(path)));
  const mesh = base.meshes[0]!;
  const p = mesh.positions;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let v = 0; v < mesh.vertexCount; v++) {
    minY = Math.min(minY, p[v * 3 + 1]!);
    maxY = Math.max(maxY, p[v * 3 + 1]!);
  }
  const h = maxY - minY;
  const headY = maxY - 0.14 * h;
  const head: number[] = [];
  for (let v = 0; v < mesh.vertexCount; v++) if (p[v * 3 + 1]! > headY) head.push(v);
  // Per target: a displacement (fractions of h) as a function of the vertex, and a normal tilt.
  const shapes: ((x: number, y: number, z: number) => [number, number, number])[] = [
    (x) => [x * 0.25, 0, 0], // happy: wider
    (_x, y) => [0, -(y - headY) * 0.15, 0], // sad: squashed down
    (_x, _y, z) => [0, 0, z * 0.3], // angry: deeper
    (_x, y) => [0, (y - headY) * 0.25, 0], // surprised: taller
    (x) => [0.02 * h * Math.sign(x), 0, 0], // thoughtful: shift sideways
    (_x, y) => [0, 0, (1 - (y - headY) / (0.14 * h)) * 0.05 * h], // jaw_open: lower head forward
    (_x, y) => [0, -0.01 * h * ((y - headY) / (0.14 * h)), 0],
    (x) => [0, x > 0 ? 0.015 * h : 0, 0],
    (x, y) => [0, x > 0 ? 0.02 * h * ((y - headY) / (0.14 * h)) : 0, 0],
    (x, y) => [0, x < 0 ? 0.02 * h * ((y - headY) / (0.14 * h)) : 0, 0],
    (x) => [Math.sign(x) * 0.03 * h, 0.01 * h, 0],
  ];
  const morphs: MorphDeltas[] = shapes.map((f, t) => {
    const positions = new Float32Array(head.length * 3);
    const normals = new Float32Array(head.length * 3);
    head.forEach((v, i) => {
      const d = f(p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!);
      positions.set(d, i * 3);
      normals.set([0.15 * Math.sin(t + 1), 0.1 * Math.cos(t), 0], i * 3);
    });
    return { vertices: Uint32Array.from(head), positions, normals };
  });
  const clips: Clip[] = base.clips.map((c) =>
    c.name === 'idle'
      ? { ...c, morphTracks: [{ target: 0, times: Float32Array.from([0, c.duration / 2, c.duration]), values: Float32Array.from([0, 1, 0]) }] }
      : c,
  );
  return {
    ...base,
    name: 'morph-walker',
    meshes: [{ ...mesh, morphs }],
    clips,
    morphTargets: [...FIXTURE_TARGETS],
    morphKinds: KINDS,
  };
}
