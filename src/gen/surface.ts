import { evaluate, gradient, type Field } from './implicit-field.ts';

/**
 * Post-processing of a triangle mesh extracted from an implicit Field: vertex adjacency, tangential
 * relaxation with re-projection onto the zero set, region-border snapping, normals from the field
 * gradient, removal of small disconnected pieces, and a manifold check.
 *
 * Contract
 * - Positions are 3 floats per vertex in the field's space; indices 3 per triangle, CCW from outside.
 * - Relaxation and snapping move vertices only (in place); `dropSmallPieces` removes whole connected
 *   pieces. So a closed manifold mesh stays closed and manifold.
 * - Normals are the normalised field gradient: unit length, pointing outward (toward positive values).
 */

/** Compressed vertex adjacency: neighbours of v are neighbours[offsets[v] .. offsets[v+1]), ascending. */
export interface Adjacency {
  readonly offsets: Uint32Array;
  readonly neighbours: Uint32Array;
}

export function buildAdjacency(indices: Uint32Array, vertexCount: number): Adjacency {
  const degree = new Uint32Array(vertexCount);
  for (let i = 0; i < indices.length; i++) degree[indices[i]!] = degree[indices[i]!]! + 2;
  const offsets = new Uint32Array(vertexCount + 1);
  for (let v = 0; v < vertexCount; v++) offsets[v + 1] = offsets[v]! + degree[v]!;
  const raw = new Uint32Array(offsets[vertexCount]!);
  const fill = offsets.slice(0, vertexCount);
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e]!;
      const b = indices[t + ((e + 1) % 3)]!;
      const c = indices[t + ((e + 2) % 3)]!;
      raw[fill[a]!++] = b;
      raw[fill[a]!++] = c;
    }
  }
  // Sort and deduplicate each vertex's list.
  const out: number[] = [];
  const outOffsets = new Uint32Array(vertexCount + 1);
  for (let v = 0; v < vertexCount; v++) {
    const list = Array.from(raw.subarray(offsets[v]!, offsets[v + 1]!)).sort((x, y) => x - y);
    for (let i = 0; i < list.length; i++) if (i === 0 || list[i] !== list[i - 1]) out.push(list[i]!);
    outOffsets[v + 1] = out.length;
  }
  return { offsets: outOffsets, neighbours: new Uint32Array(out) };
}

const _g = new Float64Array(3);

