/** Models, poses and sizes for the direct delta mush tests. */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnimPlayer } from '../../src/anim/player.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import type { Scene, SkinnedMesh } from '../../src/model/types.ts';

export function loadPublic(path: string): Scene {
  return loadModel(path, new Uint8Array(readFileSync(join(__dirname, '..', '..', 'public', path))));
}

/** Palette of `mesh` at clip `clip`, time t (seconds), 16 floats per slot. */
export function posePalette(scene: Scene, mesh: SkinnedMesh, clip: number, t: number): Float32Array {
  const player = new AnimPlayer(scene.skeleton, scene.clips, scene.morphTargets.length);
  player.play(clip);
  player.setTime(t);
  player.evaluate();
  const pal = new Float32Array(Math.max(1, mesh.bones.length) * 16);
  player.writePalette(mesh, pal, 0);
  return pal;
}

export function identityPalette(mesh: SkinnedMesh): Float32Array {
  const pal = new Float32Array(Math.max(1, mesh.bones.length) * 16);
  for (let k = 0; k < pal.length; k += 16) pal[k] = pal[k + 5] = pal[k + 10] = pal[k + 15] = 1;
  return pal;
}

/** Diagonal of the bind-space bounding box. */
export function meshSize(mesh: SkinnedMesh): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < mesh.vertexCount; v++) {
    for (let c = 0; c < 3; c++) {
      lo[c] = Math.min(lo[c]!, mesh.positions[v * 3 + c]!);
      hi[c] = Math.max(hi[c]!, mesh.positions[v * 3 + c]!);
    }
  }
  return Math.hypot(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!);
}

export function maxPointError(a: Float32Array, b: Float32Array, vertices?: readonly number[]): number {
  let worst = 0;
  const list = vertices ?? Array.from({ length: a.length / 3 }, (_, i) => i);
  for (const v of list) {
    const e = Math.max(Math.abs(a[v * 3]! - b[v * 3]!), Math.abs(a[v * 3 + 1]! - b[v * 3 + 1]!), Math.abs(a[v * 3 + 2]! - b[v * 3 + 2]!));
    worst = Math.max(worst, Number.isFinite(e) ? e : Infinity);
  }
  return worst;
}
