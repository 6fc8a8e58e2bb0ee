import type { CrowdBake } from '../anim/crowd-bake.ts';
import { CrowdInstances } from '../gpu/crowd-instances.ts';
import { subsetDraws } from '../techniques/mesh-state.ts';
import type { DrawRange } from '../techniques/technique.ts';
import { CrowdModel } from './crowd.ts';
import { CrowdInstanceData, type CrowdInstanceFrame } from './crowd-instance-data.ts';
import { drawCrowdCasters, type CrowdCasterInput } from './crowd-casters.ts';
import { CrowdLodSet } from './crowd-lod-set.ts';
import { CrowdImpostor } from './crowd-impostor.ts';
import { IMPOSTOR_PX, type CrowdImpostorPass } from './crowd-impostor-pass.ts';
import { distanceForError, MAX_LOD_LEVELS } from './crowd-lod.ts';
import { IMPOSTOR_AZIMUTHS, IMPOSTOR_CELL_PX, IMPOSTOR_ELEVATIONS } from './impostor-cells.ts';

const IMPOSTOR_VIEWS = IMPOSTOR_AZIMUTHS * IMPOSTOR_ELEVATIONS.length;
import { transformSphere } from './crowd-mix.ts';
import { BAKE_CLIPS, type CrowdUniforms, type CrowdVariant } from './crowd-programs.ts';
import type { FrameFigures, ImpostorMode } from './frame-types.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { SceneUniforms } from './scene-uniforms.ts';

/** Sphere of a frame that is never culled (no clip, or the bind pose). */
const NO_SPHERE = Float32Array.of(0, 0, 0, Infinity);

/** The frame fields every model shares, as the instance list reads them (crowd-instance-data.ts says what each is). */
type SharedFrame = Pick<CrowdInstanceFrame, 'count' | 'spacing' | 'layout' | 'facing' | 'pivot' | 'tint' | 'wander' | 'cull' | 'viewProj' | 'eye' | 'baked' | 'all' | 'shadowDir' | 'floorY'>;

/**
 * What the pass tells a sub-crowd about the frame (one object, refilled per frame): the shared fields (the
 * layout's facing and pivot are the loaded model's: a plaza turns every model about them; the floor is the
 * loaded model's), the bind pose switch, and whether distance LOD is wanted with the projection its switch
 * distances follow.
 */
export interface SubCrowdFrame extends SharedFrame {
  bindPose: boolean;
  lod: boolean;
  /** With `lod`: the far field (or every instance) as impostors once the model's atlas holds its clip (refreshImpostor). */
  impostors: ImpostorMode;
  fovYDeg: number;
  viewportPx: number;
}

/**
 * One model of a crowd (crowd-pass.ts draws one per model: the loaded model, and in a mixed crowd each other
 * model of crowd-mix.ts): its CrowdModel (bake, palette texture), its instance buffer and vertex arrays
 * (CrowdInstances), its instance list (CrowdInstanceData: the offsets of the whole crowd, its own members
 * culled against its own clip sphere), its distance LOD levels (CrowdLodSet) and its clip table and uniform
 * transform (crowd-mix.ts standingTransform, (1, 0, 0, 0) for the loaded model). prepare() culls and uploads
 * the frame's instances; drawCasters() and drawLevels() issue one drawElementsInstanced per subset per level (the
 * casters: per subset, at one level)
 * through the program the pass has bound, after writing this model's values into the shared crowd uniforms.
 * Built once per model (allocates); nothing per frame. dispose() frees its textures, buffers and levels.
 */