/** Moves (x, y, z) onto the zero set by Newton steps along the gradient; writes to out[o..o+2]. */
export function projectToSurface(field: Field, out: Float32Array, o: number, steps = 2): void {
  let x = out[o]!, y = out[o + 1]!, z = out[o + 2]!;
  for (let s = 0; s < steps; s++) {
    const f = evaluate(field, x, y, z);
    gradient(field, x, y, z, _g, 0);
    const g2 = _g[0]! * _g[0]! + _g[1]! * _g[1]! + _g[2]! * _g[2]!;
    if (g2 < 1e-12) break;
    const k = f / g2;
    x -= k * _g[0]!;
    y -= k * _g[1]!;
    z -= k * _g[2]!;
  }
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/**
 * Tangential Laplacian relaxation: each round moves every vertex `rate` of the way toward the mean
 * of its neighbours within its tangent plane, then projects it back onto the surface. A move is
 * undone when it would flip any incident triangle relative to the field normal.
 */
export function relax(
  field: Field,
  positions: Float32Array,
  indices: Uint32Array,
  adjacency: Adjacency,
  iterations: number,
  rate: number,
): void {
  const nv = positions.length / 3;
  const normals = new Float32Array(nv * 3);
  const next = new Float32Array(positions.length);
  const trisOf = vertexTriangles(indices, nv);
  const { offsets, neighbours } = adjacency;
  for (let it = 0; it < iterations; it++) {
    fieldNormals(field, positions, normals);
    next.set(positions);
    for (let v = 0; v < nv; v++) {
      const n0 = offsets[v]!, n1 = offsets[v + 1]!;
      if (n1 === n0) continue;
      let mx = 0, my = 0, mz = 0;
      for (let e = n0; e < n1; e++) {
        const u = neighbours[e]!;
        mx += positions[u * 3]!;
        my += positions[u * 3 + 1]!;
        mz += positions[u * 3 + 2]!;
      }
      const inv = 1 / (n1 - n0);
      let dx = mx * inv - positions[v * 3]!;
      let dy = my * inv - positions[v * 3 + 1]!;
      let dz = mz * inv - positions[v * 3 + 2]!;
      const nx = normals[v * 3]!, ny = normals[v * 3 + 1]!, nz = normals[v * 3 + 2]!;
      const dn = dx * nx + dy * ny + dz * nz;
      dx -= dn * nx;
      dy -= dn * ny;
      dz -= dn * nz;
      next[v * 3] = positions[v * 3]! + rate * dx;
      next[v * 3 + 1] = positions[v * 3 + 1]! + rate * dy;
      next[v * 3 + 2] = positions[v * 3 + 2]! + rate * dz;
      projectToSurface(field, next, v * 3, 1);
    }
    // Reject moves that flip a triangle against the field normal of its corners.
    for (let v = 0; v < nv; v++) {
      let ok = true;
      for (let e = trisOf.offsets[v]!; e < trisOf.offsets[v + 1]! && ok; e++) {
        const t = trisOf.tris[e]! * 3;
        ok = facesOutward(next, normals, indices[t]!, indices[t + 1]!, indices[t + 2]!);
      }
      if (!ok) {
        next[v * 3] = positions[v * 3]!;
        next[v * 3 + 1] = positions[v * 3 + 1]!;
        next[v * 3 + 2] = positions[v * 3 + 2]!;
      }
    }
    positions.set(next);
  }
}

function facesOutward(p: Float32Array, n: Float32Array, a: number, b: number, c: number): boolean {
  const ux = p[b * 3]! - p[a * 3]!, uy = p[b * 3 + 1]! - p[a * 3 + 1]!, uz = p[b * 3 + 2]! - p[a * 3 + 2]!;
  const vx = p[c * 3]! - p[a * 3]!, vy = p[c * 3 + 1]! - p[a * 3 + 1]!, vz = p[c * 3 + 2]! - p[a * 3 + 2]!;
  const gx = uy * vz - uz * vy, gy = uz * vx - ux * vz, gz = ux * vy - uy * vx;
  const mx = n[a * 3]! + n[b * 3]! + n[c * 3]!;
  const my = n[a * 3 + 1]! + n[b * 3 + 1]! + n[c * 3 + 1]!;
  const mz = n[a * 3 + 2]! + n[b * 3 + 2]! + n[c * 3 + 2]!;
  return gx * mx + gy * my + gz * mz > 0;
}

/** Triangles around each vertex, compressed like Adjacency. */
export function vertexTriangles(indices: Uint32Array, vertexCount: number): { offsets: Uint32Array; tris: Uint32Array } {
  const offsets = new Uint32Array(vertexCount + 1);
  for (let i = 0; i < indices.length; i++) offsets[indices[i]! + 1]++;
  for (let v = 0; v < vertexCount; v++) offsets[v + 1] = offsets[v + 1]! + offsets[v]!;
  const fill = offsets.slice(0, vertexCount);
  const tris = new Uint32Array(indices.length);
  for (let i = 0; i < indices.length; i++) tris[fill[indices[i]!]!++] = Math.floor(i / 3);
  return { offsets, tris };
}

/** Unit outward normals from the field gradient, 3 floats per vertex. */
export function fieldNormals(field: Field, positions: Float32Array, out: Float32Array): void {
  const nv = positions.length / 3;
  for (let v = 0; v < nv; v++) {
    gradient(field, positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!, _g, 0);
    const l = Math.hypot(_g[0]!, _g[1]!, _g[2]!);
    if (l > 1e-12) {
      out[v * 3] = _g[0]! / l;
      out[v * 3 + 1] = _g[1]! / l;
      out[v * 3 + 2] = _g[2]! / l;
    } else {
      out[v * 3] = 0;
      out[v * 3 + 1] = 1;
      out[v * 3 + 2] = 0;
    }
  }
}

/**
 * Counts how many times each directed edge is used; returns the number of undirected edges that are
 * not used exactly once in each direction (0 for a closed, consistently wound manifold).
 */
export function countBadEdges(indices: Uint32Array): number {
  const uses = new Map<number, number>();
  const key = (a: number, b: number): number => a * 4294967296 + b;
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const k = key(indices[t + e]!, indices[t + ((e + 1) % 3)]!);
      uses.set(k, (uses.get(k) ?? 0) + 1);
    }
  }
  let bad = 0;
  for (const [k, n] of uses) {
    const a = Math.floor(k / 4294967296);
    const b = k - a * 4294967296;
    if (n !== 1 || uses.get(key(b, a)) !== 1) bad++;
  }
  return bad;
}

