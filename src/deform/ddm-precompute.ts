import type { SkinnedMesh } from '../model/types.ts';
import { MAX_INFLUENCES } from '../model/types.ts';
import { ddmGraph, type DdmGraph } from './ddm-graph.ts';

/**
 * Direct delta mush precomputation, variant 0 (Le & Lewis 2019, §3; the full 4×4 Ω per vertex and bone).
 *
 * Equations (u_i = (p_i, 1) the rest position of vertex i, w_ij the skin weights, S the smoothing operator):
 *   Ψ_ij = Σ_k S_ik · w_kj · u_k u_kᵀ                        (4×4, symmetric; S with step λ)
 *   w̃_ij = Σ_k S′_ik · w_kj                                   (smoothed weights; S′ with step κ)
 *   p̄_i  = (Σ_j Ψ_ij[0..2, 3]) / (Σ_j Ψ_ij[3, 3]),  P_i = (p̄_i, 1)(p̄_i, 1)ᵀ
 *   Ω_ij = (1 − α) · Ψ_ij + α · w̃_ij · P_i
 * S = (I − λ·L̄)^p and S′ = (I − κ·L̄)^p: p explicit steps of the uniform Laplacian L̄ = I − D⁻¹A over the mesh
 * welded by position (ddm-graph.ts). libigl's direct_delta_mush takes p implicit cotangent steps instead; an
 * implicit step has global support, so every vertex would carry every bone. Explicit steps grow a bone's support
 * by at most one ring per step, and a row of S is a row-stochastic average of nearby vertices. The domain grows
 * by a ring only while its outermost ring holds a weight (w or w̃) above FRONT_EPSILON: the shares dropped
 * beyond are below 1e-6 each (a Gaussian tail of width ≈ √(p·λ) rings), so 120 steps cost ~35 rings, not 120.
 * The rows of Ω are stored as the upper triangle of the symmetric 4×4, 10 floats in the order
 * (00, 01, 02, 03, 11, 12, 13, 22, 23, 33); entry 9 is the smoothed weight share of the bone.
 * Stored centred: Ω′_ij = T_i Ω_ij T_iᵀ with T_i the translation by −c_i, c_i = p̄_i (`centre`). Ω's 3×3 block is
 * of the order |p|² while what the runtime needs from it, C = Q₃ₓ₃ − q p̄ᵀ, is a local spread, so uncentred
 * float32 storage would lose it to cancellation far from the origin; centred, Ω′'s entries are the spread
 * itself. The runtime moves the bone matrices instead (M_j T_i⁻¹: translation M_j·(c_i, 1)); DDM is unchanged.
 *
 * Truncation: a vertex keeps its DDM_SLOTS bones with the largest |Ω[33]|, sorted descending (slot 0 the
 * largest), and its kept Ω are scaled so their Ω[33] sum to 1; `truncated` counts the vertices that lost a
 * bone with a non-zero share. Unused slots have bone 0 and Ω = 0.
 *
 * Pure, no DOM; DdmData is plain typed arrays (it crosses a worker's postMessage). The session cache
 * ddmData(mesh) computes synchronously when nothing was stored; the page's worker stores its result with
 * setDdmData. Allocates (load time only).
 */

export const DDM_SLOTS = 8;
/** A bone's smoothing domain grows by a ring only while its outermost ring holds a weight above this. */
export const FRONT_EPSILON = 1e-6;
export const DDM_OMEGA = 10;

export interface DdmParams {
  /** Smoothing steps p (0: no smoothing, Ω_ij = w_ij u_i u_iᵀ, and DDM is linear blend skinning). */
  readonly iterations: number;
  /** Step size of the Ψ smoothing, 0..1. */
  readonly lambda: number;
  /** Step size of the weight smoothing, 0..1 (κ ≤ λ, as libigl asks). */
  readonly kappa: number;
  /** Blend towards the smoothed weights times the smoothed centre's outer product, 0 ≤ α < 1. */
  readonly alpha: number;
}

/**
 * The diffusion of libigl's tutorial (p = 20 implicit steps, λ = 3, κ = 1, α = 0.8) in explicit steps: both damp
 * a smooth mode of L̄ (eigenvalue μ ≪ 1) by ≈ exp(−T μ), T = p·λ = 60 for Ψ and p·κ = 20 for w̃. Here 120 steps of
 * λ = 0.5 (T = 60; no step overshoots, (1 − λμ) ≥ 0 for μ ≤ 2) and κ = 1/6 (T = 20); α = 0.8 as libigl.
 */
