import { localToModel } from '../../src/anim/local-to-model.ts';
import { buildPalette } from '../../src/anim/palette.ts';
import { generateHumanoid } from '../../src/gen/humanoid.ts';
import { TRS_STRIDE, type Scene, type SkinnedMesh } from '../../src/model/types.ts';

/** Test scenes and random poses for the technique tests (a small generated humanoid: 43 bones, 4 influences). */

let cached: Scene | null = null;
export function humanoid(): Scene {
  cached ??= generateHumanoid({ resolution: 48 });
  return cached;
}

/** Deterministic PRNG in [0, 1). */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/**
 * A random pose: every node's rest local rotated by up to ±`degrees` about a random axis (translation and
 * scale kept), then the mesh palette (16 floats per slot, bind → model).
 */
export function randomPalette(scene: Scene, mesh: SkinnedMesh, seed: number, degrees = 60): Float32Array {
  const random = rng(seed);
  const locals = scene.skeleton.restLocal.slice();
  for (let i = 0; i < scene.skeleton.parents.length; i++) {
    const o = i * TRS_STRIDE + 3;
    let ax = random() - 0.5, ay = random() - 0.5, az = random() - 0.5;
    const len = Math.hypot(ax, ay, az) || 1;
    ax /= len; ay /= len; az /= len;
    const h = ((random() * 2 - 1) * degrees * Math.PI) / 360;
    const s = Math.sin(h);
    const [bx, by, bz, bw] = [ax * s, ay * s, az * s, Math.cos(h)];
    const [qx, qy, qz, qw] = [locals[o]!, locals[o + 1]!, locals[o + 2]!, locals[o + 3]!];
    // q · b
    locals[o] = qw * bx + qx * bw + qy * bz - qz * by;
    locals[o + 1] = qw * by - qx * bz + qy * bw + qz * bx;
    locals[o + 2] = qw * bz + qx * by - qy * bx + qz * bw;
    locals[o + 3] = qw * bw - qx * bx - qy * by - qz * bz;
  }
  const model = new Float32Array(scene.skeleton.parents.length * 16);
  localToModel(scene.skeleton.parents, locals, model);
  const palette = new Float32Array(mesh.bones.length * 16);
  buildPalette(model, mesh.bones, mesh.invBind, palette);
  return palette;
}

/** Largest coordinate difference between a and b. */
export function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
}

/** Diameter of the bind-pose bounding box (the model's size for relative tolerances). */
export function meshSize(mesh: SkinnedMesh): number {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < mesh.vertexCount; v++) {
    for (let c = 0; c < 3; c++) {
      min[c] = Math.min(min[c]!, mesh.positions[v * 3 + c]!);
      max[c] = Math.max(max[c]!, mesh.positions[v * 3 + c]!);
    }
  }
  return Math.hypot(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!);
}
