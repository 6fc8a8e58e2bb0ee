/**
 * The rotation of a 3×3 matrix's polar decomposition, as direct delta mush needs it (ddm-runtime.ts) and as
 * glsl/include/ddm_pars.glsl computes it, step for step: the GPU pass and this CPU mirror agree to float precision.
 *
 * Contract
 * - polarRotation(c, warm, out): the proper rotation R maximising tr(Rᵀ C) — C's polar factor when det C > 0,
 *   U·diag(1, 1, det(UVᵀ))·Vᵀ of C = UΣVᵀ otherwise (never a reflection). Matrices are 9 numbers, column-major.
 * - Method (Horn 1987): R's unit quaternion is the eigenvector of the largest eigenvalue of the symmetric 4×4
 *   N(C), found by DDM_JACOBI_SWEEPS cyclic Jacobi sweeps (quadratic convergence; converged for 4×4 well before
 *   the last sweep). C is first scaled to unit Frobenius norm and 1e-6 of the unit-norm `warm` (the palette
 *   matrix of the vertex's largest bone) added: a tie-break that picks the rotation nearest the bone's where C
 *   is degenerate (rank ≤ 1, e.g. C = 0 without smoothing) and moves a well-posed answer by ~1e-6 rad.
 *   Where both are zero R = I.
 * - Allocates nothing (module scratch).
 */

export const DDM_JACOBI_SWEEPS = 6;
/** Off-diagonal entries at or below this (N has unit scale) are treated as converged. */
const JACOBI_EPS = 1e-9;
const WARM_SHARE = 1e-6;

const _a = new Float64Array(16);
const _v = new Float64Array(16);

export function polarRotation(c: ArrayLike<number>, warm: ArrayLike<number>, out: Float64Array | Float32Array): void {
  let cn = 0, wn = 0;
  for (let k = 0; k < 9; k++) {
    cn += c[k]! * c[k]!;
    wn += warm[k]! * warm[k]!;
  }
  const cs = cn > 0 ? 1 / Math.sqrt(cn) : 0;
  const ws = wn > 0 ? WARM_SHARE / Math.sqrt(wn) : 0;
  // S = Cᵀ (Horn's Σ source·targetᵀ), entries S_xy = C[row y, col x] = c[x * 3 + y].
  const sxx = c[0]! * cs + warm[0]! * ws, sxy = c[1]! * cs + warm[1]! * ws, sxz = c[2]! * cs + warm[2]! * ws;
  const syx = c[3]! * cs + warm[3]! * ws, syy = c[4]! * cs + warm[4]! * ws, syz = c[5]! * cs + warm[5]! * ws;
  const szx = c[6]! * cs + warm[6]! * ws, szy = c[7]! * cs + warm[7]! * ws, szz = c[8]! * cs + warm[8]! * ws;
  const a = _a, v = _v;
  // Row-major 4×4, quaternion order (w, x, y, z).
  a[0] = sxx + syy + szz; a[1] = syz - szy; a[2] = szx - sxz; a[3] = sxy - syx;
  a[5] = sxx - syy - szz; a[6] = sxy + syx; a[7] = szx + sxz;
  a[10] = -sxx + syy - szz; a[11] = syz + szy;
  a[15] = -sxx - syy + szz;
  a[4] = a[1]; a[8] = a[2]; a[12] = a[3]; a[9] = a[6]; a[13] = a[7]; a[14] = a[11];
  v.fill(0);
  v[0] = v[5] = v[10] = v[15] = 1;
  for (let sweep = 0; sweep < DDM_JACOBI_SWEEPS; sweep++) {
    rotate(a, v, 0, 1);
    rotate(a, v, 0, 2);
    rotate(a, v, 0, 3);
    rotate(a, v, 1, 2);
    rotate(a, v, 1, 3);
    rotate(a, v, 2, 3);
  }
  let best = 0;
  for (let i = 1; i < 4; i++) if (a[i * 5]! > a[best * 5]!) best = i;
  let qw = v[best]!, qx = v[4 + best]!, qy = v[8 + best]!, qz = v[12 + best]!;
  const len = Math.hypot(qw, qx, qy, qz);
  if (!(len > 0)) {
    qw = 1;
    qx = qy = qz = 0;
  } else {
    qw /= len; qx /= len; qy /= len; qz /= len;
  }
  out[0] = 1 - 2 * (qy * qy + qz * qz);
  out[1] = 2 * (qx * qy + qw * qz);
  out[2] = 2 * (qx * qz - qw * qy);
  out[3] = 2 * (qx * qy - qw * qz);
  out[4] = 1 - 2 * (qx * qx + qz * qz);
  out[5] = 2 * (qy * qz + qw * qx);
  out[6] = 2 * (qx * qz + qw * qy);
  out[7] = 2 * (qy * qz - qw * qx);
  out[8] = 1 - 2 * (qx * qx + qy * qy);
}

/** One Jacobi rotation zeroing a[p][q] (p < q): a ← Jᵀ a J, v ← v J (row-major 4×4). */
function rotate(a: Float64Array, v: Float64Array, p: number, q: number): void {
  const apq = a[p * 4 + q]!;
  if (Math.abs(apq) <= JACOBI_EPS) return;
  const theta = (a[q * 5]! - a[p * 5]!) / (2 * apq);
  const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
  const cs = 1 / Math.sqrt(t * t + 1);
  const sn = t * cs;
  for (let k = 0; k < 4; k++) {
    const akp = a[k * 4 + p]!, akq = a[k * 4 + q]!;
    a[k * 4 + p] = cs * akp - sn * akq;
    a[k * 4 + q] = sn * akp + cs * akq;
  }
  for (let k = 0; k < 4; k++) {
    const apk = a[p * 4 + k]!, aqk = a[q * 4 + k]!;
    a[p * 4 + k] = cs * apk - sn * aqk;
    a[q * 4 + k] = sn * apk + cs * aqk;
  }
  for (let k = 0; k < 4; k++) {
    const vkp = v[k * 4 + p]!, vkq = v[k * 4 + q]!;
    v[k * 4 + p] = cs * vkp - sn * vkq;
    v[k * 4 + q] = sn * vkp + cs * vkq;
  }
}