export const DEFAULT_DDM_PARAMS: DdmParams = { iterations: 120, lambda: 0.5, kappa: 1 / 6, alpha: 0.8 };

export interface DdmData {
  readonly vertexCount: number;
  /** DDM_SLOTS palette slots per vertex. */
  readonly bones: Uint16Array;
  /** DDM_SLOTS × DDM_OMEGA floats per vertex: the centred Ω′'s upper triangle per slot. */
  readonly omega: Float32Array;
  /** 3 floats per vertex: c_i, the bind-space point Ω′ is centred on. */
  readonly centre: Float32Array;
  readonly params: DdmParams;
  /** Vertices that had more than DDM_SLOTS bones with a non-zero share. */
  readonly truncated: number;
  /** Most bones a vertex had before truncation. */
  readonly maxBones: number;
  /** Wall time of the precomputation (ms). */
  readonly ms: number;
}

const CACHE = new WeakMap<SkinnedMesh, DdmData>();

/** The session's DDM data of `mesh`: the stored result, else computed now with the default parameters. */
export function ddmData(mesh: SkinnedMesh): DdmData {
  let d = CACHE.get(mesh);
  if (!d) {
    d = computeDdm(mesh);
    CACHE.set(mesh, d);
  }
  return d;
}

export function setDdmData(mesh: SkinnedMesh, data: DdmData): void {
  if (data.vertexCount !== mesh.vertexCount) throw new Error(`setDdmData: ${data.vertexCount} vertices for a mesh of ${mesh.vertexCount}`);
  CACHE.set(mesh, data);
}

export function hasDdmData(mesh: SkinnedMesh): boolean {
  return CACHE.has(mesh);
}

/** Per-node top-DDM_SLOTS candidates while the bones are smoothed one at a time. */
interface Candidates {
  count: Uint8Array;
  score: Float64Array;
  bone: Uint16Array;
  psi: Float64Array;
  weight: Float64Array;
  truncated: Uint8Array;
  seen: Uint16Array;
}

