import { MAX_LOD_LEVELS } from './crowd-lod.ts';

/** Where a crowd draws impostors (RenderOptions.impostors). */
export type ImpostorMode = 'far' | 'all' | 'off';
export const IMPOSTOR_MODES: readonly ImpostorMode[] = ['far', 'all', 'off'];
import type { mat4 } from 'gl-matrix';
import type { Technique, TechniqueMesh } from '../techniques/technique.ts';
import { MAX_CROWD_MODELS } from './crowd-mix.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { MorphPath } from './morph-runtime.ts';
import type { ViewId } from './views.ts';
import type { CrowdLayout } from './crowd-layout.ts';

/**
 * What a frame is drawn with (RenderOptions, filled by the app from AppState) and what drawing it cost
 * (FrameFigures, written in place by the renderer's passes). Types and one factory; no GL.
 */

export interface RenderOptions {
  technique: Technique;
  influences: number;
  /** Palette size for ff-indexed (clamped by the technique to what the scene and device allow). */
  palette: number;
  view: ViewId;
  /** Bone overlay on top of any view. */
  skeleton: boolean;
  /** The floor: grid and contact shadow. */
  grid: boolean;
  /** Draw with an identity palette (the stored bind-space mesh) and the skeleton in bind pose. */
  bindPose: boolean;
  /** Skeleton node whose weights the `weights` view shows (-1: none). */
  bone: number;
  /** Skeleton node the user selected (a click on the model, the bone menu, `bone=`): the skeleton overlay highlights it in every view (-1: none). */
  selectedBone: number;
  /** How morph targets are applied (ignored for a model without targets). */
  morphs: MorphPath;
  /**
   * Crowd mode: instances to draw (1 = the single model through the technique). Above 1 the model is drawn
   * with the crowd pass whatever `technique` and `view` say: instanced, every palette in one texture.
   */
  crowd: number;
  /** Crowd grid spacing (model units, crowd-layout.ts crowdSpacing); 0 in wander mode (no grid offsets). */
  crowdSpacing: number;
  /** Where the crowd stands: `grid`, or `plaza` (crowd-plaza.ts: jittered, groups and lines, a heading each). */
  crowdLayout: CrowdLayout;
  /**
   * Plaza: the model's own facing (radians: it faces the floor direction (sin a, cos a) as modelled) and the
   * floor point (x, z) an instance turns about (crowd-instance-data.ts).
   */
  crowdFacing: number;
  crowdPivot: Float32Array;
  /** Crowd mode: a tint per instance multiplied into the base colour (crowd-tint.ts). */
  crowdTint: boolean;
  /**
   * Crowd mode only: every instance walks about the floor with its own animation controller
   * (anim/wander.ts), its place and heading baked into its palettes; the instanced draw adds no offset.
   */
  wander: boolean;
  /** Wander mode: the distance agents keep (model units, wander-gait.ts) and the floor height they stand on. */
  wanderSpacing: number;
  wanderFloorY: number;
  /** Crowd mode's floor transform (the grid scaled about the model to cover the crowd); model → world. */
  crowdFloor: mat4;
  /** Crowd mode's path: `baked` (palettes baked per clip, per-instance time in the vertex stage) or `cpu` (every palette per frame). Wander draws `cpu`. */
  crowdPath: 'baked' | 'cpu';
  /** Crowd mode: frustum-cull instances against the camera. */
  cull: boolean;
  /**
   * Crowd mode with LOD (baked path): 'far' draws the instances past the lightest level whose sphere projects
   * under IMPOSTOR_PX as impostors, 'all' every instance (to look at them up close), 'off' none.
   */
  impostors: ImpostorMode;
  /** Crowd mode, baked path: draw far instances with the lighter detail levels handed to the renderer (distance LOD). */
  lod: boolean;
  /**
   * Mixed crowds (crowd-mix.ts): the other models of the crowd, ready to draw, in the order the crowd lists
   * them (the loaded model is the first, not listed here), each with the clip its instances play. [] for a
   * crowd of the loaded model alone. The baked path only; the app replaces the array when the set changes.
   */
  crowdMix: readonly CrowdMixModel[];
}

