import type { AnimPlayer } from '../anim/player.ts';
import type { MeshBuffers } from '../gpu/mesh-buffers.ts';
import type { Defines } from '../gpu/programs.ts';
import type { Scene } from '../model/types.ts';

/**
 * A skinning technique: how the palette reaches the vertex shader and how a mesh is drawn.
 * Every technique draws from the same shader sources in glsl/ with its own define set, so a switch is a
 * program swap plus the per-mesh state the technique built at load (its partitioning, its buffers).
 */
export type TechniqueId =
  | 'software'
  | 'ff-nonindexed'
  | 'ff-indexed'
  | 'vs-asm'
  | 'vs-hlsl'
  | 'accumulated'
  | 'dual-quat'
  | 'texture';

/** Every id of CONTRACT section 5, in menu order. */
export const TECHNIQUE_IDS: readonly TechniqueId[] = [
  'software',
  'ff-nonindexed',
  'ff-indexed',
  'vs-asm',
  'vs-hlsl',
  'accumulated',
  'dual-quat',
  'texture',
];

export interface DeviceCaps {
  readonly maxUniformBlockSize: number;
  readonly maxVertexUniformVectors: number;
  readonly maxTextureSize: number;
}

/** Per-mesh state of a technique. Owned by the model's GPU resources; disposed with them. */
export interface TechniqueMesh {
  /** Writes and uploads this frame's palette for the mesh; returns the bytes uploaded. No allocation. */
  update(player: AnimPlayer): number;
  /** Binds what the draw needs (palette blocks, ...) before the subset draws. */
  bind(): void;
  dispose(): void;
}

export interface Technique {
  readonly id: TechniqueId;
  readonly label: string;
  /** One line for the GUI: what it recreates. */
  readonly summary: string;
  /** null when the technique can draw this scene on this device, else why not (shown greyed out). */
  unsupportedReason(scene: Scene, caps: DeviceCaps): string | null;
  /** Shader variant of this technique for a scene: the define set of skinned.vert. */
  defines(scene: Scene, caps: DeviceCaps, influences: number): Defines;
  createMesh(gl: WebGL2RenderingContext, buffers: MeshBuffers, scene: Scene, caps: DeviceCaps): TechniqueMesh;
}