export function computeDdm(mesh: SkinnedMesh, params: DdmParams = DEFAULT_DDM_PARAMS, onProgress?: (fraction: number) => void): DdmData {
  const t0 = performance.now();
  const n = mesh.vertexCount;
  const p = Math.max(0, Math.floor(params.iterations));
  const smooth = p > 0 && (params.lambda !== 0 || params.kappa !== 0);
  const graph = ddmGraph(mesh.positions, n, mesh.indices, smooth);
  const nodes = graph.nodeCount;
  const bones = Math.max(1, mesh.bones.length);
  const { seeds, seedStart, nodeWeight, nodePos } = seedNodes(mesh, graph, bones);
  const cand: Candidates = {
    count: new Uint8Array(nodes),
    score: new Float64Array(nodes * DDM_SLOTS),
    bone: new Uint16Array(nodes * DDM_SLOTS),
    psi: new Float64Array(nodes * DDM_SLOTS * DDM_OMEGA),
    weight: new Float64Array(nodes * DDM_SLOTS),
    truncated: new Uint8Array(nodes),
    seen: new Uint16Array(nodes),
  };
  // Σ_j Ψ_ij entries 03, 13, 23, 33 per node (for p̄ and its normalisation).
  const centre = new Float64Array(nodes * 4);
  const local = new Int32Array(nodes).fill(-1);
  const order = new Uint32Array(nodes);
  const ringEnd = new Uint32Array(p + 2);
  let cur = new Float64Array(nodes * 11);
  let next = new Float64Array(nodes * 11);
  const steps = smooth ? p : 0;
  const lambda = params.lambda, kappa = params.kappa, alpha = params.alpha;
  for (let j = 0; j < bones; j++) {
    // The domain: the bone's seed nodes, then the rings around them as the smoothing reaches them, in ring order.
    let size = 0;
    for (let s = seedStart[j]!; s < seedStart[j + 1]!; s++) {
      const m = seeds[s]!;
      local[m] = size;
      order[size++] = m;
    }
    if (size === 0) continue;
    ringEnd[0] = size;
    // Both zeroed over the seeds; a ring joins (zeroed) when the step about to run would carry a share
    // above FRONT_EPSILON onto it.
    cur.fill(0, 0, size * 11);
    next.fill(0, 0, size * 11);
    // Channel 0: w; channels 1..10: w · u uᵀ (upper triangle).
    for (let o = 0; o < ringEnd[0]!; o++) {
      const m = order[o]!;
      const w = nodeWeight[seedStart[j]! + o]!;
      writeOuter(cur, o * 11, w, nodePos[m * 3]!, nodePos[m * 3 + 1]!, nodePos[m * 3 + 2]!);
    }
    let rings = 0;
    for (let s = 0; s < steps; s++) {
      if (frontShare(cur, rings === 0 ? 0 : ringEnd[rings - 1]!, ringEnd[rings]!) > FRONT_EPSILON) {
        const from = rings === 0 ? 0 : ringEnd[rings - 1]!;
        for (let o = from; o < ringEnd[rings]!; o++) {
          const m = order[o]!;
          for (let e = graph.offsets[m]!; e < graph.offsets[m + 1]!; e++) {
            const k = graph.neighbours[e]!;
            if (local[k]! < 0) {
              local[k] = size;
              order[size++] = k;
            }
          }
        }
        cur.fill(0, ringEnd[rings]! * 11, size * 11);
        next.fill(0, ringEnd[rings]! * 11, size * 11);
        ringEnd[++rings] = size;
      }
      const end = size;
      for (let o = 0; o < end; o++) {
        const m = order[o]!;
        const b = o * 11;
        const e0 = graph.offsets[m]!, e1 = graph.offsets[m + 1]!;
        if (e1 === e0) {
          for (let c = 0; c < 11; c++) next[b + c] = cur[b + c]!;
          continue;
        }
        const inv = 1 / (e1 - e0);
        let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0, s8 = 0, s9 = 0, s10 = 0;
        for (let e = e0; e < e1; e++) {
          const l = local[graph.neighbours[e]!]!;
          if (l < 0) continue;
          const a = l * 11;
          s0 += cur[a]!; s1 += cur[a + 1]!; s2 += cur[a + 2]!; s3 += cur[a + 3]!; s4 += cur[a + 4]!; s5 += cur[a + 5]!;
          s6 += cur[a + 6]!; s7 += cur[a + 7]!; s8 += cur[a + 8]!; s9 += cur[a + 9]!; s10 += cur[a + 10]!;
        }
        const kl = kappa * inv, ll = lambda * inv, k1 = 1 - kappa, l1 = 1 - lambda;
        next[b] = k1 * cur[b]! + kl * s0;
        next[b + 1] = l1 * cur[b + 1]! + ll * s1;
        next[b + 2] = l1 * cur[b + 2]! + ll * s2;
        next[b + 3] = l1 * cur[b + 3]! + ll * s3;
        next[b + 4] = l1 * cur[b + 4]! + ll * s4;
        next[b + 5] = l1 * cur[b + 5]! + ll * s5;
        next[b + 6] = l1 * cur[b + 6]! + ll * s6;
        next[b + 7] = l1 * cur[b + 7]! + ll * s7;
        next[b + 8] = l1 * cur[b + 8]! + ll * s8;
        next[b + 9] = l1 * cur[b + 9]! + ll * s9;
        next[b + 10] = l1 * cur[b + 10]! + ll * s10;
      }
      const t = cur;
      cur = next;
      next = t;
    }
    for (let o = 0; o < size; o++) {
      const m = order[o]!;
      local[m] = -1;
      const b = o * 11;
      if (cur[b + 10] === 0 && cur[b] === 0) continue;
      centre[m * 4] += cur[b + 4]!;
      centre[m * 4 + 1] += cur[b + 7]!;
      centre[m * 4 + 2] += cur[b + 9]!;
      centre[m * 4 + 3] += cur[b + 10]!;
      offer(cand, m, j, Math.abs((1 - alpha) * cur[b + 10]! + alpha * cur[b]!), cur, b);
    }
    onProgress?.((j + 1) / bones);
  }
  return assemble(mesh, graph, cand, centre, params, performance.now() - t0);
}

/** The largest weight (channels 0 and 10: w̃ and w) on the domain nodes from..to. */
function frontShare(values: Float64Array, from: number, to: number): number {
  let most = 0;
  for (let o = from; o < to; o++) most = Math.max(most, Math.abs(values[o * 11]!), Math.abs(values[o * 11 + 10]!));
  return most;
}

