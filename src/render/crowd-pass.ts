import type * as twgl from 'twgl.js';
import type { AnimPlayer } from '../anim/player.ts';
import type { ProgramCache } from '../gpu/programs.ts';
import { UniformBinding } from '../gpu/uniforms.ts';
import { clampInfluences } from '../techniques/influences.ts';
import { subsetDraws } from '../techniques/mesh-state.ts';
import type { DrawRange } from '../techniques/technique.ts';
import type { OrbitCamera } from './camera.ts';
import { CrowdModel } from './crowd.ts';
import { crowdGrid, crowdHalfExtent } from './crowd-layout.ts';
import { resetFigures, type FrameFigures, type RenderOptions } from './frame-types.ts';
import type { LinesPass } from './lines-pass.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { SceneUniforms } from './scene-uniforms.ts';
import { bindShadowSampler, type ShadowMap } from './shadow-map.ts';
import { crowdBox, type ShadowPass } from './shadow-pass.ts';
import { wanderHalfExtent } from '../anim/wander-gait.ts';

/** Crowd mode's programs for one influence count and shadow setting, and their uniform bindings. */
interface CrowdVariant {
  influences: number;
  shadows: boolean;
  lit: twgl.ProgramInfo;
  litFrame: UniformBinding<SceneUniforms['frame']>;
  litMaterial: UniformBinding<SceneUniforms['material']>;
  litCrowd: UniformBinding<CrowdPass['crowdUniforms']>;
  /** The instanced caster program (the crowd's own skinning + lit.frag's depth-only path); null without shadows. */
  caster: twgl.ProgramInfo | null;
  casterFrame: UniformBinding<SceneUniforms['frame']> | null;
  casterMaterial: UniformBinding<SceneUniforms['material']> | null;
  casterCrowd: UniformBinding<CrowdPass['crowdUniforms']> | null;
}

const _boxMin = new Float32Array(3);
const _boxMax = new Float32Array(3);
const _halfExtent = [0, 0];

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
 */
