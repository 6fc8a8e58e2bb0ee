import { MAX_INFLUENCES, TRS_STRIDE, type Clip, type Material, type MorphDeltas, type Scene, type SkinnedMesh } from '../../src/model/types.ts';

/**
 * Small hand-built scenes for the morph-target loader tests: a 2-node skeleton (root, jaw 1 up) and boxes
 * of 8 corner vertices wound counter-clockwise outwards (skinlab's convention), corner normals.
 */

const CORNERS = [
  [-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1],
  [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1],
] as const;
const QUADS = [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 5, 4], [3, 2, 6, 7], [0, 3, 7, 4], [1, 2, 6, 5]] as const;

/** Box triangles, each turned so its CCW normal points away from the centre. */
function boxIndices(): Uint32Array {
  const out: number[] = [];
  for (const [a, b, c, d] of QUADS) {
    for (const [i, j, k] of [[a, b, c], [a, c, d]] as const) {
      const p = [CORNERS[i], CORNERS[j], CORNERS[k]];
      const e1 = [0, 1, 2].map((n) => p[1]![n]! - p[0]![n]!);
      const e2 = [0, 1, 2].map((n) => p[2]![n]! - p[0]![n]!);
      const g = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
      const centroid = [0, 1, 2].map((n) => p[0]![n]! + p[1]![n]! + p[2]![n]!);
      const out_ = g[0]! * centroid[0]! + g[1]! * centroid[1]! + g[2]! * centroid[2]! > 0;
      out.push(...(out_ ? [i, j, k] : [i, k, j]));
    }
  }
  return Uint32Array.from(out);
}

/** Inverse bind of the jaw (1 up), column-major. */
const JAW_INV_BIND = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1];
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/**
 * A box of half-size `size` at `centre`. `bones` are its palette's nodes (0 root, 1 jaw); every vertex is
 * bound to slot 0 except the top four, which are shared half and half with slot 1 when there is one.
 */
export function box(name: string, centre: readonly number[], size: number, bones: readonly number[], material: number): SkinnedMesh {
  const positions = new Float32Array(24);
  const normals = new Float32Array(24);
  const uvs = new Float32Array(16);
  const joints = new Uint16Array(8 * MAX_INFLUENCES);
  const weights = new Float32Array(8 * MAX_INFLUENCES);
  CORNERS.forEach((c, v) => {
    const len = Math.hypot(c[0], c[1], c[2]);
    for (let k = 0; k < 3; k++) {
      positions[v * 3 + k] = centre[k]! + c[k]! * size;
      normals[v * 3 + k] = c[k]! / len;
    }
    uvs[v * 2] = (c[0] + 1) / 2;
    uvs[v * 2 + 1] = (1 - c[1]) / 2;
    if (c[1] > 0 && bones.length > 1) {
      joints[v * 4] = 0;
      joints[v * 4 + 1] = 1;
      weights[v * 4] = 0.5;
      weights[v * 4 + 1] = 0.5;
    } else weights[v * 4] = 1;
  });
  const invBind = new Float32Array(bones.length * 16);
  bones.forEach((b, k) => invBind.set(b === 1 ? JAW_INV_BIND : IDENTITY, k * 16));
  return {
    name,
    vertexCount: 8,
    positions,
    normals,
    tangents: null,
    uvs,
    joints,
    weights,
    maxInfluences: bones.length > 1 ? 2 : 1,
    indices: boxIndices(),
    subsets: [{ material, start: 0, count: 12 }],
    bones: Int16Array.from(bones),
    invBind,
    skinned: true,
  };
}

export function material(name: string): Material {
  return { name, diffuse: [0.8, 0.6, 0.5, 1], specular: [0.04, 0.04, 0.04], specularPower: 30, emissive: [0, 0, 0], diffuseMap: null, normalMap: null };
}

/** Root at the origin, jaw 1 up. */
export function skeleton(): Scene['skeleton'] {
  const restLocal = new Float32Array(2 * TRS_STRIDE);
  restLocal.set([0, 0, 0, 0, 0, 0, 1, 1, 1, 1], 0);
  restLocal.set([0, 1, 0, 0, 0, 0, 1, 1, 1, 1], TRS_STRIDE);
  return { names: ['Bone0', 'Bone1'], parents: Int16Array.from([-1, 0]), restLocal };
}

/** `talk`: the jaw turns 30° about X between 0 and 1 s. */
export function talkClip(): Clip {
  const s = Math.sin(Math.PI / 12);
  const c = Math.cos(Math.PI / 12);
  const times = Float32Array.from([0, 1]);
  return {
    name: 'talk',
    duration: 1,
    ticksPerSecond: 0,
    tracks: [{ node: 1, translation: null, rotation: { times, values: Float32Array.from([0, 0, 0, 1, s, 0, 0, c]) }, scale: null }],
  };
}

export function deltas(vertices: number[], positions: number[], normals: number[]): MorphDeltas {
  return { vertices: Uint32Array.from(vertices), positions: Float32Array.from(positions), normals: Float32Array.from(normals) };
}

const NO_DELTAS = (): MorphDeltas => deltas([], [], []);

/** One skinned box, one clip, no morph targets: what Luna's format holds unextended. */
export function plainScene(): Scene {
  return {
    name: 'plain',
    format: 'm3d',
    floatBits: 0,
    skeleton: skeleton(),
    meshes: [box('body', [0, 0, 0], 1, [0, 1], 0)],
    clips: [talkClip()],
    materials: [material('skin')],
    morphTargets: [],
    warnings: [],
  };
}

/**
 * Two meshes (body: 8 vertices on root and jaw; head: 8 vertices on the jaw only) and two targets:
 * `smile` (emotion) moves body vertex 7 and head vertices 1 and 3; `blink` (modifier) moves head vertex 0.
 * Clip `talk` drives both targets; clip `idle` drives none.
 */
export function morphScene(): Scene {
  const body = box('body', [0, 0, 0], 1, [0, 1], 0);
  const head = box('head', [0, 1.5, 0], 0.5, [1], 1);
  const talk = talkClip();
  return {
    name: 'morph',
    format: 'm3d',
    floatBits: 0,
    skeleton: skeleton(),
    meshes: [
      { ...body, morphs: [deltas([7], [0.25, -0.125, 0.5], [0.01, 0.02, -0.03]), NO_DELTAS()] },
      {
        ...head,
        morphs: [
          deltas([1, 3], [0.1, 0.2, 0.3, -0.4, 0.5, -0.6], [0, 0.1, 0, 0.05, 0, -0.05]),
          deltas([0], [0, -0.05, 0.02], [0, 0, 0.1]),
        ],
      },
    ],
    clips: [
      {
        ...talk,
        duration: 2,
        morphTracks: [
          { target: 0, times: Float32Array.from([0, 0.5, 2]), values: Float32Array.from([0, 1, 0.25]) },
          { target: 1, times: Float32Array.from([0, 0.1, 0.2]), values: Float32Array.from([0, 1, 0]) },
        ],
      },
      { ...talkClip(), name: 'idle' },
    ],
    materials: [material('skin'), material('face')],
    morphTargets: ['smile', 'blink'],
    morphKinds: ['emotion', 'modifier'],
    warnings: [],
  };
}
