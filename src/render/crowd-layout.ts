/**
 * Crowd mode's placement and timing, pure (no WebGL; tested in Node). The vertex stage repeats the
 * placement maths from gl_InstanceID (glsl/include/crowd_pars.glsl); keep the two in step.
 *
 * Layout (`grid`, the default; `plaza`: crowd-plaza.ts): instance i sits at column i mod C, row ⌊i / C⌋ with C = ⌈√N⌉ columns and R = ⌈N / C⌉ rows,
 * spaced `spacing` model units apart on the floor plane (model-space x and z; y is up), the grid centred on
 * the model's own origin. Columns run from +x to −x and rows from +z to −z, so instance 0 is the corner
 * nearest the default camera (yaw 25°, on the +x +z side) and an instanced draw goes roughly front to
 * back: early depth rejection then skips most hidden fragments of a dense crowd (on SwiftShader, drawing
 * back to front cost 3x the frame at N = 100). Offsets are model-space translations added after skinning.
 *
 * Phase: instance i plays the clip at t + frac(i · φ) · duration (φ the golden ratio's fractional part),
 * wrapped into [0, duration): deterministic, and any N instances spread evenly over the cycle.
 */

import { plazaRadius } from './crowd-plaza.ts';

/**
 * Where a crowd stands (`crowdLayout`): `grid` (this file's crowdOffset, everyone facing as modelled) or
 * `plaza` (crowd-plaza.ts: jittered, in groups and lines, each with a heading).
 */
export const CROWD_LAYOUTS = ['grid', 'plaza'] as const;
export type CrowdLayout = (typeof CROWD_LAYOUTS)[number];

/** Largest crowd the app draws (the GUI slider's and the `crowd` key's upper bound). */
export const MAX_CROWD = 10000;

/** (√5 − 1) / 2: the golden ratio's fractional part. */
export const GOLDEN_FRACTION = 0.6180339887498949;

export interface CrowdGrid {
  readonly columns: number;
  readonly rows: number;
}

/** Columns and rows of the crowd grid for `count` ≥ 1 instances. */
export function crowdGrid(count: number): CrowdGrid {
  const n = Math.max(1, Math.floor(count));
  const columns = Math.ceil(Math.sqrt(n));
  return { columns, rows: Math.ceil(n / columns) };
}

/**
 * Model-space offset of instance `i` into out[0..2] (x, 0, z): the grid of crowdGrid(count) with cells
 * `spacing` apart, centred on the origin.
 */
export function crowdOffset(i: number, count: number, spacing: number, out: Float32Array | number[]): void {
  const { columns, rows } = crowdGrid(count);
  const c = i % columns;
  const r = Math.floor(i / columns);
  out[0] = ((columns - 1) / 2 - c) * spacing;
  out[1] = 0;
  out[2] = ((rows - 1) / 2 - r) * spacing;
}

/** Clip time of instance `i` when instance 0 is at `t` (seconds), wrapped into [0, duration). */
export function crowdTime(i: number, t: number, duration: number): number {
  if (!(duration > 0)) return 0;
  const phase = (i * GOLDEN_FRACTION) % 1;
  const x = (t + phase * duration) % duration;
  return x < 0 ? x + duration : x;
}

/**
 * Spacing between neighbours: the model's floor footprint (the larger of its x and z extents over every
 * clip, framing.ts) plus a quarter for air, never less than a fifth of its height (a flat model still
 * gets distinct cells).
 */
export function crowdSpacing(min: ArrayLike<number>, max: ArrayLike<number>): number {
  const footprint = Math.max(max[0]! - min[0]!, max[2]! - min[2]!);
  const height = max[1]! - min[1]!;
  return Math.max(footprint * 1.25, height * 0.2, 1e-3);
}

/** Half the crowd grid's extent along x and z (model units), for framing and the floor. */
export function crowdHalfExtent(count: number, spacing: number, out: number[]): void {
  const { columns, rows } = crowdGrid(count);
  out[0] = ((columns - 1) / 2) * spacing;
  out[1] = ((rows - 1) / 2) * spacing;
}

/**
 * Half the extent along x and z (model units) of the places of `layout`, for framing, the floor and the
 * shadow map's box, which grow the model's box (`min`, `max`, about its centre) by it: the grid's; or the
 * plaza's radius on both axes plus what turning the model's box about its centre adds to it (its floor
 * half-diagonal less its smaller floor half extent).
 */
export function layoutHalfExtent(layout: CrowdLayout, count: number, spacing: number, min: ArrayLike<number>, max: ArrayLike<number>, out: number[]): void {
  if (layout === 'plaza') {
    const hx = (max[0]! - min[0]!) / 2;
    const hz = (max[2]! - min[2]!) / 2;
    out[0] = out[1] = plazaRadius(count, spacing) + Math.hypot(hx, hz) - Math.min(hx, hz);
  } else crowdHalfExtent(count, spacing, out);
}

/** Instance i's phase as a clip time offset: frac(i · φ) · duration (crowdTime(i, t, d) = (t + crowdPhase(i, d)) wrapped). */
export function crowdPhase(i: number, duration: number): number {
  return ((i * GOLDEN_FRACTION) % 1) * duration;
}
