/**
 * Left-handed (D3D) ⇄ right-handed (skinlab) conversion by mirroring Z.
 *
 * Files written for Direct3D (.x, Luna .m3d) use row vectors (v' = v · M) in a left-handed frame.
 * Their row-major 16 floats are already our column-major column-vector matrix (see types.ts); what
 * remains is the handedness, fixed by conjugating with S = diag(1, 1, -1): M' = S · M · S.
 * The mirror also turns D3D's clockwise front faces into counter-clockwise ones, so triangle
 * indices are kept as they are. Applying any of these twice is the identity, so the .m3d writer
 * uses the same functions to go back.
 */

/** M' = S·M·S on the 16 floats at `o` (column-major): negates the entries with exactly one Z row/column. */
export function mirrorMat4(m: Float32Array | number[], o = 0): void {
  m[o + 2] = -m[o + 2]!;
  m[o + 6] = -m[o + 6]!;
  m[o + 14] = -m[o + 14]!;
  m[o + 8] = -m[o + 8]!;
  m[o + 9] = -m[o + 9]!;
  m[o + 11] = -m[o + 11]!;
}

/** Point, direction or translation (x, y, z) at `o`. */
export function mirrorVec3(v: Float32Array | number[], o = 0): void {
  v[o + 2] = -v[o + 2]!;
}

/** Rotation quaternion (x, y, z, w) at `o`: the mirrored rotation is (-x, -y, z, w). */
export function mirrorQuat(q: Float32Array | number[], o = 0): void {
  q[o] = -q[o]!;
  q[o + 1] = -q[o + 1]!;
}

/** Tangent (x, y, z, w): xyz mirrors like a direction; the bitangent sign flips because cross(S·n, S·t) = -S·cross(n, t). */
export function mirrorTangent(t: Float32Array | number[], o = 0): void {
  t[o + 2] = -t[o + 2]!;
  t[o + 3] = -t[o + 3]!;
}

/** Reverses the winding of every triangle (swaps the 2nd and 3rd index): D3D clockwise ⇄ GL counter-clockwise. */
export function flipWinding(indices: Uint32Array): void {
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const b = indices[t + 1]!;
    indices[t + 1] = indices[t + 2]!;
    indices[t + 2] = b;
  }
}
