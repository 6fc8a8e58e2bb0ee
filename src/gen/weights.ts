import { MAX_INFLUENCES } from '../model/types.ts';
import type { Rig } from './rig.ts';
import type { Adjacency } from './surface.ts';

/**
 * Procedural skin weights for a mesh generated around a Rig.
 *
 * Contract
 * - Input: bind-space positions (3 floats per vertex), the mesh's vertex adjacency, and for every
 *   vertex the bone that owns it (the bone of the primitive that generated that piece of surface;
 *   ownership keeps a thigh's inner side off the other thigh however close they are).
 * - Each bone b with a parent has a joint at heads[b]. Its blend describes how the surface crosses
 *   that joint: with s the signed distance of the vertex past the joint along b's direction
 *   (heads[b] → tails[b]), the share on b's side is smoothstep(−width, width, s). A joint farther than
 *   `reach` from the vertex counts as fully crossed, so joints elsewhere on the chain do not pull.
 * - Raw weights follow the owner's chain upward only while the vertex lies before the current joint
 *   (share < 1), plus the owner's nearest child at its far end: with chain B_0 (outermost ancestor)
 *   … B_m and g_i the share past the joint B_{i−1}|B_i (g_0 = 1, g_{m+1} = 0),
 *   w(B_i) = Π_{k ≤ i} g_k · (1 − g_{i+1}), which sums to 1 by construction.
 * - Then `smoothIterations` rounds of uniform Laplacian smoothing over the surface graph (rate
 *   `smoothRate`), so bends blend smoothly across ownership borders too; each vertex then keeps
 *   raw + smooth·(smoothed − raw) with `smooth` of its owner bone's blend.
 * - Output (model layout): MAX_INFLUENCES (joint, weight) pairs per vertex, the largest kept,
 *   weights below `minWeight` dropped, renormalised to sum 1, sorted by descending weight; unused
 *   slots are (0, 0). Joint indices are palette slots = bone indices.
 */

export interface JointBlend {
  /** Half-width of the blend zone across the joint with the parent (metres); 0 = rigid split. */
  readonly width: number;
  /** Distance from the joint beyond which the joint no longer splits weight (metres). */
  readonly reach: number;
  /**
   * How much of the surface smoothing applies to vertices owned by this bone, 0..1 (default 1).
   * Small parts packed close together (fingers) keep most of their own weights with a low value.
   */
  readonly smooth?: number;
}

export interface WeightOptions {
  /** Per bone (index = bone), the blend at the joint with its parent. Ignored for roots. */
  readonly blends: readonly JointBlend[];
  readonly smoothIterations: number;
  readonly smoothRate: number;
  readonly minWeight: number;
}

export interface SkinWeights {
  readonly joints: Uint16Array;
  readonly weights: Float32Array;
  readonly maxInfluences: number;
}

function smoothstep(e0: number, e1: number, x: number): number {
  if (e1 <= e0) return x < e0 ? 0 : 1;
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
}

function segmentDistance(rig: Rig, b: number, x: number, y: number, z: number): number {
  const h = rig.heads;
  const t = rig.tails;
  const ax = h[b * 3]!, ay = h[b * 3 + 1]!, az = h[b * 3 + 2]!;
  const dx = t[b * 3]! - ax, dy = t[b * 3 + 1]! - ay, dz = t[b * 3 + 2]! - az;
  const l2 = dx * dx + dy * dy + dz * dz;
  let u = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy + (z - az) * dz) / l2 : 0;
  u = Math.min(1, Math.max(0, u));
  return Math.hypot(x - ax - u * dx, y - ay - u * dy, z - az - u * dz);
}

/**
 * Share of the weight on bone b's side of its parent joint, for a point at (x, y, z). Beyond the
 * joint's reach the point counts as past the joint (`beyond` true: share 1, for joints up the
 * owner's chain) or before it (`beyond` false: share 0, for the owner's child joint).
 */
export function jointShare(rig: Rig, blend: JointBlend, b: number, x: number, y: number, z: number, beyond = true): number {
  const h = rig.heads;
  const t = rig.tails;
  const jx = h[b * 3]!, jy = h[b * 3 + 1]!, jz = h[b * 3 + 2]!;
  let dx = t[b * 3]! - jx, dy = t[b * 3 + 1]! - jy, dz = t[b * 3 + 2]! - jz;
  const l = Math.hypot(dx, dy, dz) || 1;
  dx /= l; dy /= l; dz /= l;
  const s = (x - jx) * dx + (y - jy) * dy + (z - jz) * dz;
  const g = smoothstep(-blend.width, blend.width, s);
  const dist = Math.hypot(x - jx, y - jy, z - jz);
  const far = smoothstep(blend.reach, blend.reach * 1.3, dist);
  return beyond ? g + (1 - g) * far : g * (1 - far);
}

