import type { SkinnedMesh } from './types.ts';

/** What the measure reads of a mesh. */
export type ErrorMeshInput = Pick<SkinnedMesh, 'vertexCount' | 'positions' | 'indices'>;

/**
 * The error of an authored detail level against the chosen (heavier) level, in model units (bind space), for
 * the crowd's projected-error rule (src/render/crowd-lod.ts): the largest distance from a vertex the lighter
 * level's triangles use to the nearest vertex of the chosen level. The chosen level is dense where the
 * lighter one differs (it is the finer mesh), so the nearest vertex stands in for the nearest surface point;
 * the measure over-estimates by at most the chosen level's vertex spacing. Vertices are looked up in a uniform
 * grid of a few chosen vertices per cell (about linear time; 130–360 ms for Dawn medium against high in Node, so
 * the page runs it in src/app/lod-worker.ts). No WebGL. Allocates (one-time work).
 */
export function authoredLevelError(chosen: { readonly meshes: readonly ErrorMeshInput[] }, level: { readonly meshes: readonly ErrorMeshInput[] }): number {
  let count = 0;
  for (const m of chosen.meshes) count += m.vertexCount;
  if (count === 0) return 0;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const m of chosen.meshes) for (let v = 0; v < m.vertexCount * 3; v++) {
    lo[v % 3] = Math.min(lo[v % 3]!, m.positions[v]!);
    hi[v % 3] = Math.max(hi[v % 3]!, m.positions[v]!);
  }
  // A surface's vertices fill a box's cells sparsely: cells of about √(box face / vertices), so a cell holds a few.
  const extent = Math.max(1e-6, hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!);
  const cell = Math.max(extent / 512, extent / Math.sqrt(count));
  const dims = [0, 1, 2].map((a) => Math.max(1, Math.ceil((hi[a]! - lo[a]!) / cell) + 1));
  const key = (x: number, y: number, z: number): number => (z * dims[1]! + y) * dims[0]! + x;
  const cellOf = (p: number, a: number): number => Math.min(dims[a]! - 1, Math.max(0, Math.floor((p - lo[a]!) / cell)));
  const buckets = new Map<number, number[]>();
  for (const m of chosen.meshes) for (let v = 0; v < m.vertexCount; v++) {
    const x = m.positions[v * 3]!, y = m.positions[v * 3 + 1]!, z = m.positions[v * 3 + 2]!;
    const k = key(cellOf(x, 0), cellOf(y, 1), cellOf(z, 2));
    let b = buckets.get(k);
    if (!b) buckets.set(k, (b = []));
    b.push(x, y, z);
  }
  let worst = 0;
  for (const m of level.meshes) {
    const used = new Uint8Array(m.vertexCount);
    for (const i of m.indices) used[i] = 1;
    for (let v = 0; v < m.vertexCount; v++) {
      if (!used[v]) continue;
      const x = m.positions[v * 3]!, y = m.positions[v * 3 + 1]!, z = m.positions[v * 3 + 2]!;
      worst = Math.max(worst, nearest(x, y, z));
    }
  }
  return worst;

  /** Distance to the nearest chosen vertex: rings of cells outwards until the ring is farther than the best. */
  function nearest(x: number, y: number, z: number): number {
    const cx = cellOf(x, 0), cy = cellOf(y, 1), cz = cellOf(z, 2);
    let best = Infinity;
    for (let r = 0; r < Math.max(...dims); r++) {
      if (best < ((r - 1) * cell) ** 2) break;
      for (let dz = -r; dz <= r; dz++) for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dz)) !== r) continue;
        const b = buckets.get(key(cx + dx, cy + dy, cz + dz));
        if (!b || cx + dx < 0 || cy + dy < 0 || cz + dz < 0 || cx + dx >= dims[0]! || cy + dy >= dims[1]! || cz + dz >= dims[2]!) continue;
        for (let j = 0; j < b.length; j += 3) {
          const dx2 = b[j]! - x, dy2 = b[j + 1]! - y, dz2 = b[j + 2]! - z;
          best = Math.min(best, dx2 * dx2 + dy2 * dy2 + dz2 * dz2);
        }
      }
    }
    return Math.sqrt(best);
  }
}
