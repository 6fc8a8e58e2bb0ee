import type { AnimPlayer } from '../anim/player.ts';
import type { ProgramCache } from '../gpu/programs.ts';
import { clampInfluences } from '../techniques/influences.ts';
import type { OrbitCamera } from './camera.ts';
import { layoutHalfExtent } from './crowd-layout.ts';
import type { LodLevelInput } from './crowd-lod-set.ts';
import { assignModels, MAX_CROWD_MODELS, standingTransform, unwrapTime } from './crowd-mix.ts';
import { CrowdImpostorPass } from './crowd-impostor-pass.ts';
import { BAKE_CLIPS, crowdVariant, type CrowdVariant } from './crowd-programs.ts';
import { SubCrowd, type SubCrowdFrame } from './crowd-sub.ts';
import { resetFigures, type CrowdMixModel, type FrameFigures, type RenderOptions } from './frame-types.ts';
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
const IDENTITY_MODEL = Float32Array.of(1, 0, 0, 0);
const NO_MIX: readonly CrowdMixModel[] = [];

/**
 * Crowd mode: `opts.crowd` instances of the model, each at its own phase (crowd.ts), on the crowd grid
 * (crowd-layout.ts), or with `opts.wander` each walking about with its own controller, placed by its
 * palettes (anim/wander.ts; the grid offset is then 0). Whatever the technique menu says: the texture palette
 * and one drawElementsInstanced per subset per level per model, so the draw count does not depend on N: the
 * floor grid (1) and one per subset. No contact shadows: on SwiftShader N blended shadow fans cost as much as
 * the figures themselves. With `shadows` the key light's shadow map is drawn first, one instanced draw per
 * subset per model with the same skinning (the light frustum fitted to the whole crowd's box), and the floor
 * and every figure receive it. The shaded view only (other views and the skeleton overlay are not drawn);
 * morph targets are not applied. This pass orchestrates: the shared crowd programs and their uniforms, the
 * clear, the floor, the shadow map and the order of the models; each model's own state and draws are a
 * SubCrowd (crowd-sub.ts: its CrowdModel, instance buffer, instance list and LOD levels), built the first
 * time the model is drawn as a crowd and released when it is no longer drawn or on dispose.
 *
 * Two paths (opts.crowdPath; docs/crowds.md). `baked` (NVIDIA SkinnedInstancing): every clip's palettes
 * baked once per model and the vertex stage blends the two baked frames around each instance's clip time
 * (u_crowdTime · speed + phase); per frame the CPU writes only changed instance slots. Instance 0 then plays
 * the current clip at the player's time (crossfades are not followed); the bind pose is a flag (identity
 * palette). `cpu`: instance 0 is the app player (its crossfades), the others sampled at their phase, every
 * live instance's palette built and uploaded each frame; wander mode, a clip past BAKE_CLIPS or a bake larger
 * than the device's textures always draw this path. Culling: each model's instances against its own clip
 * sphere. With shadows on, the casters are the live instances and the culled ones whose shadow may fall in
 * view (the sphere swept along the light to the floor, crowd-cull.ts shadowInFrustum), after the live ones.
 *
 * Mixed crowds (opts.crowdMix, crowd-mix.ts), baked path only: the loaded model and the other models, each
 * instance drawing the model modelOfInstance picks (the offsets and phases of its global index), the others'
 * at their own walk clip and speed, scaled to the loaded model's size (u_crowdModel). Their clock is
 * the player's time unwrapped across its loops (so other clips at other speeds never jump). On the cpu path
 * the loaded model is drawn alone.
 *
 * Distance LOD (docs/crowds.md, crowd-lod.ts), baked path only: setLevels() hands over a model's lighter
 * detail levels; they are uploaded on the next crowd frame that draws it and released with its SubCrowd or by
 * setLevels(model, …, null). Each frame each model's live instances are sorted by distance into one slot
 * range per level. The shadow caster pass draws each instance at the lighter of its camera level and the
 * lightest level whose error is under one shadow-map texel (SubCrowd.drawCasters, crowd-casters.ts).
 */