export class SubCrowd {
  readonly crowd: CrowdModel;
  readonly instances: CrowdInstances;
  readonly data = new CrowdInstanceData();
  readonly lod: CrowdLodSet;
  /** The far field's atlas of this model's clip (captured by captureImpostor; empty until then). */
  readonly impostor: CrowdImpostor;
  /** Mesh levels of the last prepared frame; its drawn levels past them (at most one) are the impostors. */
  meshLevels = 1;
  readonly draws: DrawRange[][];
  /** The clip table of the baked path: (first frame, intervals, duration, intervals per second) per clip. */
  readonly bakeClips = new Float32Array(4 * BAKE_CLIPS);
  /** Uniform scale and translation after skinning (u_crowdModel). */
  readonly transform = Float32Array.of(1, 0, 0, 0);
  /** The clip this model's instances play (-1: the pass's, the app player's); set by the pass. */
  clip = -1;
  /** The global instance indices this model draws (null: all of them) and their count. */
  members: Int32Array | null = null;
  memberCount = 0;
  /** Vertices of the model's meshes (one instance's skinning at full detail). */
  private readonly vertexCount: number;
  /** The frame's clip sphere moved by `transform`. */
  private readonly sphere = new Float32Array(4);
  private readonly switches2 = new Float32Array(MAX_LOD_LEVELS - 1);
  /** The caster pass's input (its levels and texture refilled per frame). */
  private readonly casters: CrowdCasterInput;
  private readonly frame: CrowdInstanceFrame = {
    count: 1, spacing: 1, layout: 'grid', facing: 0, pivot: NO_SPHERE, tint: true, wander: false, cull: true, viewProj: NO_SPHERE, sphere: NO_SPHERE,
    baked: false, clip: 0, duration: 0, all: false, shadowDir: NO_SPHERE, floorY: 0, members: null, memberCount: 0,
    lodLevels: 1, lodSwitches2: NO_SPHERE, eye: NO_SPHERE,
  };

  constructor(
    private readonly gl: WebGL2RenderingContext,
    readonly model: ModelGpu,
    maxTextureSize: number,
  ) {
    this.crowd = new CrowdModel(gl, model.scene, maxTextureSize);
    this.draws = model.scene.meshes.map(subsetDraws);
    this.vertexCount = model.scene.meshes.reduce((n, m) => n + m.vertexCount, 0);
    this.instances = new CrowdInstances(gl, model.meshes);
    this.lod = new CrowdLodSet(gl, maxTextureSize);
    this.impostor = new CrowdImpostor(gl);
    this.casters = { model, crowd: this.crowd, draws: this.draws, levels: this.lod.levels, instances: this.instances, texture: this.crowd.palette };
  }

  /** The model's bake, built and its clip table written on first use (load-time work, crowd.ts). */
  get bake(): CrowdBake {
    const fresh = this.crowd.bakeTexture === null;
    const bake = this.crowd.bake();
    if (fresh) {
      for (let c = 0; c < Math.min(BAKE_CLIPS, bake.clips.length); c++) {
        const b = bake.clips[c]!;
        this.bakeClips.set([b.first, b.frames, b.duration, b.rate], c * 4);
      }
    }
    return bake;
  }

  /** The bake was built (a crowd frame drew this model). */
  get baked(): boolean {
    return this.crowd.bakeTexture !== null;
  }

  /** The baked texture holds this model's bake (the baked path can draw it). */
  get bakedFits(): boolean {
    const t = this.bake && this.crowd.bakeTexture;
    return t !== null && t.fits;
  }

  /** Duration of clip `clip` (0 for none). */
  clipDuration(clip: number): number {
    const b = this.bake;
    return clip >= 0 && clip < b.clips.length ? b.clips[clip]!.duration : 0;
  }

