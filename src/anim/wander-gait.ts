/**
 * What a wander crowd (wander.ts) needs to know about a model, found once at setup from its names and
 * clips; pure, no WebGL, allocates (never per frame).
 *
 * - Clips by name: loiter (/loiter|idle|stand/), walk (/walk/), jog (/jog|run/), wave (/wave/), matched
 *   case-insensitively on the clip name, first match wins, one clip per role. A model without a loiter
 *   clip stands in any clip that has no other role; without walk and jog nothing travels (the crowd plays
 *   its clips in place).
 * - Wave mask: the node whose subtree holds every node the wave clip animates (for the MultiAnimation
 *   sample's Tiny, Bip01_R_Clavicle), or -1 when that is the root (the wave then blends unmasked).
 * - Facing: the model-space floor direction (x, z) the locomotion clip walks towards. Found from the feet:
 *   at each sample the lowest foot node is the planted one, and an in-place walk slides its planted foot
 *   backwards, so forward is minus the foot's mean floor velocity. Foot nodes are those named
 *   foot/toe/ankle (not "footsteps", 3ds Max Biped's ground marker), else every leaf. Without a locomotion
 *   clip, or when the slide is too small to tell, the model's +z.
 * - Upright: the model's up is taken as the axis (±x, ±y, ±z) nearest the direction from the feet's mean
 *   position to every node's; when that is not +y (the MultiAnimation sample's Tiny stands along −z: its
 *   clips key Scene_Root to identity, the sample turns her with a world matrix) `upright` is the 90° or 180°
 *   turn (3x3, column-major) that stands the model on +y and `standing` is true; otherwise identity. Without
 *   named feet the model is taken as standing on +y.
 * - Pivot: the mean floor position (x, z) of every node over the locomotion clip (or the rest pose), after
 *   `upright`: the vertical axis an agent turns about. `groundY`: for a model turned upright, the lowest
 *   foot height after the turn (placed on the app's floor); 0 for a model already standing on +y (its
 *   heights are kept).
 * - Facing is measured in model space and given after the turn.
 * - Size: the floor footprint (largest x or z extent of the joints, after the turn, over the sampled
 *   poses) and height; wanderSpacing turns them into the distance agents keep (joints lie inside the skin:
 *   the footprint is widened by half before crowd-layout.ts's rule is applied).
 */

import type { Clip, Scene } from '../model/types.ts';
import { TRS_STRIDE } from '../model/types.ts';
import { localToModel } from './local-to-model.ts';
import { createClipCursor, sampleClipAt, sampleTime } from './sample-clip.ts';

export interface WanderClips {
  loiter: number;
  walk: number;
  jog: number;
  wave: number;
}

export interface WanderGait extends WanderClips {
  /** Node the wave track is masked to (its subtree), or -1. */
  readonly waveMask: number;
  /** Model space → standing model space (+y up): 3x3 column-major rotation; identity unless `turned`. */
  readonly upright: Float32Array;
  readonly turned: boolean;
  /** Height (after `upright`) placed on the floor; 0 when not turned. */
  readonly groundY: number;
  /** Unit floor direction (x, z) the locomotion clips face, after `upright`. */
  readonly forwardX: number;
  readonly forwardZ: number;
  /** Model-space floor point the agent turns about (x, z). */
  readonly pivotX: number;
  readonly pivotZ: number;
  /** Agent spacing from the joints (model units): footprint · 1.25, at least a fifth of the height. */
  readonly spacing: number;
}

const LOITER = /loiter|idle|stand/i;
const WALK = /walk/i;
const JOG = /jog|run/i;
const WAVE = /wave/i;
const FOOT = /foot|toe|ankle/i;
const NOT_FOOT = /footstep/i;
const SAMPLES = 48;

