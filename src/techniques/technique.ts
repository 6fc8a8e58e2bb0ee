import type { MeshBuffers } from '../gpu/mesh-buffers.ts';
import type { Defines } from '../gpu/programs.ts';
import type { Scene, SkinnedMesh } from '../model/types.ts';

/**
 * A skinning technique: how the palette reaches the vertex shader and how a mesh is drawn.
 * Every technique draws from the same shader sources in glsl/ with its own define set, so a switch is a
 * program swap plus the per-mesh state the technique built at load (its partitioning, its buffers).
 *
 * Drawing contract (renderer): for each TechniqueMesh, once per frame `update(player)`; then per pass
 * `bind()`, bind `vao` (triangles) or `wireVao` (edges), and for each DrawRange in order call
 * `setGroup(range.group, location)` whenever the group changes — `location` is the program's uniform
 * `Technique.groupUniform` (null when the technique has none) — then draw `count` indices of the VAO's
 * element buffer (type `indexType`) from index `first`. `points` lists each group's vertex range for
 * vertex-only passes (transform-feedback readback).
 */
export type TechniqueId =
  | 'software'
  | 'ff-nonindexed'
  | 'ff-indexed'
  | 'vs-asm'
  | 'vs-hlsl'
  | 'accumulated'
  | 'dual-quat'
  | 'cor'
  | 'texture'
  | 'stream-out'
  | 'ddm';

/** Every technique id (docs/api.md#technique-ids), in menu order. */
export const TECHNIQUE_IDS: readonly TechniqueId[] = [
  'software',
  'ff-nonindexed',
  'ff-indexed',
  'vs-asm',
  'vs-hlsl',
  'accumulated',
  'dual-quat',
  'cor',
  'texture',
  'stream-out',
  'ddm',
];

/**
 * Where a technique's per-frame palette comes from: the animation (AnimPlayer) or the renderer's bind pose
 * (identity palette). Writes mesh's palette, 16 floats per slot, column-major, bind space → model space, at
 * out[offsetFloats..]; allocates nothing.
 */
export interface PoseSource {
  writePalette(mesh: SkinnedMesh, out: Float32Array, offsetFloats?: number): void;
}

export interface DeviceCaps {
  readonly maxUniformBlockSize: number;
  readonly maxVertexUniformVectors: number;
  readonly maxTextureSize: number;
}

/** The user's choices a technique's mesh state and shader variant depend on. */
export interface TechniqueOptions {
  /** 1..4: influences kept per vertex (sorted, truncated, renormalised). */
  readonly influences: number;
  /** Palette size for the palette-splitting technique (`ff-indexed`); others ignore it. */
  readonly palette: number;
}

export interface DrawRange {
  readonly material: number;
  /** Bone group whose matrices the draw needs (0 for techniques without groups). */
  readonly group: number;
  /** First index (triangles, edges) or first vertex (points). */
  readonly first: number;
  readonly count: number;
}

/** Load-time costs of a mesh's technique state (the live cost panel adds the per-frame ones). */
export interface MeshCost {
  readonly groups: number;
  readonly duplicatedVertices: number;
  /** Bytes of vertex attributes the technique draws from (its own buffers, or the shared ones it uses). */
  readonly vertexBytes: number;
  /** Triangles drawn with reduced influences because they need more bones than a group holds. */
  readonly approximatedTriangles: number;
}

/**
 * Where a technique mesh reads its bind-space positions and normals, so the morph runtime
 * (render/morph-runtime.ts) can write the CPU-morphed mesh into them:
 * - 'buffers': ARRAY_BUFFERs of 3 floats per technique vertex (vertex v copies mesh vertex sourceVertex[v]),
 *   attached at ATTRIB.a_position / a_normal of the technique's vertex arrays; the runtime gathers and uploads.
 *   The neutral tangents stay as they are: the shader re-orthonormalises them against the normal it reads.
 * - 'arrays': 3 floats per mesh vertex that update() reads each frame (software: CPU-skinned from these),
 *   and the tangents (4 floats per mesh vertex, re-orthonormalised against the morphed normal by applyMorphs;
 *   null for a mesh without tangents).
 * Whoever writes them must restore the neutral mesh when morphing stops.
 */
export type BindInputs =
  | { readonly kind: 'buffers'; readonly positions: WebGLBuffer; readonly normals: WebGLBuffer }
  | { readonly kind: 'arrays'; readonly positions: Float32Array; readonly normals: Float32Array; readonly tangents: Float32Array | null };