  /**
   * Culls this model's instances, sorts them by level and brings its instance buffer up to date for frame `f`
   * playing `clip` (of `duration` s); returns the bytes uploaded.
   */
  prepare(f: SubCrowdFrame, clip: number, duration: number): number {
    const bake = this.bake;
    const sphere = this.sphere;
    if (clip >= 0 && clip < bake.clips.length && !f.bindPose) transformSphere(bake.spheres, clip * 4, this.transform, sphere);
    else sphere.set(NO_SPHERE);
    const d = this.frame;
    d.count = f.count;
    d.spacing = f.spacing;
    d.layout = f.layout;
    d.facing = f.facing;
    d.pivot = f.pivot;
    d.tint = f.tint;
    d.wander = f.wander;
    d.cull = f.cull;
    d.viewProj = f.viewProj;
    d.sphere = sphere;
    d.baked = f.baked;
    d.clip = clip;
    d.duration = duration;
    d.all = f.all;
    d.shadowDir = f.shadowDir;
    d.floorY = f.floorY;
    d.members = this.members;
    d.memberCount = this.memberCount;
    // The switch distances are the levels' errors projected: a scaled model's errors scale with it.
    const meshLevels = this.lod.frame(this.model, f.baked && f.lod, f.fovYDeg, f.viewportPx);
    const s2 = this.transform[0]! * this.transform[0]!;
    for (let l = 0; l < meshLevels - 1; l++) this.switches2[l] = this.lod.switches2[l]! * s2;
    this.meshLevels = meshLevels;
    d.lodLevels = meshLevels;
    if (meshLevels > 1 && f.impostors !== 'off' && !f.bindPose && this.impostor.holds(clip)) {
      // Impostors past the lightest level's switch, once the sphere's diameter projects under IMPOSTOR_PX;
      // 'all': every switch at 0, so every instance is one.
      const small = distanceForError(2 * this.impostor.sphere[3]!, f.fovYDeg, f.viewportPx, IMPOSTOR_PX);
      const from = f.impostors === 'all' ? 0 : Math.max(this.lod.switches[meshLevels - 2]!, small);
      if (f.impostors === 'all') this.switches2.fill(0);
      this.switches2[meshLevels - 1] = from * from * s2;
      d.lodLevels = meshLevels + 1;
    }
    d.lodSwitches2 = this.switches2;
    d.eye = f.eye;
    return this.data.update(this.instances, d);
  }

  /**
   * Captures the atlas of `clip` (of `duration` s; −1: its own) when it should be now: impostors wanted (`f`),
   * the levels uploaded (impostors lie past the lightest), the baked path, and the atlas not holding the clip
   * yet. Drawn with `pass`'s capture program at the lightest level whose error is under one atlas pixel;
   * one-time work (allocates), counted in `out`'s setup figures. Leaves the default framebuffer bound.
   */
  refreshImpostor(pass: CrowdImpostorPass, f: SubCrowdFrame, clip: number, duration: number, uniforms: SceneUniforms, cu: CrowdUniforms, out: FrameFigures): void {
    if (!f.baked || !f.lod || f.impostors === 'off' || f.bindPose || clip < 0 || this.lod.levels.length === 0 || this.lod.of !== this.model || this.impostor.holds(clip)) return;
    const t0 = performance.now();
    const bake = this.bake;
    const sphere = bake.spheres.subarray(clip * 4, clip * 4 + 4);
    const level = this.lod.levelUnder((2 * sphere[3]!) / IMPOSTOR_CELL_PX);
    this.impostor.capture(pass.captureProgram(), uniforms, cu, {
      model: this.model, crowd: this.crowd, draws: this.draws, levels: this.lod.levels, level, bakeClips: this.bakeClips, clip,
      duration: duration >= 0 ? duration : this.clipDuration(clip), sphere,
    });
    this.instances.setImpostorQuad(pass.quad());
    out.setupUs += (performance.now() - t0) * 1000;
    out.setupWhat = `crowd impostor atlas (${this.impostor.frames} frames × ${IMPOSTOR_VIEWS} views at detail ${level === 0 ? 'full' : this.lod.levels[level - 1]!.detail}, ${this.impostor.bytes} bytes)`;
  }

