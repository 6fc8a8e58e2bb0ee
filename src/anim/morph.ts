/**
 * Morph-target jobs (GPU Gems ch. 4, Dawn §4.3: parallel morph targets as weighted differences), applied in
 * bind space before skinning. Pure, no WebGL; the caller owns every buffer; nothing here allocates.
 *
 * Weights: a Float32Array indexed like Scene.morphTargets (one weight per target, not clamped, need not
 * sum to 1: Dawn's 0.8 · happy + 1.0 · ear_wiggle).
 */

import type { MorphTrack, SkinnedMesh } from '../model/types.ts';
import { sampleTime } from './sample-clip.ts';

/** How morph targets are applied (URL key `morphs`): Dawn's 5 attribute slots, a delta texture, or the CPU reference. */
export type MorphPath = 'slots' | 'texture' | 'cpu';
export const MORPH_PATHS: readonly MorphPath[] = ['slots', 'texture', 'cpu'];

/** Dawn §4.3.2: 16 vertex inputs leave room for five (position diff, normal diff) pairs. */
export const MORPH_SLOTS = 5;

/**
 * CPU reference: for every vertex of `mesh`,
 *   p = p0 + Σ_t w_t · dp_t,   n = normalize(n0 + Σ_t w_t · dn_t)
 * and, when `outTangents` is given (4 floats per vertex, mesh.tangents' layout), the neutral tangent
 * re-orthonormalised against the morphed normal, t = normalize(t0 − dot(t0, n) · n), bitangent sign (w)
 * kept (Dawn §4.3.2; orthonormaliseTangents). Targets the mesh has no deltas for, and zero weights, cost
 * nothing. With no non-zero weight positions and normals are exact copies of the neutral arrays, and the
 * tangents are still projected against the neutral normals (what the GPU paths do every frame; an already
 * orthonormal tangent comes out unchanged up to rounding). outPositions/outNormals: 3 floats per vertex.
 * A mesh without tangents leaves outTangents untouched.
 */
export function applyMorphs(
  mesh: SkinnedMesh,
  weights: Float32Array,
  outPositions: Float32Array,
  outNormals: Float32Array,
  outTangents?: Float32Array | null,
): void {
  outPositions.set(mesh.positions);
  outNormals.set(mesh.normals);
  const tangents = mesh.tangents;
  const morphs = mesh.morphs;
  let any = false;
  const targets = morphs ? Math.min(morphs.length, weights.length) : 0;
  for (let t = 0; t < targets; t++) {
    const w = weights[t]!;
    if (w === 0 || !Number.isFinite(w)) continue;
    const d = morphs![t]!;
    const verts = d.vertices;
    if (verts.length === 0) continue;
    any = true;
    const dp = d.positions;
    const dn = d.normals;
    for (let i = 0; i < verts.length; i++) {
      const o = verts[i]! * 3;
      const k = i * 3;
      outPositions[o] += w * dp[k]!;
      outPositions[o + 1] += w * dp[k + 1]!;
      outPositions[o + 2] += w * dp[k + 2]!;
      outNormals[o] += w * dn[k]!;
      outNormals[o + 1] += w * dn[k + 1]!;
      outNormals[o + 2] += w * dn[k + 2]!;
    }
  }
  if (any) {
    // Normalise every normal (the GPU paths do the same; a unit neutral normal stays unit up to rounding).
    const n = mesh.vertexCount;
    for (let v = 0; v < n; v++) {
      const o = v * 3;
      const x = outNormals[o]!;
      const y = outNormals[o + 1]!;
      const z = outNormals[o + 2]!;
      const len = Math.sqrt(x * x + y * y + z * z);
      if (len > 1e-20) {
        outNormals[o] = x / len;
        outNormals[o + 1] = y / len;
        outNormals[o + 2] = z / len;
      }
    }
  }
  if (outTangents && tangents) orthonormaliseTangents(outNormals, tangents, outTangents);
}

/**
 * Dawn §4.3.2, per vertex: out = (normalize(t0 − dot(t0, n) · n), t0.w), the neutral tangent made orthogonal
 * to the (morphed, unit) normal; where the projection vanishes (t0 ∥ n) out = t0. normals: 3 floats per
 * vertex; neutral/out: 4 floats per vertex (out may be neutral itself). The GPU does the same in
 * glsl/skinned.vert. No allocation.
 */
export function orthonormaliseTangents(normals: Float32Array, neutral: Float32Array, out: Float32Array): void {
  const n = Math.min(normals.length / 3, neutral.length / 4) | 0;
  for (let v = 0; v < n; v++) {
    const o = v * 3;
    const q = v * 4;
    const nx = normals[o]!;
    const ny = normals[o + 1]!;
    const nz = normals[o + 2]!;
    const tx = neutral[q]!;
    const ty = neutral[q + 1]!;
    const tz = neutral[q + 2]!;
    const w = neutral[q + 3]!;
    const d = tx * nx + ty * ny + tz * nz;
    const ox = tx - d * nx;
    const oy = ty - d * ny;
    const oz = tz - d * nz;
    const l = Math.sqrt(ox * ox + oy * oy + oz * oz);
    if (l > 1e-20) {
      out[q] = ox / l;
      out[q + 1] = oy / l;
      out[q + 2] = oz / l;
    } else {
      out[q] = tx;
      out[q + 1] = ty;
      out[q + 2] = tz;
    }
    out[q + 3] = w;
  }
}

