import { INSTANCE_FLOATS, type CrowdInstances } from '../gpu/crowd-instances.ts';
import { compactInstances, frustumPlanes } from './crowd-cull.ts';
import { levelForDistance2, MAX_LOD_LEVELS, sortByLevel } from './crowd-lod.ts';
import { crowdOffset, crowdPhase } from './crowd-layout.ts';
import { mixedSpeed } from './crowd-mix.ts';

/** What one crowd frame draws: the instances, their layout and the culling switch. */
export interface CrowdInstanceFrame {
  /** Instances in the crowd (N). */
  count: number;
  /** Grid spacing, model units (crowd-layout.ts); ignored in wander mode. */
  spacing: number;
  /** Wander mode: every offset 0 (the palettes carry the places), nothing culled. */
  wander: boolean;
  /** Frustum-cull against `viewProj` (model space = world space in crowd mode). */
  cull: boolean;
  viewProj: ArrayLike<number>;
  /** The clip's bounding sphere (centre x, y, z, radius; model space, at the grid origin). */
  sphere: ArrayLike<number>;
  /** Baked path: instances carry their clip, phase and speed; the cpu path leaves those 0. */
  baked: boolean;
  clip: number;
  duration: number;
  /** Instance slots to keep filled: the live ones, or all N when the shadow casters draw every instance. */
  all: boolean;
  /**
   * A mixed crowd's model (crowd-mix.ts): the global instance indices it draws (ascending, the first
   * `memberCount`), each at its own speed (mixedSpeed); null: every instance 0..N-1, speed 1. The offsets
   * and phases stay those of the global index.
   */
  members: Int32Array | null;
  memberCount: number;
  /** Distance LOD (crowd-lod.ts): levels drawn (1: no LOD), their squared switch distances and the camera's position. */
  lodLevels: number;
  lodSwitches2: ArrayLike<number>;
  eye: ArrayLike<number>;
}

/**
 * Crowd mode's instance list (render side of gpu/crowd-instances.ts): each instance's grid offset
 * (crowd-layout.ts, recomputed when N or the spacing changes), the culling of their bounding spheres
 * against the camera (crowd-cull.ts) and the compacted order (the live instances first, in instance order,
 * then the culled), and the instance buffer's contents in that order: slot j holds instance order[j] as
 * (offset x, offset z, phase · duration (baked; else 0), speed (1; a mixed crowd's own), clip (baked; else 0)).
 * A mixed crowd's model draws only its `members` (global indices: order[] holds those). update() rewrites
 * only slots whose values changed and uploads the changed range (bufferSubData), so a still camera and
 * crowd upload nothing. With `lodLevels` > 1 the live instances are then sorted by level (the distance
 * from the camera to their sphere's centre, crowd-lod.ts), stably: level l's instances fill slots
 * [levelStarts[l], levelStarts[l + 1]); with `all` the culled slots after them are sorted the same way
 * (castStarts), so the shadow casters draw each instance at its level too. Allocates only when N outgrows its arrays.
 */
export class CrowdInstanceData {
  /** Compacted order: order[j] is the instance drawn in slot j. */
  order = new Int32Array(0);
  /** Instances inside the camera frustum (all of them without culling). */
  live = 0;
  /** Slots filled this frame (live, or N with `all`). */
  slots = 0;
  private offsets = new Float32Array(0);
  private offsetsCount = -1;
  private offsetsSpacing = NaN;
  /** First slot of each drawn level (levelStarts[levels] = live); levels = 1 without LOD. */
  readonly levelStarts = new Int32Array(MAX_LOD_LEVELS + 1);
  /**
   * With `all` (shadow casters), the culled instances' slots [live, N) sorted by level the same way (by their
   * distance): level l's culled instances fill [castStarts[l], castStarts[l + 1]); castStarts[levels] = N.
   */
  readonly castStarts = new Int32Array(MAX_LOD_LEVELS + 1);
  levels = 1;
  private levelOf = new Uint8Array(0);
  private scratch = new Int32Array(0);
  private readonly planes = new Float32Array(24);
  private readonly cell = [0, 0, 0];