  /** Writes this model's clip table, transform and palette block size into the shared crowd uniforms. */
  private applyModel(cu: CrowdUniforms, baked: boolean): void {
    cu.u_bakeClips.set(this.bakeClips);
    cu.u_crowdModel.set(this.transform);
    cu.u_crowdSlots = baked ? this.bake.slotsPerFrame : this.crowd.slotsPerInstance;
  }

  /** The palette texture the frame reads: the bake, or the cpu path's per-frame palettes. */
  private texture(baked: boolean): { bind(): void } {
    return baked ? this.crowd.bakeTexture! : this.crowd.palette;
  }

  /**
   * The caster pass (its program in use, its frame uniforms applied). A caster need be no finer than either
   * view shows it: the shadow map (the lightest level whose error, scaled with the model, is under `texel`,
   * one shadow-map texel: the texel level) or the screen (its shadow lies at its feet, so its camera level's
   * error projects under a pixel there too). So the live instances draw at the lighter of their camera
   * level and the texel level, one range per level, and the culled casters after them (no camera level) at
   * the texel level. Returns the skinned vertices it drew.
   */
  drawCasters(v: CrowdVariant, uniforms: SceneUniforms, cu: CrowdUniforms, baked: boolean, texel: number, out: FrameFigures): number {
    this.applyModel(cu, baked);
    const texture = this.texture(baked);
    texture.bind();
    uniforms.material.u_alpha = 1;
    const c = this.casters;
    c.levels = this.lod.levels;
    c.texture = texture;
    const data = this.data;
    const starts = data.levelStarts;
    const lightest = this.meshLevels - 1;
    const top = Math.min(this.lod.casterLevel(texel / this.transform[0]!), lightest);
    let vertices = 0;
    // Camera levels 0..top draw at the texel level as one range; each lighter camera level at its own, the
    // impostors' range with the lightest mesh level's.
    for (let l = top; l <= lightest; l++) {
      const first = l === top ? 0 : starts[l]!;
      const count = starts[l === lightest ? data.levels : l + 1]! - first;
      vertices += this.drawCasterRange(uniforms, cu, v, l, first, count, out);
    }
    vertices += this.drawCasterRange(uniforms, cu, v, top, data.live, data.slots - data.live, out);
    return vertices;
  }

  private drawCasterRange(uniforms: SceneUniforms, cu: CrowdUniforms, v: CrowdVariant, level: number, first: number, count: number, out: FrameFigures): number {
    if (count <= 0) return 0;
    drawCrowdCasters(this.gl, uniforms, cu, v, this.casters, level, first, count, out);
    return (level === 0 ? this.vertexCount : this.lod.levels[level - 1]!.vertexCount) * count;
  }

  /**
   * The camera pass (the lit program in use, its frame uniforms applied): each drawn level's instances, one
   * draw per subset whose material is in `round` (0 every subset, 1 the unblended, 2 the blended).
   */
  drawLevels(v: CrowdVariant, uniforms: SceneUniforms, cu: CrowdUniforms, baked: boolean, round: number, out: FrameFigures): void {
    const data = this.data;
    const starts = data.levelStarts;
    const texture = this.texture(baked);
    this.applyModel(cu, baked);
    texture.bind();
    uniforms.material.u_alpha = 1;
    for (let l = 0; l < Math.min(data.levels, this.meshLevels); l++) {
      const first = starts[l]!;
      const count = starts[l + 1]! - first;
      if (count === 0) continue;
      const lod = l === 0 ? null : this.lod.levels[l - 1]!;
      // A level with its own bake binds its texture and block size (then the model's again).
      const own = lod?.bake() ?? null;
      const slots = cu.u_crowdSlots;
      if (own) {
        own.bakeTexture!.bind();
        cu.u_crowdSlots = own.bake().slotsPerFrame;
      }
      this.drawInstances(v, uniforms, cu, own ?? this.crowd, count, round, l, first, lod === null ? this.draws : lod.draws, out);
      if (own) {
        texture.bind();
        cu.u_crowdSlots = slots;
      }
    }
  }

