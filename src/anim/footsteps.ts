/**
 * Footsteps and ground speed of a locomotion clip, found once at load by sampling it (for characters that
 * walk about the floor: the controller fires the markers, the mover advances at the speed).
 *
 * Contract
 * - Feet are found by name, case-insensitively: `foot` (else `ankle`, else `toe`) with a side in any common
 *   convention (`Bip01_L_Foot`, `foot_l`, `LeftFoot`, `l_foot`, `foot.L`). Both sides are needed.
 * - Up is the rest pose's head-above-feet direction (look-at-rig.ts findUp; +Y when there is no head);
 *   heights and horizontal positions are model space against it.
 * - The clip is sampled with sampleClip + localToModel at SAMPLE_RATE (120 Hz) over [0, duration).
 * - footstepMarkers: `footstep_l` / `footstep_r` at each plant, the time a foot reaches its lowest height in
 *   a stride: a local minimum of its height (its first sample within 5 % of the height range of the
 *   stride's lowest, so a foot flat through stance is planted when it lands), confirmed only once the foot
 *   has risen by the hysteresis (a third of its height range) again, so jitter does not fire twice. The clip is treated as a loop: a
 *   plant across the end is found once. A foot whose height range is under 3 % of the figure's height
 *   (standing, shuffling) makes no steps. Ascending by time.
 * - groundSpeed (model units per second): with root motion (the feet's lowest common ancestor, the pelvis,
 *   travels horizontally by more than 5 % of the figure's height over the clip) its average horizontal speed;
 *   else the speed at which the planted (lower) foot slides backwards relative to the pelvis during stance,
 *   averaged: how fast the body must travel for it to stand still; 0 when neither foot steps.
 * - Load-time functions: they allocate. No WebGL.
 */

import type { ClipMarker, Scene } from '../model/types.ts';
import { findUp, restModelOf } from './look-at-rig.ts';
import { localToModel } from './local-to-model.ts';
import { createClipCursor, sampleClip } from './sample-clip.ts';

export const SAMPLE_RATE = 120;
/** A foot whose height varies less than this part of the figure's height does not step. */
const MIN_STEP_RANGE = 0.03;
/** Root motion: horizontal travel over the clip above this part of the figure's height. */
const MIN_ROOT_TRAVEL = 0.05;

export interface Feet {
  readonly left: number;
  readonly right: number;
}

/** Left and right foot nodes by name, or null when either side is missing. */
export function findFeet(names: readonly string[]): Feet | null {
  const lower = names.map((n) => n.toLowerCase());
  const side = (n: string): 'l' | 'r' | null => {
    if (/left|(?:^|[^a-z])l(?:[^a-z]|$)/.test(n)) return 'l';
    if (/right|(?:^|[^a-z])r(?:[^a-z]|$)/.test(n)) return 'r';
    return null;
  };
  for (const part of [/foot/, /ankle/, /toe/]) {
    let left = -1;
    let right = -1;
    lower.forEach((n, i) => {
      if (!part.test(n) || /footstep/.test(n)) return;
      const s = side(n);
      if (s === 'l' && left < 0) left = i;
      if (s === 'r' && right < 0) right = i;
    });
    if (left >= 0 && right >= 0) return { left, right };
  }
  return null;
}

/** Model-space positions of the feet and their common ancestor at every sample, with the frame's up. */
interface Samples {
  readonly count: number;
  readonly dt: number;
  /** 3 floats per sample each. */
  readonly left: Float64Array;
  readonly right: Float64Array;
  readonly pelvis: Float64Array;
  readonly up: readonly number[];
  /** The figure's rest height along up. */
  readonly height: number;
}

function sample(scene: Scene, clipIndex: number): Samples | null {
  const clip = scene.clips[clipIndex];
  if (!clip) throw new Error(`footsteps: no clip ${clipIndex} (the scene has ${scene.clips.length})`);
  const { parents, names, restLocal } = scene.skeleton;
  const feet = findFeet(names);
  if (feet === null) return null;
  const rest = restModelOf(scene.skeleton);
  const up = findUp(scene.skeleton, rest) ?? [0, 1, 0];
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < parents.length; i++) {
    const h = rest[i * 16 + 12]! * up[0]! + rest[i * 16 + 13]! * up[1]! + rest[i * 16 + 14]! * up[2]!;
    lo = Math.min(lo, h);
    hi = Math.max(hi, h);
  }
  const chain = (n: number): number[] => {
    const out: number[] = [];
    for (let p = n; p >= 0; p = parents[p]!) out.push(p);
    return out;
  };
  const rightChain = new Set(chain(feet.right));
  const pelvis = chain(feet.left).find((n) => rightChain.has(n) && n !== feet.left) ?? 0;
  const count = Math.max(1, Math.ceil(clip.duration * SAMPLE_RATE));
  const dt = clip.duration > 0 ? clip.duration / count : 0;
  const cursor = createClipCursor(clip, restLocal);
  const locals = new Float32Array(restLocal.length);
  const model = new Float32Array(parents.length * 16);
  const out = { left: new Float64Array(count * 3 + 3), right: new Float64Array(count * 3 + 3), pelvis: new Float64Array(count * 3 + 3) };
  // count + 1 samples: the last is the clip's end (for root travel); plants use [0, count).
  for (let k = 0; k <= count; k++) {
    sampleClip(clip, k * dt, cursor, restLocal, locals);
    localToModel(parents, locals, model);
    for (const [node, arr] of [[feet.left, out.left], [feet.right, out.right], [pelvis, out.pelvis]] as const) {
      for (let c = 0; c < 3; c++) arr[k * 3 + c] = model[node * 16 + 12 + c]!;
    }
  }
  return { count, dt, ...out, up, height: Math.max(hi - lo, 1e-9) };
}

