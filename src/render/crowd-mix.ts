/**
 * Mixed crowds (docs/crowds.md "Mixed crowds"), pure (no WebGL; tested in Node): which model each instance of
 * a crowd of several models draws, its speed, the clip a model walks with, and the uniform transform that
 * stands a model at the first model's height on the same floor. Nothing here allocates except
 * assignModels' member lists when the crowd outgrows them.
 *
 * Assignment: instance i ≥ 1 draws model ⌊hash(i) / 2³² · K⌋ of K, hash an integer mixer (the murmur3
 * finaliser), instance 0 the first (the loaded model). Hashed, not a stride or a Weyl sequence: those draw
 * diagonal stripes of one model across the grid; a hash looks like a random crowd whatever the layout, spreads
 * any N evenly over the models (binomially) and is independent of the golden-ratio phases (crowd-layout.ts), so
 * the instances of one model still spread over the whole cycle.
 */

/** Most models one crowd mixes (the loaded model included). */
export const MAX_CROWD_MODELS = 8;

/** √3 − 1: the speed jitter's step (independent of the model's and the phase's). */
const SPEED_STEP = 0.7320508075688772;
/** A mixed crowd's speeds lie in [1 − SPEED_JITTER, 1 + SPEED_JITTER]. */
export const SPEED_JITTER = 0.15;

/** The model (0..k-1) instance `i` draws in a crowd of `k` ≥ 1 models. */
export function modelOfInstance(i: number, k: number): number {
  if (k <= 1 || i === 0) return 0;
  return Math.min(k - 1, Math.floor((mix32(i) / 4294967296) * k));
}

/** The murmur3 32-bit finaliser: an integer hash whose every input bit reaches every output bit (unsigned result). */
function mix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Playback rate of instance `i` of a mixed crowd: 1 ± SPEED_JITTER, spread evenly; instance 0 plays at 1 (it
 * keeps the app player's time).
 */
export function mixedSpeed(i: number): number {
  if (i === 0) return 1;
  return 1 + SPEED_JITTER * (2 * ((i * SPEED_STEP) % 1) - 1);
}

/**
 * The global instance indices each of `k` models draws, ascending, for a crowd of `count`: members[m] holds
 * `counts[m]` of them. Reuses `members` arrays that are large enough (allocates the others).
 */
export function assignModels(count: number, k: number, members: Int32Array[], counts: Int32Array): void {
  for (let m = 0; m < k; m++) {
    counts[m] = 0;
    if (members[m] === undefined || members[m]!.length < count) members[m] = new Int32Array(count);
  }
  for (let i = 0; i < count; i++) {
    const m = modelOfInstance(i, k);
    members[m]![counts[m]!++] = i;
  }
}

/** The clip a mixed crowd's model plays: the first named like a walk, else like a run, else clip 0 (-1: no clips). */
export function walkClip(names: readonly string[]): number {
  if (names.length === 0) return -1;
  const walk = names.findIndex((n) => /walk/i.test(n));
  if (walk >= 0) return walk;
  const run = names.findIndex((n) => /run|jog/i.test(n));
  return run >= 0 ? run : 0;
}

/** The box a model stands in: its lowest point (the floor), its centre and its extent (framing.ts, model units). */
export interface StandingBox {
  readonly floorY: number;
  readonly centre: ArrayLike<number>;
  readonly min: ArrayLike<number>;
  readonly max: ArrayLike<number>;
}

/**
 * The uniform transform (scale s, translation tx, ty, tz) that gives `model` the size of `first` — its largest
 * extent: the standing height (max y − floor) of a figure, the length of a quadruped (so a fox beside a person
 * is as long as the person is tall, not as tall) — its feet on `first`'s floor and its floor footprint centred
 * where `first`'s is: p' = s · p + t, applied after skinning, before the instance's offset. The first model's
 * own is (1, 0, 0, 0). A model of no size keeps scale 1.
 */
export function standingTransform(first: StandingBox, model: StandingBox, out: Float32Array): void {
  const h0 = size(first);
  const h = size(model);
  const s = h0 > 0 && h > 0 ? h0 / h : 1;
  out[0] = s;
  out[1] = first.centre[0]! - s * model.centre[0]!;
  out[2] = first.floorY - s * model.floorY;
  out[3] = first.centre[2]! - s * model.centre[2]!;
}

/** The largest of a box's standing height and its floor extents. */
function size(b: StandingBox): number {
  return Math.max(b.max[1]! - b.floorY, b.max[0]! - b.min[0]!, b.max[2]! - b.min[2]!);
}

/** The sphere (x, y, z, r) at spheres[at..at+4) moved by standingTransform's `t`, into `out`. */
export function transformSphere(spheres: ArrayLike<number>, at: number, t: ArrayLike<number>, out: Float32Array): void {
  const s = t[0]!;
  out[0] = s * spheres[at]! + t[1]!;
  out[1] = s * spheres[at + 1]! + t[2]!;
  out[2] = s * spheres[at + 2]! + t[3]!;
  out[3] = s * spheres[at + 3]!;
}

/**
 * A clip time that keeps running across the clip's loop: `time` (in [0, duration)) plus whole `duration`s for
 * every wrap seen, in state[0] (the count of wraps) and state[1] (the last time). A jump backwards by more than
 * half the duration is a wrap; a smaller one (scrubbing) is not. Mixed crowds' instances play other clips at
 * other speeds: the player's wrapped time would make them jump at each of its loops.
 */
export function unwrapTime(time: number, duration: number, state: Float64Array): number {
  if (duration > 0 && time < state[1]! - 0.5 * duration) state[0] = state[0]! + 1;
  state[1] = time;
  return duration > 0 ? time + state[0]! * duration : time;
}
