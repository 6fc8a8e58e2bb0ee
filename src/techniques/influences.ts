import { MAX_INFLUENCES, type SkinnedMesh } from '../model/types.ts';

/**
 * Influence truncation at load (Dawn, GPU Gems ch. 4 §4.4): the mesh's weights are already sorted by
 * descending weight, so keeping the first `influences` and rescaling them to sum 1 keeps the strongest
 * bones. 1 is rigid skinning (every vertex follows its heaviest bone).
 *
 * Output: MAX_INFLUENCES joints (palette slots of `mesh.bones`) and weights per vertex; slots past the
 * kept ones (or past the vertex's last non-zero weight) have weight 0 and the joint of slot 0. A vertex
 * whose first weight is 0 gets its joints[0] with weight 1, as skinMesh does. Same rule as
 * anim/software-skin.ts, so a technique built from these arrays matches the CPU reference.
 */
export interface TruncatedInfluences {
  readonly joints: Uint16Array;
  readonly weights: Float32Array;
  /** Kept influences per vertex (1..influences). */
  readonly counts: Uint8Array;
}

export function clampInfluences(influences: number): number {
  return influences < 1 ? 1 : influences > MAX_INFLUENCES ? MAX_INFLUENCES : influences | 0;
}

export function truncateInfluences(mesh: SkinnedMesh, influences: number): TruncatedInfluences {
  const used = clampInfluences(influences);
  const n = mesh.vertexCount;
  const joints = new Uint16Array(n * MAX_INFLUENCES);
  const weights = new Float32Array(n * MAX_INFLUENCES);
  const counts = new Uint8Array(n);
  for (let v = 0; v < n; v++) {
    const o = v * MAX_INFLUENCES;
    let sum = 0;
    let kept = 0;
    for (let k = 0; k < used; k++) {
      const w = mesh.weights[o + k]!;
      if (!(w > 0)) break;
      sum += w;
      kept++;
    }
    const first = mesh.joints[o]!;
    for (let k = 0; k < MAX_INFLUENCES; k++) joints[o + k] = first;
    if (kept === 0) {
      weights[o] = 1;
      counts[v] = 1;
      continue;
    }
    for (let k = 0; k < kept; k++) {
      joints[o + k] = mesh.joints[o + k]!;
      weights[o + k] = mesh.weights[o + k]! / sum;
    }
    counts[v] = kept;
  }
  return { joints, weights, counts };
}
