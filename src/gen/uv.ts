import type { Rig } from './rig.ts';

/**
 * Texture coordinates and tangents for a procedurally skinned mesh: every vertex is mapped
 * cylindrically around the segment of the bone that owns it, into that bone's tile of a square atlas.
 *
 * Contract
 * - Atlas: ceil(√boneCount) tiles per side; bone b's tile is column b mod side, row ⌊b / side⌋.
 *   Inside a tile (with a 4 % margin), u = angle around the bone axis / 2π (0 at the direction
 *   perpendicular to the axis nearest +Z), v = position along head → tail clamped to [0, 1].
 *   UV origin top-left (D3D), so v grows downwards in the atlas image.
 * - A cylinder's seam is not split (vertices are shared), so one strip of triangles per part
 *   interpolates across the tile; fine for solid colours and procedural patterns, not for painted maps.
 * - Tangents: 4 floats per vertex, xyz = unit direction of increasing u (around the bone) made
 *   orthogonal to the normal, w = ±1 such that cross(normal, tangent) · w points along increasing v.
 *   Where the axis is parallel to the normal (end caps) any unit vector orthogonal to the normal is used.
 */
export function cylindricalUVs(
  positions: Float32Array,
  normals: Float32Array,
  owner: Int32Array,
  rig: Rig,
): { uvs: Float32Array; tangents: Float32Array } {
  const nv = positions.length / 3;
  const side = Math.ceil(Math.sqrt(rig.count));
  const tile = 1 / side;
  const margin = tile * 0.04;
  const uvs = new Float32Array(nv * 2);
  const tangents = new Float32Array(nv * 4);
  for (let v = 0; v < nv; v++) {
    const b = owner[v]!;
    const hx = rig.heads[b * 3]!, hy = rig.heads[b * 3 + 1]!, hz = rig.heads[b * 3 + 2]!;
    let ax = rig.tails[b * 3]! - hx, ay = rig.tails[b * 3 + 1]! - hy, az = rig.tails[b * 3 + 2]! - hz;
    const len = Math.hypot(ax, ay, az) || 1;
    ax /= len; ay /= len; az /= len;
    // Reference direction e1: +Z made perpendicular to the axis (or +Y when the axis is along Z).
    let rx = 0, ry = 0, rz = 1;
    if (Math.abs(az) > 0.9) { rx = 0; ry = 1; rz = 0; }
    const rd = rx * ax + ry * ay + rz * az;
    let e1x = rx - rd * ax, e1y = ry - rd * ay, e1z = rz - rd * az;
    const e1l = Math.hypot(e1x, e1y, e1z);
    e1x /= e1l; e1y /= e1l; e1z /= e1l;
    const e2x = ay * e1z - az * e1y, e2y = az * e1x - ax * e1z, e2z = ax * e1y - ay * e1x;
    const px = positions[v * 3]! - hx, py = positions[v * 3 + 1]! - hy, pz = positions[v * 3 + 2]! - hz;
    const along = px * ax + py * ay + pz * az;
    const qx = px - along * ax, qy = py - along * ay, qz = pz - along * az;
    const angle = Math.atan2(qx * e2x + qy * e2y + qz * e2z, qx * e1x + qy * e1y + qz * e1z);
    const u = (angle / (2 * Math.PI) + 1) % 1;
    const t = Math.min(1, Math.max(0, along / len));
    const col = b % side;
    const row = Math.floor(b / side);
    uvs[v * 2] = col * tile + margin + u * (tile - 2 * margin);
    uvs[v * 2 + 1] = row * tile + margin + t * (tile - 2 * margin);

    // Direction of increasing angle: axis × radial.
    const nx = normals[v * 3]!, ny = normals[v * 3 + 1]!, nz = normals[v * 3 + 2]!;
    let tx = ay * qz - az * qy, ty = az * qx - ax * qz, tz = ax * qy - ay * qx;
    let tn = tx * nx + ty * ny + tz * nz;
    tx -= tn * nx; ty -= tn * ny; tz -= tn * nz;
    let tl = Math.hypot(tx, ty, tz);
    if (tl < 1e-4) {
      // Fall back to e1 (then e2) made orthogonal to the normal.
      for (const [cx, cy, cz] of [[e1x, e1y, e1z], [e2x, e2y, e2z]] as const) {
        tn = cx * nx + cy * ny + cz * nz;
        tx = cx - tn * nx; ty = cy - tn * ny; tz = cz - tn * nz;
        tl = Math.hypot(tx, ty, tz);
        if (tl > 1e-3) break;
      }
    }
    tx /= tl; ty /= tl; tz /= tl;
    const bx = ny * tz - nz * ty, by = nz * tx - nx * tz, bz = nx * ty - ny * tx;
    const w = bx * ax + by * ay + bz * az < 0 ? -1 : 1;
    tangents.set([tx, ty, tz, w], v * 4);
  }
  return { uvs, tangents };
}
