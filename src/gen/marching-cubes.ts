import type { Grid } from './implicit-field.ts';

/**
 * Marching cubes over a sampled Grid → indexed triangle mesh of the zero set.
 *
 * Contract
 * - Inside is `value < 0` (a sample of exactly 0 counts as outside).
 * - Output positions are in the grid's space (same units as Grid.origin/step); triangles wind
 *   counter-clockwise seen from outside (from where the field is positive).
 * - When the zero set does not touch the grid's outer layer of samples, the result is closed and
 *   edge-manifold (every edge used by exactly two triangles, once in each direction) and
 *   vertex-manifold. This holds because the case table is not the classic hand-written one: it is
 *   derived here from one rule applied per cube face — walking the face's corners counter-clockwise
 *   seen from outside the cube, a contour segment runs from an outside→inside crossing to the next
 *   inside→outside crossing (so on an ambiguous face the two inside corners are always separated).
 *   Both cubes sharing a face make the same decision, so their contours match.
 * - One vertex per crossed grid edge, shared by every triangle that uses it; its position is the
 *   linear root along the edge, clamped to [EDGE_T_MIN, 1 − EDGE_T_MIN] of the edge so no triangle
 *   collapses to zero area.
 * - Each cube's contour loop (3..7 vertices) is triangulated by repeatedly clipping the ear whose
 *   closing diagonal is shortest (deterministic: ties go to the earliest vertex). A diagonal joining
 *   two vertices on one cube face is never used: the neighbouring cube could pick the same one and
 *   that edge would then carry four triangles. Diagonals through the cube's interior belong to this
 *   loop alone. When no ear is allowed the rest of the loop is fanned around a new vertex at its
 *   centroid (its position lies off the surface; callers project vertices afterwards).
 */

export const EDGE_T_MIN = 0.02;

export interface TriangleMesh {
  /** 3 floats per vertex. */
  readonly positions: Float32Array;
  /** 3 indices per triangle. */
  readonly indices: Uint32Array;
}

/** Corner c of a cube has offset (c & 1, (c >> 1) & 1, (c >> 2) & 1). */
function cornerBit(c: number, axis: number): number {
  return (c >> axis) & 1;
}

/** Edge e = axis·4 + sb + 2·sc runs along `axis` with the other two axes (b < c order) at (sb, sc). */
function edgeCorners(e: number): [number, number] {
  const axis = e >> 2;
  const others = [0, 1, 2].filter((a) => a !== axis);
  const sb = e & 1;
  const sc = (e >> 1) & 1;
  const base = (sb << others[0]!) | (sc << others[1]!);
  return [base, base | (1 << axis)];
}

function edgeBetween(c0: number, c1: number): number {
  const diff = c0 ^ c1;
  const axis = diff === 1 ? 0 : diff === 2 ? 1 : 2;
  const others = [0, 1, 2].filter((a) => a !== axis);
  return axis * 4 + cornerBit(c0, others[0]!) + 2 * cornerBit(c0, others[1]!);
}

/** The 6 faces as corner cycles, counter-clockwise seen from outside the cube. */
function faceCycles(): number[][] {
  const faces: number[][] = [];
  for (let a = 0; a < 3; a++) {
    const b = (a + 1) % 3;
    const c = (a + 2) % 3; // e_b × e_c = e_a
    for (let s = 0; s < 2; s++) {
      const uv: [number, number][] = s === 1 ? [[0, 0], [1, 0], [1, 1], [0, 1]] : [[0, 0], [0, 1], [1, 1], [1, 0]];
      faces.push(uv.map(([u, v]) => (s << a) | (u << b) | (v << c)));
    }
  }
  return faces;
}

/** For each of the 256 inside-masks: contour loops as lists of cube edge ids, in winding order. */
function buildCaseTable(): number[][][] {
  const faces = faceCycles();
  const table: number[][][] = [];
  for (let mask = 0; mask < 256; mask++) {
    const inside = (c: number): boolean => ((mask >> c) & 1) === 1;
    const next = new Int8Array(12).fill(-1);
    for (const f of faces) {
      for (let i = 0; i < 4; i++) {
        const c0 = f[i]!;
        const c1 = f[(i + 1) % 4]!;
        if (inside(c0) || !inside(c1)) continue; // not an outside→inside crossing
        for (let j = 1; j <= 4; j++) {
          const d0 = f[(i + j) % 4]!;
          const d1 = f[(i + j + 1) % 4]!;
          if (inside(d0) && !inside(d1)) {
            next[edgeBetween(c0, c1)] = edgeBetween(d0, d1);
            break;
          }
        }
      }
    }
    const loops: number[][] = [];
    const used = new Uint8Array(12);
    for (let e = 0; e < 12; e++) {
      if (next[e] === -1 || used[e]) continue;
      const loop: number[] = [];
      let cur = e;
      while (!used[cur]) {
        used[cur] = 1;
        loop.push(cur);
        cur = next[cur]!;
      }
      loops.push(loop);
    }
    table.push(loops);
  }
  return table;
}

let caseTable: number[][][] | null = null;

