import { MAX_INFLUENCES, type Clip, type Material, type Scene, type SkinnedMesh, type Subset } from '../model/types.ts';
import { bakeLoop } from './clips.ts';
import { material } from './humanoid.ts';
import { buildRig, Pose, qAxisAngle, type BoneSpec, type Rig } from './rig.ts';
import { buildAdjacency } from './surface.ts';
import { cylindricalUVs } from './uv.ts';
import { computeSkinWeights, type JointBlend } from './weights.ts';

/**
 * The "twist rig": a capped cylinder on a chain of four bones, the textbook case where linear blend
 * skinning loses volume (the candy-wrapper collapse of a 180° twist, the thinning elbow of a 90° bend)
 * and dual-quaternion skinning keeps it (Kavan, Collins, Žára, O'Sullivan 2007).
 *
 * Contract
 * - Output is a complete, valid Scene (format 'm3d', floatBits 0) that writeM3d accepts: one
 *   outward wound SkinnedMesh in bind space, palette slot k = node k, invBind = inverse bind model
 *   matrices (rig.ts: bind frames are translations only), one subset per material in material order.
 * - Geometry (metres, +Y up): the axis lies along +X from x = −TWIST_LENGTH/2 to +TWIST_LENGTH/2 at
 *   height y = TWIST_RADIUS, z = 0, so the rest pose lies on the floor y = 0 and the side view is the
 *   app's `front` camera. `rings` rings of `segments` vertices (rings − 1 equal intervals; with the
 *   default 97 a ring lies exactly on every joint and a 180° twist turns ≤ ~15° per interval), plus
 *   two flat caps with their own vertices (normals ±X; closed by position, not by shared vertices),
 *   each a centre and a ring. Ring j's angle φ = 2πj / segments, measured from +Y towards +Z; the
 *   side's seam is not split.
 * - Bones `base`, `inner`, `outer`, `tip`, heads at x = −1, −0.5, 0, 0.5 (for the default length 2),
 *   `tip` ends at the +X cap. The joint `inner`|`outer` at x = 0 is TWIST_JOINT_X: the twisting and
 *   bending joint.
 * - Weights are a function of x alone: across each joint the outer bone's share is
 *   smoothstep(−w, w, x − joint) with w = half the bone length (so the blend zones tile the cylinder
 *   and no vertex has more than two influences); a vertex on a joint's ring is exactly ½ ½.
 * - Materials `stripe_a` and `stripe_b` (colour only) in a checker of 8 sectors around × 8 bands along,
 *   so a twist reads as sheared stripes; the caps use `stripe_a`.
 * - Clips, each TWIST_CLIP_DURATION seconds, looping, keyed at 30 fps, extreme pose at exactly half time
 *   (TWIST_PEAK_TIME): `twist` turns `outer` (and with it `tip`) about the long axis 0 → 180° → 0;
 *   `bend` bends `outer` about +Y 0 → 90° → 0 (the far half swings back towards −Z, level with the
 *   rest pose, so every clip frames at the same height); `twist-bend` bends `outer` like `bend` while
 *   `tip` twists about its own axis 0 → 180° → 0.
 * - Deterministic; allocates freely (build time, `npm run gen`).
 */

export interface TwistOptions {
  /** Vertices around the cylinder. Default 32, clamped to [8, 256]. */
  readonly segments?: number;
  /** Rings along the side, ends included. Default 97, clamped to [5, 1024]. */
  readonly rings?: number;
}

export const TWIST_RADIUS = 0.25;
export const TWIST_LENGTH = 2;
export const TWIST_BONES = ['base', 'inner', 'outer', 'tip'] as const;
/** x of the joint where the `twist` and `bend` clips act. */
export const TWIST_JOINT_X = 0;
export const TWIST_CLIP_DURATION = 4;
/** Seconds into every clip where it is at its extreme (180° twist, 90° bend). */
export const TWIST_PEAK_TIME = TWIST_CLIP_DURATION / 2;
const FPS = 30;
const SECTORS = 8;
const BANDS = 8;

export const TWIST_MATERIALS: readonly Material[] = [
  material('stripe_a', [224, 112, 52], 0.25, 32),
  material('stripe_b', [236, 226, 206], 0.25, 32),
];

export function twistRig(): Rig {
  const r = TWIST_RADIUS;
  const step = TWIST_LENGTH / TWIST_BONES.length;
  const x0 = -TWIST_LENGTH / 2;
  const specs: BoneSpec[] = TWIST_BONES.map((name, i) => ({
    name,
    parent: i === 0 ? null : TWIST_BONES[i - 1]!,
    head: [x0 + i * step, r, 0],
    ...(i === TWIST_BONES.length - 1 ? { tail: [x0 + (i + 1) * step, r, 0] as const } : {}),
  }));
  return buildRig(specs);
}

export function generateTwist(options: TwistOptions = {}): Scene {
  const segments = Math.min(256, Math.max(8, Math.round(options.segments ?? 32)));
  const rings = Math.min(1024, Math.max(5, Math.round(options.rings ?? 97)));
  const rig = twistRig();
  return {
    name: 'skinlab twist rig',
    format: 'm3d',
    floatBits: 0,
    skeleton: rig.skeleton,
    meshes: [buildCylinder(rig, segments, rings)],
    clips: twistClips(rig),
    materials: TWIST_MATERIALS,
    morphTargets: [],
    warnings: [],
  };
}

