/**
 * Axis-aligned bounds of a point list (e.g. skinned positions from skinMesh, for camera framing).
 *
 * Contract
 * - positions: 3 floats per point, any space; the box is in that space. floor(length / 3) points.
 * - outMin / outMax: the caller's 3-float arrays (Float32Array, gl-matrix vec3, number[]).
 * - No points → both (0, 0, 0). NaN coordinates are ignored (they never win a comparison); a list of
 *   only NaN points gives min = +Infinity, max = -Infinity on that axis.
 * - No allocation.
 */

export interface WritableVec3 {
  [index: number]: number;
}

export function computeBounds(positions: ArrayLike<number>, outMin: WritableVec3, outMax: WritableVec3): void {
  const count = (positions.length / 3) | 0;
  if (count === 0) {
    outMin[0] = outMin[1] = outMin[2] = 0;
    outMax[0] = outMax[1] = outMax[2] = 0;
    return;
  }
  let minX = Infinity, minY = Infinity, minZ = Infinity;
  let maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  const end = count * 3;
  for (let i = 0; i < end; i += 3) {
    const x = positions[i], y = positions[i + 1], z = positions[i + 2];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  outMin[0] = minX;
  outMin[1] = minY;
  outMin[2] = minZ;
  outMax[0] = maxX;
  outMax[1] = maxY;
  outMax[2] = maxZ;
}