/** sameFace[e1 · 12 + e2] = 1 when cube edges e1 and e2 lie on a common cube face. */
const sameFace = ((): Uint8Array => {
  const out = new Uint8Array(144);
  for (const f of faceCycles()) {
    const edges = f.map((c, i) => edgeBetween(c, f[(i + 1) % 4]!));
    for (const a of edges) for (const b of edges) out[a * 12 + b] = 1;
  }
  return out;
})();

/** The derived case table (exposed for tests). */
export function marchingCubesTable(): readonly (readonly (readonly number[])[])[] {
  caseTable ??= buildCaseTable();
  return caseTable;
}

export function marchingCubes(grid: Grid): TriangleMesh {
  const table = marchingCubesTable();
  const { nx, ny, nz, origin, step, values } = grid;
  const sx = 1;
  const sy = nx;
  const sz = nx * ny;
  const cornerOffset = new Int32Array(8);
  for (let c = 0; c < 8; c++) cornerOffset[c] = cornerBit(c, 0) * sx + cornerBit(c, 1) * sy + cornerBit(c, 2) * sz;
  const edgeStart = new Int32Array(12);
  const edgeAxis = new Int32Array(12);
  for (let e = 0; e < 12; e++) {
    edgeStart[e] = cornerOffset[edgeCorners(e)[0]]!;
    edgeAxis[e] = e >> 2;
  }
  const axisStride = [sx, sy, sz];

  // Vertex of grid edge (point index p, axis a) is vertexOfEdge[p·3 + a] − 1 (0 = none yet).
  const vertexOfEdge = new Int32Array(nx * ny * nz * 3);
  const pos: number[] = [];
  const idx: number[] = [];
  const loopIds: number[] = [];
  const loopEdges: number[] = [];
  const lx: number[] = [];
  const ly: number[] = [];
  const lz: number[] = [];

  const vertexFor = (p: number, a: number): number => {
    const key = p * 3 + a;
    let v = vertexOfEdge[key]! - 1;
    if (v >= 0) return v;
    const f0 = values[p]!;
    const f1 = values[p + axisStride[a]!]!;
    let t = f0 / (f0 - f1);
    if (!(t >= EDGE_T_MIN)) t = EDGE_T_MIN;
    else if (t > 1 - EDGE_T_MIN) t = 1 - EDGE_T_MIN;
    const i = p % nx;
    const j = Math.floor(p / nx) % ny;
    const k = Math.floor(p / sz);
    const x = origin[0] + (i + (a === 0 ? t : 0)) * step;
    const y = origin[1] + (j + (a === 1 ? t : 0)) * step;
    const z = origin[2] + (k + (a === 2 ? t : 0)) * step;
    v = pos.length / 3;
    pos.push(x, y, z);
    vertexOfEdge[key] = v + 1;
    return v;
  };

  for (let k = 0; k < nz - 1; k++) {
    for (let j = 0; j < ny - 1; j++) {
      let p = (k * ny + j) * nx;
      for (let i = 0; i < nx - 1; i++, p++) {
        let mask = 0;
        for (let c = 0; c < 8; c++) if (values[p + cornerOffset[c]!]! < 0) mask |= 1 << c;
        if (mask === 0 || mask === 255) continue;
        for (const loop of table[mask]!) {
          loopIds.length = 0;
          loopEdges.length = 0;
          lx.length = ly.length = lz.length = 0;
          for (const e of loop) {
            const v = vertexFor(p + edgeStart[e]!, edgeAxis[e]!);
            loopIds.push(v);
            loopEdges.push(e);
            lx.push(pos[v * 3]!);
            ly.push(pos[v * 3 + 1]!);
            lz.push(pos[v * 3 + 2]!);
          }
          triangulateLoop(loopIds, loopEdges, lx, ly, lz, idx, pos);
        }
      }
    }
  }
  return { positions: new Float32Array(pos), indices: new Uint32Array(idx) };
}

/** Ear clipping by shortest allowed diagonal; keeps the loop's winding. Consumes the arrays. */
function triangulateLoop(
  ids: number[], edges: number[], xs: number[], ys: number[], zs: number[], out: number[], pos: number[],
): void {
  while (ids.length > 3) {
    const n = ids.length;
    let best = -1;
    let bestD = Infinity;
    for (let i = 0; i < n; i++) {
      const a = (i + n - 1) % n;
      const b = (i + 1) % n;
      if (sameFace[edges[a]! * 12 + edges[b]!]) continue;
      const d = (xs[a]! - xs[b]!) ** 2 + (ys[a]! - ys[b]!) ** 2 + (zs[a]! - zs[b]!) ** 2;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    if (best < 0) {
      const c = pos.length / 3;
      let cx = 0, cy = 0, cz = 0;
      for (let i = 0; i < n; i++) {
        cx += xs[i]!;
        cy += ys[i]!;
        cz += zs[i]!;
      }
      pos.push(cx / n, cy / n, cz / n);
      for (let i = 0; i < n; i++) out.push(ids[i]!, ids[(i + 1) % n]!, c);
      return;
    }
    out.push(ids[(best + n - 1) % n]!, ids[best]!, ids[(best + 1) % n]!);
    ids.splice(best, 1);
    edges.splice(best, 1);
    xs.splice(best, 1);
    ys.splice(best, 1);
    zs.splice(best, 1);
  }
  out.push(ids[0]!, ids[1]!, ids[2]!);
}
