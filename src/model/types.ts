/**
 * The format-neutral scene every loader produces and every later layer reads.
 *
 * Conventions inside the model (one for all formats; loaders convert at their boundary):
 * - Right-handed, +Y up, lengths in the file's units.
 * - Column vectors: a point transforms as p' = M · p. Matrices are 16 floats, column-major
 *   (gl-matrix / GLSL layout). A D3D matrix written row by row for row vectors (v' = v · M)
 *   has the same 16 floats in the same order, so it reads unchanged as our column-major M;
 *   the loaders then mirror Z (left- to right-handed), see `src/model/handedness.ts`.
 * - Triangles wind counter-clockwise seen from outside (GL's default front face).
 * - Quaternions are (x, y, z, w), unit length, rotating p by q · p · q*.
 *
 * No WebGL here: `model` and `anim` run in Node for the CLI, tests and benchmarks.
 */

/** Local transform channels for one node, stored flat: t (3), r (4, xyzw), s (3). */
export const TRS_STRIDE = 10;

/** The frame hierarchy. Node i's parent is `parents[i] < i`, or -1 for a root. */
export interface Skeleton {
  readonly names: readonly string[];
  /** Parents before children: parents[i] < i for every non-root i. */
  readonly parents: Int16Array;
  /** Rest (bind or file) local transform of each node as TRS, TRS_STRIDE floats per node. */
  readonly restLocal: Float32Array;
}

/** Keys of one channel: times in seconds (ascending) and `stride` floats per key. */
export interface Channel {
  readonly times: Float32Array;
  /** stride 3 for translation/scale, 4 for rotation (xyzw). */
  readonly values: Float32Array;
}

/** The animation of one node. A missing channel holds that part of the node's rest local. */
export interface Track {
  readonly node: number;
  readonly translation: Channel | null;
  readonly rotation: Channel | null;
  readonly scale: Channel | null;
}

/** The weight of one morph target over time (an expression track): stride 1, linear between keys. */
export interface MorphTrack {
  /** Index into Scene.morphTargets. */
  readonly target: number;
  /** Seconds, ascending, within [0, duration]. */
  readonly times: Float32Array;
  /** One weight per key (usually 0..1; not clamped). */
  readonly values: Float32Array;
}

/**
 * A named point in a clip's time (a footstep, a sound cue): callback keys of D3DX's controller. The
 * animation controller fires it once each time a track's time passes it (src/anim/controller).
 */
export interface ClipMarker {
  /** Seconds, within [0, duration]. */
  readonly time: number;
  readonly name: string;
}

export interface Clip {
  readonly name: string;
  /** Seconds; keys lie in [0, duration]. */
  readonly duration: number;
  /** The file's tick rate where it has one (.x), else 0. Informational only: key times are seconds. */
  readonly ticksPerSecond: number;
  readonly tracks: readonly Track[];
  /** Morph-target weights over time; absent or empty when the clip drives no morph target. */
  readonly morphTracks?: readonly MorphTrack[];
  /** Callback keys, ascending by time; absent or empty when the file has none. */
  readonly markers?: readonly ClipMarker[];
}

export interface Material {
  readonly name: string;
  /** Linear RGBA, 0..1. */
  readonly diffuse: readonly [number, number, number, number];
  readonly specular: readonly [number, number, number];
  readonly specularPower: number;
  readonly emissive: readonly [number, number, number];
  /** Texture file name as written in the file (resolve relative to the model), or null. */
  readonly diffuseMap: string | null;
  readonly normalMap: string | null;
  /**
   * How the diffuse alpha (factor × texture) is used (glTF `alphaMode`): 'opaque' ignores it, 'mask' discards
   * fragments below `alphaCutoff`, 'blend' blends. Absent: 'opaque' — except that formats without the field
   * (.x, .m3d) keep their historical behaviour of writing alpha into the blend of the ghost view only.
   */
  readonly alphaMode?: 'opaque' | 'mask' | 'blend';
  /** With alphaMode 'mask': the cutoff (glTF default 0.5). */
  readonly alphaCutoff?: number;
  /**
   * False: back faces are culled (glTF's default for its materials). Absent or true: both sides are drawn,
   * a back face lit with its flipped normal (.x and .m3d files, whose winding is not always consistent).
   */
  readonly doubleSided?: boolean;
  /**
   * Metallic-roughness PBR (glTF; absent for .x/.m3d, which draw with the studio shading only). Present
   * together: `metallic` marks a material as authored for PBR (AppState `shading` auto picks pbr for it).
   * `baseColor` is glTF's baseColorFactor as written (linear RGBA); `diffuse` keeps its sRGB-encoded form for
   * the studio shading. Factors multiply the maps: metallicRoughnessMap G = roughness, B = metallic (linear);
   * occlusionMap R (linear) mixed in by `occlusionStrength`; normalMap (linear, tangent space) with its
   * `normalScale` on x and y; emissive = `emissiveFactor` (linear, KHR_materials_emissive_strength folded in)
   * × emissiveMap (sRGB). Maps are file names like `diffuseMap` (null: none).
   */
  readonly baseColor?: readonly [number, number, number, number];
  readonly metallic?: number;
  readonly roughness?: number;
  readonly metallicRoughnessMap?: string | null;
  readonly normalScale?: number;
  readonly occlusionMap?: string | null;
  readonly occlusionStrength?: number;
  readonly emissiveFactor?: readonly [number, number, number];
  readonly emissiveMap?: string | null;
}

