import { mat4, quat, vec3 } from 'gl-matrix';
import { decomposeTRS } from '../model/build.ts';
import { TRS_STRIDE } from '../model/types.ts';

/**
 * Small numeric helpers of the glTF export: TRS read from the Scene's flat arrays in the shape glTF
 * nodes take, and the test of whether a matrix is exactly a TRS (no shear), so a rigid mesh's offset can
 * become a node transform. Pure, allocates its results.
 */

export type Vec3 = [number, number, number];
export type Quat = [number, number, number, number];

export interface Trs {
  readonly t: Vec3;
  readonly r: Quat;
  readonly s: Vec3;
}

/** Unit quaternion (double-precision normalisation, as the validator checks); a zero one becomes identity. */
export function unitQuat(x: number, y: number, z: number, w: number): Quat {
  const len = Math.hypot(x, y, z, w);
  if (!(len > 0) || !Number.isFinite(len)) return [0, 0, 0, 1];
  return [x / len, y / len, z / len, w / len];
}

/** Node i's rest local from Skeleton.restLocal (TRS_STRIDE floats per node). */
export function restTrs(restLocal: Float32Array, i: number): Trs {
  const o = i * TRS_STRIDE;
  const v = restLocal;
  return {
    t: [v[o]!, v[o + 1]!, v[o + 2]!],
    r: unitQuat(v[o + 3]!, v[o + 4]!, v[o + 5]!, v[o + 6]!),
    s: [v[o + 7]!, v[o + 8]!, v[o + 9]!],
  };
}

/**
 * The TRS of a column-major matrix when T·R·S rebuilds it to within `tolerance` of its largest element
 * (a mirrored basis comes back with a negative X scale), else null: shear, or a projective last row.
 */
export function matrixAsTrs(m: Float32Array | readonly number[], tolerance = 1e-5): Trs | null {
  const mat = mat4.clone(m as unknown as mat4);
  const out = new Float32Array(TRS_STRIDE);
  decomposeTRS(mat, out, 0);
  const r = unitQuat(out[3]!, out[4]!, out[5]!, out[6]!);
  const back = mat4.fromRotationTranslationScale(
    mat4.create(),
    quat.fromValues(r[0], r[1], r[2], r[3]),
    vec3.fromValues(out[0]!, out[1]!, out[2]!),
    vec3.fromValues(out[7]!, out[8]!, out[9]!),
  );
  let scale = 0;
  for (let i = 0; i < 16; i++) scale = Math.max(scale, Math.abs(mat[i]!));
  for (let i = 0; i < 16; i++) {
    if (!(Math.abs(back[i]! - mat[i]!) <= tolerance * Math.max(1, scale))) return null;
  }
  return { t: [out[0]!, out[1]!, out[2]!], r, s: [out[7]!, out[8]!, out[9]!] };
}
