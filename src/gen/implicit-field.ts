import { primitiveBounds, primitiveDistance, smax, smin, type Primitive, type Vec3 } from './sdf-primitives.ts';

/**
 * Implicit solids for procedural characters: an ordered list of sdf-primitives.ts primitives compiled
 * into a field (padded boxes plus a bin index), evaluated pointwise (value, gradient, paint label,
 * generating primitive) or sampled onto a regular grid for the mesher.
 *
 * Contract
 * - Space and units are the primitives' (sdf-primitives.ts): model bind space, metres, negative inside.
 * - The field is a sequence of operations applied to an accumulator that starts at FAR:
 *   union `acc = smin(acc, d, k)`, subtract `acc = smax(acc, -d, k)`, intersect `acc = smax(acc, d, k)`.
 *   The order matters (smooth operators are not associative) and is the array order.
 * - `paint` primitives do not change the field: they are decals, volumes that relabel the surface
 *   inside them (`paintAt`), e.g. eyes or a mouth drawn with a material.
 * - Every primitive has a box (its own bounds inflated by `k + PAD`). Outside that box it is skipped,
 *   which is exact wherever the result is near zero (smin(a, b) = a when b ≥ a + k), so pointwise
 *   evaluation (`evaluate`) and grid evaluation (`sampleGrid`) agree on and near the surface.
 *
 * Pure functions, Float64 maths, no allocation inside `evaluate`. Calls only sdf-primitives.ts; knows
 * nothing of meshing, skinning or rigs (marching-cubes.ts and surface.ts consume its Grid and Field).
 */

/** Value of the field far from every primitive. */
export const FAR = 1;
/** Extra margin around each primitive's bounds, beyond its blend radius (metres). */
export const PAD = 0.03;

// ---------------------------------------------------------------------------------------------
// The field.

/**
 * A compiled field: primitives plus their padded boxes (6 floats each: min xyz, max xyz), and a
 * uniform bin grid over the union of the boxes listing, per bin, the primitives whose box overlaps
 * it (ascending, so evaluation order is kept). Points outside the bin grid scan every primitive.
 */
export interface Field {
  readonly primitives: readonly Primitive[];
  readonly boxes: Float64Array;
  readonly bins: {
    readonly origin: Vec3;
    readonly size: number;
    readonly dims: Vec3;
    /** Primitives of bin b: items[offsets[b] .. offsets[b+1]). Bin index = (k·dy + j)·dx + i. */
    readonly offsets: Uint32Array;
    readonly items: Uint16Array;
  };
}

/** Edge length of a bin of the primitive index (metres). */
const BIN_SIZE = 0.04;

export function compileField(primitives: readonly Primitive[]): Field {
  const boxes = new Float64Array(primitives.length * 6);
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  primitives.forEach((p, i) => {
    const b = primitiveBounds(p);
    const pad = p.kind === 'plane' ? 0 : p.k + PAD;
    for (let c = 0; c < 3; c++) {
      boxes[i * 6 + c] = b[c]! - pad;
      boxes[i * 6 + 3 + c] = b[c + 3]! + pad;
      if (p.op === 'union') {
        lo[c] = Math.min(lo[c]!, b[c]! - pad);
        hi[c] = Math.max(hi[c]!, b[c + 3]! + pad);
      }
    }
  });
  if (!(lo[0]! <= hi[0]!)) for (let c = 0; c < 3; c++) lo[c] = hi[c] = 0;
  const origin: Vec3 = [lo[0]!, lo[1]!, lo[2]!];
  const dims: Vec3 = [0, 1, 2].map((c) => Math.max(1, Math.ceil((hi[c]! - lo[c]!) / BIN_SIZE))) as unknown as Vec3;
  const binCount = dims[0] * dims[1] * dims[2];
  const lists: number[][] = Array.from({ length: binCount }, () => []);
  primitives.forEach((_, p) => {
    const r0: number[] = [];
    const r1: number[] = [];
    for (let c = 0; c < 3; c++) {
      r0.push(Math.max(0, Math.floor((boxes[p * 6 + c]! - origin[c]) / BIN_SIZE)));
      r1.push(Math.min(dims[c] - 1, Math.floor((boxes[p * 6 + 3 + c]! - origin[c]) / BIN_SIZE)));
    }
    for (let k = r0[2]!; k <= r1[2]!; k++)
      for (let j = r0[1]!; j <= r1[1]!; j++)
        for (let i = r0[0]!; i <= r1[0]!; i++) lists[(k * dims[1] + j) * dims[0] + i]!.push(p);
  });
  const offsets = new Uint32Array(binCount + 1);
  lists.forEach((l, b) => (offsets[b + 1] = offsets[b]! + l.length));
  const items = new Uint16Array(offsets[binCount]!);
  lists.forEach((l, b) => items.set(l, offsets[b]!));
  return { primitives, boxes, bins: { origin, size: BIN_SIZE, dims, offsets, items } };
}

