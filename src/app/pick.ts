import { MAX_INFLUENCES, type SkinnedMesh } from '../model/types.ts';

/**
 * The hit test behind hover and click picking, as pure functions over plain arrays (no DOM, no GL, no
 * allocation): a ray through a pointer position, ray against box and triangle, and the bone that weighs
 * most at a point of a triangle (pick-mesh.ts poses a mesh for them). Rays are in model space (the single
 * model is drawn with an identity world matrix).
 */

/** Triangles per broad-phase run (pick-mesh.ts): a run's box is tested before its triangles. */
export const CHUNK = 64;

/**
 * The ray under a pointer at normalised device coordinates ndc = (x, y), each in [-1, 1], y up (an array, so
 * no double crosses a call boxed), from the inverse of the camera's view-projection (16 floats,
 * column-major): origin on the near plane, direction towards the far plane, unit length. Writes
 * ray[0..2] = origin, ray[3..5] = direction. False (ray untouched) when the matrix does not unproject.
 */
export function pointerRay(invViewProj: ArrayLike<number>, ndc: ArrayLike<number>, ray: Float64Array): boolean {
  const m = invViewProj;
  const x = ndc[0]!;
  const y = ndc[1]!;
  // Near (z = -1) and far (z = 1) points, homogeneous.
  const nx = m[0]! * x + m[4]! * y - m[8]! + m[12]!;
  const ny = m[1]! * x + m[5]! * y - m[9]! + m[13]!;
  const nz = m[2]! * x + m[6]! * y - m[10]! + m[14]!;
  const nw = m[3]! * x + m[7]! * y - m[11]! + m[15]!;
  const fx = m[0]! * x + m[4]! * y + m[8]! + m[12]!;
  const fy = m[1]! * x + m[5]! * y + m[9]! + m[13]!;
  const fz = m[2]! * x + m[6]! * y + m[10]! + m[14]!;
  const fw = m[3]! * x + m[7]! * y + m[11]! + m[15]!;
  if (nw === 0 || fw === 0) return false;
  const ox = nx / nw;
  const oy = ny / nw;
  const oz = nz / nw;
  const dx = fx / fw - ox;
  const dy = fy / fw - oy;
  const dz = fz / fw - oz;
  const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (!(len > 0)) return false;
  ray[0] = ox;
  ray[1] = oy;
  ray[2] = oz;
  ray[3] = dx / len;
  ray[4] = dy / len;
  ray[5] = dz / len;
  return true;
}

/**
 * Slab test: the distance along `ray` (origin, unit direction) at which it enters the box
 * box[o..o+6) = (minX, minY, minZ, maxX, maxY, maxZ), or Infinity when it misses or the box lies wholly
 * behind the origin. An origin inside the box gives 0.
 */
export function rayBox(ray: Float64Array, box: ArrayLike<number>, o: number): number {
  let near = 0;
  let far = Infinity;
  for (let a = 0; a < 3; a++) {
    const d = ray[3 + a]!;
    const p = ray[a]!;
    const lo = box[o + a]!;
    const hi = box[o + 3 + a]!;
    if (d === 0) {
      if (p < lo || p > hi) return Infinity;
      continue;
    }
    let t0 = (lo - p) / d;
    let t1 = (hi - p) / d;
    if (t0 > t1) {
      const s = t0;
      t0 = t1;
      t1 = s;
    }
    if (t0 > near) near = t0;
    if (t1 < far) far = t1;
    if (near > far) return Infinity;
  }
  return near;
}

/** The nearest hit of one mesh: triangle index (-1: none), distance, barycentric u (corner 1) and v (corner 2). */
export interface TriangleHit {
  triangle: number;
  distance: number;
  u: number;
  v: number;
}

/**
 * Möller–Trumbore against triangle `tri` of `indices` over `positions` (3 floats per vertex), both faces.
 * When it hits closer than hit.distance, writes the hit (triangle, distance, u, v) and returns true.
 */
