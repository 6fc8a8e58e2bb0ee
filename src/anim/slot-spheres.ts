import type { Scene } from '../model/types.ts';
import { MAX_INFLUENCES } from '../model/types.ts';

/**
 * Bounding spheres of a skinned model from its palettes, without skinning a vertex per pose (the crowd
 * bake's per-clip spheres, crowd-bake.ts).
 *
 * slotSpheres: once per model, per palette slot s of a crowd block (mesh m's joint j at slot meshBase[m] + j,
 * meshes sharing a skin sharing slots) the bind-space sphere (centre, radius) around every vertex that slot
 * moves: each slot a vertex names with a weight > 0, or its first joint when its first weight is 0 (the
 * skinning's fallback, software-skin.ts). Centre: the middle of those vertices' box; radius: the farthest
 * of them from it. Slots no vertex names get radius −1 and are left out below.
 *
 * Why it bounds: a vertex v skinned with palette P is Σ wₖ·Pₖ·v over its influences (weights ≥ 0 summing
 * to 1, renormalised over however many the technique keeps), a convex combination of points Pₖ·v, each
 * inside slot k's sphere moved by Pₖ: centre Pₖ·c, radius r·‖Aₖ‖ (Aₖ the upper 3×3; ‖·‖ the spectral norm,
 * bounded here by √(largest absolute row sum of AₖᵀAₖ) — exact for a rotation times an axis scale, larger
 * under shear). A convex combination of points lies in any sphere holding them all; the vertex stage's
 * linear blend of two baked frames is again a convex combination of their two poses. So the sphere
 * enclosing every moved slot sphere of every frame of a clip holds every vertex drawn in it.
 *
 * clipSphere: that enclosing sphere for baked frames [first, first + count): the centre is the middle of the
 * moved spheres' box, the radius the largest (distance to it + moved radius). Morph targets are not
 * bounded (crowds draw none). No allocation in clipSphere.
 */

/**
 * Per slot of a `slotsPerFrame` block: x, y, z, radius (bind space; radius −1: no vertex), and `complete`
 * false when a vertex names a joint past its mesh's slots (its spheres then bound nothing: callers never cull).
 */
export interface SlotSpheres {
  readonly spheres: Float32Array;
  readonly complete: boolean;
}

/** The bind-space sphere of every slot (see the header). Allocates; O(vertices · influences). */
export function slotSpheres(scene: Scene, meshBase: ArrayLike<number>, slotsPerFrame: number): SlotSpheres {
  // acc: pass 0 the box per slot (min x, y, z, max x, y, z); pass 1 the squared radius per slot (index 6).
  const acc = new Float64Array(slotsPerFrame * 7);
  for (let s = 0; s < slotsPerFrame; s++) {
    acc.fill(Infinity, s * 7, s * 7 + 3);
    acc.fill(-Infinity, s * 7 + 3, s * 7 + 6);
  }
  let complete = scan(scene, meshBase, acc, 0);
  const centre = new Float64Array(slotsPerFrame * 3);
  for (let s = 0; s < slotsPerFrame; s++) {
    const o = s * 7;
    const named = acc[o]! <= acc[o + 3]!;
    for (let a = 0; a < 3; a++) centre[s * 3 + a] = named ? (acc[o + a]! + acc[o + 3 + a]!) / 2 : 0;
    acc[o + 6] = named ? 0 : -1;
    // Pass 1 reads the centre from the box's first three entries.
    for (let a = 0; a < 3; a++) acc[o + a] = centre[s * 3 + a]!;
  }
  complete = scan(scene, meshBase, acc, 1) && complete;
  const spheres = new Float32Array(slotsPerFrame * 4);
  for (let s = 0; s < slotsPerFrame; s++) {
    const r2 = acc[s * 7 + 6]!;
    spheres[s * 4] = centre[s * 3]!;
    spheres[s * 4 + 1] = centre[s * 3 + 1]!;
    spheres[s * 4 + 2] = centre[s * 3 + 2]!;
    // Rounded up so the float32 radius still reaches the farthest vertex from the float32 centre.
    spheres[s * 4 + 3] = r2 < 0 ? -1 : Math.sqrt(r2) * (1 + 1e-6) + 1e-7;
  }
  return { spheres, complete };
}

/**
 * One pass over every (vertex, slot it names) pair: `pass` 0 grows slot s's box in acc[s·7 .. s·7+6), pass 1
 * the squared distance to the centre at acc[s·7 .. s·7+3) in acc[s·7+6]. False when a joint is past its
 * mesh's slots (that pair is skipped).
 */