function buildCylinder(rig: Rig, segments: number, rings: number): SkinnedMesh {
  const r = TWIST_RADIUS;
  const half = TWIST_LENGTH / 2;
  const side = rings * segments;
  const capStart = side;
  // Per cap: centre, then one ring of `segments`.
  const vertexCount = side + 2 * (segments + 1);
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const ring = (i: number, j: number): number => i * segments + (j % segments);
  for (let i = 0; i < rings; i++) {
    const x = -half + (TWIST_LENGTH * i) / (rings - 1);
    for (let j = 0; j < segments; j++) {
      const phi = (2 * Math.PI * j) / segments;
      const v = ring(i, j);
      positions.set([x, r + r * Math.cos(phi), r * Math.sin(phi)], v * 3);
      normals.set([0, Math.cos(phi), Math.sin(phi)], v * 3);
    }
  }
  for (let c = 0; c < 2; c++) {
    const sign = c === 0 ? -1 : 1;
    const o = capStart + c * (segments + 1);
    positions.set([sign * half, r, 0], o * 3);
    normals.set([sign, 0, 0], o * 3);
    for (let j = 0; j < segments; j++) {
      const phi = (2 * Math.PI * j) / segments;
      positions.set([sign * half, r + r * Math.cos(phi), r * Math.sin(phi)], (o + 1 + j) * 3);
      normals.set([sign, 0, 0], (o + 1 + j) * 3);
    }
  }

  // Triangles by material: side quads in a checker, caps in material 0. CCW seen from outside:
  // (i, j) → (i, j+1) → (i+1, j) winds outward because φ turns from +Y towards +Z about +X.
  const perMaterial: number[][] = TWIST_MATERIALS.map(() => []);
  const sectorSize = segments / SECTORS;
  const bandSize = (rings - 1) / BANDS;
  for (let i = 0; i + 1 < rings; i++) {
    for (let j = 0; j < segments; j++) {
      const m = (Math.floor(j / sectorSize) + Math.floor(i / bandSize)) & 1;
      const a = ring(i, j), b = ring(i, j + 1), c = ring(i + 1, j), d = ring(i + 1, j + 1);
      perMaterial[m]!.push(a, b, c, b, d, c);
    }
  }
  for (let c = 0; c < 2; c++) {
    const o = capStart + c * (segments + 1);
    for (let j = 0; j < segments; j++) {
      const p = o + 1 + j;
      const q = o + 1 + ((j + 1) % segments);
      // +X cap: centre, j, j+1 faces +X; the −X cap reverses.
      if (c === 1) perMaterial[0]!.push(o, p, q);
      else perMaterial[0]!.push(o, q, p);
    }
  }
  const indices = new Uint32Array(perMaterial.reduce((n, l) => n + l.length, 0));
  const subsets: Subset[] = [];
  let at = 0;
  perMaterial.forEach((list, m) => {
    indices.set(list, at);
    subsets.push({ material: m, start: at / 3, count: list.length / 3 });
    at += list.length;
  });

  // Owner: the bone whose segment holds the vertex's x; weights then blend across each joint.
  const owner = new Int32Array(vertexCount);
  const boneLength = TWIST_LENGTH / rig.count;
  for (let v = 0; v < vertexCount; v++) {
    owner[v] = Math.min(rig.count - 1, Math.max(0, Math.floor((positions[v * 3]! + half) / boneLength)));
  }
  const blend: JointBlend = { width: boneLength / 2, reach: boneLength * 1.5 };
  const skin = computeSkinWeights(positions, buildAdjacency(indices, vertexCount), owner, rig, {
    blends: Array.from({ length: rig.count }, () => blend),
    smoothIterations: 0,
    smoothRate: 0,
    minWeight: 0.001,
  });
  const { uvs, tangents } = cylindricalUVs(positions, normals, owner, rig);

  const bones = new Int16Array(rig.count);
  for (let i = 0; i < rig.count; i++) bones[i] = i;
  return {
    name: 'cylinder',
    vertexCount,
    positions,
    normals,
    tangents,
    uvs,
    joints: skin.joints,
    weights: skin.weights,
    maxInfluences: Math.min(MAX_INFLUENCES, skin.maxInfluences),
    indices,
    subsets,
    bones,
    invBind: rig.invBind.slice(),
    skinned: true,
  };
}

/** 0 at t = 0 and t = duration, 1 at half time, smooth (zero velocity) at both ends. */
function swell(t: number): number {
  return 0.5 * (1 - Math.cos((2 * Math.PI * t) / TWIST_CLIP_DURATION));
}

function twistClips(rig: Rig): Clip[] {
  const pose = new Pose(rig);
  const along = [1, 0, 0];
  const bendAxis = [0, 1, 0];
  const clip = (name: string, at: (t: number, p: Pose) => void): Clip =>
    bakeLoop(pose, { name, duration: TWIST_CLIP_DURATION, fps: FPS, pose: at });
  return [
    clip('twist', (t, p) => p.setRot('outer', qAxisAngle(along, Math.PI * swell(t)))),
    clip('bend', (t, p) => p.setRot('outer', qAxisAngle(bendAxis, (Math.PI / 2) * swell(t)))),
    clip('twist-bend', (t, p) => {
      p.setRot('outer', qAxisAngle(bendAxis, (Math.PI / 2) * swell(t)));
      // Bind frames carry no rotation, so tip's local X is its own long axis whatever outer does.
      p.setRot('tip', qAxisAngle(along, Math.PI * swell(t)));
    }),
  ];
}