export class CrowdPass {
  /** Every model's crowd state held; `drawn` is the last arrangement's, the loaded model first. */
  private subs: SubCrowd[] = [];
  private drawn: SubCrowd[] = [];
  private mixOf: readonly CrowdMixModel[] = NO_MIX;
  /** The assignment of instances to models: members[m] (global indices), for `assigned` = [count, models]. */
  private members: Int32Array[] = [];
  private readonly memberCounts = new Int32Array(MAX_CROWD_MODELS);
  private readonly assigned = [-1, -1];
  private variant: CrowdVariant | null = null;
  private readonly frame: SubCrowdFrame = {
    count: 1, spacing: 1, layout: 'grid', facing: 0, pivot: IDENTITY_MODEL, tint: true, wander: false, cull: true, viewProj: IDENTITY_MODEL, eye: IDENTITY_MODEL,
    baked: false, bindPose: false, all: false, shadowDir: IDENTITY_MODEL, floorY: 0, lod: false, impostors: 'off', fovYDeg: 40, viewportPx: 1,
  };
  private readonly crowdUniforms = {
    u_crowdSlots: 1, u_crowdBase: 0, u_crowdTime: 0, u_crowdBindPose: 0,
    u_crowdModel: Float32Array.of(1, 0, 0, 0), u_bakeClips: new Float32Array(4 * BAKE_CLIPS),
  };
  /** The key light's shadow direction (from the light, down), copied per frame. */
  private readonly shadowDir = new Float32Array(3);
  /** unwrapTime's state for the player's clock (mixed crowds). */
  private readonly clock = new Float64Array(2);
  /** The path the last crowd frame drew ('' before any). */
  lastPath = '';
  /** The far field's impostor program and quad (crowd-impostor-pass.ts). */
  private readonly impostors: CrowdImpostorPass;

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
    this.impostors = new CrowdImpostorPass(gl, programs, uniforms, this.crowdUniforms);
  }

  /** The crowd state is of a model other than `model` (which may be disposed already). */
  holdsOther(model: ModelGpu): boolean {
    return this.subs.length > 0 && this.drawn[0]?.model !== model;
  }

  /** The loaded model's crowd state (the last crowd frame's first model), or null. */
  private get main(): SubCrowd | null {
    return this.drawn[0] ?? null;
  }

  /** The crowd state of `model`, built now when it has none (allocates; not per frame). */
  private subFor(model: ModelGpu): SubCrowd {
    for (const s of this.subs) if (s.model === model) return s;
    const sub = new SubCrowd(this.gl, model, this.maxTextureSize);
    this.subs.push(sub);
    return sub;
  }

  /**
   * Distance LOD: the lighter detail levels of `model` (the chosen level `chosenDetail`), nearest first, with
   * their errors and where they come from: uploaded on its next crowd frame. null (or []) releases the levels
   * held for `model`; with `model` null, every model's.
   */
  setLevels(model: ModelGpu | null, chosenDetail: string, levels: LodLevelInput[] | null, source: 'generated' | 'authored' = 'authored'): void {
    if (model === null) {
      for (const s of this.subs) s.releaseLevels();
      return;
    }
    const sub = this.subFor(model);
    sub.releaseLevels();
    if (levels !== null && levels.length > 0) sub.lod.set(model, chosenDetail, levels, source);
  }

  /** The loaded model's levels held: triangles and error per level, and their source (null: none). Allocates. */
  levelTable(): ReturnType<SubCrowd['lod']['levelTable']> {
    return this.main?.lod.levelTable() ?? null;
  }

  /** The detail levels the last crowd frame drew for the loaded model, nearest first, and where each ends (model units; null for the last: no end). Allocates. */
  levelFacts(): { details: string[]; to: (number | null)[] } {
    return this.main?.levelFacts() ?? { details: [''], to: [null] };
  }

  /** Frees every model's crowd state (rebuilt on the next crowd frame; the levels when handed over again). */
  release(): void {
    for (const s of this.subs) s.dispose();
    this.impostors.releaseQuad();
    this.subs = [];
    this.drawn = [];
    this.mixOf = NO_MIX;
    this.assigned[0] = -1;
  }

  /** The loaded model's bake: size and cost (info().crowdBake), or null before a crowd frame. Allocates. */
  bakeFacts(): { frames: number; bytes: number; ms: number } | null {
    const m = this.main;
    if (m === null || !m.baked) return null;
    return { frames: m.bake.frameCount, bytes: m.crowd.bakeTexture?.bytes ?? 0, ms: m.crowd.bakeMs };
  }

  /**
   * The models drawn: `model` first, then the mix's whose bake fits the device (at most MAX_CROWD_MODELS), each
   * with its clip and standing transform; the state of models no longer drawn is released. Only when the
   * model or the mix changed (allocates then); returns true when it did.
   */
  private arrange(model: ModelGpu, mix: readonly CrowdMixModel[]): boolean {
    if (this.drawn.length > 0 && this.drawn[0]!.model === model && this.mixOf === mix) return false;
    const main = this.subFor(model);
    main.clip = -1;
    main.transform.set(IDENTITY_MODEL);
    const drawn = [main];
    for (const m of mix) {
      if (drawn.length >= MAX_CROWD_MODELS) break;
      if (drawn.some((s) => s.model === m.gpu)) continue;
      const sub = this.subFor(m.gpu);
      if (!sub.bakedFits) continue;
      const clips = sub.bake.clips.length;
      sub.clip = clips === 0 ? -1 : m.clip >= 0 && m.clip < Math.min(clips, BAKE_CLIPS) ? m.clip : 0;
      standingTransform(model.framing, m.gpu.framing, sub.transform);
      drawn.push(sub);
    }
    for (const s of this.subs) if (!drawn.includes(s)) s.dispose();
    this.subs = drawn.slice();
    this.drawn = drawn;
    this.mixOf = mix;
    this.assigned[0] = -1;
    return true;
  }

  /** Gives each of the first `k` drawn models its instances of a crowd of `count` (k 1: all to the loaded model). */
  private assign(count: number, k: number): void {
    if (this.assigned[0] === count && this.assigned[1] === k) return;
    if (k === 1) {
      this.drawn[0]!.members = null;
      this.drawn[0]!.memberCount = count;
    } else {
      assignModels(count, k, this.members, this.memberCounts);
      for (let m = 0; m < k; m++) {
        this.drawn[m]!.members = this.members[m]!;
        this.drawn[m]!.memberCount = this.memberCounts[m]!;
      }
    }
    this.assigned[0] = count;
    this.assigned[1] = k;
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
    const compiled = this.programs.size;
    const fresh = this.arrange(model, opts.crowdMix);
    const drawn = this.drawn;
    const main = drawn[0]!;
    const crowd = main.crowd;
    const bake = main.bake;
    const clip = player.clipIndex;
    const baked = opts.crowdPath === 'baked' && !opts.wander && clip >= 0 && clip < BAKE_CLIPS && main.bakedFits;
    const count = baked ? Math.max(1, opts.crowd) : crowd.fit(opts.crowd);
    const models = baked ? drawn.length : 1;
    this.assign(count, models);
    const v = this.programsFor(clampInfluences(opts.influences), shadows, baked);
    let uploading = false;
    for (let k = 0; k < models; k++) {
      const sub = drawn[k]!;
      if (!sub.lod.pendingFor(sub.model)) continue;
      sub.lod.upload(sub.model, sub.bake, sub.instances);
      uploading = true;
    }
    if (fresh || uploading || this.programs.size !== compiled) {
      out.setupUs = (performance.now() - s0) * 1000;
      out.setupWhat = fresh
        ? models > 1
          ? `crowd bakes of ${models} models and palette textures`
          : `crowd bake (${bake.frameCount} frames, ${crowd.bakeTexture?.bytes ?? 0} bytes) and palette texture`
        : uploading
          ? `crowd LOD levels (${main.lod.levels.map((l) => l.detail).join(', ')})`
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
    f.eye = camera.position;
    f.baked = baked;
    f.bindPose = opts.bindPose;
    f.all = v.caster !== null;
    const key = this.uniforms.frame.u_keyDir;
    for (let k = 0; k < 3; k++) this.shadowDir[k] = -key[k]!;
    f.shadowDir = this.shadowDir;
    f.floorY = model.framing.floorY;
    f.lod = opts.lod;
    f.impostors = opts.impostors;
    f.fovYDeg = camera.fovYDeg;
    f.viewportPx = gl.drawingBufferHeight;
    for (let k = 0; k < models; k++) {
      const sub = drawn[k]!;
      sub.refreshImpostor(this.impostors, f, k > 0 ? sub.clip : clip, k > 0 ? -1 : player.duration, this.uniforms, this.crowdUniforms, out);
    }
    let instanceBytes = 0;
    let live = 0;
    out.lodLevels = 1;
    out.instancesPerLevel.fill(0);
    out.crowdModels = models;
    for (let k = 0; k < models; k++) {
      const sub = drawn[k]!;
      const own = k > 0;
      instanceBytes += sub.prepare(f, own ? sub.clip : clip, own ? sub.clipDuration(sub.clip) : player.duration);
      live += sub.data.live;
      sub.countInto(out, k);
    }
    const t1 = performance.now();
    if (!baked) {
      if (opts.wander) crowd.poseWander(player, opts.bindPose ? model.bindPose : null, count, opts.wanderSpacing, opts.wanderFloorY);
      else crowd.pose(player, opts.bindPose ? model.bindPose : null, main.data.slots, main.data.order);
    }
    const t2 = performance.now();
    out.wander = opts.wander;
    out.footsteps = opts.wander ? crowd.footstepRate : 0;
    if (!baked) crowd.palette.upload(opts.wander ? count : main.data.slots);
    out.uploadBytes = instanceBytes + (baked ? 0 : crowd.palette.lastUploadBytes);
    // Animation (instances 1..N-1 sampled, every palette written) counts as animation; culling and the uploads as the technique's work.
    out.crowdPoseUs = (t2 - t1) * 1000;
    out.skinUs = (performance.now() - t2 + t1 - t0) * 1000;
    out.crowd = count;
    out.instancesDrawn = live;
    out.instancesCulled = count - live;
    out.crowdPath = baked ? 'baked' : 'cpu';
    this.lastPath = out.crowdPath;
    const cu = this.crowdUniforms;
    // One model: the player's clock as it is. Mixed: unwrapped, so other clips at other speeds run on smoothly.
    const unwrapped = unwrapTime(player.time, player.duration, this.clock);
    cu.u_crowdTime = models > 1 ? unwrapped : player.time;
    cu.u_crowdBindPose = opts.bindPose ? 1 : 0;

    if (v.caster) {
      // The light frustum holds the whole crowd: the model's box grown by the grid's, the plaza's (or the wander square's) half extents.
      if (opts.wander) _halfExtent[0] = _halfExtent[1] = wanderHalfExtent(count, opts.wanderSpacing);
      else layoutHalfExtent(opts.crowdLayout, count, opts.crowdSpacing, model.framing.min, model.framing.max, _halfExtent);
      crowdBox(model, _halfExtent[0]!, _halfExtent[1]!, _boxMin, _boxMax);
      this.shadowPass.fitBox(_boxMin, _boxMax, false);
      this.drawCasters(v, baked, models, out);
      out.passes++;
      this.shadowMap.bindTexture();
    }

    this.clear();
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.disable(gl.CULL_FACE);
    if (opts.grid) this.lines.drawFloor(model, opts.crowdFloor, false, v.shadows, out);

    gl.useProgram(v.lit.program);
    v.litFrame.apply();
    // Materials with alphaMode 'blend' are drawn after every other draw, blended, depth writes off (as SurfacePass).
    let blended = false;
    for (let k = 0; k < models; k++) {
      const sub = drawn[k]!;
      const own = this.uniforms.hasBlended(sub.model);
      blended ||= own;
      sub.drawLevels(v, this.uniforms, cu, baked, own ? 1 : 0, out);
      out.skinnedVertices += sub.skinnedVertices();
      for (let i = 0; i < sub.model.meshes.length; i++) out.vertexBytes += sub.model.meshes[i]!.vertexBytes;
    }
    // The far field's impostors: opaque (coverage-tested), so before the blended materials.
    let impostors = false;
    for (let k = 0; k < models; k++) impostors ||= drawn[k]!.data.levels > drawn[k]!.meshLevels;
    if (impostors) {
      this.impostors.begin();
      for (let k = 0; k < models; k++) drawn[k]!.drawImpostors(this.impostors, cu, baked, out);
      gl.useProgram(v.lit.program);
      v.litFrame.apply();
    }
    if (blended) {
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.depthMask(false);
      for (let k = 0; k < models; k++) {
        const sub = drawn[k]!;
        if (this.uniforms.hasBlended(sub.model)) sub.drawLevels(v, this.uniforms, cu, baked, 2, out);
      }
      gl.disable(gl.BLEND);
      gl.depthMask(true);
    }
    out.passes++;
    gl.disable(gl.CULL_FACE);
    gl.bindVertexArray(null);
  }

  /** The instanced caster pass into the shadow map: every model's filled slots, one drawElementsInstanced per subset, every material. */
  private drawCasters(v: CrowdVariant, baked: boolean, models: number, out: FrameFigures): void {
    const gl = this.gl;
    const fu = this.uniforms.frame;
    const cameraViewProj = fu.u_viewProj;
    this.shadowMap.begin();
    gl.useProgram(v.caster!.program);
    fu.u_viewProj = this.shadowMap.lightViewProj;
    v.casterFrame!.apply();
    fu.u_viewProj = cameraViewProj;
    for (let k = 0; k < models; k++) {
      const sub = this.drawn[k]!;
      out.skinnedVertices += sub.drawCasters(v, this.uniforms, this.crowdUniforms, baked, this.shadowMap.texel, out);
    }
    gl.bindVertexArray(null);
    this.shadowMap.end();
  }

  dispose(): void {
    this.release();
    this.impostors.dispose();
    this.variant = null;
  }
}