/**
 * The GPU morph a technique's own skinning pass applies (stream-out), handed over by the morph runtime
 * (render/morph-runtime.ts) in prepare(), before update(). The draw programs of such a technique carry no morph
 * define: the pass morphs and skins, every draw reads the result.
 */
export interface PassMorph {
  /** The morph path's define set for the pass program (MORPH_SLOTS, or MORPH_TEXTURE and MORPH_MAX). */
  readonly defines: Defines;
  /** Loads the mesh's morph uniforms (and delta texture) into `program`, which is in use; before the pass draws. */
  bind(program: WebGLProgram): void;
}

/** Per-mesh state of a technique. Owned by the model's GPU resources; disposed with them. */
export interface TechniqueMesh {
  readonly vao: WebGLVertexArrayObject;
  readonly wireVao: WebGLVertexArrayObject;
  /** gl.UNSIGNED_INT or gl.UNSIGNED_SHORT. */
  readonly indexType: number;
  readonly draws: readonly DrawRange[];
  /**
   * The edge draws on wireVao. The first read builds the edges (load time does not: a wireframe may never be
   * drawn) and makes them wireVao's elements, leaving the bound vertex array as it was; read it before drawing
   * with wireVao.
   */
  readonly wireDraws: readonly DrawRange[];
  readonly points: readonly DrawRange[];
  /** Vertices in the technique's buffers; vertex v is a copy of mesh vertex sourceVertex[v]. */
  readonly vertexCount: number;
  readonly sourceVertex: Uint32Array;
  /** 1 where the technique deliberately deviates from the reference at that vertex (see MeshCost). */
  readonly approximated: Uint8Array | null;
  readonly cost: MeshCost;
  readonly bindInputs: BindInputs;
  /** Per-frame CPU work (palette, CPU skinning) and shared uploads; returns bytes uploaded. No allocation. */
  update(player: PoseSource): number;
  /** Binds what every draw of the mesh needs (palette block, palette texture). */
  bind(): void;
  /** Loads group `group`'s matrices into the program's group uniform; returns bytes uploaded. */
  setGroup(group: number, location: WebGLUniformLocation | null): number;
  /** How far the pose is from what the technique can represent (dual-quat, cor: the palette's shear, |cos| between matrix columns), else 0. */
  readonly unrepresentableScale: number;
  /**
   * Techniques that skin in a pass of their own inside update() (stream-out): the vertex array that pass reads
   * (bind-space attributes at the ATTRIB locations, its positions and normals being bindInputs' buffers). The
   * morph runtime binds the GPU morph inputs (slot pairs, source vertex) there instead of on vao/wireVao, and
   * hands the path over with setPassMorph (null: the inputs already hold the morphed mesh, or nothing moves it).
   */
  readonly passVao?: WebGLVertexArrayObject;
  setPassMorph?(morph: PassMorph | null): void;
  /** Bytes the technique's own pass wrote into its buffers in the last update() (stream-out's transform feedback); absent or 0 for the others. */
  readonly feedbackBytes?: number;
  dispose(): void;
}

export interface Technique {
  readonly id: TechniqueId;
  readonly label: string;
  /** One line for the GUI: what it recreates. */
  readonly summary: string;
  /** Uniform that setGroup() loads per draw, or null. */
  readonly groupUniform: string | null;
  /**
   * True when the technique skins each vertex once per frame, in update(), and every pass draws the result
   * (software on the CPU); false when the vertex shader skins in every pass that draws the mesh.
   */
  readonly skinsOnce: boolean;
  /** null when the technique can draw this scene on this device, else why not (shown greyed out). */
  unsupportedReason(scene: Scene, caps: DeviceCaps, options: TechniqueOptions): string | null;
  /** Shader variant of this technique for a scene: the define set of skinned.vert. */
  defines(scene: Scene, caps: DeviceCaps, options: TechniqueOptions): Defines;
  /** Cache key of the mesh state: the options the state depends on (e.g. `influences` for partitioned meshes). */
  meshKey(options: TechniqueOptions): string;
  createMesh(gl: WebGL2RenderingContext, buffers: MeshBuffers, scene: Scene, caps: DeviceCaps, options: TechniqueOptions): TechniqueMesh;
}