/** The nodes each bone weights (CSR by bone) and each seed's mean weight over its node's vertices; node positions. */
function seedNodes(mesh: SkinnedMesh, graph: DdmGraph, bones: number): { seeds: Uint32Array; seedStart: Uint32Array; nodeWeight: Float64Array; nodePos: Float64Array } {
  const n = mesh.vertexCount;
  const nodes = graph.nodeCount;
  const dup = new Uint32Array(nodes);
  const nodePos = new Float64Array(nodes * 3);
  for (let v = 0; v < n; v++) {
    const m = graph.nodeOf[v]!;
    dup[m]!++;
    nodePos[m * 3] = mesh.positions[v * 3]!;
    nodePos[m * 3 + 1] = mesh.positions[v * 3 + 1]!;
    nodePos[m * 3 + 2] = mesh.positions[v * 3 + 2]!;
  }
  // Sparse (node, bone) → summed weight, through a per-bone pass over the vertices.
  const pairs = new Map<number, number>();
  for (let v = 0; v < n; v++) {
    const m = graph.nodeOf[v]!;
    const weights = vertexWeights(mesh, v);
    for (let k = 0; k < weights.length; k += 2) {
      const key = weights[k]! * nodes + m;
      pairs.set(key, (pairs.get(key) ?? 0) + weights[k + 1]! / dup[m]!);
    }
  }
  const keys = [...pairs.keys()].sort((a, b) => a - b);
  const seeds = new Uint32Array(keys.length);
  const nodeWeight = new Float64Array(keys.length);
  const seedStart = new Uint32Array(bones + 1);
  keys.forEach((key, i) => {
    const j = Math.floor(key / nodes);
    seeds[i] = key - j * nodes;
    nodeWeight[i] = pairs.get(key)!;
    seedStart[j + 1]!++;
  });
  for (let j = 0; j < bones; j++) seedStart[j + 1]! += seedStart[j]!;
  return { seeds, seedStart, nodeWeight, nodePos };
}

/** (slot, weight) pairs of vertex v, renormalised to sum 1 (skinMesh's rule: no weight → its first slot at 1). */
function vertexWeights(mesh: SkinnedMesh, v: number): number[] {
  const out: number[] = [];
  let sum = 0;
  for (let k = 0; k < MAX_INFLUENCES; k++) {
    const w = mesh.weights[v * MAX_INFLUENCES + k]!;
    if (!(w > 0)) break;
    sum += w;
  }
  if (!(sum > 0)) return [mesh.joints[v * MAX_INFLUENCES]!, 1];
  for (let k = 0; k < MAX_INFLUENCES; k++) {
    const w = mesh.weights[v * MAX_INFLUENCES + k]!;
    if (!(w > 0)) break;
    out.push(mesh.joints[v * MAX_INFLUENCES + k]!, w / sum);
  }
  return out;
}

/** Channel 0 = w, channels 1..10 = w · (x, y, z, 1)(x, y, z, 1)ᵀ's upper triangle. */
function writeOuter(out: Float64Array, b: number, w: number, x: number, y: number, z: number): void {
  out[b] = w;
  out[b + 1] = w * x * x;
  out[b + 2] = w * x * y;
  out[b + 3] = w * x * z;
  out[b + 4] = w * x;
  out[b + 5] = w * y * y;
  out[b + 6] = w * y * z;
  out[b + 7] = w * y;
  out[b + 8] = w * z * z;
  out[b + 9] = w * z;
  out[b + 10] = w;
}

/** Keeps (bone j, Ψ at src[b + 1..10], w̃ at src[b]) among node m's DDM_SLOTS largest scores. */
function offer(c: Candidates, m: number, j: number, score: number, src: Float64Array, b: number): void {
  if (!(score > 0)) return;
  c.seen[m]!++;
  let slot: number;
  const base = m * DDM_SLOTS;
  if (c.count[m]! < DDM_SLOTS) slot = c.count[m]!++;
  else {
    slot = 0;
    for (let s = 1; s < DDM_SLOTS; s++) if (c.score[base + s]! < c.score[base + slot]!) slot = s;
    c.truncated[m] = 1;
    if (c.score[base + slot]! >= score) return;
  }
  c.score[base + slot] = score;
  c.bone[base + slot] = j;
  c.weight[base + slot] = src[b]!;
  const o = (base + slot) * DDM_OMEGA;
  for (let k = 0; k < DDM_OMEGA; k++) c.psi[o + k] = src[b + 1 + k]!;
}