export function rayTriangle(ray: Float64Array, positions: ArrayLike<number>, indices: ArrayLike<number>, tri: number, hit: TriangleHit): boolean {
  const a = indices[tri * 3]! * 3;
  const b = indices[tri * 3 + 1]! * 3;
  const c = indices[tri * 3 + 2]! * 3;
  const ax = positions[a]!, ay = positions[a + 1]!, az = positions[a + 2]!;
  const e1x = positions[b]! - ax, e1y = positions[b + 1]! - ay, e1z = positions[b + 2]! - az;
  const e2x = positions[c]! - ax, e2y = positions[c + 1]! - ay, e2z = positions[c + 2]! - az;
  const dx = ray[3]!, dy = ray[4]!, dz = ray[5]!;
  const px = dy * e2z - dz * e2y;
  const py = dz * e2x - dx * e2z;
  const pz = dx * e2y - dy * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (det > -1e-12 && det < 1e-12) return false;
  const inv = 1 / det;
  const sx = ray[0]! - ax, sy = ray[1]! - ay, sz = ray[2]! - az;
  const u = (sx * px + sy * py + sz * pz) * inv;
  if (u < 0 || u > 1) return false;
  const qx = sy * e1z - sz * e1y;
  const qy = sz * e1x - sx * e1z;
  const qz = sx * e1y - sy * e1x;
  const v = (dx * qx + dy * qy + dz * qz) * inv;
  if (v < 0 || u + v > 1) return false;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
  if (!(t > 0) || t >= hit.distance) return false;
  hit.triangle = tri;
  hit.distance = t;
  hit.u = u;
  hit.v = v;
  return true;
}

/**
 * The skeleton node that weighs most at hit = (triangle, u, v) of `mesh` (passed whole: no double crosses the
 * call boxed): each corner's stored
 * influences (all MAX_INFLUENCES, as the file weights them) are blended with the corner's barycentric
 * weight (1 − u − v, u, v) and the palette slot with the largest sum wins (ties: the lower slot), mapped to
 * its node through mesh.bones. A corner without positive weights counts its first joint with weight 1.
 * `scratch` holds at least 3 · MAX_INFLUENCES · 2 numbers. -1 for a triangle out of range.
 */
export function boneAtHit(mesh: SkinnedMesh, hit: TriangleHit, scratch: Float64Array): number {
  const tri = hit.triangle;
  const u = hit.u;
  const v = hit.v;
  if (tri < 0 || tri * 3 + 2 >= mesh.indices.length) return -1;
  // scratch[2k] = slot, scratch[2k + 1] = summed weight, for n distinct slots.
  let n = 0;
  for (let c = 0; c < 3; c++) {
    const bary = c === 0 ? 1 - u - v : c === 1 ? u : v;
    const vert = mesh.indices[tri * 3 + c]!;
    const o = vert * MAX_INFLUENCES;
    for (let k = 0; k < MAX_INFLUENCES; k++) {
      let w = mesh.weights[o + k]!;
      if (!(w > 0)) {
        if (k > 0) break;
        w = 1;
      }
      const slot = mesh.joints[o + k]!;
      let j = 0;
      while (j < n && scratch[2 * j] !== slot) j++;
      if (j === n) {
        scratch[2 * n] = slot;
        scratch[2 * n + 1] = 0;
        n++;
      }
      scratch[2 * j + 1]! += w * bary;
      if (w === 1 && !(mesh.weights[o + k]! > 0)) break;
    }
  }
  let best = -1;
  let bestW = -Infinity;
  for (let j = 0; j < n; j++) {
    const slot = scratch[2 * j]!;
    const w = scratch[2 * j + 1]!;
    if (w > bestW || (w === bestW && slot < best)) {
      best = slot;
      bestW = w;
    }
  }
  return best >= 0 ? mesh.bones[best] ?? -1 : -1;
}