  private layout(count: number, spacing: number): void {
    if (this.offsetsCount === count && this.offsetsSpacing === spacing) return;
    if (this.offsets.length < count * 2) {
      this.offsets = new Float32Array(count * 2);
      this.order = new Int32Array(count);
      this.levelOf = new Uint8Array(count);
      this.scratch = new Int32Array(count);
    }
    const c = this.cell;
    for (let i = 0; i < count; i++) {
      crowdOffset(i, count, spacing, c);
      this.offsets[2 * i] = c[0]!;
      this.offsets[2 * i + 1] = c[2]!;
    }
    this.offsetsCount = count;
    this.offsetsSpacing = spacing;
  }

  /** Culls, compacts and brings the instance buffer up to date for frame `f`; returns the bytes uploaded. */
  update(instances: CrowdInstances, f: CrowdInstanceFrame): number {
    const count = f.count;
    const spacing = f.wander ? 0 : f.spacing;
    this.layout(count, spacing);
    const order = this.order;
    const members = f.members;
    const n = members === null ? count : Math.min(f.memberCount, count);
    if (f.cull && !f.wander) {
      frustumPlanes(f.viewProj, this.planes);
      this.live = compactInstances(this.planes, f.sphere, f.sphere[3]!, this.offsets, n, order, members);
    } else {
      for (let k = 0; k < n; k++) order[k] = members === null ? k : members[k]!;
      this.live = n;
    }
    this.sortLevels(f, n);
    const slots = f.all ? n : this.live;
    this.slots = slots;
    instances.reserve(slots);
    const data = instances.data;
    let lo = slots;
    let hi = -1;
    const clip = f.baked ? f.clip : 0;
    for (let j = 0; j < slots; j++) {
      const i = order[j]!;
      const o = j * INSTANCE_FLOATS;
      const x = this.offsets[2 * i]!;
      const z = this.offsets[2 * i + 1]!;
      const phase = f.baked ? Math.fround(crowdPhase(i, f.duration)) : 0;
      const speed = members === null ? 1 : Math.fround(mixedSpeed(i));
      if (data[o] !== x || data[o + 1] !== z || data[o + 2] !== phase || data[o + 3] !== speed || data[o + 4] !== clip) {
        data[o] = x;
        data[o + 1] = z;
        data[o + 2] = phase;
        data[o + 3] = speed;
        data[o + 4] = clip;
        if (j < lo) lo = j;
        hi = j;
      }
    }
    instances.upload(lo, hi + 1);
    return instances.lastUploadBytes;
  }

  /** Distance LOD: each of the `n` instances' level, then the live order (and with `all` the culled after it) sorted into one range per level. */
  private sortLevels(f: CrowdInstanceFrame, n: number): void {
    const live = this.live;
    const end = f.all ? n : live;
    const levels = f.wander ? 1 : Math.max(1, Math.min(f.lodLevels, MAX_LOD_LEVELS));
    this.levels = levels;
    const starts = this.levelStarts;
    const cast = this.castStarts;
    if (levels === 1) {
      starts[0] = 0;
      starts[1] = live;
      cast[0] = live;
      cast[1] = end;
      return;
    }
    const order = this.order;
    const levelOf = this.levelOf;
    const e = f.eye;
    const c = f.sphere;
    for (let j = 0; j < end; j++) {
      const i = order[j]!;
      const dx = c[0]! + this.offsets[2 * i]! - e[0]!;
      const dy = c[1]! - e[1]!;
      const dz = c[2]! + this.offsets[2 * i + 1]! - e[2]!;
      levelOf[i] = levelForDistance2(dx * dx + dy * dy + dz * dz, f.lodSwitches2, levels);
    }
    sortByLevel(order, live, levelOf, levels, starts, this.scratch);
    sortByLevel(order, end, levelOf, levels, cast, this.scratch, live);
  }
}
