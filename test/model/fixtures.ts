import { LoadError } from '../../src/model/errors.ts';
import { MAX_INFLUENCES, TRS_STRIDE, type Clip, type Material, type Scene, type SkinnedMesh, type Track } from '../../src/model/types.ts';
import { expect } from 'vitest';

/**
 * A tiny valid scene, fresh on every call so a test can break one part of it: a chain root → arm → hand
 * (each 1 up from its parent), one mesh 'Body' (a quad of 4 vertices facing +Z, 2 triangles) skinned to
 * all three, one clip 'Wave' (arm rotating about Z, hand translating).
 */

const MATERIAL: Material = {
  name: 'm',
  diffuse: [1, 1, 1, 1],
  specular: [0, 0, 0],
  specularPower: 8,
  emissive: [0, 0, 0],
  diffuseMap: null,
  normalMap: null,
};

export function restTRS(translations: readonly (readonly [number, number, number])[]): Float32Array {
  const out = new Float32Array(translations.length * TRS_STRIDE);
  translations.forEach((t, i) => {
    out.set(t, i * TRS_STRIDE);
    out.set([0, 0, 0, 1, 1, 1, 1], i * TRS_STRIDE + 3);
  });
  return out;
}

/** Column-major translation matrix. */
export function translation(x: number, y: number, z: number): number[] {
  return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1];
}

export function quadMesh(): SkinnedMesh {
  const joints = new Uint16Array(4 * MAX_INFLUENCES);
  const weights = new Float32Array(4 * MAX_INFLUENCES);
  // v0 → root, v1 → arm, v2 → arm/hand half and half, v3 → hand.
  const influence: [number, number][][] = [[[0, 1]], [[1, 1]], [[1, 0.5], [2, 0.5]], [[2, 1]]];
  influence.forEach((list, v) => list.forEach(([j, w], k) => {
    joints[v * MAX_INFLUENCES + k] = j;
    weights[v * MAX_INFLUENCES + k] = w;
  }));
  return {
    name: 'Body',
    vertexCount: 4,
    positions: new Float32Array([0, 0, 0, 1, 0, 0, 1, 2, 0, 0, 2, 0]),
    normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]),
    tangents: new Float32Array([1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1]),
    uvs: new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]),
    joints,
    weights,
    maxInfluences: 2,
    indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    subsets: [{ material: 0, start: 0, count: 2 }],
    bones: Int16Array.from([0, 1, 2]),
    invBind: Float32Array.from([...translation(0, 0, 0), ...translation(0, -1, 0), ...translation(0, -2, 0)]),
    skinned: true,
  };
}

export function waveClip(): Clip {
  const s = Math.SQRT1_2;
  const tracks: Track[] = [
    { node: 1, translation: null, rotation: { times: new Float32Array([0, 1]), values: new Float32Array([0, 0, 0, 1, 0, 0, s, s]) }, scale: null },
    { node: 2, translation: { times: new Float32Array([0, 0.5, 1]), values: new Float32Array([0, 1, 0, 0.5, 1, 0, 0, 1, 0]) }, rotation: null, scale: null },
  ];
  return { name: 'Wave', duration: 1, ticksPerSecond: 0, tracks };
}

export function tinyScene(): Scene {
  return {
    name: 'tiny.test',
    format: 'm3d',
    floatBits: 0,
    skeleton: {
      names: ['root', 'arm', 'hand'],
      parents: Int16Array.from([-1, 0, 1]),
      restLocal: restTRS([[0, 0, 0], [0, 1, 0], [0, 1, 0]]),
    },
    meshes: [quadMesh()],
    clips: [waveClip()],
    materials: [MATERIAL],
    morphTargets: [],
    warnings: [],
  };
}

/** A scene with one morph target 'smile' moving vertices 2 and 3 of the quad, and a track for it in 'Wave'. */
export function morphScene(): Scene {
  const scene = tinyScene();
  const mesh: SkinnedMesh = {
    ...scene.meshes[0]!,
    morphs: [{ vertices: new Uint32Array([2, 3]), positions: new Float32Array([0, 0.1, 0, 0, 0.1, 0]), normals: new Float32Array(6) }],
  };
  const clip: Clip = { ...scene.clips[0]!, morphTracks: [{ target: 0, times: new Float32Array([0, 1]), values: new Float32Array([0, 1]) }] };
  return { ...scene, meshes: [mesh], clips: [clip], morphTargets: ['smile'], morphKinds: ['modifier'] };
}

/** Runs f, expects a LoadError whose message matches, returns the message. */
export function loadErrorOf(f: () => unknown, pattern: RegExp): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(LoadError);
    expect((e as Error).message).toMatch(pattern);
    return (e as Error).message;
  }
  throw new Error(`expected a LoadError matching ${pattern}`);
}