const ALL: { list: ArrayLike<number>; start: number; end: number } = { list: [], start: 0, end: 0 };

/** The primitives that may contain (x, y, z) in their box, as a slice of a list (ascending). */
function candidates(field: Field, x: number, y: number, z: number): { list: ArrayLike<number>; start: number; end: number } {
  const b = field.bins;
  const i = Math.floor((x - b.origin[0]) / b.size);
  const j = Math.floor((y - b.origin[1]) / b.size);
  const k = Math.floor((z - b.origin[2]) / b.size);
  if (i < 0 || j < 0 || k < 0 || i >= b.dims[0] || j >= b.dims[1] || k >= b.dims[2]) {
    ALL.list = allIndices(field.primitives.length);
    ALL.start = 0;
    ALL.end = field.primitives.length;
    return ALL;
  }
  const bin = (k * b.dims[1] + j) * b.dims[0] + i;
  BIN.list = b.items;
  BIN.start = b.offsets[bin]!;
  BIN.end = b.offsets[bin + 1]!;
  return BIN;
}
const BIN: { list: ArrayLike<number>; start: number; end: number } = { list: [], start: 0, end: 0 };
let allCache = new Uint16Array(0);
function allIndices(n: number): Uint16Array {
  if (allCache.length !== n) allCache = Uint16Array.from({ length: n }, (_, i) => i);
  return allCache;
}

function combine(acc: number, d: number, p: Primitive): number {
  if (p.op === 'union') return smin(acc, d, p.k);
  if (p.op === 'subtract') return smax(acc, -d, p.k);
  if (p.op === 'intersect') return smax(acc, d, p.k);
  return acc;
}

/** Field value at (x, y, z). */
export function evaluate(field: Field, x: number, y: number, z: number): number {
  const { primitives, boxes } = field;
  const c = candidates(field, x, y, z);
  const list = c.list;
  let acc = FAR;
  for (let n = c.start; n < c.end; n++) {
    const i = list[n]!;
    const o = i * 6;
    if (x < boxes[o]! || y < boxes[o + 1]! || z < boxes[o + 2]! || x > boxes[o + 3]! || y > boxes[o + 4]! || z > boxes[o + 5]!) continue;
    const p = primitives[i]!;
    if (p.op === 'paint') continue;
    acc = combine(acc, primitiveDistance(p, x, y, z), p);
  }
  return acc;
}

/** Index of the last `paint` primitive containing (x, y, z), or −1. */
export function paintAt(field: Field, x: number, y: number, z: number): number {
  const { primitives, boxes } = field;
  const c = candidates(field, x, y, z);
  const list = c.list;
  for (let n = c.end - 1; n >= c.start; n--) {
    const i = list[n]!;
    const p = primitives[i]!;
    if (p.op !== 'paint') continue;
    const o = i * 6;
    if (x < boxes[o]! || y < boxes[o + 1]! || z < boxes[o + 2]! || x > boxes[o + 3]! || y > boxes[o + 4]! || z > boxes[o + 5]!) continue;
    if (primitiveDistance(p, x, y, z) < 0) return i;
  }
  return -1;
}

/**
 * Gradient of the field (not normalised) written to out[o..o+2], from four samples at the corners
 * of a tetrahedron of half-size `eps` around the point (as accurate as central differences for a
 * smooth field, with four evaluations instead of six).
 */
export function gradient(field: Field, x: number, y: number, z: number, out: Float64Array | Float32Array, o: number, eps = 1e-4): void {
  const a = evaluate(field, x + eps, y - eps, z - eps);
  const b = evaluate(field, x - eps, y - eps, z + eps);
  const c = evaluate(field, x - eps, y + eps, z - eps);
  const d = evaluate(field, x + eps, y + eps, z + eps);
  const s = 1 / (4 * eps);
  out[o] = (a - b - c + d) * s;
  out[o + 1] = (-a - b + c + d) * s;
  out[o + 2] = (-a + b - c + d) * s;
}

/**
 * Index of the union primitive "generating" the surface at (x, y, z): the one with the smallest raw
 * distance among the primitives whose box contains the point; −1 when none does.
 * `accept` may exclude primitives (e.g. to ask for the nearest primitive of a given bone set).
 */
