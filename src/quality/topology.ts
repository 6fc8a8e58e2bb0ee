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

/**
 * Builds the topology of a triangle list over `positions` (3 floats per vertex). Uncached; allocates: the welding
 * and the edge counts go through open-addressing tables in typed arrays (a Map keyed by each vertex's position
 * string and one keyed by each edge took 215 ms on Dawn high's 213,800 triangles, in the frame after its first).
 */
export function buildTopology(positions: Float32Array, indices: Uint32Array, vertexCount: number): MeshTopology {
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, vertexCount * 3);
  const { weld, representative } = weldByPosition(bits, vertexCount);
  const weldedCount = representative.length;

  const kept = new Uint32Array(indices.length - (indices.length % 3));
  let keptLength = 0;
  const edges = new EdgeCounts(kept.length, weldedCount);
  for (let i = 0; i + 2 < indices.length; i += 3) {
    const a = indices[i]!, b = indices[i + 1]!, c = indices[i + 2]!;
    if (a >= vertexCount || b >= vertexCount || c >= vertexCount) continue;
    const wa = weld[a]!, wb = weld[b]!, wc = weld[c]!;
    if (wa === wb || wb === wc || wa === wc) continue;
    kept[keptLength++] = a;
    kept[keptLength++] = b;
    kept[keptLength++] = c;
    edges.add(wa, wb);
    edges.add(wb, wc);
    edges.add(wc, wa);
  }
  const boundaryEdges = edges.usedOnce();
  const triangles = kept.slice(0, keptLength);

  const bindRingArea = new Float64Array(weldedCount);
  ringAreas(positions, triangles, weld, bindRingArea);

  return {
    vertexCount,
    weld,
    weldedCount,
    representative,
    triangles,
    boundaryEdges,
    open: boundaryEdges > 0,
    bindRingArea,
    bindVolume: signedVolume(positions, triangles),
  };
}

/** The smallest power of two at least twice `n` and at least 16: a table that stays at most half full. */
function tableSize(n: number): number {
  let size = 16;
  while (size < n * 2) size *= 2;
  return size;
}

/**
 * Mesh vertex → welded id by the exact bits of its three coordinates (`bits`: the positions as Uint32), ids in
 * order of first appearance, and each id's first vertex.
 */
function weldByPosition(bits: Uint32Array, vertexCount: number): { weld: Uint32Array; representative: Uint32Array } {
  const weld = new Uint32Array(vertexCount);
  const first = new Uint32Array(vertexCount);
  const mask = tableSize(vertexCount) - 1;
  // A slot holds a welded id + 1 (0: empty).
  const slots = new Uint32Array(mask + 1);
  let count = 0;
  for (let v = 0; v < vertexCount; v++) {
    const x = bits[v * 3]!, y = bits[v * 3 + 1]!, z = bits[v * 3 + 2]!;
    let slot = (Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca6b) ^ Math.imul(z, 0xc2b2ae35)) & mask;
    for (;;) {
      const held = slots[slot]!;
      if (held === 0) {
        slots[slot] = count + 1;
        first[count] = v;
        weld[v] = count++;
        break;
      }
      const r = first[held - 1]! * 3;
      if (bits[r] === x && bits[r + 1] === y && bits[r + 2] === z) {
        weld[v] = held - 1;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return { weld, representative: first.slice(0, count) };
}

/**
 * How many triangles use each undirected welded edge: the edges added (`add`, at most `capacity`) are bucketed by
 * their lower id (counting sort), then each bucket's higher ids are counted with a stamp per welded vertex. Linear
 * in the edges added; `weldedCount` ids.
 */
class EdgeCounts {
  private readonly lows: Uint32Array;
  private readonly highs: Uint32Array;
  private length = 0;

  constructor(
    capacity: number,
    private readonly weldedCount: number,
  ) {
    this.lows = new Uint32Array(capacity);
    this.highs = new Uint32Array(capacity);
  }

  add(a: number, b: number): void {
    this.lows[this.length] = a < b ? a : b;
    this.highs[this.length++] = a < b ? b : a;
  }

  /** How many edges exactly one triangle uses. */
  usedOnce(): number {
    const n = this.weldedCount;
    const start = new Uint32Array(n + 1);
    for (let i = 0; i < this.length; i++) start[this.lows[i]! + 1]!++;
    for (let w = 0; w < n; w++) start[w + 1]! += start[w]!;
    const fill = start.slice(0, n);
    const bucket = new Uint32Array(this.length);
    for (let i = 0; i < this.length; i++) bucket[fill[this.lows[i]!]!++] = this.highs[i]!;
    // stamp[hi] = lo + 1 while bucket lo is counted; uses[hi]: that edge's uses so far.
    const stamp = new Uint32Array(n);
    const uses = new Uint32Array(n);
    let once = 0;
    for (let lo = 0; lo < n; lo++) {
      for (let k = start[lo]!; k < start[lo + 1]!; k++) {
        const hi = bucket[k]!;
        if (stamp[hi] !== lo + 1) {
          stamp[hi] = lo + 1;
          uses[hi] = 1;
          once++;
        } else if (++uses[hi]! === 2) once--;
      }
    }
    return once;
  }
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