/**
 * An image carried inside the model file (glTF buffer views and data URIs). A material's `diffuseMap`
 * naming `name` uses these bytes before any companion file of that name is looked for.
 */
export interface SceneImage {
  /** Unique within the scene. */
  readonly name: string;
  /** As the file declares it ('image/png', 'image/jpeg', 'image/webp', 'image/ktx2'…); decoders sniff the bytes anyway. */
  readonly mimeType: string;
  readonly bytes: Uint8Array;
}

/** A run of triangles drawn with one material. `start`/`count` are in triangles. */
export interface Subset {
  readonly material: number;
  readonly start: number;
  readonly count: number;
}

/**
 * One morph target's effect on one mesh (Dawn §4.3: parallel targets as weighted differences), sparse:
 * only the vertices the target moves. Deltas are in bind space against the neutral mesh, applied before
 * skinning: p = p0 + Σ w_t · dp_t, n = normalize(n0 + Σ w_t · dn_t).
 */
export interface MorphDeltas {
  /** Indices of the moved vertices, strictly ascending, each < the mesh's vertexCount. */
  readonly vertices: Uint32Array;
  /** 3 floats per moved vertex: position difference. */
  readonly positions: Float32Array;
  /** 3 floats per moved vertex: normal difference (target normal − neutral normal). */
  readonly normals: Float32Array;
}

/** Maximum bone influences per vertex anywhere in skinlab. */
export const MAX_INFLUENCES = 4;

/**
 * One skinned (or rigidly attached) mesh in bind space.
 * A rigid mesh hanging under a frame is a skinned mesh with one bone (that frame) and weight 1.
 */
export interface SkinnedMesh {
  readonly name: string;
  readonly vertexCount: number;
  /** 3 floats per vertex, bind space. */
  readonly positions: Float32Array;
  /** 3 floats per vertex, unit length. */
  readonly normals: Float32Array;
  /** 4 floats per vertex (xyz unit, w = ±1 bitangent sign), or null. */
  readonly tangents: Float32Array | null;
  /** 2 floats per vertex, or null. Origin top-left (D3D); v grows downwards. */
  readonly uvs: Float32Array | null;
  /**
   * Vertex colours: 4 floats per vertex, LINEAR RGBA in 0..1 (glTF COLOR_0 as it is; .x MeshVertexColors,
   * display-referred, converted from sRGB), multiplying the material's base colour and alpha. Absent or null:
   * the mesh has none (every vertex white).
   */
  readonly colors?: Float32Array | null;
  /**
   * MAX_INFLUENCES palette slots per vertex (indices into `bones`), sorted by descending weight.
   * Unused slots have weight 0 and index 0.
   */
  readonly joints: Uint16Array;
  /** MAX_INFLUENCES weights per vertex, descending, summing to 1. */
  readonly weights: Float32Array;
  /** Largest number of non-zero weights on any vertex (0..4). */
  readonly maxInfluences: number;
  /** 3 indices per triangle. */
  readonly indices: Uint32Array;
  readonly subsets: readonly Subset[];
  /** Palette slot k → skeleton node. */
  readonly bones: Int16Array;
  /** Palette slot k → offset (inverse bind) matrix, 16 floats, column-major: bind space → bone space. */
  readonly invBind: Float32Array;
  /** True when the file carried skin weights (false for rigid meshes attached to one frame). */
  readonly skinned: boolean;
  /**
   * Morph deltas of this mesh, indexed like Scene.morphTargets (same length; a target that does not move
   * this mesh has zero vertices). Absent for a mesh no target moves.
   */
  readonly morphs?: readonly MorphDeltas[];
}

export type MorphKind = 'emotion' | 'modifier';

export type ModelFormat = 'm3d' | 'x-text' | 'x-binary' | 'x-tzip' | 'x-bzip' | 'gltf' | 'glb';

export interface Scene {
  readonly name: string;
  readonly format: ModelFormat;
  /** .x only: 32 or 64; 0 otherwise. */
  readonly floatBits: number;
  readonly skeleton: Skeleton;
  readonly meshes: readonly SkinnedMesh[];
  readonly clips: readonly Clip[];
  readonly materials: readonly Material[];
  /** Morph target names (snake_case); empty when the model has none. */
  readonly morphTargets: readonly string[];
  /**
   * Per morph target, the GUI folder it belongs to: 'emotion' (a whole face: happy, sad…) or 'modifier'
   * (one feature: blink, brow_up_left…). Absent: every target is a modifier.
   */
  readonly morphKinds?: readonly MorphKind[];
  /**
   * Per morph target, its rest weight: the weight it has when no clip drives it (glTF `mesh.weights`), and
   * the value a clip's morph layer blends from. Absent: every target rests at 0.
   */
  readonly morphDefaults?: readonly number[];
  /**
   * The file's own copyright or licence line (glTF `asset.copyright`), kept so that a converted file still
   * credits its authors; absent when the file has none.
   */
  readonly copyright?: string;
  /** Images embedded in the file (glTF); absent or empty for formats whose textures are companion files. */
  readonly images?: readonly SceneImage[];
  /** Meshes given MikkTSpace tangents at load (normal-mapped, no tangents in the file); absent: none. */
  readonly tangentsGenerated?: number;
  /** Things the loader skipped or repaired, in words a user understands. */
  readonly warnings: readonly string[];
}
