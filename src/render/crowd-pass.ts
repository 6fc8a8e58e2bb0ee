import type { AnimPlayer } from '../anim/player.ts';
import type { ProgramCache } from '../gpu/programs.ts';
import { clampInfluences } from '../techniques/influences.ts';
import { subsetDraws } from '../techniques/mesh-state.ts';
import type { DrawRange } from '../techniques/technique.ts';
import type { OrbitCamera } from './camera.ts';
import { CrowdModel } from './crowd.ts';
import { layoutHalfExtent } from './crowd-layout.ts';
import { CrowdInstanceData } from './crowd-instance-data.ts';
import { CrowdInstances } from '../gpu/crowd-instances.ts';
import { CrowdLodSet, type LodLevelInput } from './crowd-lod-set.ts';
import { BAKE_CLIPS, crowdVariant, type CrowdVariant } from './crowd-programs.ts';
import { resetFigures, type FrameFigures, type RenderOptions } from './frame-types.ts';
import type { LinesPass } from './lines-pass.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { SceneUniforms } from './scene-uniforms.ts';
import type { ShadowMap } from './shadow-map.ts';
import { crowdBox, type ShadowPass } from './shadow-pass.ts';
import { wanderHalfExtent } from '../anim/wander-gait.ts';

export { BAKE_CLIPS } from './crowd-programs.ts';

const _boxMin = new Float32Array(3);
const _boxMax = new Float32Array(3);
const _halfExtent = [0, 0];
/** Sphere of a frame that is never culled (no clip, or the bind pose). */
const NO_SPHERE = Float32Array.of(0, 0, 0, Infinity);

/**
 * Crowd mode: `opts.crowd` instances of the model, each at its own phase (crowd.ts), on the crowd grid
 * (crowd-layout.ts), or with `opts.wander` each walking about with its own controller, placed by its
 * palettes (anim/wander.ts; the grid offset is then 0). Whatever the technique menu says: the texture palette (every instance's palettes in
 * one RGBA32F texture, one upload per frame) and one drawElementsInstanced per subset, so the draw count
 * does not depend on N: the floor grid (1) and one per subset. No contact shadows: on SwiftShader N blended
 * shadow fans cost as much as the figures themselves. With `shadows` the key light's shadow map is drawn
 * first, one instanced draw per subset with the same skinning (the light frustum fitted to the whole crowd's
 * box), and the floor and every figure receive it. The shaded view only (other views and the skeleton
 * overlay are not drawn); morph targets are not applied. Owns the per-model CrowdModel (its palette
 * texture; released when another model is drawn or on dispose) and the crowd program's bindings.
 *
 * Two paths (opts.crowdPath; docs/crowds.md). `baked` (NVIDIA SkinnedInstancing): every clip's palettes
 * baked once per model (CrowdModel.bake) and the vertex stage blends the two baked frames around each
 * instance's clip time (u_crowdTime · speed + phase); per frame the CPU writes only changed instance slots.
 * Instance 0 then plays the current clip at the player's time (crossfades are not followed); the bind pose
 * is a flag (identity palette). `cpu`: instance 0 is the app player (its crossfades), the others sampled at
 * their phase, every live instance's palette built and uploaded each frame; wander mode, a clip past
 * BAKE_CLIPS or a bake larger than the device's textures always draw this path. Both read per-instance
 * attributes (gpu/crowd-instances.ts) compacted by the camera-frustum culling (crowd-instance-data.ts) of
 * each instance's clip sphere. The shadow casters are not culled: the light frustum is fitted to the whole
 * crowd, so none would fall outside it, and an instance off screen may shadow what is on screen; with shadows
 * on, every instance keeps a slot (the live ones first) and the caster pass draws all N.
 *
 * Distance LOD (docs/crowds.md, crowd-lod.ts), baked path only: setLevels() hands over the lighter detail
 * levels of the model (parsed by the app); they are uploaded on the next crowd frame of that model
 * (CrowdLodLevel, one-time work) and released with the crowd state or by setLevels(null). Each frame the
 * live instances are sorted by distance into one slot range per level and each level's subsets drawn with
 * its range (its vertex arrays re-pointed at the range's first slot). The shadow caster pass draws the
 * chosen level for every instance.
 */
