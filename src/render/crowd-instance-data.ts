import { INSTANCE_FLOATS, type CrowdInstances } from '../gpu/crowd-instances.ts';
import { compactInstances, frustumPlanes, shadowInFrustum } from './crowd-cull.ts';
import { levelForDistance2, MAX_LOD_LEVELS, sortByLevel } from './crowd-lod.ts';
import { crowdOffset, crowdPhase, type CrowdLayout } from './crowd-layout.ts';
import { mixedSpeed } from './crowd-mix.ts';
import { PLAZA_SEED, plazaLayout } from './crowd-plaza.ts';
import { crowdTint } from './crowd-tint.ts';

/** What one crowd frame draws: the instances, their layout and the culling switch. */
export interface CrowdInstanceFrame {
  /** Instances in the crowd (N). */
  count: number;
  /** Grid spacing, model units (crowd-layout.ts); ignored in wander mode. */
  spacing: number;
  /** Where the instances stand (crowd-layout.ts): the grid, or the plaza with a heading each; ignored in wander mode. */
  layout: CrowdLayout;
  /**
   * The model's own facing (radians, the floor direction (sin a, cos a) it faces as modelled) and the floor
   * point (x, z) it turns about: a plaza heading h becomes the yaw h − facing about that point.
   */
  facing: number;
  pivot: ArrayLike<number>;
  /** Per-instance tint (crowd-tint.ts) on; off writes white. */
  tint: boolean;
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
  /**
   * Instance slots to keep filled: the live ones, or with `all` (the shadow casters draw from the same slots)
   * the live ones and then every culled instance whose shadow may fall in view (crowd-cull.ts
   * shadowInFrustum: its sphere swept along `shadowDir`, unit and pointing down from the key light, to the
   * floor at `floorY`); without culling, all N.
   */
  all: boolean;
  shadowDir: ArrayLike<number>;
  floorY: number;
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
 * Crowd mode's instance list (render side of gpu/crowd-instances.ts): each instance's offset and yaw
 * (crowd-layout.ts's grid with yaw 0, or crowd-plaza.ts's places and headings; recomputed when N, the
 * spacing, the layout or the model's facing or pivot changes, never per frame) and tint (crowd-tint.ts),
 * the culling of their bounding spheres against the camera (crowd-cull.ts) and the compacted order (the
 * live instances first, in instance order, then the culled), and the instance buffer's contents in that
 * order: slot j holds instance order[j] as (offset x, offset z, phase · duration (baked; else 0), speed (1; a
 * mixed crowd's own), clip (baked; else 0), yaw, tint r, g, b). A mixed crowd's model draws only its `members`
 * (global indices: order[] holds those). The vertex stage turns the skinned vertex by the yaw about the
 * model origin, then adds the offset; a plaza place p of heading h therefore gets yaw h − facing and offset
 * p + c − R(yaw)·c (c the pivot), so the model turns about its pivot, which lands on p + c.
 * Culling and the LOD distance use the clip sphere turned the same way: its centre s moves to
 * R(yaw)·s + offset (sphereOffsets: offset + R(yaw)·s − s per instance, recomputed when the layout or the
 * sphere's centre changes: a clip change), its radius unchanged. update() rewrites
 * only slots whose values changed and uploads the changed range (bufferSubData), so a still camera and
 * crowd upload nothing. With `lodLevels` > 1 the live instances are then sorted by level (the distance
 * from the camera to their sphere's centre, crowd-lod.ts), stably: level l's instances fill slots
 * [levelStarts[l], levelStarts[l + 1]) (with `all` the culled stay after them, unsorted). Allocates only when
 * N outgrows its arrays, and a plaza its search grid when its places are rebuilt.
 */
export class CrowdInstanceData {
  /** Compacted order: order[j] is the instance drawn in slot j. */
  order = new Int32Array(0);
  /** Instances inside the camera frustum (all of them without culling). */
  live = 0;
  /** Slots filled this frame (live, or N with `all`). */
  slots = 0;
  /** Per instance (offset x, offset z, yaw). */
  private places = new Float32Array(0);
  /** Per instance the turned sphere centre's floor shift (x, z) from the unturned one at the origin. */
  private sphereOffsets = new Float32Array(0);
  /** Per instance (r, g, b). */
  private tints = new Float32Array(0);
  /** The inputs the places were built for: count, spacing, layout (0 grid, 1 plaza), facing, pivot x, z; and the sphere centre x, z of sphereOffsets. */
  private readonly built = new Float64Array(8).fill(NaN);
  /** First slot of each drawn level (levelStarts[levels] = live); levels = 1 without LOD. */
  readonly levelStarts = new Int32Array(MAX_LOD_LEVELS + 1);
  levels = 1;
  private levelOf = new Uint8Array(0);
  private scratch = new Int32Array(0);
  private readonly planes = new Float32Array(24);
  private readonly cell = [0, 0, 0];

  /** Builds the places (and tints) when an input changed, and the sphere offsets when those or the sphere's centre did. */
  private layout(count: number, spacing: number, plaza: boolean, facing: number, pivotX: number, pivotZ: number, sx: number, sz: number): void {
    const b = this.built;
    const kind = plaza ? 1 : 0;
    let moved = false;
    if (b[0] !== count || b[1] !== spacing || b[2] !== kind || b[3] !== facing || b[4] !== pivotX || b[5] !== pivotZ) {
      this.buildPlaces(count, spacing, plaza, facing, pivotX, pivotZ);
      b[0] = count;
      b[1] = spacing;
      b[2] = kind;
      b[3] = facing;
      b[4] = pivotX;
      b[5] = pivotZ;
      moved = true;
    }
    if (!moved && b[6] === sx && b[7] === sz) return;
    b[6] = sx;
    b[7] = sz;
    const p = this.places;
    const so = this.sphereOffsets;
    for (let i = 0; i < count; i++) {
      const cs = Math.cos(p[3 * i + 2]!);
      const sn = Math.sin(p[3 * i + 2]!);
      so[2 * i] = p[3 * i]! + cs * sx + sn * sz - sx;
      so[2 * i + 1] = p[3 * i + 1]! - sn * sx + cs * sz - sz;
    }
  }

  /** Allocates when N outgrows the arrays; the plaza allocates its search grid (crowd-plaza.ts). */
  private buildPlaces(count: number, spacing: number, plaza: boolean, facing: number, pivotX: number, pivotZ: number): void {
    if (this.places.length < count * 3) {
      this.places = new Float32Array(count * 3);
      this.sphereOffsets = new Float32Array(count * 2);
      this.tints = new Float32Array(count * 3);
      this.order = new Int32Array(count);
      this.levelOf = new Uint8Array(count);
      this.scratch = new Int32Array(count);
    }
    const p = this.places;
    if (plaza) {
      plazaLayout(count, spacing, PLAZA_SEED, p);
      for (let i = 0; i < count; i++) {
        const yaw = p[3 * i + 2]! - facing;
        const cs = Math.cos(yaw);
        const sn = Math.sin(yaw);
        // R(yaw) about y: (x, z) → (cos · x + sin · z, −sin · x + cos · z), as crowd_pars.glsl crowdTurn.
        p[3 * i] += pivotX - (cs * pivotX + sn * pivotZ);
        p[3 * i + 1] += pivotZ - (-sn * pivotX + cs * pivotZ);
        p[3 * i + 2] = yaw;
      }
    } else {
      const c = this.cell;
      for (let i = 0; i < count; i++) {
        crowdOffset(i, count, spacing, c);
        p[3 * i] = c[0]!;
        p[3 * i + 1] = c[2]!;
        p[3 * i + 2] = 0;
      }
    }
    for (let i = 0; i < count; i++) crowdTint(i, this.tints, 3 * i);
  }

  /** Culls, compacts and brings the instance buffer up to date for frame `f`; returns the bytes uploaded. */
  update(instances: CrowdInstances, f: CrowdInstanceFrame): number {
    const count = f.count;
    const spacing = f.wander ? 0 : f.spacing;
    const plaza = !f.wander && f.layout === 'plaza';
    // An unbounded sphere (no clip, the bind pose) is never culled: its centre does not matter.
    const sx = Number.isFinite(f.sphere[3]!) ? f.sphere[0]! : 0;
    const sz = Number.isFinite(f.sphere[3]!) ? f.sphere[2]! : 0;
    this.layout(count, spacing, plaza, plaza ? f.facing : 0, plaza ? f.pivot[0]! : 0, plaza ? f.pivot[1]! : 0, sx, sz);
    const order = this.order;
    const members = f.members;
    const n = members === null ? count : Math.min(f.memberCount, count);
    if (f.cull && !f.wander) {
      frustumPlanes(f.viewProj, this.planes);
      this.live = compactInstances(this.planes, f.sphere, f.sphere[3]!, this.sphereOffsets, n, order, members);
    } else {
      for (let k = 0; k < n; k++) order[k] = members === null ? k : members[k]!;
      this.live = n;
    }
    this.sortLevels(f);
    const slots = !f.all ? this.live : f.cull && !f.wander ? this.castingAfterLive(f, n) : n;
    this.slots = slots;
    instances.reserve(slots);
    const data = instances.data;
    let lo = slots;
    let hi = -1;
    const clip = f.baked ? f.clip : 0;
    const p = this.places;
    const tints = this.tints;
    for (let j = 0; j < slots; j++) {
      const i = order[j]!;
      const o = j * INSTANCE_FLOATS;
      const x = p[3 * i]!;
      const z = p[3 * i + 1]!;
      const yaw = p[3 * i + 2]!;
      const phase = f.baked ? Math.fround(crowdPhase(i, f.duration)) : 0;
      const speed = members === null ? 1 : Math.fround(mixedSpeed(i));
      const r = f.tint ? tints[3 * i]! : 1;
      const g = f.tint ? tints[3 * i + 1]! : 1;
      const bl = f.tint ? tints[3 * i + 2]! : 1;
      if (
        data[o] !== x || data[o + 1] !== z || data[o + 2] !== phase || data[o + 3] !== speed || data[o + 4] !== clip ||
        data[o + 5] !== yaw || data[o + 6] !== r || data[o + 7] !== g || data[o + 8] !== bl
      ) {
        data[o] = x;
        data[o + 1] = z;
        data[o + 2] = phase;
        data[o + 3] = speed;
        data[o + 4] = clip;
        data[o + 5] = yaw;
        data[o + 6] = r;
        data[o + 7] = g;
        data[o + 8] = bl;
        if (j < lo) lo = j;
        hi = j;
      }
    }
    instances.upload(lo, hi + 1);
    return instances.lastUploadBytes;
  }

  /**
   * Moves the culled instances (order[live..n)) whose shadow may fall in view right after the live ones, in
   * their order, and returns the slots the casters draw: live + those.
   */
  private castingAfterLive(f: CrowdInstanceFrame, n: number): number {
    const order = this.order;
    const c = f.sphere;
    const r = c[3]!;
    if (!Number.isFinite(r)) return n;
    let k = this.live;
    for (let j = this.live; j < n; j++) {
      const i = order[j]!;
      if (shadowInFrustum(this.planes, c[0]! + this.sphereOffsets[2 * i]!, c[1]!, c[2]! + this.sphereOffsets[2 * i + 1]!, r, f.shadowDir, f.floorY)) {
        order[j] = order[k]!;
        order[k++] = i;
      }
    }
    return k;
  }

  /** Distance LOD: each live instance's level, then the live order sorted into one range per level. */
  private sortLevels(f: CrowdInstanceFrame): void {
    const live = this.live;
    const levels = f.wander ? 1 : Math.max(1, Math.min(f.lodLevels, MAX_LOD_LEVELS));
    this.levels = levels;
    const starts = this.levelStarts;
    if (levels === 1) {
      starts[0] = 0;
      starts[1] = live;
      return;
    }
    const order = this.order;
    const levelOf = this.levelOf;
    const e = f.eye;
    const c = f.sphere;
    for (let j = 0; j < live; j++) {
      const i = order[j]!;
      const dx = c[0]! + this.sphereOffsets[2 * i]! - e[0]!;
      const dy = c[1]! - e[1]!;
      const dz = c[2]! + this.sphereOffsets[2 * i + 1]! - e[2]!;
      levelOf[i] = levelForDistance2(dx * dx + dy * dy + dz * dz, f.lodSwitches2, levels);
    }
    sortByLevel(order, live, levelOf, levels, starts, this.scratch);
  }
}
