import type { Vec3 } from './sdf-primitives.ts';

/**
 * Cutting a closed surface mesh at a horizontal plane and joining two cut meshes with a strip, so that
 * two meshes meshed at different resolutions (a body and a finer head) meet without a crack.
 *
 * Contract
 * - Positions: 3 floats per vertex; indices: 3 per triangle, counter-clockwise seen from outside.
 * - `clipAtY` keeps the part of the surface on one side of the plane y = c (a vertex exactly on the
 *   plane counts as kept). Triangles crossing the plane are cut; the new vertices sit on the plane
 *   (one per cut edge, shared by both triangles of the edge) and are appended after the input
 *   vertices, which keep their numbers (vertices no kept triangle uses stay, unused).
 * - `boundaryLoops` lists the open borders of a mesh: each loop is the vertex sequence in the direction
 *   of its triangles' boundary edges.
 * - `zipLoops` joins a lower loop (on y = c, the border of the part below) and an upper loop (the
 *   border of the part above, higher up) with a strip of triangles wound consistently with both parts.
 *   Both loops must be star-shaped about the lower loop's centroid seen along Y (a neck's cross
 *   sections are). The strip uses the loops' own vertex numbers: nothing is copied or moved.
 */

export interface ClippedMesh {
  readonly positions: Float32Array;
  readonly indices: Uint32Array;
}

export function clipAtY(positions: Float32Array, indices: Uint32Array, c: number, keep: 'above' | 'below'): ClippedMesh {
  const sign = keep === 'above' ? 1 : -1;
  const pos: number[] = Array.from(positions);
  const out: number[] = [];
  const cut = new Map<number, number>();
  const nv = positions.length / 3;
  const d = (v: number): number => sign * (pos[v * 3 + 1]! - c);
  const cutVertex = (a: number, b: number): number => {
    const key = Math.min(a, b) * nv + Math.max(a, b);
    let v = cut.get(key);
    if (v !== undefined) return v;
    // Interpolate from the lower-numbered end so both triangles of the edge compute the same point.
    const [p, q] = a < b ? [a, b] : [b, a];
    const t = d(p) / (d(p) - d(q));
    v = pos.length / 3;
    pos.push(pos[p * 3]! + (pos[q * 3]! - pos[p * 3]!) * t, c, pos[p * 3 + 2]! + (pos[q * 3 + 2]! - pos[p * 3 + 2]!) * t);
    cut.set(key, v);
    return v;
  };
  const poly: number[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]!, b = indices[t + 1]!, e = indices[t + 2]!;
    const da = d(a), db = d(b), de = d(e);
    if (da >= 0 && db >= 0 && de >= 0) {
      out.push(a, b, e);
      continue;
    }
    if (da < 0 && db < 0 && de < 0) continue;
    poly.length = 0;
    const tri = [a, b, e];
    for (let i = 0; i < 3; i++) {
      const u = tri[i]!;
      const w = tri[(i + 1) % 3]!;
      const du = d(u), dw = d(w);
      if (du >= 0) poly.push(u);
      if ((du > 0 && dw < 0) || (du < 0 && dw > 0)) poly.push(cutVertex(u, w));
    }
    for (let i = 1; i + 1 < poly.length; i++) out.push(poly[0]!, poly[i]!, poly[i + 1]!);
  }
  return { positions: new Float32Array(pos), indices: new Uint32Array(out) };
}

export function boundaryLoops(indices: Uint32Array): number[][] {
  const directed = new Set<string>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) directed.add(`${indices[t + e]},${indices[t + ((e + 1) % 3)]}`);
  }
  const next = new Map<number, number>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e]!;
      const b = indices[t + ((e + 1) % 3)]!;
      if (!directed.has(`${b},${a}`)) next.set(a, b);
    }
  }
  const loops: number[][] = [];
  const seen = new Set<number>();
  for (const start of [...next.keys()].sort((x, y) => x - y)) {
    if (seen.has(start)) continue;
    const loop: number[] = [];
    let v = start;
    while (!seen.has(v)) {
      seen.add(v);
      loop.push(v);
      const n = next.get(v);
      if (n === undefined) break;
      v = n;
    }
    loops.push(loop);
  }
  return loops;
}

