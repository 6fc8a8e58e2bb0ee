import type { SkinnedMesh } from '../model/types.ts';

/**
 * The welded topology of a mesh, the fixed half of every artifact metric (src/quality/metrics.ts): computed
 * once per mesh from its bind-space positions and triangles, cached per mesh object (WeakMap), never changed.
 *
 * Contract
 * - Welding is by exact position: vertices whose three bind-space coordinates are bit-for-bit equal (as
 *   Float32) are one welded vertex. Real meshes and the twist rig's caps duplicate vertices at UV, normal and
 *   material seams; a surface closed by position is closed. Welded ids run 0..weldedCount−1 in order of
 *   first appearance; `representative[w]` is the first mesh vertex of welded vertex w.
 * - Boundary edges: welded edges used by exactly one triangle, counted over triangles whose three corners
 *   weld to three different vertices (degenerate ones are ignored). `open` is boundaryEdges > 0. An edge
 *   shared by three or more triangles (non-manifold) is not a boundary.
 * - bindRingArea[w]: the area of welded vertex w's one-ring in the bind pose, i.e. the sum of the areas of
 *   every triangle that touches the position (model units²). bindVolume: the bind pose's signed volume
 *   (divergence theorem, outward CCW winding positive).
 * - Allocates at construction only (per mesh, once).
 */
export interface MeshTopology {
  readonly vertexCount: number;
  /** Mesh vertex → welded vertex id. */
  readonly weld: Uint32Array;
  readonly weldedCount: number;
  /** Welded vertex id → its first mesh vertex. */
  readonly representative: Uint32Array;
  /** Triangles whose corners weld to three distinct vertices: 3 mesh-vertex indices each (the mesh's own). */
  readonly triangles: Uint32Array;
  readonly boundaryEdges: number;
  readonly open: boolean;
  /** Bind-space one-ring area per welded vertex (model units²), float64. */
  readonly bindRingArea: Float64Array;
  /** Signed volume in bind space (model units³). */
  readonly bindVolume: number;
}

const cache = new WeakMap<SkinnedMesh, MeshTopology>();

/** The topology of `mesh`, built on first use and cached for the life of the mesh object. */
export function meshTopology(mesh: SkinnedMesh): MeshTopology {
  let t = cache.get(mesh);
  if (!t) {
    t = buildTopology(mesh.positions, mesh.indices, mesh.vertexCount);
    cache.set(mesh, t);
  }
  return t;
}

/** Builds the topology of a triangle list over `positions` (3 floats per vertex). Uncached; allocates. */
export function buildTopology(positions: Float32Array, indices: Uint32Array, vertexCount: number): MeshTopology {
  const weld = new Uint32Array(vertexCount);
  const representative: number[] = [];
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, vertexCount * 3);
  const byPosition = new Map<string, number>();
  for (let v = 0; v < vertexCount; v++) {
    const key = `${bits[v * 3]},${bits[v * 3 + 1]},${bits[v * 3 + 2]}`;
    let w = byPosition.get(key);
    if (w === undefined) {
      w = representative.length;
      byPosition.set(key, w);
      representative.push(v);
    }
    weld[v] = w;
  }
  const weldedCount = representative.length;

  const kept: number[] = [];
  const edgeUses = new Map<number, number>();
  for (let i = 0; i + 2 < indices.length; i += 3) {
    const a = indices[i]!, b = indices[i + 1]!, c = indices[i + 2]!;
    if (a >= vertexCount || b >= vertexCount || c >= vertexCount) continue;
    const wa = weld[a]!, wb = weld[b]!, wc = weld[c]!;
    if (wa === wb || wb === wc || wa === wc) continue;
    kept.push(a, b, c);
    countEdge(edgeUses, wa, wb, weldedCount);
    countEdge(edgeUses, wb, wc, weldedCount);
    countEdge(edgeUses, wc, wa, weldedCount);
  }
  let boundaryEdges = 0;
  for (const uses of edgeUses.values()) if (uses === 1) boundaryEdges++;
  const triangles = Uint32Array.from(kept);

  const bindRingArea = new Float64Array(weldedCount);
  ringAreas(positions, triangles, weld, bindRingArea);

  return {
    vertexCount,
    weld,
    weldedCount,
    representative: Uint32Array.from(representative),
    triangles,
    boundaryEdges,
    open: boundaryEdges > 0,
    bindRingArea,
    bindVolume: signedVolume(positions, triangles),
  };
}

function countEdge(uses: Map<number, number>, a: number, b: number, n: number): void {
  const key = a < b ? a * n + b : b * n + a;
  uses.set(key, (uses.get(key) ?? 0) + 1);
}

/**
 * Signed volume enclosed by triangles over `positions` (3 floats per vertex): Σ p₀ · (p₁ × p₂) / 6, the
 * divergence theorem with the origin as apex. Positive for a closed, outward (CCW seen from outside) surface;
 * for an open surface the value depends on the origin. Float64 sums; no allocation.
 */
export function signedVolume(positions: Float32Array, triangles: Uint32Array): number {
  let sum = 0;
  for (let i = 0; i < triangles.length; i += 3) {
    const a = triangles[i]! * 3, b = triangles[i + 1]! * 3, c = triangles[i + 2]! * 3;
    const ax = positions[a]!, ay = positions[a + 1]!, az = positions[a + 2]!;
    const bx = positions[b]!, by = positions[b + 1]!, bz = positions[b + 2]!;
    const cx = positions[c]!, cy = positions[c + 1]!, cz = positions[c + 2]!;
    sum += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
  }
  return sum / 6;
}

/**
 * One-ring areas: out[w] = Σ area of the triangles touching welded vertex w, each triangle's area read from
 * `positions` at its own (unwelded) corners. `out` has weldedCount entries and is overwritten. No allocation.
 */
export function ringAreas(positions: Float32Array, triangles: Uint32Array, weld: Uint32Array, out: Float64Array): void {
  out.fill(0);
  for (let i = 0; i < triangles.length; i += 3) {
    const ia = triangles[i]!, ib = triangles[i + 1]!, ic = triangles[i + 2]!;
    const a = ia * 3, b = ib * 3, c = ic * 3;
    const ux = positions[b]! - positions[a]!, uy = positions[b + 1]! - positions[a + 1]!, uz = positions[b + 2]! - positions[a + 2]!;
    const vx = positions[c]! - positions[a]!, vy = positions[c + 1]! - positions[a + 1]!, vz = positions[c + 2]! - positions[a + 2]!;
    const x = uy * vz - uz * vy, y = uz * vx - ux * vz, z = ux * vy - uy * vx;
    const area = 0.5 * Math.sqrt(x * x + y * y + z * z);
    out[weld[ia]!] += area;
    out[weld[ib]!] += area;
    out[weld[ic]!] += area;
  }
}