  /** The impostors' range of the last prepared frame, if any (`pass` begun, its program in use). */
  drawImpostors(pass: CrowdImpostorPass, cu: CrowdUniforms, baked: boolean, out: FrameFigures): void {
    const data = this.data;
    if (data.levels <= this.meshLevels) return;
    const first = data.levelStarts[this.meshLevels]!;
    const count = data.levelStarts[this.meshLevels + 1]! - first;
    if (count <= 0) return;
    this.applyModel(cu, baked);
    pass.draw(this.impostor, this.instances, first, count, out);
  }

  /** The levels the last frame drew (CrowdLodSet.facts), with the impostors and where they start when drawn. Allocates. */
  levelFacts(): { details: string[]; to: (number | null)[] } {
    const facts = this.lod.facts();
    if (this.data.levels > this.meshLevels) {
      facts.details.push('impostor');
      const s = this.transform[0]!;
      facts.to[facts.to.length - 1] = Number((Math.sqrt(this.switches2[this.meshLevels - 1]!) / s).toFixed(3));
      facts.to.push(null);
    }
    return facts;
  }

  private drawInstances(v: CrowdVariant, uniforms: SceneUniforms, cu: CrowdUniforms, crowd: CrowdModel, count: number, round: number, level: number, first: number, meshDraws: DrawRange[][], out: FrameFigures): void {
    const gl = this.gl;
    const model = this.model;
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
          model.vertexColours.bindMesh(this.instances.levelMesh(level, i));
          gl.bindVertexArray(this.instances.levelVao(level, i, first));
        }
        if (draw.material !== material) {
          material = draw.material;
          uniforms.applyMaterial(model, material, v.litMaterial);
        }
        gl.drawElementsInstanced(gl.TRIANGLES, draw.count, gl.UNSIGNED_INT, draw.first * 4, count);
        out.crowdTriangles += (draw.count / 3) * count;
        out.drawCalls++;
        out.meshDrawCalls++;
      }
    }
  }

  /**
   * Adds the prepared frame's counts to `out` as model `k`: its camera-pass instances per level (its mesh
   * levels at their index, its impostors in the last slot, MAX_LOD_LEVELS − 1), raising out.lodLevels to what
   * it drew, and its instances held and drawn.
   */
  countInto(out: FrameFigures, k: number): void {
    const data = this.data;
    const impostors = data.levels > this.meshLevels;
    out.lodLevels = Math.max(out.lodLevels, impostors ? MAX_LOD_LEVELS : data.levels);
    for (let l = 0; l < data.levels; l++) {
      out.instancesPerLevel[impostors && l === this.meshLevels ? MAX_LOD_LEVELS - 1 : l] += data.levelStarts[l + 1]! - data.levelStarts[l]!;
    }
    out.instancesPerModel[k] = this.memberCount;
    out.drawnPerModel[k] = data.live;
  }

  /** Skinned vertices of the camera pass this frame (each level's vertices times its instances). */
  skinnedVertices(): number {
    const data = this.data;
    let n = 0;
    for (let l = 0; l < Math.min(data.levels, this.meshLevels); l++) n += (l === 0 ? this.vertexCount : this.lod.levels[l - 1]!.vertexCount) * (data.levelStarts[l + 1]! - data.levelStarts[l]!);
    return n;
  }

  /** Frees the lighter levels (GPU and scenes) and forgets their vertex arrays. */
  releaseLevels(): void {
    this.lod.release();
    this.instances.setLevels([]);
  }

  /**
   * Frees everything. The instances go first: with their buffer gone, dropping the levels rebuilds no vertex
   * array, and the model's own buffers (often deleted already, with the model) are never bound again.
   */
  dispose(): void {
    this.instances.dispose();
    this.lod.release();
    this.impostor.dispose();
    this.crowd.dispose();
  }
}
