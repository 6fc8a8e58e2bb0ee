import { mat3, quat } from 'gl-matrix';
import type { Clip, Scene, SkinnedMesh, Track } from './types.ts';
import { TRS_STRIDE } from './types.ts';

/**
 * Stands a scene authored with another up axis upright in skinlab's convention (+Y up, the character
 * facing +Z, towards the default camera), at load: the whole scene is turned by the rotation R that takes
 * the given `up` axis to +Y and `forward` axis to +Z (axes in skinlab's right-handed space, after the
 * loaders' own conversions). The DirectX MultiAnimation sample does the same with a world matrix: its
 * tiny_4anim.x keys the root frame to identity, which lays Tiny along the file's Z axis (a 3ds Max export:
 * +Z up in the left-handed file, so −Z once mirrored here, facing −Y).
 *
 * Contract
 * - Returns a new Scene; the input is not modified (arrays that change are copied).
 * - Roots: each root node's local transform (rest and every key) is pre-multiplied by R: the translation
 *   becomes R·t and the rotation q_R·q (scale, applied before rotation, is unchanged), so every model
 *   matrix gains R on the left.
 * - Meshes: bind-space positions, normals, tangents (xyz) and morph deltas are turned by R and each
 *   inverse bind becomes invBind·R⁻¹, so the palette model·invBind·R⁻¹ maps the turned vertex R·v where
 *   the original palette put v, turned by R; the bind pose (identity palette) stands upright too.
 * - A proper rotation (up and forward must be perpendicular): lengths, winding and handedness are kept.
 */

export type Axis = '+x' | '-x' | '+y' | '-y' | '+z' | '-z';

export interface Orientation {
  /** The scene axis the character stands along (head above feet). */
  readonly up: Axis;
  /** The scene axis the character faces. */
  readonly forward: Axis;
}

function axisVector(a: Axis): [number, number, number] {
  const s = a[0] === '-' ? -1 : 1;
  const i = 'xyz'.indexOf(a[1]!);
  const v: [number, number, number] = [0, 0, 0];
  v[i] = s;
  return v;
}

/** The rotation (column-major 3×3) taking `up` to +Y and `forward` to +Z; throws when they are not perpendicular. */
export function orientationMatrix(o: Orientation): mat3 {
  const u = axisVector(o.up);
  const f = axisVector(o.forward);
  if (u[0] * f[0] + u[1] * f[1] + u[2] * f[2] !== 0) throw new Error(`orientation: up ${o.up} and forward ${o.forward} are not perpendicular`);
  // side = up × forward goes to +X (so +X = +Y × +Z holds).
  const side: [number, number, number] = [u[1] * f[2] - u[2] * f[1], u[2] * f[0] - u[0] * f[2], u[0] * f[1] - u[1] * f[0]];
  // R maps side → x, up → y, forward → z: its rows are side, up, forward.
  return mat3.fromValues(side[0], u[0], f[0], side[1], u[1], f[1], side[2], u[2], f[2]);
}

function turnAll(values: Float32Array, stride: number, turn: (v: Float32Array, o: number) => void): Float32Array {
  const out = Float32Array.from(values);
  for (let o = 0; o + stride <= out.length; o += stride) turn(out, o);
  return out;
}

/** The scene turned so that `o.up` becomes +Y and `o.forward` +Z (see the file contract). */
export function orientScene(scene: Scene, o: Orientation): Scene {
  const r = orientationMatrix(o);
  const qr = quat.create();
  quat.fromMat3(qr, r);
  quat.normalize(qr, qr);
  const turnVec = (v: Float32Array, i: number): void => {
    const x = v[i]!, y = v[i + 1]!, z = v[i + 2]!;
    v[i] = r[0]! * x + r[3]! * y + r[6]! * z;
    v[i + 1] = r[1]! * x + r[4]! * y + r[7]! * z;
    v[i + 2] = r[2]! * x + r[5]! * y + r[8]! * z;
  };
  const q = quat.create();
  const turnQuat = (v: Float32Array, i: number): void => {
    quat.set(q, v[i]!, v[i + 1]!, v[i + 2]!, v[i + 3]!);
    quat.multiply(q, qr, q);
    v[i] = q[0]!;
    v[i + 1] = q[1]!;
    v[i + 2] = q[2]!;
    v[i + 3] = q[3]!;
  };
  const turnTrack = (track: Track): Track => ({
    node: track.node,
    translation: track.translation && { times: track.translation.times, values: turnAll(track.translation.values, 3, turnVec) },
    rotation: track.rotation && { times: track.rotation.times, values: turnAll(track.rotation.values, 4, turnQuat) },
    scale: track.scale,
  });
  // invBind · R⁻¹ = invBind · Rᵀ: new column j of the upper 3×3 (and its bottom entry) = Σ_k column k · R[j][k].
  const turnInvBind = (invBind: Float32Array): Float32Array => {
    const out = Float32Array.from(invBind);
    for (let b = 0; b + 16 <= out.length; b += 16) {
      for (let j = 0; j < 3; j++) {
        for (let row = 0; row < 4; row++) {
          let sum = 0;
          // Rᵀ[k][j] = R[j][k]; R is column-major: R[j][k] (row j, column k) = r[k * 3 + j].
          for (let k = 0; k < 3; k++) sum += invBind[b + k * 4 + row]! * r[k * 3 + j]!;
          out[b + j * 4 + row] = sum;
        }
      }
    }
    return out;
  };
  const turnMesh = (mesh: SkinnedMesh): SkinnedMesh => {
    let tangents: Float32Array | null = null;
    if (mesh.tangents) {
      tangents = Float32Array.from(mesh.tangents);
      for (let i = 0; i + 4 <= tangents.length; i += 4) turnVec(tangents, i);
    }
    return {
      ...mesh,
      positions: turnAll(mesh.positions, 3, turnVec),
      normals: turnAll(mesh.normals, 3, turnVec),
      tangents,
      invBind: turnInvBind(mesh.invBind),
      ...(mesh.morphs
        ? { morphs: mesh.morphs.map((d) => ({ vertices: d.vertices, positions: turnAll(d.positions, 3, turnVec), normals: turnAll(d.normals, 3, turnVec) })) }
        : {}),
    };
  };
  const { parents, restLocal, names } = scene.skeleton;
  const rest = Float32Array.from(restLocal);
  const root = new Uint8Array(parents.length);
  for (let i = 0; i < parents.length; i++) {
    if (parents[i]! >= 0) continue;
    root[i] = 1;
    turnVec(rest, i * TRS_STRIDE);
    turnQuat(rest, i * TRS_STRIDE + 3);
  }
  const clips: Clip[] = scene.clips.map((clip) => ({
    ...clip,
    tracks: clip.tracks.map((t) => (t.node >= 0 && t.node < root.length && root[t.node] === 1 ? turnTrack(t) : t)),
  }));
  return { ...scene, skeleton: { names, parents, restLocal: rest }, meshes: scene.meshes.map(turnMesh), clips };
}