/**
 * Straightens the borders between labelled regions (e.g. materials) on the surface. For every edge
 * whose endpoints carry different labels, the label change along the edge is found by bisection
 * (`bisections` halvings of the straight edge, which lies within a fraction of a cell of the surface);
 * the endpoint nearer to it moves there, projected onto the surface (each vertex at most once, to its
 * nearest crossing). Triangles labelled by their centroid
 * afterwards have borders that follow the label function's own curves instead of the grid staircase.
 * A move that would flip an incident triangle is skipped. Connectivity is unchanged.
 */
export function snapRegionBorders(
  field: Field,
  positions: Float32Array,
  indices: Uint32Array,
  adjacency: Adjacency,
  label: (x: number, y: number, z: number) => number,
  bisections = 6,
): void {
  const nv = positions.length / 3;
  const labels = new Int32Array(nv);
  for (let v = 0; v < nv; v++) labels[v] = label(positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!);
  const moveDist = new Float64Array(nv).fill(Infinity);
  const target = new Float32Array(nv * 3);
  const q = new Float32Array(3);
  const { offsets, neighbours } = adjacency;
  for (let a = 0; a < nv; a++) {
    for (let e = offsets[a]!; e < offsets[a + 1]!; e++) {
      const b = neighbours[e]!;
      if (b <= a || labels[a] === labels[b]) continue;
      let lo = 0;
      let hi = 1;
      for (let i = 0; i < bisections; i++) {
        const mid = (lo + hi) / 2;
        for (let c = 0; c < 3; c++) q[c] = positions[a * 3 + c]! + (positions[b * 3 + c]! - positions[a * 3 + c]!) * mid;
        if (label(q[0]!, q[1]!, q[2]!) === labels[a]) lo = mid;
        else hi = mid;
      }
      const t = (lo + hi) / 2;
      const len = Math.hypot(
        positions[b * 3]! - positions[a * 3]!, positions[b * 3 + 1]! - positions[a * 3 + 1]!, positions[b * 3 + 2]! - positions[a * 3 + 2]!,
      );
      const v = t < 0.5 ? a : b;
      const d = (t < 0.5 ? t : 1 - t) * len;
      if (d >= moveDist[v]!) continue;
      moveDist[v] = d;
      for (let c = 0; c < 3; c++) target[v * 3 + c] = positions[a * 3 + c]! + (positions[b * 3 + c]! - positions[a * 3 + c]!) * t;
    }
  }
  const normals = new Float32Array(nv * 3);
  fieldNormals(field, positions, normals);
  const trisOf = vertexTriangles(indices, nv);
  const old = new Float32Array(3);
  for (let v = 0; v < nv; v++) {
    if (moveDist[v] === Infinity) continue;
    old.set(positions.subarray(v * 3, v * 3 + 3));
    positions.set(target.subarray(v * 3, v * 3 + 3), v * 3);
    projectToSurface(field, positions, v * 3, 2);
    let ok = true;
    for (let e = trisOf.offsets[v]!; e < trisOf.offsets[v + 1]! && ok; e++) {
      const t = trisOf.tris[e]! * 3;
      ok = facesOutward(positions, normals, indices[t]!, indices[t + 1]!, indices[t + 2]!);
    }
    if (!ok) positions.set(old, v * 3);
  }
}

/**
 * Removes connected pieces (connected through shared vertices) with fewer than `minFraction` of the
 * largest piece's triangles: crumbs of thin features at coarse resolutions. Whole pieces go, so a
 * closed manifold mesh stays closed and manifold. Returns the kept triangles' indices (same vertex
 * numbering; unused vertices are left for the caller's reindexing).
 */
export function dropSmallPieces(indices: Uint32Array, vertexCount: number, minFraction: number): Uint32Array {
  const parent = new Int32Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) parent[v] = v;
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v]!]!;
      v = parent[v]!;
    }
    return v;
  };
  for (let t = 0; t < indices.length; t += 3) {
    const a = find(indices[t]!);
    for (let e = 1; e < 3; e++) {
      const b = find(indices[t + e]!);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  const size = new Map<number, number>();
  for (let t = 0; t < indices.length; t += 3) {
    const r = find(indices[t]!);
    size.set(r, (size.get(r) ?? 0) + 1);
  }
  let largest = 0;
  for (const n of size.values()) largest = Math.max(largest, n);
  const keep: number[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    if (size.get(find(indices[t]!))! >= minFraction * largest) keep.push(indices[t]!, indices[t + 1]!, indices[t + 2]!);
  }
  return keep.length === indices.length ? indices : new Uint32Array(keep);
}