export function computeSkinWeights(
  positions: Float32Array,
  adjacency: Adjacency,
  owner: Int32Array,
  rig: Rig,
  options: WeightOptions,
): SkinWeights {
  const nv = positions.length / 3;
  const nb = rig.count;
  const parents = rig.skeleton.parents;
  const dense = new Float32Array(nv * nb);
  const chain: number[] = [];
  const share: number[] = [];

  for (let v = 0; v < nv; v++) {
    const x = positions[v * 3]!, y = positions[v * 3 + 1]!, z = positions[v * 3 + 2]!;
    const b = owner[v]!;
    chain.length = 0;
    // Nearest child of the owner, if the vertex reaches past the owner's far joint.
    let child = -1;
    let childD = Infinity;
    for (const c of rig.children[b]!) {
      const d = segmentDistance(rig, c, x, y, z);
      if (d < childD) {
        childD = d;
        child = c;
      }
    }
    // Walk up from the owner only while the vertex has not fully crossed the current joint.
    share.length = 0;
    if (child >= 0) {
      chain.push(child);
      share.push(jointShare(rig, options.blends[child]!, child, x, y, z, false));
    }
    let c = b;
    chain.push(c);
    while (parents[c]! >= 0) {
      const g = jointShare(rig, options.blends[c]!, c, x, y, z, true);
      if (g >= 0.9999) break;
      share.push(g);
      c = parents[c]!;
      chain.push(c);
    }
    share.push(1);
    chain.reverse(); // outermost ancestor first
    share.reverse(); // share[i] = share on chain[i]'s side of its joint with chain[i − 1]
    let prod = 1;
    for (let i = 0; i < chain.length; i++) {
      prod *= share[i]!;
      const next = i + 1 < chain.length ? share[i + 1]! : 0;
      dense[v * nb + chain[i]!] += prod * (1 - next);
    }
  }

  // Laplacian smoothing over the surface graph, one bone at a time over the ring of vertices its
  // weight can have reached (it spreads one ring per iteration).
  const { offsets, neighbours } = adjacency;
  const rate = options.smoothRate;
  const raw = dense.slice();
  const column = new Float32Array(nv);
  const next = new Float32Array(nv);
  const active = new Uint8Array(nv);
  let list: number[] = [];
  for (let b = 0; b < nb; b++) {
    active.fill(0);
    list = [];
    for (let v = 0; v < nv; v++) {
      column[v] = dense[v * nb + b]!;
      if (column[v]! > 0) {
        active[v] = 1;
        list.push(v);
      }
    }
    if (list.length === 0) continue;
    for (let it = 0; it < options.smoothIterations; it++) {
      const grown: number[] = [];
      for (const v of list) {
        for (let e = offsets[v]!; e < offsets[v + 1]!; e++) {
          const u = neighbours[e]!;
          if (!active[u]) {
            active[u] = 1;
            grown.push(u);
          }
        }
      }
      for (const u of grown) list.push(u);
      for (const v of list) {
        const n0 = offsets[v]!;
        const n1 = offsets[v + 1]!;
        if (n1 === n0) {
          next[v] = column[v]!;
          continue;
        }
        let sum = 0;
        for (let e = n0; e < n1; e++) sum += column[neighbours[e]!]!;
        next[v] = column[v]! + rate * (sum / (n1 - n0) - column[v]!);
      }
      for (const v of list) column[v] = next[v]!;
    }
    for (const v of list) dense[v * nb + b] = column[v]!;
  }
  for (let v = 0; v < nv; v++) {
    const k = options.blends[owner[v]!]!.smooth ?? 1;
    if (k === 1) continue;
    for (let b = 0; b < nb; b++) dense[v * nb + b] = raw[v * nb + b]! + k * (dense[v * nb + b]! - raw[v * nb + b]!);
  }

  // Keep the largest MAX_INFLUENCES, drop tiny ones, renormalise, sort descending.
  const joints = new Uint16Array(nv * MAX_INFLUENCES);
  const weights = new Float32Array(nv * MAX_INFLUENCES);
  let maxInfluences = 0;
  const topJ = [0, 0, 0, 0];
  const topW = [0, 0, 0, 0];
  for (let v = 0; v < nv; v++) {
    topJ.fill(0);
    topW.fill(0);
    const o = v * nb;
    for (let b = 0; b < nb; b++) {
      const w = dense[o + b]!;
      if (w <= topW[MAX_INFLUENCES - 1]!) continue;
      let k = MAX_INFLUENCES - 1;
      while (k > 0 && topW[k - 1]! < w) {
        topW[k] = topW[k - 1]!;
        topJ[k] = topJ[k - 1]!;
        k--;
      }
      topW[k] = w;
      topJ[k] = b;
    }
    let sum = 0;
    for (let k = 0; k < MAX_INFLUENCES; k++) {
      if (k > 0 && topW[k]! < options.minWeight) topW[k] = 0;
      sum += topW[k]!;
    }
    if (sum <= 0) {
      topW[0] = 1;
      topJ[0] = owner[v]!;
      sum = 1;
    }
    let count = 0;
    for (let k = 0; k < MAX_INFLUENCES; k++) {
      const w = topW[k]! / sum;
      weights[v * MAX_INFLUENCES + k] = w;
      joints[v * MAX_INFLUENCES + k] = w > 0 ? topJ[k]! : 0;
      if (w > 0) count++;
    }
    maxInfluences = Math.max(maxInfluences, count);
  }
  return { joints, weights, maxInfluences };
}
