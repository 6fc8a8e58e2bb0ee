/** Tiny hand-built skeletons, clips and meshes for the anim tests, plus numeric asserts. */

import { expect } from 'vitest';
import { MAX_INFLUENCES, TRS_STRIDE } from '../../src/model/types.ts';
import type { Channel, Clip, Skeleton, SkinnedMesh, Track } from '../../src/model/types.ts';

export type V3 = readonly [number, number, number];
export type Q4 = readonly [number, number, number, number];

export const IDENTITY_Q: Q4 = [0, 0, 0, 1];

/** Unit quaternion (xyzw) for `degrees` about the unit `axis`. */
export function axisAngle(axis: V3, degrees: number): Q4 {
  const h = (degrees * Math.PI) / 360;
  const s = Math.sin(h);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(h)];
}

/** v rotated by unit quaternion q (q · v · q*). */
export function rotate(q: ArrayLike<number>, v: V3): [number, number, number] {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  // t = 2 q.xyz × v; v' = v + w t + q.xyz × t
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [
    v[0] + w * tx + (y * tz - z * ty),
    v[1] + w * ty + (z * tx - x * tz),
    v[2] + w * tz + (x * ty - y * tx),
  ];
}

export interface NodeRest {
  t?: V3;
  r?: Q4;
  s?: V3;
}

export function makeSkeleton(parents: number[], rest: NodeRest[]): Skeleton {
  const restLocal = new Float32Array(parents.length * TRS_STRIDE);
  parents.forEach((_, i) => {
    const n = rest[i] ?? {};
    restLocal.set([...(n.t ?? [0, 0, 0]), ...(n.r ?? IDENTITY_Q), ...(n.s ?? [1, 1, 1])], i * TRS_STRIDE);
  });
  return { names: parents.map((_, i) => `node${i}`), parents: Int16Array.from(parents), restLocal };
}

/** Shoulder (0) → elbow (1) → wrist (2) along +X, one unit apart, shoulder at the origin. */
export function armSkeleton(): Skeleton {
  return makeSkeleton([-1, 0, 1], [{}, { t: [1, 0, 0] }, { t: [1, 0, 0] }]);
}

export function channel(times: number[], values: number[]): Channel {
  return { times: Float32Array.from(times), values: Float32Array.from(values) };
}

export function track(node: number, parts: Partial<Omit<Track, 'node'>>): Track {
  return { node, translation: parts.translation ?? null, rotation: parts.rotation ?? null, scale: parts.scale ?? null };
}

export function makeClip(name: string, duration: number, tracks: Track[]): Clip {
  return { name, duration, ticksPerSecond: 0, tracks };
}

export interface VertexSpec {
  p: V3;
  n?: V3;
  /** (palette slot, weight) pairs, descending weight. */
  influences: [number, number][];
}

export function makeMesh(vertices: VertexSpec[], bones: number[], invBind: Float32Array): SkinnedMesh {
  const count = vertices.length;
  const positions = new Float32Array(count * 3);
  const normals = new Float32Array(count * 3);
  const joints = new Uint16Array(count * MAX_INFLUENCES);
  const weights = new Float32Array(count * MAX_INFLUENCES);
  let maxInfluences = 0;
  vertices.forEach((v, i) => {
    positions.set(v.p, i * 3);
    normals.set(v.n ?? [0, 1, 0], i * 3);
    v.influences.forEach(([j, w], k) => {
      joints[i * MAX_INFLUENCES + k] = j;
      weights[i * MAX_INFLUENCES + k] = w;
    });
    maxInfluences = Math.max(maxInfluences, v.influences.length);
  });
  return {
    name: 'test-mesh',
    vertexCount: count,
    positions,
    normals,
    tangents: null,
    uvs: null,
    joints,
    weights,
    maxInfluences,
    indices: new Uint32Array(0),
    subsets: [],
    bones: Int16Array.from(bones),
    invBind,
    skinned: true,
  };
}

export function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, eps = 1e-6): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    if (!(Math.abs(actual[i] - expected[i]) <= eps)) {
      throw new Error(
        `element ${i}: got ${actual[i]}, expected ${expected[i]} (eps ${eps})\n` +
          `actual   [${Array.from(actual).map((x) => x.toFixed(6)).join(', ')}]\n` +
          `expected [${Array.from(expected).map((x) => x.toFixed(6)).join(', ')}]`,
      );
    }
  }
}

/** Two quaternions describe the same rotation (equal up to sign). */
export function expectSameRotation(actual: ArrayLike<number>, expected: ArrayLike<number>, eps = 1e-6): void {
  const dot = actual[0] * expected[0] + actual[1] * expected[1] + actual[2] * expected[2] + actual[3] * expected[3];
  const sign = dot < 0 ? -1 : 1;
  expectClose(
    [actual[0] * sign, actual[1] * sign, actual[2] * sign, actual[3] * sign],
    [expected[0], expected[1], expected[2], expected[3]],
    eps,
  );
}

/** Translation column (x, y, z) of the column-major matrix at m[16 i..]. */
export function translationOf(m: Float32Array, i: number): [number, number, number] {
  return [m[i * 16 + 12], m[i * 16 + 13], m[i * 16 + 14]];
}

/** TRS floats of node i. */
export function nodeTRS(locals: Float32Array, i: number): Float32Array {
  return locals.subarray(i * TRS_STRIDE, (i + 1) * TRS_STRIDE);
}

/** Deterministic PRNG in [0, 1): a 32-bit linear congruential generator (Numerical Recipes constants). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    return a / 4294967296;
  };
}
