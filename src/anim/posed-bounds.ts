import type { Scene, SkinnedMesh } from '../model/types.ts';
import { computeBounds } from './bounds.ts';
import { applyMorphs } from './morph.ts';
import type { AnimPlayer } from './player.ts';
import { skinBoundsSimd } from './skin-bounds.ts';
import { skinMesh } from './software-skin.ts';

/**
 * Model-space bounds of a scene's meshes, CPU-skinned in the player's current pose (the caller has run
 * `player.evaluate()`). Meshes with morph deltas are morphed first with the player's `morphWeights` (when
 * the player was built with the scene's morph targets). Owns one palette and one skinned copy of the positions per
 * mesh (and, for morphed meshes, morphed normals and a view of the mesh over both), sized at construction; measure() allocates
 * nothing. Used for camera framing and `inspect --t`. Each box is measured by the WebAssembly SIMD kernel
 * where it runs (skin-bounds.ts: float32, within a few ulps of the scalar path), else by skinMesh + computeBounds.
 */
/** What measure() reads of a pose: an AnimPlayer, or anything with its palette writer (morph weights optional). */
export interface PoseSource {
  writePalette: AnimPlayer['writePalette'];
  readonly morphWeights?: Float32Array;
}

const NO_WEIGHTS = new Float32Array(0);

export class PosedBounds {
  private readonly palettes: Float32Array[];
  private readonly positions: Float32Array[];
  private readonly normals: Float32Array[];
  /** Per mesh: the mesh with its positions/normals replaced by the copy above (morphed meshes only). */
  private readonly morphed: (SkinnedMesh | null)[];
  private readonly min = new Float64Array(3);
  private readonly max = new Float64Array(3);

  constructor(private readonly scene: Scene) {
    this.palettes = scene.meshes.map((m) => new Float32Array(m.bones.length * 16));
    this.positions = scene.meshes.map((m) => new Float32Array(m.vertexCount * 3));
    // Normals only as the morph's output (skinning here writes positions alone).
    this.normals = scene.meshes.map((m) => new Float32Array(m.morphs && m.morphs.some((d) => d.vertices.length > 0) ? m.vertexCount * 3 : 0));
    this.morphed = scene.meshes.map((m, i) =>
      m.morphs && m.morphs.some((d) => d.vertices.length > 0) ? { ...m, positions: this.positions[i]!, normals: this.normals[i]! } : null,
    );
  }

  /** Writes the union of every skinned mesh's box into outMin/outMax (+/-Infinity when there are no vertices). */
  measure(player: PoseSource, outMin: { [i: number]: number }, outMax: { [i: number]: number }): void {
    for (let k = 0; k < 3; k++) {
      outMin[k] = Infinity;
      outMax[k] = -Infinity;
    }
    const meshes = this.scene.meshes;
    const weights = player.morphWeights ?? NO_WEIGHTS;
    for (let i = 0; i < meshes.length; i++) {
      const m = meshes[i]!;
      if (m.vertexCount === 0) continue;
      player.writePalette(m, this.palettes[i]!, 0);
      const morphed = weights.length > 0 ? this.morphed[i] : null;
      if (morphed) {
        // Morph into the copy, then skin the copy in place (skinMesh reads each vertex before writing it).
        applyMorphs(m, weights, this.positions[i]!, this.normals[i]!);
        if (!skinBoundsSimd(m, this.positions[i]!, this.palettes[i]!, this.min, this.max, true)) {
          skinMesh(morphed, this.palettes[i]!, this.positions[i]!, null);
          computeBounds(this.positions[i]!, this.min, this.max);
        }
      } else if (!skinBoundsSimd(m, m.positions, this.palettes[i]!, this.min, this.max)) {
        // Positions only: a box needs no normals (the same arithmetic for the positions, a third less work).
        skinMesh(m, this.palettes[i]!, this.positions[i]!, null);
        computeBounds(this.positions[i]!, this.min, this.max);
      }
      for (let k = 0; k < 3; k++) {
        if (this.min[k]! < outMin[k]!) outMin[k] = this.min[k]!;
        if (this.max[k]! > outMax[k]!) outMax[k] = this.max[k]!;
      }
    }
  }
}