/** Clip roles by name (see the file contract); -1 where the model has none. */
export function chooseWanderClips(clips: readonly Clip[]): WanderClips {
  const find = (re: RegExp, taken: readonly number[]): number => clips.findIndex((c, i) => re.test(c.name) && !taken.includes(i));
  const walk = find(WALK, []);
  const jog = find(JOG, [walk]);
  const wave = find(WAVE, [walk, jog]);
  let loiter = find(LOITER, [walk, jog, wave]);
  if (loiter < 0 && (walk >= 0 || jog >= 0)) loiter = clips.findIndex((_, i) => i !== walk && i !== jog && i !== wave);
  return { loiter, walk, jog, wave };
}

/** The node whose subtree holds every node `clip` animates; -1 for none, the root, or no common node. */
export function waveMaskNode(parents: Int16Array, clip: Clip | undefined): number {
  if (!clip || clip.tracks.length === 0) return -1;
  const animated = clip.tracks.map((t) => t.node).filter((n) => n >= 0 && n < parents.length);
  if (animated.length === 0) return -1;
  // The lowest common ancestor: walk up from the first node until every animated node lies below.
  const below = (n: number, a: number): boolean => {
    for (let p = n; p >= 0; p = parents[p]!) if (p === a) return true;
    return false;
  };
  for (let a = animated[0]!; a >= 0; a = parents[a]!) {
    if (animated.every((n) => below(n, a))) return parents[a]! < 0 ? -1 : a;
  }
  return -1;
}

/** Poses of `clip` at SAMPLES evenly spaced times (or the rest pose once): 16 floats per node per sample. */
function samplePoses(scene: Scene, clip: Clip | undefined): Float32Array[] {
  const { parents, restLocal } = scene.skeleton;
  const nodes = parents.length;
  const locals = new Float32Array(nodes * TRS_STRIDE);
  const out: Float32Array[] = [];
  if (!clip) {
    const model = new Float32Array(nodes * 16);
    localToModel(parents, restLocal, model);
    return [model];
  }
  const cursor = createClipCursor(clip, restLocal);
  for (let s = 0; s < SAMPLES; s++) {
    sampleTime[0] = (clip.duration * s) / SAMPLES;
    sampleClipAt(clip, cursor, restLocal, locals);
    const model = new Float32Array(nodes * 16);
    localToModel(parents, locals, model);
    out.push(model);
  }
  return out;
}

/** Column-major 3x3 turning the axis `axis` (0 x, 1 y, 2 z) of sign `sign` onto +y. */
function uprightTurn(axis: number, sign: number): Float32Array {
  // Columns are the images of x, y, z.
  if (axis === 1) return sign > 0 ? Float32Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1) : Float32Array.of(1, 0, 0, 0, -1, 0, 0, 0, -1);
  if (axis === 2) return sign > 0 ? Float32Array.of(1, 0, 0, 0, 0, -1, 0, 1, 0) : Float32Array.of(1, 0, 0, 0, 0, 1, 0, -1, 0);
  return sign > 0 ? Float32Array.of(0, 1, 0, -1, 0, 0, 0, 0, 1) : Float32Array.of(0, -1, 0, 1, 0, 0, 0, 0, 1);
}

