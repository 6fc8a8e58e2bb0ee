/**
 * The plaza layout of a crowd (`crowdLayout=plaza`), pure (no WebGL; tested in Node): `count` people spread
 * over a round plaza centred on the origin of the floor plane (model-space x and z), each with a heading.
 * Deterministic: the same (count, spacing, seed) gives the same places bit for bit.
 *
 * - Area: PLAZA_AREA · spacing² per person (the grid gives spacing²: a little looser), so the plaza's radius
 *   grows with √count: plazaRadius(). Every place lies within it.
 * - Nobody overlaps: any two places are at least PLAZA_MIN_DISTANCE · spacing apart, which is more than the
 *   model's floor footprint (crowd-layout.ts crowdSpacing makes spacing ≥ 1.25 footprints).
 * - Who stands where: about GROUP_SHARE of the people stand in groups of 3 to 7 on a small ring, each facing
 *   the group's centre; about LINE_SHARE walk in lines of 4 to 8 one behind the other, facing along the line;
 *   the rest are scattered (dart throwing) with a random heading. Every place and heading is jittered, so no
 *   lattice shows.
 * - Heading h, radians about the up axis: the person faces the floor direction (sin h, cos h) (h = 0 faces
 *   +z; wander.ts's convention). The caller turns it into the model's yaw (minus the model's own facing).
 * - Order: the places are sorted by their distance along the floor direction of the default camera (yaw 25°,
 *   on the +x +z side), nearest first, as the grid's instance 0 is its nearest corner: an instanced draw then
 *   runs roughly front to back and early depth rejection skips hidden fragments.
 *
 * Output: out[3i] = x, out[3i + 1] = z, out[3i + 2] = heading, for i < count. Allocates its search grid (load
 * time: called when the crowd's size or layout changes, never per frame).
 */

/** Floor area per person, in spacing² (the grid's is 1). */
export const PLAZA_AREA = 1.6;
/** Least distance between two places, in spacing (spacing = 1.25 footprints: 1.06 footprints). */
export const PLAZA_MIN_DISTANCE = 0.85;
/** Share of the people standing in groups, and walking in lines. */
export const GROUP_SHARE = 0.35;
export const LINE_SHARE = 0.12;
/** Seed of the app's plaza. */
export const PLAZA_SEED = 1;

/** Floor direction of the default camera (yaw 25°): instances are ordered nearest to it first. */
const VIEW_X = Math.sin((25 * Math.PI) / 180);
const VIEW_Z = Math.cos((25 * Math.PI) / 180);

/** Radius (model units) of the disc holding every place of a plaza of `count` people. */
export function plazaRadius(count: number, spacing: number): number {
  const n = Math.max(1, Math.floor(count));
  return Math.sqrt((n * PLAZA_AREA) / Math.PI) * spacing;
}

/** mulberry32: a small seeded generator of uniform numbers in [0, 1). */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Places already taken, in a uniform grid of cells `d / √2` wide (at most one place per cell when places
 * keep `d` apart): free() looks at the 5 × 5 cells around a point.
 */
class PlaceGrid {
  private readonly cells: Int32Array;
  private readonly side: number;
  private readonly cell: number;
  private readonly d2: number;
  readonly xs: Float64Array;
  readonly zs: Float64Array;
  readonly hs: Float64Array;
  count = 0;

  constructor(capacity: number, private readonly half: number, d: number) {
    this.cell = d / Math.SQRT2;
    this.d2 = d * d;
    this.side = Math.max(1, Math.ceil((2 * half) / this.cell) + 1);
    this.cells = new Int32Array(this.side * this.side).fill(-1);
    this.xs = new Float64Array(capacity);
    this.zs = new Float64Array(capacity);
    this.hs = new Float64Array(capacity);
  }

  private index(v: number): number {
    return Math.max(0, Math.min(this.side - 1, Math.floor((v + this.half) / this.cell)));
  }

  /** No place within `d` of (x, z). */
  free(x: number, z: number): boolean {
    const cx = this.index(x);
    const cz = this.index(z);
    for (let j = Math.max(0, cz - 2); j <= Math.min(this.side - 1, cz + 2); j++) {
      for (let i = Math.max(0, cx - 2); i <= Math.min(this.side - 1, cx + 2); i++) {
        const p = this.cells[j * this.side + i]!;
        if (p < 0) continue;
        const dx = this.xs[p]! - x;
        const dz = this.zs[p]! - z;
        if (dx * dx + dz * dz < this.d2) return false;
      }
    }
    return true;
  }

  add(x: number, z: number, h: number): void {
    const p = this.count++;
    this.xs[p] = x;
    this.zs[p] = z;
    this.hs[p] = h;
    this.cells[this.index(z) * this.side + this.index(x)] = p;
  }

  /** Forgets the last place added. */
  removeLast(): void {
    const p = --this.count;
    this.cells[this.index(this.zs[p]!) * this.side + this.index(this.xs[p]!)] = -1;
  }
}