function scan(scene: Scene, meshBase: ArrayLike<number>, acc: Float64Array, pass: number): boolean {
  let complete = true;
  for (let m = 0; m < scene.meshes.length; m++) {
    const mesh = scene.meshes[m]!;
    const base = meshBase[m]!;
    const slots = Math.max(1, mesh.bones.length);
    const p = mesh.positions;
    const joints = mesh.joints;
    const weights = mesh.weights;
    for (let v = 0; v < mesh.vertexCount; v++) {
      const x = p[v * 3]!;
      const y = p[v * 3 + 1]!;
      const z = p[v * 3 + 2]!;
      const iw = v * MAX_INFLUENCES;
      // A vertex whose first weight is 0 takes its first joint alone (software-skin.ts).
      const n = weights[iw]! > 0 ? MAX_INFLUENCES : 1;
      for (let k = 0; k < n; k++) {
        if (k > 0 && !(weights[iw + k]! > 0)) break;
        const j = joints[iw + k]!;
        if (j >= slots) {
          complete = false;
          continue;
        }
        const o = (base + j) * 7;
        if (pass === 0) {
          if (x < acc[o]!) acc[o] = x;
          if (y < acc[o + 1]!) acc[o + 1] = y;
          if (z < acc[o + 2]!) acc[o + 2] = z;
          if (x > acc[o + 3]!) acc[o + 3] = x;
          if (y > acc[o + 4]!) acc[o + 4] = y;
          if (z > acc[o + 5]!) acc[o + 5] = z;
        } else {
          const d = (x - acc[o]!) ** 2 + (y - acc[o + 1]!) ** 2 + (z - acc[o + 2]!) ** 2;
          if (d > acc[o + 6]!) acc[o + 6] = d;
        }
      }
    }
  }
  return complete;
}

/** An upper bound of the spectral norm of the 3×3 part of the column-major mat4 at p[o..]. */
function normBound(p: Float32Array, o: number): number {
  const a0 = p[o]!, a1 = p[o + 1]!, a2 = p[o + 2]!;
  const b0 = p[o + 4]!, b1 = p[o + 5]!, b2 = p[o + 6]!;
  const c0 = p[o + 8]!, c1 = p[o + 9]!, c2 = p[o + 10]!;
  const aa = a0 * a0 + a1 * a1 + a2 * a2;
  const bb = b0 * b0 + b1 * b1 + b2 * b2;
  const cc = c0 * c0 + c1 * c1 + c2 * c2;
  const ab = Math.abs(a0 * b0 + a1 * b1 + a2 * b2);
  const ac = Math.abs(a0 * c0 + a1 * c1 + a2 * c2);
  const bc = Math.abs(b0 * c0 + b1 * c1 + b2 * c2);
  return Math.sqrt(Math.max(aa + ab + ac, ab + bb + bc, ac + bc + cc));
}

/**
 * The sphere enclosing slot `s`'s sphere moved by every frame's palette, over frames [first, first + count)
 * of `palettes` (slotsPerFrame mat4 slots per frame), into out[at..at + 4): x, y, z, radius; radius 0 at the
 * origin when no slot has a vertex. No allocation.
 */
export function clipSphere(palettes: Float32Array, slotsPerFrame: number, first: number, count: number, slots: SlotSpheres, out: Float32Array, at: number): void {
  const sp = slots.spheres;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity;
  let x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let g = first; g < first + count; g++) {
    for (let s = 0; s < slotsPerFrame; s++) {
      const r0 = sp[s * 4 + 3]!;
      if (r0 < 0) continue;
      const o = (g * slotsPerFrame + s) * 16;
      const cx = sp[s * 4]!, cy = sp[s * 4 + 1]!, cz = sp[s * 4 + 2]!;
      const x = palettes[o]! * cx + palettes[o + 4]! * cy + palettes[o + 8]! * cz + palettes[o + 12]!;
      const y = palettes[o + 1]! * cx + palettes[o + 5]! * cy + palettes[o + 9]! * cz + palettes[o + 13]!;
      const z = palettes[o + 2]! * cx + palettes[o + 6]! * cy + palettes[o + 10]! * cz + palettes[o + 14]!;
      const r = r0 * normBound(palettes, o);
      if (x - r < x0) x0 = x - r;
      if (x + r > x1) x1 = x + r;
      if (y - r < y0) y0 = y - r;
      if (y + r > y1) y1 = y + r;
      if (z - r < z0) z0 = z - r;
      if (z + r > z1) z1 = z + r;
    }
  }
  if (!(x0 <= x1)) {
    out[at] = out[at + 1] = out[at + 2] = out[at + 3] = 0;
    return;
  }
  const mx = (x0 + x1) / 2, my = (y0 + y1) / 2, mz = (z0 + z1) / 2;
  let radius = 0;
  for (let g = first; g < first + count; g++) {
    for (let s = 0; s < slotsPerFrame; s++) {
      const r0 = sp[s * 4 + 3]!;
      if (r0 < 0) continue;
      const o = (g * slotsPerFrame + s) * 16;
      const cx = sp[s * 4]!, cy = sp[s * 4 + 1]!, cz = sp[s * 4 + 2]!;
      const x = palettes[o]! * cx + palettes[o + 4]! * cy + palettes[o + 8]! * cz + palettes[o + 12]!;
      const y = palettes[o + 1]! * cx + palettes[o + 5]! * cy + palettes[o + 9]! * cz + palettes[o + 13]!;
      const z = palettes[o + 2]! * cx + palettes[o + 6]! * cy + palettes[o + 10]! * cz + palettes[o + 14]!;
      const d = Math.sqrt((x - mx) ** 2 + (y - my) ** 2 + (z - mz) ** 2) + r0 * normBound(palettes, o);
      if (d > radius) radius = d;
    }
  }
  out[at] = mx;
  out[at + 1] = my;
  out[at + 2] = mz;
  out[at + 3] = radius;
}
