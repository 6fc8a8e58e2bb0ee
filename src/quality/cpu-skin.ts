import { buildDualQuatPalette, DUAL_QUAT_STRIDE, skinMeshDualQuat } from '../anim/dual-quat.ts';
import { applyMorphs } from '../anim/morph.ts';
import type { PoseSource } from '../anim/posed-bounds.ts';
import { skinMesh } from '../anim/software-skin.ts';
import { corCentres } from '../deform/cor-centres.ts';
import { buildCorPalette, COR_STRIDE, skinMeshCor } from '../deform/cor-skin.ts';
import { ddmData } from '../deform/ddm-precompute.ts';
import { skinMeshDdm } from '../deform/ddm-runtime.ts';
import type { Scene, SkinnedMesh } from '../model/types.ts';

/**
 * Each technique's own CPU reference, for the artifact metrics: technique id → the deformation maths it
 * implements, and a skinner that runs that maths on every mesh of a scene at the current pose.
 *
 * Contract
 * - cpuReferenceOf(id): 'linear' (linear blend skinning, anim/software-skin.ts skinMesh) for `software`,
 *   `ff-*`, `vs-*`, `accumulated`, `texture`, `stream-out`; 'dual-quat' (anim/dual-quat.ts) for `dual-quat`;
 *   'cor' (deform/cor-skin.ts, with the mesh's centres) and 'ddm' (deform/ddm-runtime.ts, with its Ω) for
 *   themselves — their load-time data is computed on first use when no one stored it (deform/kinds.ts); null for an id with no CPU reference here (noCpuReference(id) says so in words).
 * - CpuSkinner owns, per mesh, one matrix palette, one dual-quaternion palette, one cor palette and (for meshes with morph
 *   deltas) one morphed bind-space copy, sized at construction. skin() morphs by `morphWeights` (indexed like
 *   Scene.morphTargets; empty or all zero: none) then skins with the pose's palette (PoseSource.writePalette,
 *   the caller has evaluated the pose) into out[i] (3 floats per vertex of mesh i, model space).
 *   It allocates nothing; results equal gpu-checks.ts referenceSkin's for the same inputs.
 */

export type CpuReference = 'linear' | 'dual-quat' | 'cor' | 'ddm';

const LINEAR_IDS = ['software', 'ff-nonindexed', 'ff-indexed', 'vs-asm', 'vs-hlsl', 'accumulated', 'texture', 'stream-out'];

/** The technique ids with a CPU reference, in menu order (one per technique). */
export const CPU_REFERENCE_IDS: readonly string[] = [...LINEAR_IDS, 'dual-quat', 'cor', 'ddm'];

/** The reference maths of technique `id`, or null when there is no CPU reference for it. */
export function cpuReferenceOf(id: string): CpuReference | null {
  if (LINEAR_IDS.includes(id)) return 'linear';
  switch (id) {
    case 'dual-quat':
    case 'cor':
    case 'ddm':
      return id;
    default:
      return null;
  }
}

/** The message for a technique without a CPU reference. */
export function noCpuReference(id: string): string {
  return `no CPU reference for ${id} (references exist for ${CPU_REFERENCE_IDS.join(', ')})`;
}

export class CpuSkinner {
  private readonly palettes: Float32Array[];
  private readonly dualQuats: Float32Array[];
  private readonly corPalettes: Float32Array[];
  /** Per mesh: the mesh over a morphed bind-space copy (meshes with morph deltas), else null. */
  private readonly morphed: (SkinnedMesh | null)[];

  constructor(readonly scene: Scene) {
    this.palettes = scene.meshes.map((m) => new Float32Array(Math.max(1, m.bones.length) * 16));
    this.dualQuats = scene.meshes.map((m) => new Float32Array(Math.max(1, m.bones.length) * DUAL_QUAT_STRIDE));
    this.corPalettes = scene.meshes.map((m) => new Float32Array(Math.max(1, m.bones.length) * COR_STRIDE));
    this.morphed = scene.meshes.map((m) =>
      m.morphs && m.morphs.some((d) => d.vertices.length > 0)
        ? { ...m, positions: new Float32Array(m.vertexCount * 3), normals: new Float32Array(m.vertexCount * 3) }
        : null,
    );
  }

  /** Skins every mesh with `reference` at the pose into out[i]; see the module contract. */
  skin(reference: CpuReference, pose: PoseSource, morphWeights: Float32Array, influences: number, out: readonly Float32Array[]): void {
    const meshes = this.scene.meshes;
    const morphing = anyNonZero(morphWeights);
    for (let i = 0; i < meshes.length; i++) {
      const mesh = meshes[i]!;
      if (mesh.vertexCount === 0) continue;
      let source = mesh;
      const copy = this.morphed[i]!;
      if (morphing && copy) {
        applyMorphs(mesh, morphWeights, copy.positions, copy.normals);
        source = copy;
      }
      pose.writePalette(mesh, this.palettes[i]!, 0);
      this.skinMesh(reference, i, source, influences, out[i]!);
    }
  }

  private skinMesh(reference: CpuReference, i: number, source: SkinnedMesh, influences: number, out: Float32Array): void {
    switch (reference) {
      case 'linear':
        skinMesh(source, this.palettes[i]!, out, null, influences);
        return;
      case 'dual-quat':
        buildDualQuatPalette(this.palettes[i]!, source.bones.length, this.dualQuats[i]!);
        skinMeshDualQuat(source, this.dualQuats[i]!, out, null, influences);
        return;
      case 'cor':
        // The centres belong to the neutral mesh (morph targets do not move them).
        buildCorPalette(this.palettes[i]!, source.bones.length, this.corPalettes[i]!);
        skinMeshCor(source, corCentres(this.scene.meshes[i]!), this.corPalettes[i]!, out, null, influences);
        return;
      case 'ddm':
        // Ω belongs to the neutral mesh; DDM keeps its own 8 bones per vertex (influences does not apply).
        skinMeshDdm(source, ddmData(this.scene.meshes[i]!), this.palettes[i]!, out, null);
        return;
    }
  }
}

function anyNonZero(a: Float32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== 0) return true;
  return false;
}
