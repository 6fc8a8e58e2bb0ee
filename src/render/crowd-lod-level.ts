import { MeshBuffers } from '../gpu/mesh-buffers.ts';
import type { Scene, SkinnedMesh } from '../model/types.ts';
import { subsetDraws } from '../techniques/mesh-state.ts';
import type { DrawRange } from '../techniques/technique.ts';
import { CrowdModel } from './crowd.ts';

/**
 * One lighter detail level of the crowd's model (distance LOD, crowd-lod.ts), kept for crowd mode only:
 * its meshes' GPU buffers and subset draws. Drawn with the chosen level's materials and clip table. Its
 * palettes: the chosen level's baked texture when every mesh's bone list and offset matrices equal the
 * chosen level's (`shared`; Dawn's levels), else its own CrowdModel and bake, built on first use (bake()).
 * A generated level (the model's own vertex arrays, other indices) shares the chosen level's vertex buffers and
 * uploads only its index buffers. Owns its handles; dispose() deletes them.
 */
export class CrowdLodLevel {
  readonly meshes: MeshBuffers[];
  readonly draws: DrawRange[][];
  /** Its meshes share the chosen level's palette slots (bone lists and offsets equal). */
  readonly shared: boolean;
  /** Vertices of all its meshes (one instance's skinning work). */
  readonly vertexCount: number;
  private own: CrowdModel | null = null;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    /** The detail level's name (`detail` value). */
    readonly detail: string,
    readonly scene: Scene,
    chosen: Scene,
    private readonly maxTextureSize: number,
    /** The chosen level's buffers: a mesh over the very same vertex arrays (a generated level) shares its vertex buffers. */
    chosenBuffers: readonly MeshBuffers[] = [],
  ) {
    this.meshes = scene.meshes.map((m, i) => new MeshBuffers(gl, m, sameVertices(chosenBuffers[i]?.mesh, m) ? chosenBuffers[i]! : null));
    this.draws = scene.meshes.map(subsetDraws);
    this.shared = sameBones(chosen, scene);
    this.vertexCount = scene.meshes.reduce((n, m) => n + m.vertexCount, 0);
  }

  /** The level's own bake (null when it shares the chosen level's): built on the first call (allocates, one-time work). */
  bake(): CrowdModel | null {
    if (this.shared) return null;
    if (this.own === null) {
      this.own = new CrowdModel(this.gl, this.scene, this.maxTextureSize);
      this.own.bake();
    }
    return this.own;
  }

  dispose(): void {
    for (const m of this.meshes) m.dispose();
    this.meshes.length = 0;
    this.own?.dispose();
    this.own = null;
  }
}

/** True when `a` and `b` are the same vertices (the same arrays: a generated level over its model's vertices). */
function sameVertices(a: SkinnedMesh | undefined, b: SkinnedMesh): boolean {
  return a !== undefined && a.positions === b.positions && a.normals === b.normals && a.uvs === b.uvs && a.joints === b.joints && a.weights === b.weights && a.tangents === b.tangents && (a.colors ?? null) === (b.colors ?? null);
}

/** True when `b`'s meshes bind the same bones with the same offset matrices, mesh by mesh, as `a`'s (their palettes are equal). */
export function sameBones(a: Scene, b: Scene): boolean {
  if (a.meshes.length !== b.meshes.length) return false;
  for (let i = 0; i < a.meshes.length; i++) {
    const x = a.meshes[i]!;
    const y = b.meshes[i]!;
    if (x.bones.length !== y.bones.length || x.invBind.length !== y.invBind.length) return false;
    for (let k = 0; k < x.bones.length; k++) if (x.bones[k] !== y.bones[k]) return false;
    for (let k = 0; k < x.invBind.length; k++) if (x.invBind[k] !== y.invBind[k]) return false;
  }
  return true;
}

/**
 * Why `level` cannot stand in for `chosen` in a crowd (null when it can): the draws use the chosen level's
 * materials and clip table, so every material its subsets use must be the chosen level's of that index (by
 * name; Dawn's low level lacks the wing veins, its last material) and the clips must match.
 */
export function levelMismatch(chosen: Scene, level: Scene): string | null {
  for (const mesh of level.meshes) {
    for (const subset of mesh.subsets) {
      if (chosen.materials[subset.material]?.name !== level.materials[subset.material]?.name) return 'its materials differ';
    }
  }
  if (level.clips.length !== chosen.clips.length) return 'its clips differ';
  for (let c = 0; c < chosen.clips.length; c++) {
    if (level.clips[c]!.name !== chosen.clips[c]!.name || level.clips[c]!.duration !== chosen.clips[c]!.duration) return 'its clips differ';
  }
  return null;
}