const heightAt = (s: Samples, a: Float64Array, k: number): number => a[k * 3]! * s.up[0]! + a[k * 3 + 1]! * s.up[1]! + a[k * 3 + 2]! * s.up[2]!;

/** Plant times (seconds) of one foot: hysteresis minima over the loop. */
function plants(s: Samples, foot: Float64Array): number[] {
  const n = s.count;
  const h = new Float64Array(n);
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k < n; k++) {
    h[k] = heightAt(s, foot, k);
    lo = Math.min(lo, h[k]!);
    hi = Math.max(hi, h[k]!);
  }
  if (!(hi - lo >= MIN_STEP_RANGE * s.height) || n < 3) return [];
  const hyst = (hi - lo) / 3;
  // The plant is the first sample within `settle` of the stride's lowest height: a foot that stays flat on
  // the ground through stance is planted when it arrives, not wherever float noise puts the minimum.
  const settle = (hi - lo) * 0.05;
  // Peak detection with hysteresis over three laps round the loop; plants whose sample lies in the middle
  // lap are kept, so one across the loop's end is found (and confirmed) exactly once.
  const out: number[] = [];
  let seekingMin = h[0]! > lo + hyst;
  let best = h[0]!;
  let bestK = 0;
  for (let i = 1; i < 3 * n; i++) {
    const v = h[i % n]!;
    if (seekingMin) {
      if (v < best) {
        best = v;
        bestK = i;
      } else if (v > best + hyst) {
        // Back from the minimum over the samples still within `settle` of it: the landing.
        let land = bestK;
        while (land > 0 && h[(land - 1) % n]! <= best + settle && bestK - land < n) land--;
        if (land >= n && land < 2 * n) out.push((land - n) * s.dt);
        seekingMin = false;
        best = v;
        bestK = i;
      }
    } else if (v > best) {
      best = v;
      bestK = i;
    } else if (v < best - hyst) {
      seekingMin = true;
      best = v;
      bestK = i;
    }
  }
  return out.sort((a, b) => a - b);
}

/** `footstep_l` / `footstep_r` markers at each foot plant of the clip, ascending; [] without named feet. */
export function footstepMarkers(scene: Scene, clipIndex: number): ClipMarker[] {
  const s = sample(scene, clipIndex);
  if (s === null) return [];
  const out: ClipMarker[] = [
    ...plants(s, s.left).map((time) => ({ time, name: 'footstep_l' })),
    ...plants(s, s.right).map((time) => ({ time, name: 'footstep_r' })),
  ];
  return out.sort((a, b) => a.time - b.time);
}

/** Horizontal (⟂ up) part of b[j] − a[i], its length. */
function horizontal(s: Samples, a: Float64Array, i: number, b: Float64Array, j: number): number {
  const d = [b[j * 3]! - a[i * 3]!, b[j * 3 + 1]! - a[i * 3 + 1]!, b[j * 3 + 2]! - a[i * 3 + 2]!];
  const u = d[0]! * s.up[0]! + d[1]! * s.up[1]! + d[2]! * s.up[2]!;
  return Math.hypot(d[0]! - u * s.up[0]!, d[1]! - u * s.up[1]!, d[2]! - u * s.up[2]!);
}

/** Model units per second the character travels so its feet do not slide (see the file contract). */
export function groundSpeed(scene: Scene, clipIndex: number): number {
  const s = sample(scene, clipIndex);
  if (s === null || s.dt === 0) return 0;
  const n = s.count;
  const duration = n * s.dt;
  const travel = horizontal(s, s.pelvis, 0, s.pelvis, n);
  if (travel > MIN_ROOT_TRAVEL * s.height) return travel / duration;
  const stepsL = plants(s, s.left).length;
  const stepsR = plants(s, s.right).length;
  if (stepsL === 0 && stepsR === 0) return 0;
  // In place: the lower foot, relative to the pelvis, moves back at the speed the body must go forward.
  const rel = (foot: Float64Array, k: number): number[] => [0, 1, 2].map((c) => foot[k * 3 + c]! - s.pelvis[k * 3 + c]!);
  let sum = 0;
  let samples = 0;
  for (let k = 0; k < n; k++) {
    const next = k + 1;
    const lowL = heightAt(s, s.left, k) <= heightAt(s, s.right, k);
    const lowNext = heightAt(s, s.left, next) <= heightAt(s, s.right, next);
    if (lowL !== lowNext) continue;
    const foot = lowL ? s.left : s.right;
    const a = rel(foot, k);
    const b = rel(foot, next);
    const d = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
    const u = d[0]! * s.up[0]! + d[1]! * s.up[1]! + d[2]! * s.up[2]!;
    sum += Math.hypot(d[0]! - u * s.up[0]!, d[1]! - u * s.up[1]!, d[2]! - u * s.up[2]!) / s.dt;
    samples++;
  }
  return samples > 0 ? sum / samples : 0;
}