export class CrowdPass {
  private crowdModel: CrowdModel | null = null;
  private crowdModelOf: ModelGpu | null = null;
  private crowdDraws: DrawRange[][] = [];
  private variant: CrowdVariant | null = null;
  private instances: CrowdInstances | null = null;
  private readonly instanceData = new CrowdInstanceData();
  /** The current clip's bounding sphere (centre, radius), copied per frame. */
  private readonly sphere = new Float32Array(4);
  private readonly frame = {
    count: 1, spacing: 1, layout: 'grid' as RenderOptions['crowdLayout'], facing: 0, pivot: NO_SPHERE as ArrayLike<number>, tint: true,
    wander: false, cull: true, viewProj: NO_SPHERE as ArrayLike<number>, sphere: NO_SPHERE as ArrayLike<number>,
    baked: false, clip: 0, duration: 0, all: false,
    lodLevels: 1, lodSwitches2: NO_SPHERE as ArrayLike<number>, eye: NO_SPHERE as ArrayLike<number>,
  };
  private readonly crowdUniforms = { u_crowdSlots: 1, u_crowdBase: 0, u_crowdTime: 0, u_crowdBindPose: 0, u_bakeClips: new Float32Array(4 * BAKE_CLIPS) };
  /** The path the last crowd frame drew ('' before any). */
  lastPath = '';
  /** Distance LOD: the lighter detail levels of the model and the last frame's levels (crowd-lod-set.ts). */
  private readonly lod: CrowdLodSet;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly programs: ProgramCache,
    private readonly maxTextureSize: number,
    private readonly uniforms: SceneUniforms,
    private readonly lines: LinesPass,
    private readonly shadowPass: ShadowPass,
    private readonly shadowMap: ShadowMap,
    private readonly clear: () => void,
  ) {
    this.lod = new CrowdLodSet(gl, maxTextureSize);
  }

  /** The CrowdModel is of a model other than `model` (which may be disposed already). */
  holdsOther(model: ModelGpu): boolean {
    return this.crowdModel !== null && this.crowdModelOf !== model;
  }

  /**
   * Distance LOD: the lighter detail levels of `model` (the chosen level `chosenDetail`), nearest first, with
   * their errors and where they come from: uploaded on its next crowd frame. null (or []) releases the levels held.
   */
  setLevels(model: ModelGpu | null, chosenDetail: string, levels: LodLevelInput[] | null, source: 'generated' | 'authored' = 'authored'): void {
    this.releaseLevels();
    if (model !== null && levels !== null && levels.length > 0) this.lod.set(model, chosenDetail, levels, source);
  }

  /** The levels held: triangles and error per level, and their source (null: none). Allocates. */
  levelTable(): ReturnType<CrowdLodSet['levelTable']> {
    return this.lod.levelTable();
  }

  /** Lighter levels are held (handed over or uploaded). */
  get hasLevels(): boolean {
    return this.lod.of !== null;
  }

  /** The last crowd frame's drawn levels (1: no LOD). */
  get lodLevelsDrawn(): number {
    return this.lod.drawn;
  }

  /** The switch distances of the last crowd frame's levels (model units). */
  get lodSwitches(): Float32Array {
    return this.lod.switches;
  }

  /** The detail levels the last crowd frame drew, nearest first, and where each ends (model units; null for the last: no end). Allocates. */
  levelFacts(): { details: string[]; to: (number | null)[] } {
    return this.lod.facts();
  }

  /** Frees the lighter levels (GPU and scenes). */
  releaseLevels(): void {
    this.lod.release();
    this.instances?.setLevels([]);
  }

  /** Frees the palette texture and the lighter levels (rebuilt on the next crowd frame; the levels when handed over again). */
  release(): void {
    this.releaseLevels();
    this.crowdModel?.dispose();
    this.crowdModel = null;
    this.crowdModelOf = null;
    this.instances?.dispose();
    this.instances = null;
  }

  /** The bake's size and cost (info().crowdBake), or null before a crowd frame. Allocates. */
  bakeFacts(): { frames: number; bytes: number; ms: number } | null {
    const c = this.crowdModel;
    if (c === null) return null;
    const bake = c.bake();
    return { frames: bake.frameCount, bytes: c.bakeTexture?.bytes ?? 0, ms: c.bakeMs };
  }

  /** The per-model state, built the first time the model is drawn as a crowd (allocates; not per frame). */
  crowdFor(model: ModelGpu): CrowdModel {
    if (this.crowdModelOf !== model || !this.crowdModel) {
      this.crowdModel?.dispose();
      this.crowdModel = new CrowdModel(this.gl, model.scene, this.maxTextureSize);
      this.crowdModelOf = model;
      this.crowdDraws = model.scene.meshes.map(subsetDraws);
      this.instances?.dispose();
      this.instances = new CrowdInstances(this.gl, model.meshes);
      // The clip table of the baked path: (first frame, intervals, duration, intervals per second).
      const bake = this.crowdModel.bake();
      const table = this.crowdUniforms.u_bakeClips;
      table.fill(0);
      for (let c = 0; c < Math.min(BAKE_CLIPS, bake.clips.length); c++) {
        const b = bake.clips[c]!;
        table.set([b.first, b.frames, b.duration, b.rate], c * 4);
      }
    }
    return this.crowdModel;
  }

  /** The crowd programs for an influence count and shadow setting (compiled once, cached). */
  private programsFor(influences: number, shadows: boolean, baked: boolean): CrowdVariant {
    const c = this.variant;
    if (c && c.influences === influences && c.shadows === shadows && c.baked === baked) return c;
    return (this.variant = crowdVariant(this.gl, this.programs, this.uniforms, this.crowdUniforms, influences, shadows, baked));
  }

  render(model: ModelGpu, player: AnimPlayer, camera: OrbitCamera, opts: RenderOptions, out: FrameFigures, shadows: boolean): void {
    const gl = this.gl;
    resetFigures(out);
    out.groups = 1;
    out.diffPixels = -1;
    out.diffShare = -1;
    const fu = this.uniforms.frame;
    fu.u_viewProj = camera.viewProj;
    fu.u_cameraPos = camera.position;
    const s0 = performance.now();
    const fresh = this.crowdModelOf !== model || this.crowdModel === null;
    const compiled = this.programs.size;
    const crowd = this.crowdFor(model);
    const bake = crowd.bake();
    const clip = player.clipIndex;
    const baked =
      opts.crowdPath === 'baked' && !opts.wander && clip >= 0 && clip < BAKE_CLIPS && crowd.bakeTexture !== null && crowd.bakeTexture.fits;
    const count = baked ? Math.max(1, opts.crowd) : crowd.fit(opts.crowd);
    const v = this.programsFor(clampInfluences(opts.influences), shadows, baked);
    const uploading = this.lod.pendingFor(model);
    if (uploading) this.lod.upload(model, bake, this.instances!);
    if (fresh || uploading || this.programs.size !== compiled) {
      out.setupUs = (performance.now() - s0) * 1000;
      out.setupWhat = fresh
        ? `crowd bake (${bake.frameCount} frames, ${crowd.bakeTexture?.bytes ?? 0} bytes) and palette texture`
        : uploading
          ? `crowd LOD levels (${this.lod.levels.map((l) => l.detail).join(', ')})`
          : 'crowd programs';
    }
    const t0 = performance.now();
    const f = this.frame;
    f.count = count;
    f.spacing = opts.crowdSpacing;
    f.layout = opts.crowdLayout;
    f.facing = opts.crowdFacing;
    f.pivot = opts.crowdPivot;
    f.tint = opts.crowdTint;
    f.wander = opts.wander;
    f.cull = opts.cull;
    f.viewProj = camera.viewProj;
    const sphere = this.sphere;
    if (clip >= 0 && clip < bake.clips.length && !opts.bindPose) for (let k = 0; k < 4; k++) sphere[k] = bake.spheres[clip * 4 + k]!;
    else sphere.set(NO_SPHERE);
    f.sphere = sphere;
    f.baked = baked;
    f.clip = clip;
    f.duration = player.duration;
    f.all = v.caster !== null;
    // Distance LOD: the baked path with lighter levels of this model uploaded, switch distances from their errors and the projection.
    f.lodLevels = this.lod.frame(model, baked && opts.lod, camera.fovYDeg, this.gl.drawingBufferHeight);
    f.lodSwitches2 = this.lod.switches2;
    f.eye = camera.position;
    const data = this.instanceData;
    const instanceBytes = data.update(this.instances!, f);
    const live = data.live;
    const slots = data.slots;
    const t1 = performance.now();
    if (!baked) {
      if (opts.wander) crowd.poseWander(player, opts.bindPose ? model.bindPose : null, count, opts.wanderSpacing, opts.wanderFloorY);
      else crowd.pose(player, opts.bindPose ? model.bindPose : null, slots, data.order);
    }
    const t2 = performance.now();
    out.wanderUs = opts.wander ? crowd.wanderStepUs : 0;
    out.footsteps = opts.wander ? crowd.footstepRate : 0;
    if (!baked) crowd.palette.upload(opts.wander ? count : slots);
    out.uploadBytes = instanceBytes + (baked ? 0 : crowd.palette.lastUploadBytes);
    // Animation (instances 1..N-1 sampled, every palette written) counts as animation; culling and the uploads as the technique's work.
    out.crowdPoseUs = (t2 - t1) * 1000;
    out.skinUs = (performance.now() - t2 + t1 - t0) * 1000;
    out.crowd = count;
    out.instancesDrawn = live;
    out.instancesCulled = count - live;
    out.lodLevels = data.levels;
    for (let l = 0; l < data.levels; l++) out.instancesPerLevel[l] = data.levelStarts[l + 1]! - data.levelStarts[l]!;
    out.crowdPath = baked ? 'baked' : 'cpu';
    this.lastPath = out.crowdPath;
    for (let i = 0; i < model.meshes.length; i++) out.vertexBytes += model.meshes[i]!.vertexBytes;
    const cu = this.crowdUniforms;
    cu.u_crowdSlots = baked ? bake.slotsPerFrame : crowd.slotsPerInstance;
    cu.u_crowdTime = player.time;
    cu.u_crowdBindPose = opts.bindPose ? 1 : 0;
    const texture = baked ? crowd.bakeTexture! : crowd.palette;
    let vertices = 0;
    for (let i = 0; i < model.meshes.length; i++) vertices += model.scene.meshes[i]!.vertexCount;
    const starts = data.levelStarts;

    if (v.caster) {
      // The light frustum holds the whole crowd: the model's box grown by the grid's, the plaza's (or the wander square's) half extents.
      if (opts.wander) _halfExtent[0] = _halfExtent[1] = wanderHalfExtent(count, opts.wanderSpacing);
      else layoutHalfExtent(opts.crowdLayout, count, opts.crowdSpacing, model.framing.min, model.framing.max, _halfExtent);
      crowdBox(model, _halfExtent[0]!, _halfExtent[1]!, _boxMin, _boxMax);
      this.shadowPass.fitBox(_boxMin, _boxMax);
      this.drawCasters(model, crowd, texture, v, count, out);
      out.passes++;
      out.skinnedVertices += vertices * count;
      this.shadowMap.bindTexture();
    }

    this.clear();
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.disable(gl.CULL_FACE);
    if (opts.grid) this.lines.drawFloor(model, opts.crowdFloor, false, v.shadows, out);

    gl.useProgram(v.lit.program);
    v.litFrame.apply();
    texture.bind();
    this.uniforms.material.u_alpha = 1;
    // Materials with alphaMode 'blend' are drawn after every other draw, blended, depth writes off (as SurfacePass).
    const blended = this.uniforms.hasBlended(model);
    for (let l = 0; l < data.levels; l++) this.drawLevel(model, crowd, v, l, starts[l]!, starts[l + 1]! - starts[l]!, out, blended ? 1 : 0, texture);
    if (blended) {
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.depthMask(false);
      for (let l = 0; l < data.levels; l++) this.drawLevel(model, crowd, v, l, starts[l]!, starts[l + 1]! - starts[l]!, out, 2, texture);
      gl.disable(gl.BLEND);
      gl.depthMask(true);
    }
    out.passes++;
    out.skinnedVertices += vertices * (starts[1]! - starts[0]!);
    for (let l = 1; l < data.levels; l++) out.skinnedVertices += this.lod.levels[l - 1]!.vertexCount * (starts[l + 1]! - starts[l]!);
    gl.disable(gl.CULL_FACE);
    gl.bindVertexArray(null);
  }

  /** The instanced caster pass into the shadow map: one drawElementsInstanced per subset, every material. */
  private drawCasters(model: ModelGpu, crowd: CrowdModel, texture: { bind(): void }, v: CrowdVariant, count: number, out: FrameFigures): void {
    const gl = this.gl;
    const uniforms = this.uniforms;
    const fu = uniforms.frame;
    const cu = this.crowdUniforms;
    const cameraViewProj = fu.u_viewProj;
    this.shadowMap.begin();
    gl.useProgram(v.caster!.program);
    fu.u_viewProj = this.shadowMap.lightViewProj;
    v.casterFrame!.apply();
    fu.u_viewProj = cameraViewProj;
    texture.bind();
    uniforms.material.u_alpha = 1;
    for (let i = 0; i < model.meshes.length; i++) {
      const draws = this.crowdDraws[i]!;
      if (draws.length === 0) continue;
      cu.u_crowdBase = crowd.meshBase[i]!;
      v.casterCrowd!.apply();
      gl.bindVertexArray(this.instances!.vao(i));
      let material = -1;
      for (let d = 0; d < draws.length; d++) {
        const draw = draws[d]!;
        if (draw.material !== material) {
          material = draw.material;
          uniforms.applyMaterial(model, material, v.casterMaterial!);
        }
        gl.drawElementsInstanced(gl.TRIANGLES, draw.count, gl.UNSIGNED_INT, draw.first * 4, count);
        out.drawCalls++;
        out.meshDrawCalls++;
      }
    }
    gl.bindVertexArray(null);
    this.shadowMap.end();
  }

  /**
   * Drawn level `level`'s instances (slots [first, first + count)): one instanced draw per subset of that
   * level whose material is in `round` (0 every subset, 1 the unblended, 2 the blended), through its vertex
   * arrays pointed at `first`; a level with its own bake binds its texture (then `texture` again).
   */
  private drawLevel(model: ModelGpu, chosen: CrowdModel, v: CrowdVariant, level: number, first: number, count: number, out: FrameFigures, round: number, texture: { bind(): void }): void {
    if (count === 0) return;
    const lod = level === 0 ? null : this.lod.levels[level - 1]!;
    const own = lod?.bake() ?? null;
    if (own) own.bakeTexture!.bind();
    this.drawInstances(model, own ?? chosen, v, count, out, round, level, first, lod === null ? this.crowdDraws : lod.draws);
    if (own) texture.bind();
  }

  /** One instanced draw per subset whose material is in `round` (0 every subset, 1 the unblended, 2 the blended). */
  private drawInstances(model: ModelGpu, crowd: CrowdModel, v: CrowdVariant, count: number, out: FrameFigures, round: number, level: number, first: number, meshDraws: DrawRange[][]): void {
    const gl = this.gl;
    const uniforms = this.uniforms;
    const cu = this.crowdUniforms;
    if (count === 0) return;
    for (let i = 0; i < meshDraws.length; i++) {
      const draws = meshDraws[i]!;
      let bound = false;
      let material = -1;
      for (let d = 0; d < draws.length; d++) {
        const draw = draws[d]!;
        if (round !== 0 && (uniforms.blends(model, draw.material) ? 2 : 1) !== round) continue;
        if (!bound) {
          bound = true;
          cu.u_crowdBase = crowd.meshBase[i]!;
          v.litCrowd.apply();
          gl.bindVertexArray(this.instances!.levelVao(level, i, first));
        }
        if (draw.material !== material) {
          material = draw.material;
          uniforms.applyMaterial(model, material, v.litMaterial);
        }
        gl.drawElementsInstanced(gl.TRIANGLES, draw.count, gl.UNSIGNED_INT, draw.first * 4, count);
        out.drawCalls++;
        out.meshDrawCalls++;
      }
    }
  }

  dispose(): void {
    this.release();
    this.crowdDraws = [];
    this.variant = null;
  }
}
