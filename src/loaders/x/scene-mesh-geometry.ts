import { mat3, mat4 } from 'gl-matrix';

/**
 * Vertex attribute maths for scene-mesh.ts on Float32Array views (3 floats per normal, 4 per tangent:
 * xyz and the bitangent sign): smooth normals from faces and bitangent signs in the file's space, and a
 * rigid mesh's transform into model space. Pure, in place where it says so; allocates only the output.
 */

/** Normalises the 3-vector at o; a zero or non-finite one becomes +Y. */
export function normaliseOr(v: Float32Array, o: number): void {
  const len = Math.hypot(v[o]!, v[o + 1]!, v[o + 2]!);
  if (len > 0 && Number.isFinite(len)) {
    v[o] = v[o]! / len;
    v[o + 1] = v[o + 1]! / len;
    v[o + 2] = v[o + 2]! / len;
  } else {
    v[o] = 0;
    v[o + 1] = 1;
    v[o + 2] = 0;
  }
}

/**
 * Bitangent sign in the file's space: +1 when the binormal agrees with cross(normal, tangent) (or when there
 * is no binormal), else -1. mirrorTangent then turns it into skinlab's convention.
 */
export function bitangentSign(n: Float32Array, no: number, t: Float32Array, to: number, b: Float32Array | null, bo: number): number {
  if (b === null) return 1;
  const cx = n[no + 1]! * t[to + 2]! - n[no + 2]! * t[to + 1]!;
  const cy = n[no + 2]! * t[to]! - n[no]! * t[to + 2]!;
  const cz = n[no]! * t[to + 1]! - n[no + 1]! * t[to]!;
  return cx * b[bo]! + cy * b[bo + 1]! + cz * b[bo + 2]! < 0 ? -1 : 1;
}

/**
 * Area-weighted smooth normals per position, in the file's space. D3D front faces wind clockwise in its
 * left-handed frame, where (b − a) × (c − a) of a front face points outwards.
 */
export function computeNormals(pos: Float64Array, faces: { starts: Uint32Array; corners: Uint32Array }): Float32Array {
  const out = new Float32Array(pos.length);
  const nFaces = faces.starts.length - 1;
  for (let f = 0; f < nFaces; f++) {
    const a = faces.starts[f]!;
    const b = faces.starts[f + 1]!;
    for (let i = a + 1; i + 1 < b; i++) {
      const p0 = faces.corners[a]! * 3;
      const p1 = faces.corners[i]! * 3;
      const p2 = faces.corners[i + 1]! * 3;
      const e1x = pos[p1]! - pos[p0]!, e1y = pos[p1 + 1]! - pos[p0 + 1]!, e1z = pos[p1 + 2]! - pos[p0 + 2]!;
      const e2x = pos[p2]! - pos[p0]!, e2y = pos[p2 + 1]! - pos[p0 + 1]!, e2z = pos[p2 + 2]! - pos[p0 + 2]!;
      const nx = e1y * e2z - e1z * e2y;
      const ny = e1z * e2x - e1x * e2z;
      const nz = e1x * e2y - e1y * e2x;
      for (const p of [p0, p1, p2]) {
        out[p] = out[p]! + nx;
        out[p + 1] = out[p + 1]! + ny;
        out[p + 2] = out[p + 2]! + nz;
      }
    }
  }
  return out;
}

/** Positions by m, normals by its inverse transpose, tangents by its upper 3x3 (sign flips with det < 0). */
export function transformRigid(m: mat4, positions: Float32Array, normals: Float32Array, tangents: Float32Array | null, count: number): void {
  const nm = mat3.create();
  if (!mat3.normalFromMat4(nm, m)) mat3.identity(nm);
  const det = mat4.determinant(m);
  for (let v = 0; v < count; v++) {
    const o = v * 3;
    const x = positions[o]!, y = positions[o + 1]!, z = positions[o + 2]!;
    positions[o] = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
    positions[o + 1] = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
    positions[o + 2] = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
    const nx = normals[o]!, ny = normals[o + 1]!, nz = normals[o + 2]!;
    normals[o] = nm[0]! * nx + nm[3]! * ny + nm[6]! * nz;
    normals[o + 1] = nm[1]! * nx + nm[4]! * ny + nm[7]! * nz;
    normals[o + 2] = nm[2]! * nx + nm[5]! * ny + nm[8]! * nz;
    normaliseOr(normals, o);
    if (tangents) {
      const t = v * 4;
      const tx = tangents[t]!, ty = tangents[t + 1]!, tz = tangents[t + 2]!;
      tangents[t] = m[0]! * tx + m[4]! * ty + m[8]! * tz;
      tangents[t + 1] = m[1]! * tx + m[5]! * ty + m[9]! * tz;
      tangents[t + 2] = m[2]! * tx + m[6]! * ty + m[10]! * tz;
      normaliseOr(tangents, t);
      if (det < 0) tangents[t + 3] = -tangents[t + 3]!;
    }
  }
}