/** Ω = (1 − α)Ψ + α w̃ P per kept slot, sorted by score, centred on p̄, renormalised, copied to every vertex of the node. */
function assemble(mesh: SkinnedMesh, graph: DdmGraph, c: Candidates, sums: Float64Array, params: DdmParams, ms: number): DdmData {
  const n = mesh.vertexCount;
  const nodes = graph.nodeCount;
  const alpha = params.alpha;
  const nodeBones = new Uint16Array(nodes * DDM_SLOTS);
  const nodeOmega = new Float32Array(nodes * DDM_SLOTS * DDM_OMEGA);
  const nodeCentre = new Float64Array(nodes * 3);
  const rank = [0, 1, 2, 3, 4, 5, 6, 7];
  const om = new Float64Array(DDM_SLOTS * DDM_OMEGA);
  let maxBones = 0;
  for (let m = 0; m < nodes; m++) {
    const count = c.count[m]!;
    maxBones = Math.max(maxBones, c.seen[m]!);
    const base = m * DDM_SLOTS;
    const last = sums[m * 4 + 3]!;
    const px = last !== 0 ? sums[m * 4]! / last : 0, py = last !== 0 ? sums[m * 4 + 1]! / last : 0, pz = last !== 0 ? sums[m * 4 + 2]! / last : 0;
    const P = [px * px, px * py, px * pz, px, py * py, py * pz, py, pz * pz, pz, 1];
    rank.sort((a, b) => (a < count ? c.score[base + a]! : -1) > (b < count ? c.score[base + b]! : -1) ? -1 : (a < count ? c.score[base + a]! : -1) < (b < count ? c.score[base + b]! : -1) ? 1 : a - b);
    let sum = 0;
    for (let s = 0; s < count; s++) {
      const r = rank[s]!;
      const w = c.weight[base + r]!;
      for (let k = 0; k < DDM_OMEGA; k++) om[s * DDM_OMEGA + k] = (1 - alpha) * c.psi[(base + r) * DDM_OMEGA + k]! + alpha * w * P[k]!;
      sum += om[s * DDM_OMEGA + 9]!;
    }
    const scale = sum !== 0 ? 1 / sum : 1;
    nodeCentre[m * 3] = px;
    nodeCentre[m * 3 + 1] = py;
    nodeCentre[m * 3 + 2] = pz;
    for (let s = 0; s < count; s++) {
      nodeBones[base + s] = c.bone[base + rank[s]!]!;
      centreOmega(om, s * DDM_OMEGA, px, py, pz);
      for (let k = 0; k < DDM_OMEGA; k++) nodeOmega[(base + s) * DDM_OMEGA + k] = om[s * DDM_OMEGA + k]! * scale;
    }
  }
  const bones = new Uint16Array(n * DDM_SLOTS);
  const omega = new Float32Array(n * DDM_SLOTS * DDM_OMEGA);
  const centre = new Float32Array(n * 3);
  let truncated = 0;
  for (let v = 0; v < n; v++) {
    const m = graph.nodeOf[v]!;
    if (c.truncated[m]) truncated++;
    bones.set(nodeBones.subarray(m * DDM_SLOTS, (m + 1) * DDM_SLOTS), v * DDM_SLOTS);
    omega.set(nodeOmega.subarray(m * DDM_SLOTS * DDM_OMEGA, (m + 1) * DDM_SLOTS * DDM_OMEGA), v * DDM_SLOTS * DDM_OMEGA);
    centre[v * 3] = nodeCentre[m * 3]!;
    centre[v * 3 + 1] = nodeCentre[m * 3 + 1]!;
    centre[v * 3 + 2] = nodeCentre[m * 3 + 2]!;
  }
  return { vertexCount: n, bones, omega, centre, params: { ...params }, truncated, maxBones, ms };
}

/**
 * In place: Ω (upper triangle at o) → T Ω Tᵀ, T the translation by −(cx, cy, cz). With ω = Ω[0..2, 3] and
 * ω₃₃ = Ω[3, 3]: the 3×3 block becomes Ω₃ − c ωᵀ − ω cᵀ + ω₃₃ c cᵀ, the last column ω − ω₃₃ c.
 */
function centreOmega(om: Float64Array, o: number, cx: number, cy: number, cz: number): void {
  const wx = om[o + 3]!, wy = om[o + 6]!, wz = om[o + 8]!, w = om[o + 9]!;
  om[o] += -2 * cx * wx + w * cx * cx;
  om[o + 1] += -cx * wy - wx * cy + w * cx * cy;
  om[o + 2] += -cx * wz - wx * cz + w * cx * cz;
  om[o + 4] += -2 * cy * wy + w * cy * cy;
  om[o + 5] += -cy * wz - wy * cz + w * cy * cz;
  om[o + 7] += -2 * cz * wz + w * cz * cz;
  om[o + 3] = wx - w * cx;
  om[o + 6] = wy - w * cy;
  om[o + 8] = wz - w * cz;
}