/**
 * Dawn's 5 active blend shapes: writes to outSlots (length ≥ slots) the targets with the `slots` largest
 * |weight| among the non-zero ones (ties: the lower target index wins), listed in ascending target index
 * so a target keeps its slot while the weights move; unused entries are -1. Returns the dropped weight:
 * Σ |w| of the non-zero targets that did not get a slot (0 when at most `slots` are non-zero).
 */
export function chooseSlots(weights: Float32Array, slots: number, outSlots: Int32Array): number {
  chooseSlotsInto(weights, slots, outSlots, _dropped);
  return _dropped[0]!;
}

/** One-slot scratch of the number-returning wrappers (the per-frame callers use the *Into forms). */
const _dropped = new Float64Array(1);

/**
 * chooseSlots for the frame loop: the dropped weight goes to outDropped[0] instead of being returned (a
 * double returned from a call V8 does not inline is boxed: 16 bytes a frame). No allocation.
 */
export function chooseSlotsInto(weights: Float32Array, slots: number, outSlots: Int32Array, outDropped: Float64Array): void {
  for (let s = 0; s < slots; s++) outSlots[s] = -1;
  let used = 0;
  let dropped = 0;
  for (let t = 0; t < weights.length; t++) {
    const w = Math.abs(weights[t]!);
    if (!(w > 0)) continue;
    if (used < slots) {
      outSlots[used++] = t;
      continue;
    }
    // Full: replace the smallest kept (the highest index among equals), if t is strictly larger.
    let min = 0;
    for (let s = 1; s < slots; s++) {
      const a = Math.abs(weights[outSlots[s]!]!);
      const b = Math.abs(weights[outSlots[min]!]!);
      if (a < b || (a === b && outSlots[s]! > outSlots[min]!)) min = s;
    }
    const m = Math.abs(weights[outSlots[min]!]!);
    if (w > m) {
      dropped += m;
      outSlots[min] = t;
    } else dropped += w;
  }
  // Ascending target index (insertion sort of at most `slots` entries).
  for (let i = 1; i < used; i++) {
    const x = outSlots[i]!;
    let j = i - 1;
    while (j >= 0 && outSlots[j]! > x) {
      outSlots[j + 1] = outSlots[j]!;
      j--;
    }
    outSlots[j + 1] = x;
  }
  outDropped[0] = dropped;
}

/**
 * The weights a morph path actually applies: `slots` keeps only the targets chooseSlots picks (the rest
 * become 0), `texture` and `cpu` apply every weight. `scratchSlots`: Int32Array of MORPH_SLOTS. Returns the
 * dropped weight. No allocation.
 */
export function effectiveWeights(path: string, weights: Float32Array, out: Float32Array, scratchSlots: Int32Array): number {
  effectiveWeightsInto(path, weights, out, scratchSlots, _dropped);
  return _dropped[0]!;
}

/** effectiveWeights for the frame loop: the dropped weight goes to outDropped[0] (see chooseSlotsInto). No allocation. */
export function effectiveWeightsInto(path: string, weights: Float32Array, out: Float32Array, scratchSlots: Int32Array, outDropped: Float64Array): void {
  if (path !== 'slots') {
    out.set(weights);
    outDropped[0] = 0;
    return;
  }
  chooseSlotsInto(weights, MORPH_SLOTS, scratchSlots, outDropped);
  out.fill(0);
  for (let s = 0; s < MORPH_SLOTS; s++) {
    const t = scratchSlots[s]!;
    if (t >= 0) out[t] = weights[t]!;
  }
}

/**
 * Morph-track sampling: writes each track's weight at time sampleTime[0] (seconds; read from the shared
 * slot so the double is never boxed, see sample-clip.ts) into out[track.target]; targets without a track
 * are left as they are (the caller clears). Linear between keys, clamped to the first/last key outside
 * them. `cursor` (one Uint32 per track) caches the last segment as a hint only. No allocation.
 */
export function sampleMorphTracksAt(tracks: readonly MorphTrack[], cursor: Uint32Array, out: Float32Array): void {
  const t = sampleTime[0]!;
  for (let i = 0; i < tracks.length; i++) {
    const track = tracks[i]!;
    const target = track.target;
    if (target < 0 || target >= out.length) continue;
    const times = track.times;
    const values = track.values;
    const n = Math.min(times.length, values.length);
    if (n === 0) continue;
    if (!(t > times[0]!) || n === 1) {
      out[target] = values[0]!;
      continue;
    }
    if (t >= times[n - 1]!) {
      out[target] = values[n - 1]!;
      continue;
    }
    let k = cursor[i]!;
    if (!(k < n - 1 && times[k]! <= t && t < times[k + 1]!)) {
      if (k + 2 < n && times[k + 1]! <= t && t < times[k + 2]!) k++;
      else {
        let lo = 0;
        let hi = n - 1;
        while (hi - lo > 1) {
          const mid = (lo + hi) >> 1;
          if (times[mid]! <= t) lo = mid;
          else hi = mid;
        }
        k = lo;
      }
      cursor[i] = k;
    }
    const t0 = times[k]!;
    const span = times[k + 1]! - t0;
    const f = span > 0 ? (t - t0) / span : 0;
    out[target] = values[k]! + (values[k + 1]! - values[k]!) * f;
  }
}