export function nearestPrimitive(field: Field, x: number, y: number, z: number, accept?: (p: Primitive) => boolean): number {
  const { primitives, boxes } = field;
  const c = candidates(field, x, y, z);
  const list = c.list;
  let best = -1;
  let bestD = Infinity;
  for (let n = c.start; n < c.end; n++) {
    const i = list[n]!;
    const p = primitives[i]!;
    if (p.op !== 'union') continue;
    if (accept && !accept(p)) continue;
    const o = i * 6;
    if (x < boxes[o]! || y < boxes[o + 1]! || z < boxes[o + 2]! || x > boxes[o + 3]! || y > boxes[o + 4]! || z > boxes[o + 5]!) continue;
    const d = primitiveDistance(p, x, y, z);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** A regular grid of field samples: point (i, j, k) sits at origin + (i, j, k)·step. */
export interface Grid {
  readonly nx: number;
  readonly ny: number;
  readonly nz: number;
  readonly origin: Vec3;
  readonly step: number;
  /** nx·ny·nz samples, x fastest: index = (k·ny + j)·nx + i. */
  readonly values: Float32Array;
}

/** Bounds of all union primitives, inflated by `margin`. */
export function fieldBounds(field: Field, margin: number): [Vec3, Vec3] {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const p of field.primitives) {
    if (p.op !== 'union') continue;
    const b = primitiveBounds(p);
    for (let c = 0; c < 3; c++) {
      lo[c] = Math.min(lo[c]!, b[c]!);
      hi[c] = Math.max(hi[c]!, b[c + 3]!);
    }
  }
  return [
    [lo[0]! - margin, lo[1]! - margin, lo[2]! - margin],
    [hi[0]! + margin, hi[1]! + margin, hi[2]! + margin],
  ];
}

/**
 * Samples the field on a grid of spacing `step` covering `bounds`, by applying each primitive over
 * its own box in array order (same result as `evaluate` at every grid point). The outermost layer of
 * samples is forced to FAR so the zero set is closed inside the grid.
 */
export function sampleGrid(field: Field, bounds: [Vec3, Vec3], step: number): Grid {
  const [lo, hi] = bounds;
  const nx = Math.ceil((hi[0] - lo[0]) / step) + 3;
  const ny = Math.ceil((hi[1] - lo[1]) / step) + 3;
  const nz = Math.ceil((hi[2] - lo[2]) / step) + 3;
  const origin: Vec3 = [lo[0] - step, lo[1] - step, lo[2] - step];
  const values = new Float32Array(nx * ny * nz).fill(FAR);
  // Accumulate in Float64 per primitive pass to match `evaluate` exactly.
  const acc = new Float64Array(nx * ny * nz).fill(FAR);
  const { primitives, boxes } = field;
  for (let p = 0; p < primitives.length; p++) {
    const prim = primitives[p]!;
    if (prim.op === 'paint') continue;
    const o = p * 6;
    const i0 = Math.max(1, Math.ceil((boxes[o]! - origin[0]) / step));
    const j0 = Math.max(1, Math.ceil((boxes[o + 1]! - origin[1]) / step));
    const k0 = Math.max(1, Math.ceil((boxes[o + 2]! - origin[2]) / step));
    const i1 = Math.min(nx - 2, Math.floor((boxes[o + 3]! - origin[0]) / step));
    const j1 = Math.min(ny - 2, Math.floor((boxes[o + 4]! - origin[1]) / step));
    const k1 = Math.min(nz - 2, Math.floor((boxes[o + 5]! - origin[2]) / step));
    for (let k = k0; k <= k1; k++) {
      const z = origin[2] + k * step;
      for (let j = j0; j <= j1; j++) {
        const y = origin[1] + j * step;
        let idx = (k * ny + j) * nx + i0;
        for (let i = i0; i <= i1; i++, idx++) {
          const x = origin[0] + i * step;
          // Same inclusion test as `evaluate` (guards against rounding at box faces).
          if (x < boxes[o]! || y < boxes[o + 1]! || z < boxes[o + 2]! || x > boxes[o + 3]! || y > boxes[o + 4]! || z > boxes[o + 5]!) continue;
          acc[idx] = combine(acc[idx]!, primitiveDistance(prim, x, y, z), prim);
        }
      }
    }
  }
  for (let i = 0; i < acc.length; i++) values[i] = acc[i]!;
  return { nx, ny, nz, origin, step, values };
}