/** Candidate places of one group or line before they are checked (at most 8). */
const _cx = new Float64Array(8);
const _cz = new Float64Array(8);
const _ch = new Float64Array(8);

/** Lays out a plaza of `count` people `spacing` apart (module header); writes out[0 .. 3 · count). */
export function plazaLayout(count: number, spacing: number, seed: number, out: Float32Array): void {
  const n = Math.max(0, Math.floor(count));
  if (n === 0) return;
  const rand = generator(seed);
  const d = PLAZA_MIN_DISTANCE * spacing;
  let radius = plazaRadius(n, spacing);
  // Room for the radius to grow if the scatter ever jams (it does not at this density; see the tests).
  const grid = new PlaceGrid(n, radius * 1.5 + d, d);
  const inside = (x: number, z: number): boolean => x * x + z * z <= radius * radius;
  /** Takes candidates 0..k-1 if every one is inside and free of the others and of every earlier place; else none. */
  const take = (k: number): boolean => {
    if (grid.count + k > n) return false;
    for (let m = 0; m < k; m++) {
      if (!inside(_cx[m]!, _cz[m]!) || !grid.free(_cx[m]!, _cz[m]!)) {
        for (let u = 0; u < m; u++) grid.removeLast();
        return false;
      }
      grid.add(_cx[m]!, _cz[m]!, _ch[m]!);
    }
    return true;
  };
  const jitter = (amount: number): number => (rand() * 2 - 1) * amount;

  // Groups: k people on a ring whose chord between neighbours is about 1.15 d, facing its centre.
  const groupWanted = Math.round(n * GROUP_SHARE);
  for (let tries = 0; grid.count < groupWanted && tries < 20 * n; tries++) {
    const k = Math.min(3 + Math.floor(rand() * 5), n - grid.count);
    if (k < 2) break;
    const ring = (1.15 * d) / (2 * Math.sin(Math.PI / k)) + 0.1 * spacing * rand();
    const r = Math.sqrt(rand()) * Math.max(0, radius - ring);
    const a = rand() * 2 * Math.PI;
    const gx = r * Math.sin(a);
    const gz = r * Math.cos(a);
    const turn = rand() * 2 * Math.PI;
    for (let m = 0; m < k; m++) {
      const b = turn + (2 * Math.PI * (m + jitter(0.08))) / k;
      const rr = ring + jitter(0.04 * spacing);
      _cx[m] = gx + rr * Math.sin(b);
      _cz[m] = gz + rr * Math.cos(b);
      // Facing the centre: the direction from the place to (gx, gz) is −(sin b, cos b).
      _ch[m] = b + Math.PI + jitter(0.3);
    }
    take(k);
  }
  // Lines: k people one behind the other, 1.2–1.5 d apart, walking along the line.
  const lineWanted = groupWanted + Math.round(n * LINE_SHARE);
  for (let tries = 0; grid.count < lineWanted && tries < 20 * n; tries++) {
    const k = Math.min(4 + Math.floor(rand() * 5), n - grid.count);
    if (k < 2) break;
    const r = Math.sqrt(rand()) * radius;
    const a = rand() * 2 * Math.PI;
    const h = rand() * 2 * Math.PI;
    const step = d * (1.2 + 0.3 * rand());
    const sx = Math.sin(h);
    const sz = Math.cos(h);
    for (let m = 0; m < k; m++) {
      const along = step * (m - (k - 1) / 2);
      // Across the line: a little sideways sway, never enough to bring two neighbours within d.
      const side = jitter(0.15 * spacing);
      _cx[m] = r * Math.sin(a) + sx * along + sz * side;
      _cz[m] = r * Math.cos(a) + sz * along - sx * side;
      _ch[m] = h + jitter(0.12);
    }
    take(k);
  }
  // Everyone else: dart throwing over the disc, any heading. Should it ever jam, the plaza grows by 2 %.
  let misses = 0;
  while (grid.count < n) {
    const r = Math.sqrt(rand()) * radius;
    const a = rand() * 2 * Math.PI;
    _cx[0] = r * Math.sin(a);
    _cz[0] = r * Math.cos(a);
    _ch[0] = rand() * 2 * Math.PI - Math.PI;
    if (take(1)) misses = 0;
    else if (++misses > 2000) {
      radius *= 1.02;
      misses = 0;
    }
  }

  // Nearest the default camera's side first (module header).
  const order = new Int32Array(n);
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    order[i] = i;
    key[i] = -(grid.xs[i]! * VIEW_X + grid.zs[i]! * VIEW_Z);
  }
  order.sort((p, q) => key[p]! - key[q]! || p - q);
  for (let i = 0; i < n; i++) {
    const p = order[i]!;
    out[3 * i] = grid.xs[p]!;
    out[3 * i + 1] = grid.zs[p]!;
    out[3 * i + 2] = wrapAngle(grid.hs[p]!);
  }
}

/** An angle in (−π, π]. */
function wrapAngle(a: number): number {
  const t = a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
  return t <= -Math.PI ? t + 2 * Math.PI : t;
}