/** Figures of the last frame; written in place by render() (the live cost panel reads them). */
export interface FrameFigures {
  drawCalls: number;
  /** Draws of skinned meshes (the technique's share of drawCalls). */
  meshDrawCalls: number;
  /** Bytes uploaded this frame for skinning: palettes (once or per draw) or CPU-skinned vertices. */
  uploadBytes: number;
  /** CPU time of the technique's per-frame work (palette build, CPU skinning, uploads), µs; one-time work excluded. */
  skinUs: number;
  /**
   * One-time work this frame, µs: programs compiled, a technique's mesh state or morph storage built on first
   * use, crowd state created. 0 on an ordinary frame; `setupWhat` then says what was built.
   */
  setupUs: number;
  setupWhat: string;
  /** Passes that drew the model's meshes this frame (the shaded surfaces, the wireframe edges, a shadow map …). */
  passes: number;
  /**
   * Vertex skinnings this frame: for a technique that skins in the vertex shader, every vertex of every pass
   * that draws it; for one that skins once (software, stream-out), each vertex once. Divided by the technique's
   * vertex count it says how many times each vertex was skinned.
   */
  skinnedVertices: number;
  /** Crowd mode: triangles the crowd's instanced draws rasterised this frame (every pass: casters and camera; each draw's triangles × its instances). 0 outside crowds. */
  crowdTriangles: number;
  /** Bytes a technique's own skinning pass wrote this frame (stream-out's transform feedback); 0 for the others. */
  feedbackBytes: number;
  /** Load-time costs of the technique's mesh state, summed over meshes. */
  groups: number;
  duplicatedVertices: number;
  vertexBytes: number;
  approximatedTriangles: number;
  /** Largest scale the technique had to drop this frame (dual-quat), else 0. */
  unrepresentableScale: number;
  /** Diff view: pixels differing from the software reference at the last count, and their share of the canvas; -1 in other views. */
  diffPixels: number;
  diffShare: number;
  /** Crowd mode: instances drawn (1 outside crowd mode) and the CPU time posing instances 1..N-1 and writing every palette, µs. */
  crowd: number;
  crowdPoseUs: number;
  /** Wander mode drew this frame (its cost is in crowdPoseUs). */
  wander: boolean;
  /** Wander mode: footsteps fired per second over the last second of wander time; else 0. */
  footsteps: number;
  /** Crowd mode: instances drawn by the camera pass and culled from it this frame (crowd, 0 outside crowd mode). */
  instancesDrawn: number;
  instancesCulled: number;
  /** Crowd mode: the path drawn ('baked' or 'cpu'); '' outside crowd mode. */
  crowdPath: string;
  /** Crowd mode's distance LOD: levels drawn (1 without LOD) and the camera pass's instances per level, nearest first (first lodLevels entries). */
  lodLevels: number;
  instancesPerLevel: Int32Array;
  /**
   * Crowd mode: models drawn (1: the loaded model alone; more in a mixed crowd), and per model (the loaded one
   * first) the instances it holds and those the camera pass drew (first crowdModels entries).
   */
  crowdModels: number;
  instancesPerModel: Int32Array;
  drawnPerModel: Int32Array;
}

/** A model of a mixed crowd other than the loaded one (RenderOptions.crowdMix). */
export interface CrowdMixModel {
  readonly gpu: ModelGpu;
  /** The clip its instances play (crowd-mix.ts walkClip). */
  readonly clip: number;
}

export function emptyFigures(): FrameFigures {
  return {
    drawCalls: 0,
    meshDrawCalls: 0,
    uploadBytes: 0,
    skinUs: 0,
    setupUs: 0,
    setupWhat: '',
    passes: 0,
    skinnedVertices: 0,
    crowdTriangles: 0,
    feedbackBytes: 0,
    groups: 0,
    duplicatedVertices: 0,
    vertexBytes: 0,
    approximatedTriangles: 0,
    unrepresentableScale: 0,
    diffPixels: -1,
    diffShare: -1,
    crowd: 1,
    crowdPoseUs: 0,
    wander: false,
    footsteps: 0,
    instancesDrawn: 1,
    instancesCulled: 0,
    crowdPath: '',
    lodLevels: 1,
    instancesPerLevel: new Int32Array(MAX_LOD_LEVELS),
    crowdModels: 1,
    instancesPerModel: new Int32Array(MAX_CROWD_MODELS),
    drawnPerModel: new Int32Array(MAX_CROWD_MODELS),
  };
}

/** Zeroes the per-frame counts a pass adds to (draws, uploads, costs, one-time work) before it draws. No allocation. */
export function resetFigures(out: FrameFigures): void {
  out.drawCalls = 0;
  out.meshDrawCalls = 0;
  out.uploadBytes = 0;
  out.passes = 0;
  out.skinnedVertices = 0;
  out.crowdTriangles = 0;
  out.feedbackBytes = 0;
  out.groups = 0;
  out.duplicatedVertices = 0;
  out.vertexBytes = 0;
  out.approximatedTriangles = 0;
  out.unrepresentableScale = 0;
  out.setupUs = 0;
  out.setupWhat = '';
}

/** Vertices of a technique's meshes (its own copies: duplicated vertices count). */
function techniqueVertices(tmeshes: readonly TechniqueMesh[]): number {
  let n = 0;
  for (let i = 0; i < tmeshes.length; i++) n += tmeshes[i]!.vertexCount;
  return n;
}

/** A pass that drew `tmeshes` with `technique`: one more pass, and its skinnings when the shader skins per pass. No allocation. */
export function countMeshPass(out: FrameFigures, technique: Technique, tmeshes: readonly TechniqueMesh[]): void {
  out.passes++;
  if (!technique.skinsOnce) out.skinnedVertices += techniqueVertices(tmeshes);
}

/**
 * The frame's update of `tmeshes`: a technique that skins once per frame skinned every vertex once, and its own
 * pass (stream-out) wrote feedbackBytes. No allocation.
 */
export function countSkinOnce(out: FrameFigures, technique: Technique, tmeshes: readonly TechniqueMesh[]): void {
  if (!technique.skinsOnce) return;
  out.skinnedVertices += techniqueVertices(tmeshes);
  for (let i = 0; i < tmeshes.length; i++) out.feedbackBytes += tmeshes[i]!.feedbackBytes ?? 0;
}
