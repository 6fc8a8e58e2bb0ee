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
  const lo = new Float64Array(slotsPerFrame * 3).fill(Infinity);
  const hi = new Float64Array(slotsPerFrame * 3).fill(-Infinity);
  let complete = true;
  const each = (visit: (slot: number, x: number, y: number, z: number) => void): void => {
    for (let m = 0; m < scene.meshes.length; m++) {
      const mesh = scene.meshes[m]!;
      const base = meshBase[m]!;
      const slots = Math.max(1, mesh.bones.length);
      const p = mesh.positions;
      for (let v = 0; v < mesh.vertexCount; v++) {
        const x = p[v * 3]!;
        const y = p[v * 3 + 1]!;
        const z = p[v * 3 + 2]!;
        const iw = v * MAX_INFLUENCES;
        for (let k = 0; k < MAX_INFLUENCES; k++) {
          if (k > 0 && !(mesh.weights[iw + k]! > 0)) break;
          const j = mesh.joints[iw + k]!;
          if (j >= slots) complete = false;
          else visit(base + j, x, y, z);
          if (!(mesh.weights[iw]! > 0)) break;
        }
      }
    }
  };
  each((s, x, y, z) => {
    const o = s * 3;
    if (x < lo[o]!) lo[o] = x;
    if (x > hi[o]!) hi[o] = x;
    if (y < lo[o + 1]!) lo[o + 1] = y;
    if (y > hi[o + 1]!) hi[o + 1] = y;
    if (z < lo[o + 2]!) lo[o + 2] = z;
    if (z > hi[o + 2]!) hi[o + 2] = z;
  });
  const centre = new Float64Array(slotsPerFrame * 3);
  const r2 = new Float64Array(slotsPerFrame).fill(-1);
  for (let s = 0; s < slotsPerFrame; s++) {
    if (!(lo[s * 3]! <= hi[s * 3]!)) continue;
    for (let a = 0; a < 3; a++) centre[s * 3 + a] = (lo[s * 3 + a]! + hi[s * 3 + a]!) / 2;
    r2[s] = 0;
  }
  each((s, x, y, z) => {
    const d = (x - centre[s * 3]!) ** 2 + (y - centre[s * 3 + 1]!) ** 2 + (z - centre[s * 3 + 2]!) ** 2;
    if (d > r2[s]!) r2[s] = d;
  });
  const spheres = new Float32Array(slotsPerFrame * 4);
  for (let s = 0; s < slotsPerFrame; s++) {
    spheres[s * 4] = centre[s * 3]!;
    spheres[s * 4 + 1] = centre[s * 3 + 1]!;
    spheres[s * 4 + 2] = centre[s * 3 + 2]!;
    // Rounded up so the float32 radius still reaches the farthest vertex.
    spheres[s * 4 + 3] = r2[s]! < 0 ? -1 : Math.sqrt(r2[s]!) * (1 + 1e-6) + 1e-7;
  }
  return { spheres, complete };
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