/**
 * Strip between `lower` (vertices read from `lowerPos`) and `upper` (from `upperPos`); the triangles
 * name lower-loop vertices as `lowerId(i)` and upper-loop vertices as `upperId(j)` of the caller's
 * numbering. Returns 3 indices per triangle.
 */
export function zipLoops(
  lower: readonly number[],
  lowerPos: Float32Array,
  upper: readonly number[],
  upperPos: Float32Array,
  lowerId: (v: number) => number,
  upperId: (v: number) => number,
): number[] {
  let cx = 0, cz = 0;
  for (const v of lower) {
    cx += lowerPos[v * 3]!;
    cz += lowerPos[v * 3 + 2]!;
  }
  cx /= lower.length;
  cz /= lower.length;
  const angle = (p: Float32Array, v: number): number => Math.atan2(p[v * 3 + 2]! - cz, p[v * 3]! - cx);
  // The strip runs along the lower loop reversed and the upper loop as it is (opposite borders).
  const P = [...lower].reverse();
  const Q = [...upper];
  const turn = (p: Float32Array, loop: readonly number[]): number => {
    let s = 0;
    for (let i = 0; i < loop.length; i++) {
      let da = angle(p, loop[(i + 1) % loop.length]!) - angle(p, loop[i]!);
      if (da > Math.PI) da -= 2 * Math.PI;
      if (da < -Math.PI) da += 2 * Math.PI;
      s += da;
    }
    return s;
  };
  const dir = Math.sign(turn(lowerPos, P));
  if (dir === 0 || Math.sign(turn(upperPos, Q)) !== dir) throw new Error('zipLoops: the loops do not wind once around the same axis in the same direction');
  // Unwrapped angles from P[0], increasing along the strip.
  const a0 = angle(lowerPos, P[0]!);
  const rel = (p: Float32Array, v: number): number => {
    let a = dir * (angle(p, v) - a0);
    a -= 2 * Math.PI * Math.floor(a / (2 * Math.PI));
    return a;
  };
  let q0 = 0;
  let best = Infinity;
  Q.forEach((v, j) => {
    const a = rel(upperPos, v);
    const dist = Math.min(a, 2 * Math.PI - a);
    if (dist < best) {
      best = dist;
      q0 = j;
    }
  });
  const Qs = [...Q.slice(q0), ...Q.slice(0, q0)];
  const unwrap = (p: Float32Array, loop: readonly number[]): number[] => {
    const out: number[] = [];
    let prev = -Infinity;
    for (const v of loop) {
      let a = rel(p, v);
      if (out.length === 0 && a > Math.PI) a -= 2 * Math.PI;
      while (a < prev - Math.PI) a += 2 * Math.PI;
      out.push(a);
      prev = a;
    }
    return out;
  };
  const aP = unwrap(lowerPos, P);
  const aQ = unwrap(upperPos, Qs);
  aP.push(aP[0]! + 2 * Math.PI);
  aQ.push(aQ[0]! + 2 * Math.PI);
  const m = P.length;
  const n = Qs.length;
  const tris: number[] = [];
  let i = 0, j = 0;
  while (i < m || j < n) {
    const takeP = i < m && (j >= n || aP[i + 1]! <= aQ[j + 1]!);
    if (takeP) {
      tris.push(lowerId(P[i]!), lowerId(P[(i + 1) % m]!), upperId(Qs[j % n]!));
      i++;
    } else {
      tris.push(lowerId(P[i % m]!), upperId(Qs[(j + 1) % n]!), upperId(Qs[j]!));
      j++;
    }
  }
  return tris;
}

/** Centroid of a loop's vertices. */
export function loopCentroid(positions: Float32Array, loop: readonly number[]): Vec3 {
  let x = 0, y = 0, z = 0;
  for (const v of loop) {
    x += positions[v * 3]!;
    y += positions[v * 3 + 1]!;
    z += positions[v * 3 + 2]!;
  }
  return [x / loop.length, y / loop.length, z / loop.length];
}
