/**
 * Crowd instance culling, pure (no WebGL; tested in Node): the six planes of a clip-space frustum taken
 * from a matrix (Gribb & Hartmann: row 3 ± row r of M, M = viewProj · world, so the planes live in model
 * space), a sphere test against them and a test of a sphere's shadow (shadow casters whose shadow cannot
 * reach the view need not be drawn into the shadow map); and the compaction of the instances that survive into an order
 * list. Planes are normalised (unit normal), so a sphere's radius is in model units. No allocation.
 */

/** Writes the 6 planes (a, b, c, d; a·x + b·y + c·z + d ≥ 0 inside) of clip-space frustum `m` (column-major) into out[0..24). */
export function frustumPlanes(m: ArrayLike<number>, out: Float32Array | Float64Array): void {
  // Row r of a column-major matrix: m[r], m[4 + r], m[8 + r], m[12 + r].
  for (let p = 0; p < 6; p++) {
    const r = p >> 1;
    const s = p & 1 ? -1 : 1;
    const a = m[3]! + s * m[r]!;
    const b = m[7]! + s * m[4 + r]!;
    const c = m[11]! + s * m[8 + r]!;
    const d = m[15]! + s * m[12 + r]!;
    const len = Math.hypot(a, b, c) || 1;
    out[p * 4] = a / len;
    out[p * 4 + 1] = b / len;
    out[p * 4 + 2] = c / len;
    out[p * 4 + 3] = d / len;
  }
}

/** True when the sphere (x, y, z, radius r) reaches inside every plane (a conservative test: it may keep a sphere just outside a corner). */
export function sphereInFrustum(planes: ArrayLike<number>, x: number, y: number, z: number, r: number): boolean {
  for (let p = 0; p < 24; p += 4) {
    if (planes[p]! * x + planes[p + 1]! * y + planes[p + 2]! * z + planes[p + 3]! < -r) return false;
  }
  return true;
}

/**
 * True when the shadow of the sphere (x, y, z, radius r) may fall inside the frustum: the sphere swept along
 * `shadowDir` (unit, from the light, pointing down) until its top reaches the floor at height `floorY` — the
 * capsule holding every point of the sphere's shadow on the floor and on whatever stands between — reaches
 * inside every plane. A light that does not point down sweeps nothing (the sphere alone). Conservative, as
 * sphereInFrustum.
 */
export function shadowInFrustum(planes: ArrayLike<number>, x: number, y: number, z: number, r: number, shadowDir: ArrayLike<number>, floorY: number): boolean {
  const dy = shadowDir[1]!;
  const t = dy < -1e-6 ? Math.max(0, (y + r - floorY) / -dy) : 0;
  const ex = x + shadowDir[0]! * t;
  const ey = y + dy * t;
  const ez = z + shadowDir[2]! * t;
  for (let p = 0; p < 24; p += 4) {
    const a = planes[p]!;
    const b = planes[p + 1]!;
    const c = planes[p + 2]!;
    const d = planes[p + 3]!;
    if (a * x + b * y + c * z + d < -r && a * ex + b * ey + c * ez + d < -r) return false;
  }
  return true;
}

/**
 * Orders instances 0..count-1 into `order`: those whose sphere (centre `centre` + the instance's floor
 * offset (offsets[2i], 0, offsets[2i+1]), radius `radius`) is inside the frustum first, in instance order,
 * then the culled ones, in instance order. Returns the number inside. `order` holds at least `count`.
 * With `members` (a mixed crowd's model: the global indices it draws, ascending), the instances are
 * members[0..count-1] instead of 0..count-1, and `order` holds those global indices.
 */
export function compactInstances(
  planes: ArrayLike<number>,
  centre: ArrayLike<number>,
  radius: number,
  offsets: ArrayLike<number>,
  count: number,
  order: Int32Array,
  members: Int32Array | null = null,
): number {
  let live = 0;
  let back = count;
  for (let k = 0; k < count; k++) {
    const i = members === null ? k : members[k]!;
    const x = centre[0]! + offsets[2 * i]!;
    const z = centre[2]! + offsets[2 * i + 1]!;
    if (sphereInFrustum(planes, x, centre[1]!, z, radius)) order[live++] = i;
    else order[--back] = i;
  }
  // The culled ones were written from the end backwards: put them in instance order.
  for (let a = live, b = count - 1; a < b; a++, b--) {
    const t = order[a]!;
    order[a] = order[b]!;
    order[b] = t;
  }
  return live;
}