export class CrowdPass {
  private crowdModel: CrowdModel | null = null;
  private crowdModelOf: ModelGpu | null = null;
  private crowdDraws: DrawRange[][] = [];
  private variant: CrowdVariant | null = null;
  private readonly crowdUniforms = { u_crowdSlots: 1, u_crowdBase: 0, u_crowdColumns: 1, u_crowdRows: 1, u_crowdSpacing: 1 };

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly programs: ProgramCache,
    private readonly maxTextureSize: number,
    private readonly uniforms: SceneUniforms,
    private readonly lines: LinesPass,
    private readonly shadowPass: ShadowPass,
    private readonly shadowMap: ShadowMap,
    private readonly clear: () => void,
  ) {}

  /** The CrowdModel is of a model other than `model` (which may be disposed already). */
  holdsOther(model: ModelGpu): boolean {
    return this.crowdModel !== null && this.crowdModelOf !== model;
  }

  /** Frees the palette texture (rebuilt on the next crowd frame). */
  release(): void {
    this.crowdModel?.dispose();
    this.crowdModel = null;
    this.crowdModelOf = null;
  }

  /** The per-model state, built the first time the model is drawn as a crowd (allocates; not per frame). */
  crowdFor(model: ModelGpu): CrowdModel {
    if (this.crowdModelOf !== model || !this.crowdModel) {
      this.crowdModel?.dispose();
      this.crowdModel = new CrowdModel(this.gl, model.scene, this.maxTextureSize);
      this.crowdModelOf = model;
      this.crowdDraws = model.scene.meshes.map(subsetDraws);
    }
    return this.crowdModel;
  }

  /** The crowd programs for an influence count and shadow setting (compiled once, cached). */
  private programsFor(influences: number, shadows: boolean): CrowdVariant {
    const c = this.variant;
    if (c && c.influences === influences && c.shadows === shadows) return c;
    const defines = { PALETTE_TEXTURE: true, CROWD: true, INFLUENCES: influences };
    const lit = this.programs.get('skinned.vert', 'lit.frag', shadows ? { ...defines, SHADOW_RECEIVE: true } : defines);
    if (shadows) bindShadowSampler(this.gl, lit.program);
    const caster = shadows ? this.programs.get('skinned.vert', 'lit.frag', { ...defines, SHADOW_DEPTH: true }) : null;
    const u = this.uniforms;
    const v: CrowdVariant = {
      influences,
      shadows,
      lit,
      litFrame: new UniformBinding(lit, u.frame),
      litMaterial: new UniformBinding(lit, u.material),
      litCrowd: new UniformBinding(lit, this.crowdUniforms),
      caster,
      casterFrame: caster ? new UniformBinding(caster, u.frame) : null,
      casterMaterial: caster ? new UniformBinding(caster, u.material) : null,
      casterCrowd: caster ? new UniformBinding(caster, this.crowdUniforms) : null,
    };
    this.variant = v;
    return v;
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
    const count = crowd.fit(opts.crowd);
    const v = this.programsFor(clampInfluences(opts.influences), shadows);
    if (fresh || this.programs.size !== compiled) {
      out.setupUs = (performance.now() - s0) * 1000;
      out.setupWhat = fresh ? 'crowd palette texture' : 'crowd programs';
    }
    const t0 = performance.now();
    if (opts.wander) crowd.poseWander(player, opts.bindPose ? model.bindPose : null, count, opts.wanderSpacing, opts.wanderFloorY);
    else crowd.pose(player, opts.bindPose ? model.bindPose : null, count);
    const t1 = performance.now();
    out.wanderUs = opts.wander ? crowd.wanderStepUs : 0;
    out.footsteps = opts.wander ? crowd.footstepRate : 0;
    crowd.palette.upload(count);
    out.uploadBytes = crowd.palette.lastUploadBytes;
    // Animation (instances 1..N-1 sampled, every palette written) counts as animation; the one upload as the technique's work.
    out.crowdPoseUs = (t1 - t0) * 1000;
    out.skinUs = (performance.now() - t1) * 1000;
    out.crowd = count;
    for (let i = 0; i < model.meshes.length; i++) out.vertexBytes += model.meshes[i]!.vertexBytes;
    const cu = this.crowdUniforms;
    const grid = crowdGrid(count);
    cu.u_crowdSlots = crowd.slotsPerInstance;
    cu.u_crowdColumns = grid.columns;
    cu.u_crowdRows = grid.rows;
    // Wander: each instance's place is in its palette (wander.ts), so the grid offset is 0 (crowd_pars.glsl).
    cu.u_crowdSpacing = opts.wander ? 0 : opts.crowdSpacing;
    let vertices = 0;
    for (let i = 0; i < model.meshes.length; i++) vertices += model.scene.meshes[i]!.vertexCount;

    if (v.caster) {
      // The light frustum holds the whole crowd: the model's box grown by the grid's (or the wander square's) half extents.
      if (opts.wander) _halfExtent[0] = _halfExtent[1] = wanderHalfExtent(count, opts.wanderSpacing);
      else crowdHalfExtent(count, opts.crowdSpacing, _halfExtent);
      crowdBox(model, _halfExtent[0]!, _halfExtent[1]!, _boxMin, _boxMax);
      this.shadowPass.fitBox(_boxMin, _boxMax);
      this.drawCasters(model, crowd, v, count, out);
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
    crowd.palette.bind();
    this.uniforms.material.u_alpha = 1;
    // Materials with alphaMode 'blend' are drawn after every other draw, blended, depth writes off (as SurfacePass).
    const blended = this.uniforms.hasBlended(model);
    this.drawInstances(model, crowd, v, count, out, blended ? 1 : 0);
    if (blended) {
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.depthMask(false);
      this.drawInstances(model, crowd, v, count, out, 2);
      gl.disable(gl.BLEND);
      gl.depthMask(true);
    }
    out.passes++;
    out.skinnedVertices += vertices * count;
    gl.disable(gl.CULL_FACE);
    gl.bindVertexArray(null);
  }

  /** The instanced caster pass into the shadow map: one drawElementsInstanced per subset, every material. */
  private drawCasters(model: ModelGpu, crowd: CrowdModel, v: CrowdVariant, count: number, out: FrameFigures): void {
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
    crowd.palette.bind();
    uniforms.material.u_alpha = 1;
    for (let i = 0; i < model.meshes.length; i++) {
      const draws = this.crowdDraws[i]!;
      if (draws.length === 0) continue;
      cu.u_crowdBase = crowd.meshBase[i]!;
      v.casterCrowd!.apply();
      gl.bindVertexArray(model.meshes[i]!.vao);
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

  /** One instanced draw per subset whose material is in `round` (0 every subset, 1 the unblended, 2 the blended). */
  private drawInstances(model: ModelGpu, crowd: CrowdModel, v: CrowdVariant, count: number, out: FrameFigures, round: number): void {
    const gl = this.gl;
    const uniforms = this.uniforms;
    const cu = this.crowdUniforms;
    for (let i = 0; i < model.meshes.length; i++) {
      const buffers = model.meshes[i]!;
      const draws = this.crowdDraws[i]!;
      let bound = false;
      let material = -1;
      for (let d = 0; d < draws.length; d++) {
        const draw = draws[d]!;
        if (round !== 0 && (uniforms.blends(model, draw.material) ? 2 : 1) !== round) continue;
        if (!bound) {
          bound = true;
          cu.u_crowdBase = crowd.meshBase[i]!;
          v.litCrowd.apply();
          gl.bindVertexArray(buffers.vao);
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