/** Analyses `scene` for wandering (see the file contract). Allocates; call once per model. */
export function analyseWanderGait(scene: Scene): WanderGait {
  const clips = chooseWanderClips(scene.clips);
  const { parents, names } = scene.skeleton;
  const nodes = parents.length;
  const loco = clips.walk >= 0 ? clips.walk : clips.jog;
  const poses = samplePoses(scene, loco >= 0 ? scene.clips[loco] : scene.clips[0]);
  const hasChild = new Uint8Array(nodes);
  for (let n = 0; n < nodes; n++) if (parents[n]! >= 0) hasChild[parents[n]!] = 1;
  const named = names.map((name, n) => (FOOT.test(name) && !NOT_FOOT.test(name) ? n : -1)).filter((n) => n >= 0);
  const feet = named.length > 0 ? named : [...Array(nodes).keys()].filter((n) => hasChild[n] === 0);
  // Up: from the feet's mean to every node's mean, snapped to an axis.
  let upAxis = 1, upSign = 1;
  if (named.length > 0 && nodes > 0) {
    const d = [0, 0, 0];
    for (const m of poses) {
      for (let n = 0; n < nodes; n++) for (let k = 0; k < 3; k++) d[k]! += m[n * 16 + 12 + k]! / nodes;
      for (const n of named) for (let k = 0; k < 3; k++) d[k]! -= m[n * 16 + 12 + k]! / named.length;
    }
    const a = d.map(Math.abs);
    upAxis = a[0]! > a[1]! && a[0]! > a[2]! ? 0 : a[2]! > a[1]! ? 2 : 1;
    upSign = d[upAxis]! < 0 ? -1 : 1;
  }
  const turned = upAxis !== 1 || upSign !== 1;
  const B = uprightTurn(upAxis, upSign);
  const tx = (m: Float32Array, n: number, row: number): number =>
    B[row]! * m[n * 16 + 12]! + B[3 + row]! * m[n * 16 + 13]! + B[6 + row]! * m[n * 16 + 14]!;
  // Pivot and size over every node and sample, standing.
  let sx = 0, sz = 0;
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity, minZ = Infinity, maxZ = -Infinity;
  for (const m of poses) {
    for (let n = 0; n < nodes; n++) {
      const x = tx(m, n, 0), y = tx(m, n, 1), z = tx(m, n, 2);
      sx += x;
      sz += z;
      minX = Math.min(minX, x); maxX = Math.max(maxX, x);
      minY = Math.min(minY, y); maxY = Math.max(maxY, y);
      minZ = Math.min(minZ, z); maxZ = Math.max(maxZ, z);
    }
  }
  let footY = Infinity;
  for (const m of poses) for (const n of feet) footY = Math.min(footY, tx(m, n, 1));
  const count = Math.max(1, poses.length * nodes);
  const finite = Number.isFinite(minX);
  const footprint = finite ? Math.max(maxX - minX, maxZ - minZ) : 1;
  const height = finite ? maxY - minY : 1;
  // Facing from the planted (lowest, standing) foot's slide.
  let fx = 0, fz = 1;
  if (loco >= 0 && poses.length > 1 && feet.length > 0) {
    const lowest = (m: Float32Array): number => feet.reduce((best, n) => (tx(m, n, 1) < tx(m, best, 1) ? n : best), feet[0]!);
    let vx = 0, vz = 0;
    for (let s = 0; s < poses.length; s++) {
      const a = poses[s]!;
      const b = poses[(s + 1) % poses.length]!;
      const n = lowest(a);
      if (lowest(b) !== n) continue;
      vx += tx(b, n, 0) - tx(a, n, 0);
      vz += tx(b, n, 2) - tx(a, n, 2);
    }
    const len = Math.hypot(vx, vz);
    if (len > 1e-3 * Math.max(footprint, 1e-6)) {
      fx = -vx / len;
      fz = -vz / len;
    }
  }
  return {
    ...clips,
    waveMask: waveMaskNode(parents, clips.wave >= 0 ? scene.clips[clips.wave] : undefined),
    upright: B,
    turned,
    groundY: turned && Number.isFinite(footY) ? footY : 0,
    forwardX: fx,
    forwardZ: fz,
    pivotX: finite ? sx / count : 0,
    pivotZ: finite ? sz / count : 0,
    spacing: wanderSpacing(footprint * 1.5, height),
  };
}

/** Distance agents keep (model units) from a floor footprint and a height, as crowd-layout.ts crowdSpacing. */
export function wanderSpacing(footprint: number, height: number): number {
  return Math.max(footprint * 1.25, height * 0.2, 1e-3);
}

/**
 * Half the side of the square floor area `count` agents of `spacing` wander in (model units): about
 * 2.4 spacings² of floor each, and never less than three spacings across.
 */
export function wanderHalfExtent(count: number, spacing: number): number {
  return spacing * Math.max(1.5, 0.78 * Math.sqrt(Math.max(1, count)) + 0.5);
}
