import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { computeBounds } from '../../src/anim/bounds.ts';
import { applyMorphs } from '../../src/anim/morph.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import type { Scene } from '../../src/model/types.ts';

/**
 * Test helpers of the glTF export: skinlab's own posed vertices and bounds of a Scene (the AnimPlayer pose,
 * morph targets applied on the CPU, then software skinning, as inspect and PosedBounds do, plus the morph
 * layer), and a texture source reading companion files next to a model.
 */

export interface Box {
  min: [number, number, number];
  max: [number, number, number];
}

/** The fractions of a clip's duration every bounds test poses at. */
export const POSE_FRACTIONS = [0, 0.37, 0.81] as const;

export function emptyBox(): Box {
  return { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
}

export function diagonal(b: Box): number {
  return Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);
}

/** Largest difference of the two boxes' corners, divided by a's diagonal. */
export function boxError(a: Box, b: Box): number {
  let e = 0;
  for (let k = 0; k < 3; k++) e = Math.max(e, Math.abs(a.min[k]! - b.min[k]!), Math.abs(a.max[k]! - b.max[k]!));
  return e / Math.max(diagonal(a), 1e-12);
}

/** Poses a Scene with skinlab's runtime: clip `clip` at time t (seconds), or the rest pose when it has no clips. */
export class ScenePoser {
  private readonly player: AnimPlayer;
  constructor(private readonly scene: Scene) {
    this.player = new AnimPlayer(scene.skeleton, scene.clips, scene.morphTargets.length, scene.morphDefaults);
  }

  /**
   * Skinned positions (model space, 3 floats per vertex, the mesh's own vertex order) of every mesh at
   * clip `clip`, time t (seconds); an empty array for a mesh without vertices or triangles.
   */
  positions(clip: number, t: number): Float32Array[] {
    const { scene, player } = this;
    if (scene.clips.length > 0) {
      player.play(clip, 0);
      player.setTime(t);
    }
    player.evaluate();
    return scene.meshes.map((mesh) => {
      if (mesh.vertexCount === 0 || mesh.indices.length === 0) return new Float32Array(0);
      const positions = new Float32Array(mesh.vertexCount * 3);
      const normals = new Float32Array(mesh.vertexCount * 3);
      applyMorphs(mesh, player.morphWeights, positions, normals);
      const palette = new Float32Array(mesh.bones.length * 16);
      player.writePalette(mesh, palette, 0);
      const out = new Float32Array(mesh.vertexCount * 3);
      skinMesh({ ...mesh, positions, normals }, palette, out, null);
      return out;
    });
  }

  bounds(clip: number, t: number): Box {
    const box = emptyBox();
    const min = [0, 0, 0];
    const max = [0, 0, 0];
    for (const out of this.positions(clip, t)) {
      if (out.length === 0) continue;
      computeBounds(out, min, max);
      for (let k = 0; k < 3; k++) {
        box.min[k] = Math.min(box.min[k]!, min[k]!);
        box.max[k] = Math.max(box.max[k]!, max[k]!);
      }
    }
    return box;
  }
}

/** Companion files of `modelPath` by base name, case-insensitively, as the convert command finds them. */
export function texturesBeside(modelPath: string): (name: string) => Promise<Uint8Array | null> {
  const dir = dirname(modelPath);
  return async (name) => {
    const base = (name.split(/[\\/]/).pop() ?? '').toLowerCase();
    const { readdirSync } = await import('node:fs');
    const hit = readdirSync(dir).find((f) => f.toLowerCase() === base);
    return hit ? new Uint8Array(readFileSync(join(dir, hit))) : null;
  };
}
