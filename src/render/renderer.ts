import { mat4, vec3 } from 'gl-matrix';
import * as twgl from 'twgl.js';
import type { AnimPlayer } from '../anim/player.ts';
import { ProgramCache, type Defines } from '../gpu/programs.ts';
import { MAX_INFLUENCES } from '../model/types.ts';
import { solidTexture } from '../gpu/textures.ts';
import { UniformBinding } from '../gpu/uniforms.ts';
import { software } from '../techniques/software.ts';
import { TECHNIQUE_IDS, type DeviceCaps, type PoseSource, type Technique, type TechniqueMesh } from '../techniques/technique.ts';
import type { OrbitCamera } from './camera.ts';
import type { ModelGpu } from './model-gpu.ts';
import { DiffSchedule } from './diff-count.ts';
import { DiffView } from './diff-view.ts';
import { morphDefines, morphLocations, type MorphLocations, type MorphPath } from './morph-runtime.ts';
import { surfaceView, type SurfaceView, type ViewId } from './views.ts';
import { CrowdModel } from './crowd.ts';
import { crowdGrid } from './crowd-layout.ts';
import { subsetDraws } from '../techniques/mesh-state.ts';
import { clampInfluences } from '../techniques/influences.ts';
import type { DrawRange } from '../techniques/technique.ts';


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
  /** How morph targets are applied (ignored for a model without targets). */
  morphs: MorphPath;
  /**
   * Crowd mode: instances to draw (1 = the single model through the technique). Above 1 the model is drawn
   * with renderCrowd whatever `technique` and `view` say: instanced, every palette in one texture.
   */
  crowd: number;
  /** Crowd grid spacing (model units, crowd-layout.ts crowdSpacing). */
  crowdSpacing: number;
  /** Crowd mode's floor transform (the grid scaled about the model to cover the crowd); model → world. */
  crowdFloor: mat4;
}

/** Figures of the last frame; written in place by render() (the live cost panel reads them). */
export interface FrameFigures {
  drawCalls: number;
  /** Draws of skinned meshes (the technique's share of drawCalls). */
  meshDrawCalls: number;
  /** Bytes uploaded this frame for skinning: palettes (once or per draw) or CPU-skinned vertices. */
  uploadBytes: number;
  /** CPU time of the technique's per-frame work (palette build, CPU skinning, uploads), µs. */
  skinUs: number;
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
}

export function emptyFigures(): FrameFigures {
  return {
    drawCalls: 0,
    meshDrawCalls: 0,
    uploadBytes: 0,
    skinUs: 0,
    groups: 0,
    duplicatedVertices: 0,
    vertexBytes: 0,
    approximatedTriangles: 0,
    unrepresentableScale: 0,
    diffPixels: -1,
    diffShare: -1,
    crowd: 1,
    crowdPoseUs: 0,
  };
}

/** Crowd mode's programs for one influence count, and their uniform bindings. */
interface CrowdVariant {
  influences: number;
  lit: twgl.ProgramInfo;
  litFrame: UniformBinding<Renderer['frameUniforms']>;
  litMaterial: UniformBinding<Renderer['materialUniforms']>;
  litCrowd: UniformBinding<Renderer['crowdUniforms']>;
}

/** A program variant of one slot and its uniform bindings. */
interface Variant {
  model: ModelGpu;
  technique: Technique;
  influences: number;
  palette: number;
  surface: SurfaceView;
  morphs: MorphPath;
  /** The programs carry a GPU morph define (MORPH_SLOTS / MORPH_TEXTURE). */
  gpuMorph: boolean;
  litMorph: MorphLocations | null;
  flatMorph: MorphLocations | null;
  lit: twgl.ProgramInfo;
  flat: twgl.ProgramInfo;
  litFrame: UniformBinding<Renderer['frameUniforms']>;
  litMaterial: UniformBinding<Renderer['materialUniforms']>;
  litView: UniformBinding<Renderer['viewUniforms']>;
  flatFrame: UniformBinding<Renderer['frameUniforms']>;
  flatColour: UniformBinding<Renderer['flatUniforms']>;
  /** The technique's per-draw group uniform in each program (null when it has none). */
  litGroup: WebGLUniformLocation | null;
  flatGroup: WebGLUniformLocation | null;
}

/** Diff-view signature: technique, influences, palette, bind pose, time, canvas size, floor, viewProj (16). */
const DIFF_SIGNATURE = 23;

/** lit.frag's define set for a colouring: the technique's defines plus the view's (VIEW_TEXTURE: skinned.vert fetches the view data). */
export function surfaceDefines(defines: Defines, surface: SurfaceView): Defines {
  if (surface === 'weights') return { ...defines, VIEW_WEIGHTS: true, VIEW_TEXTURE: true };
  if (surface === 'influences') return { ...defines, VIEW_INFLUENCES: true, VIEW_TEXTURE: true };
  if (surface === 'groups') return { ...defines, VIEW_GROUPS: true };
  return defines;
}

/** Transform-feedback readback of one mesh: skinned model-space positions and tangents per technique vertex. */
export interface SkinReadback {
  /** v_worldPos: 3 floats per technique vertex. */
  readonly positions: Float32Array;
  /** v_tangent: 4 floats per technique vertex, unit skinned tangent (xyz) and bitangent sign (w). */
  readonly tangents: Float32Array;
  /** Technique vertex v is a copy of mesh vertex sourceVertex[v]. */
  readonly sourceVertex: Uint32Array;
  readonly approximated: Uint8Array | null;
}

/**
 * Draws one model per frame: the floor (grid, contact shadow), skinned meshes with the chosen technique and view, and the
 * skeleton overlay. Owns the context-wide resources (program cache, white texture). Per-frame work
 * reuses module scratch and uniform objects: no allocation in render().
 */
export class Renderer {
  readonly programs: ProgramCache;
  readonly caps: DeviceCaps;
  readonly rendererName: string;
  private readonly white: WebGLTexture;

  // Uniform objects reused every frame (UniformBinding reads them).
  // References, not copies: render() points them at the camera's own matrices.
  private readonly frameUniforms = {
    u_viewProj: mat4.create(),
    u_world: mat4.create(),
    u_cameraPos: vec3.create(),
    u_keyDir: vec3.normalize(vec3.create(), vec3.fromValues(-0.6, 0.7, 0.45)),
    u_rimDir: vec3.normalize(vec3.create(), vec3.fromValues(0.7, 0.3, -0.65)),
  };
  private readonly materialUniforms = {
    u_diffuse: new Float32Array(4),
    u_diffuseMap: null as WebGLTexture | null,
    u_specular: new Float32Array(3),
    u_specPower: 32,
    u_alpha: 1,
  };
  private readonly flatUniforms = { u_colour: new Float32Array([0.55, 0.85, 1.0, 0.55]) };
  private readonly lineUniforms = { u_pointSize: 6, u_round: 0 };
  /** Per-draw uniforms of the groups view. */
  private readonly viewUniforms = { u_viewGroup: 0 };
  /** The diff view's targets and composite, created the first time the view is drawn. */
  private diff: DiffView | null = null;
  private readonly diffSchedule = new DiffSchedule(DIFF_SIGNATURE);
  private readonly diffSignature = new Float64Array(DIFF_SIGNATURE);
  /** Crowd mode: per-model instance palettes and player (rebuilt when the model changes), programs, uniforms. */
  private crowdModel: CrowdModel | null = null;
  private crowdModelOf: ModelGpu | null = null;
  private crowdDraws: DrawRange[][] = [];
  private crowdVariant: CrowdVariant | null = null;
  private readonly crowdUniforms = { u_crowdSlots: 1, u_crowdBase: 0, u_crowdColumns: 1, u_crowdRows: 1, u_crowdSpacing: 1 };
  private readonly identity = mat4.create();
  /** Technique options of the frame being drawn (reused object). */
  private readonly techniqueOptions = { influences: 4, palette: 12 };

  constructor(readonly gl: WebGL2RenderingContext) {
    this.programs = new ProgramCache(gl);
    this.caps = {
      maxUniformBlockSize: gl.getParameter(gl.MAX_UNIFORM_BLOCK_SIZE) as number,
      maxVertexUniformVectors: gl.getParameter(gl.MAX_VERTEX_UNIFORM_VECTORS) as number,
      maxTextureSize: gl.getParameter(gl.MAX_TEXTURE_SIZE) as number,
    };
    const dbg = gl.getExtension('WEBGL_debug_renderer_info');
    this.rendererName = String(gl.getParameter(dbg ? dbg.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    this.white = solidTexture(gl, [255, 255, 255, 255]);
    this.lines = this.programs.get('lines.vert', 'lines.frag');
    this.linesFrame = new UniformBinding(this.lines, this.frameUniforms);
    this.linesStyle = new UniformBinding(this.lines, this.lineUniforms);
  }

  private readonly lines: twgl.ProgramInfo;
  private readonly linesFrame: UniformBinding<Renderer['frameUniforms']>;
  private readonly linesStyle: UniformBinding<Renderer['lineUniforms']>;

  /** Compiles the technique's variants for a scene up front so the first frame (and a switch) is a program swap. */
  warm(model: ModelGpu, technique: Technique, influences: number, palette: number, morphs: MorphPath = 'slots'): void {
    this.variant(0, model, technique, influences, palette, 'shaded', morphs);
  }

  /** The technique's define set plus the morph path's (morph-runtime.ts morphDefines). */
  private programDefines(model: ModelGpu, technique: Technique, influences: number, palette: number, morphs: MorphPath): { defines: Defines; gpuMorph: boolean } {
    const o = this.techniqueOptions;
    o.influences = influences;
    o.palette = palette;
    const defines = technique.defines(model.scene, this.caps, o);
    const extra = morphDefines(model.scene, morphs, defines.NO_SKIN === true);
    return extra ? { defines: { ...defines, ...extra }, gpuMorph: true } : { defines, gpuMorph: false };
  }

  // Program variants per slot (0: the chosen technique in the view's colouring; 1: the diff view's software
  // reference) and their uniform bindings; re-resolved only when (model, technique, influences, palette,
  // colouring) of the slot changes.
  private readonly variants: (Variant | null)[] = [null, null];

  private variant(slot: number, model: ModelGpu, technique: Technique, influences: number, palette: number, surface: SurfaceView, morphs: MorphPath): Variant {
    const c = this.variants[slot];
    if (c && c.model === model && c.technique === technique && c.influences === influences && c.palette === palette && c.surface === surface && c.morphs === morphs) return c;
    const { defines, gpuMorph } = this.programDefines(model, technique, influences, palette, morphs);
    const lit = this.programs.get('skinned.vert', 'lit.frag', surfaceDefines(defines, surface));
    const flat = this.programs.get('skinned.vert', 'flat.frag', defines);
    const group = technique.groupUniform;
    const v: Variant = {
      model,
      technique,
      influences,
      palette,
      surface,
      morphs,
      gpuMorph,
      litMorph: gpuMorph ? morphLocations(this.gl, lit.program) : null,
      flatMorph: gpuMorph ? morphLocations(this.gl, flat.program) : null,
      lit,
      flat,
      litFrame: new UniformBinding(lit, this.frameUniforms),
      litMaterial: new UniformBinding(lit, this.materialUniforms),
      litView: new UniformBinding(lit, this.viewUniforms),
      flatFrame: new UniformBinding(flat, this.frameUniforms),
      flatColour: new UniformBinding(flat, this.flatUniforms),
      litGroup: group ? this.gl.getUniformLocation(lit.program, group) : null,
      flatGroup: group ? this.gl.getUniformLocation(flat.program, group) : null,
    };
    this.variants[slot] = v;
    return v;
  }

  /** The technique's mesh state for the model under these options (built on first use). */
  techniqueMeshes(model: ModelGpu, technique: Technique, influences: number, palette: number): TechniqueMesh[] {
    const o = this.techniqueOptions;
    o.influences = influences;
    o.palette = palette;
    return model.techniqueMeshesFor(technique, this.caps, o);
  }

  /** Clears the bound framebuffer (the canvas or a diff target) to the background colour (also what is drawn while no model is loaded). */
  clear(): void {
    const gl = this.gl;
    gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
    gl.clearColor(0.105, 0.115, 0.135, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
  }

  render(model: ModelGpu, player: AnimPlayer, camera: OrbitCamera, opts: RenderOptions, out: FrameFigures): void {
    if (opts.crowd > 1) {
      this.renderCrowd(model, player, camera, opts, out);
      return;
    }
    out.crowd = 1;
    out.crowdPoseUs = 0;
    // A crowd state of a model no longer drawn is released (its model may be disposed already).
    if (this.crowdModel && this.crowdModelOf !== model) this.releaseCrowd();
    this.forgetVariantsOf(model);
    const gl = this.gl;
    out.drawCalls = 0;
    out.meshDrawCalls = 0;
    out.uploadBytes = 0;
    out.groups = 0;
    out.duplicatedVertices = 0;
    out.vertexBytes = 0;
    out.approximatedTriangles = 0;
    out.unrepresentableScale = 0;
    const fu = this.frameUniforms;
    fu.u_viewProj = camera.viewProj;
    fu.u_cameraPos = camera.position;
    const pose: PoseSource = opts.bindPose ? model.bindPose : player;

    const technique = opts.technique;
    const surface = surfaceView(opts.view);
    const v = this.variant(0, model, technique, opts.influences, opts.palette, surface, opts.morphs);
    const tmeshes = this.techniqueMeshes(model, technique, opts.influences, opts.palette);
    const t0 = performance.now();
    const morph = model.morph;
    morph?.prepare(opts.morphs, player.morphWeights, tmeshes, v.gpuMorph);
    for (let i = 0; i < tmeshes.length; i++) {
      const tm = tmeshes[i]!;
      out.uploadBytes += tm.update(pose);
      out.groups += tm.cost.groups;
      out.duplicatedVertices += tm.cost.duplicatedVertices;
      out.vertexBytes += tm.cost.vertexBytes;
      out.approximatedTriangles += tm.cost.approximatedTriangles;
      if (tm.unrepresentableScale > out.unrepresentableScale) out.unrepresentableScale = tm.unrepresentableScale;
    }
    out.skinUs = (performance.now() - t0) * 1000;
    if (surface === 'weights' || surface === 'influences') {
      const meshes = model.scene.meshes;
      for (let i = 0; i < tmeshes.length; i++) model.viewData.prepare(tmeshes[i]!, meshes[i]!, opts.bone, opts.influences);
    }

    if (opts.view === 'diff') {
      // The reference first, into its own target, then the technique into another; the canvas gets the composite.
      // The reference is software with every influence (MAX_INFLUENCES), so truncation shows as well as the technique's own error.
      const dv = (this.diff ??= new DiffView(gl));
      dv.resize(gl.drawingBufferWidth, gl.drawingBufferHeight);
      const reference = software;
      const rv = this.variant(1, model, reference, MAX_INFLUENCES, opts.palette, 'shaded', opts.morphs);
      const rmeshes = this.techniqueMeshes(model, reference, MAX_INFLUENCES, opts.palette);
      if (rmeshes !== tmeshes) {
        // The reference morphs on the CPU with the same path's weights: the diff shows skinning differences.
        morph?.prepare(opts.morphs, player.morphWeights, rmeshes, false);
        for (let i = 0; i < rmeshes.length; i++) rmeshes[i]!.update(pose);
      }
      gl.bindFramebuffer(gl.FRAMEBUFFER, dv.reference.framebuffer);
      this.drawScene(model, rv, rmeshes, opts, out, false);
      if (rmeshes !== tmeshes) morph?.prepare(opts.morphs, player.morphWeights, tmeshes, v.gpuMorph);
      gl.bindFramebuffer(gl.FRAMEBUFFER, dv.image.framebuffer);
      this.drawScene(model, v, tmeshes, opts, out, true);
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
      dv.composite();
      out.drawCalls++;
      const sig = this.diffSignature;
      sig[0] = TECHNIQUE_IDS.indexOf(technique.id);
      sig[1] = opts.influences;
      sig[2] = opts.palette;
      sig[3] = opts.bindPose ? 1 : 0;
      sig[4] = player.time;
      sig[5] = gl.drawingBufferWidth * 65536 + gl.drawingBufferHeight;
      sig[6] = opts.grid ? 1 : 0;
      for (let i = 0; i < 16; i++) sig[7 + i] = camera.viewProj[i]!;
      if (this.diffSchedule.due(sig)) dv.count();
      out.diffPixels = dv.differing;
      out.diffShare = dv.share;
    } else {
      this.diffSchedule.reset();
      out.diffPixels = -1;
      out.diffShare = -1;
      this.drawScene(model, v, tmeshes, opts, out, true);
    }

    // Skeleton (bones and joints) on top of everything, in the pose drawn.
    if (opts.skeleton || opts.view === 'skeleton') {
      gl.useProgram(this.lines.program);
      this.linesFrame.apply();
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      this.fillBoneLines(model, opts.bindPose ? model.bindPose.model : player.model, opts.view === 'weights' ? opts.bone : -1);
      model.uploadBoneLines();
      gl.disable(gl.DEPTH_TEST);
      gl.bindVertexArray(model.boneVao);
      this.lineUniforms.u_round = 0;
      this.linesStyle.apply();
      gl.drawArrays(gl.LINES, 0, model.boneLines.length / 7);
      this.lineUniforms.u_round = 1;
      this.lineUniforms.u_pointSize = Math.max(4, 6 * (gl.drawingBufferHeight / 800));
      this.linesStyle.apply();
      gl.drawArrays(gl.POINTS, 0, model.boneLines.length / 7);
      out.drawCalls += 2;
      gl.enable(gl.DEPTH_TEST);
    }
    gl.disable(gl.BLEND);
    gl.bindVertexArray(null);
  }

  /**
   * Clears the bound framebuffer and draws the floor, the technique's surfaces in the variant's colouring
   * (ghosted in the skeleton view) and the wireframe view's edges. Technique state is already updated.
   * `meshFigures`: count the draws as the technique's (false for the diff view's reference pass).
   */
  /** Writes material `material` of the model (or its first) into the material uniforms and uploads them through `binding`. No allocation. */
  private applyMaterial(model: ModelGpu, material: number, binding: UniformBinding<Renderer['materialUniforms']>): void {
    const mu = this.materialUniforms;
    const materials = model.scene.materials;
    const mat = materials[material] ?? materials[0]!;
    mu.u_diffuse[0] = mat.diffuse[0];
    mu.u_diffuse[1] = mat.diffuse[1];
    mu.u_diffuse[2] = mat.diffuse[2];
    mu.u_diffuse[3] = mat.diffuse[3];
    mu.u_specular[0] = mat.specular[0];
    mu.u_specular[1] = mat.specular[1];
    mu.u_specular[2] = mat.specular[2];
    mu.u_specPower = mat.specularPower;
    mu.u_diffuseMap = model.textures[material] ?? this.white;
    binding.apply();
  }

  private drawScene(model: ModelGpu, v: Variant, tmeshes: readonly TechniqueMesh[], opts: RenderOptions, out: FrameFigures, meshFigures: boolean): void {
    const gl = this.gl;
    this.clear();
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.disable(gl.CULL_FACE);

    // Floor (grid, then the contact shadow darkening it), blended, depth not written, before the model.
    if (opts.grid) {
      gl.useProgram(this.lines.program);
      this.linesFrame.apply();
      this.lineUniforms.u_round = 0;
      this.linesStyle.apply();
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.depthMask(false);
      gl.bindVertexArray(model.gridVao);
      gl.drawArrays(gl.LINES, 0, model.gridVertexCount);
      gl.bindVertexArray(model.shadowVao);
      gl.drawArrays(gl.TRIANGLE_FAN, 0, model.shadowVertexCount);
      out.drawCalls += 2;
      gl.depthMask(true);
      gl.disable(gl.BLEND);
    }

    // Surfaces: per mesh, the technique's draws; a group's matrices are loaded when the group changes.
    // The groups view numbers groups across meshes: a grouped technique's bone groups, else one per draw (subset).
    const ghost = opts.view === 'skeleton';
    if (ghost) {
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.depthMask(false);
    }
    gl.useProgram(v.lit.program);
    v.litFrame.apply();
    const mu = this.materialUniforms;
    mu.u_alpha = ghost ? 0.3 : 1;
    const groupsView = v.surface === 'groups';
    const dataView = v.surface === 'weights' || v.surface === 'influences';
    const grouped = v.technique.groupUniform !== null;
    const vu = this.viewUniforms;
    let groupBase = 0;
    let drawIndex = 0;
    for (let i = 0; i < tmeshes.length; i++) {
      const tm = tmeshes[i]!;
      tm.bind();
      model.morph?.bindMesh(i, v.litMorph);
      if (dataView) model.viewData.bind(tm);
      gl.bindVertexArray(tm.vao);
      const indexBytes = tm.indexType === gl.UNSIGNED_SHORT ? 2 : 4;
      const draws = tm.draws;
      let group = -1;
      let material = -1;
      for (let d = 0; d < draws.length; d++) {
        const draw = draws[d]!;
        if (draw.group !== group) {
          group = draw.group;
          const bytes = tm.setGroup(group, v.litGroup);
          if (meshFigures) out.uploadBytes += bytes;
        }
        if (draw.material !== material) {
          material = draw.material;
          this.applyMaterial(model, material, v.litMaterial);
        }
        if (groupsView) {
          vu.u_viewGroup = grouped ? groupBase + draw.group : drawIndex;
          v.litView.apply();
        }
        gl.drawElements(gl.TRIANGLES, draw.count, tm.indexType, draw.first * indexBytes);
        drawIndex++;
        out.drawCalls++;
        if (meshFigures) out.meshDrawCalls++;
      }
      groupBase += tm.cost.groups;
    }
    if (ghost) {
      gl.disable(gl.BLEND);
      gl.depthMask(true);
    }

    // Wireframe on top of the shaded surface.
    if (opts.view === 'wireframe') {
      gl.useProgram(v.flat.program);
      v.flatFrame.apply();
      v.flatColour.apply();
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.enable(gl.POLYGON_OFFSET_FILL);
      for (let i = 0; i < tmeshes.length; i++) {
        const tm = tmeshes[i]!;
        tm.bind();
        model.morph?.bindMesh(i, v.flatMorph);
        gl.bindVertexArray(tm.wireVao);
        const indexBytes = tm.indexType === gl.UNSIGNED_SHORT ? 2 : 4;
        const draws = tm.wireDraws;
        for (let d = 0; d < draws.length; d++) {
          const draw = draws[d]!;
          out.uploadBytes += tm.setGroup(draw.group, v.flatGroup);
          gl.drawElements(gl.LINES, draw.count, tm.indexType, draw.first * indexBytes);
          out.drawCalls++;
        }
      }
      gl.disable(gl.POLYGON_OFFSET_FILL);
      gl.disable(gl.BLEND);
    }
    gl.bindVertexArray(null);
  }

  /**
   * Node-to-parent segments from node → model matrices `m` (16 floats per node; translation column = joint
   * position); nodes the overlay leaves out (ModelGpu.boneShown) get alpha 0. Segments touching node `highlight` (the weights view's bone; -1 none) are drawn in cyan.
   */
  private fillBoneLines(model: ModelGpu, m: Float32Array, highlight: number): void {
    const parents = model.scene.skeleton.parents;
    const out = model.boneLines;
    for (let i = 0; i < parents.length; i++) {
      const p = parents[i]!;
      const o = i * 14;
      const shown = model.boneShown[i]!;
      // A root, or a bone whose parent is not drawn: a degenerate segment, just the joint.
      const q = p < 0 || model.boneShown[p] === 0 ? i : p;
      out[o] = m[q * 16 + 12]!;
      out[o + 1] = m[q * 16 + 13]!;
      out[o + 2] = m[q * 16 + 14]!;
      out[o + 7] = m[i * 16 + 12]!;
      out[o + 8] = m[i * 16 + 13]!;
      out[o + 9] = m[i * 16 + 14]!;
      const a = q === i ? 0 : shown;
      out[o + 3] = 1.0;
      out[o + 4] = 0.62;
      out[o + 5] = 0.2;
      out[o + 6] = a;
      out[o + 10] = 1.0;
      out[o + 11] = 0.85;
      out[o + 12] = 0.35;
      out[o + 13] = shown;
      if (highlight >= 0 && (i === highlight || p === highlight)) {
        out[o + 3] = out[o + 10] = 0.2;
        out[o + 4] = out[o + 11] = 0.95;
        out[o + 5] = out[o + 12] = 1.0;
      }
    }
  }

  /**
   * Debug path for tests: skins every vertex of every mesh with `technique` on the GPU and captures the
   * model-space positions (v_worldPos) and tangents (v_tangent; u_world = identity) with transform feedback
   * into separate buffers, one point per technique vertex, group by group. Allocates (buffers, arrays): not
   * for the frame loop.
   */
  readbackSkin(model: ModelGpu, player: AnimPlayer, technique: Technique, influences: number, palette: number, morphs: MorphPath = 'slots'): SkinReadback[] {
    const gl = this.gl;
    const { defines, gpuMorph } = this.programDefines(model, technique, influences, palette, morphs);
    const program = this.programs.get('skinned.vert', 'flat.frag', defines, ['v_worldPos', 'v_tangent']);
    const groupLoc = technique.groupUniform ? gl.getUniformLocation(program.program, technique.groupUniform) : null;
    const tmeshes = this.techniqueMeshes(model, technique, influences, palette);
    const morphLocs = gpuMorph ? morphLocations(gl, program.program) : null;
    model.morph?.prepare(morphs, player.morphWeights, tmeshes, gpuMorph);
    gl.useProgram(program.program);
    new UniformBinding(program, this.frameUniforms).apply();
    const tf = gl.createTransformFeedback();
    const results: SkinReadback[] = [];
    gl.enable(gl.RASTERIZER_DISCARD);
    for (let i = 0; i < tmeshes.length; i++) {
      const tm = tmeshes[i]!;
      tm.update(player);
      tm.bind();
      model.morph?.bindMesh(i, morphLocs);
      const buffer = gl.createBuffer();
      gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, buffer);
      gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, tm.vertexCount * 12, gl.STATIC_READ);
      const tangentBuffer = gl.createBuffer();
      gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, tangentBuffer);
      gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, tm.vertexCount * 16, gl.STATIC_READ);
      gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
      gl.bindVertexArray(tm.vao);
      gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, tf);
      gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
      gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 1, tangentBuffer);
      gl.beginTransformFeedback(gl.POINTS);
      for (const p of tm.points) {
        tm.setGroup(p.group, groupLoc);
        gl.drawArrays(gl.POINTS, p.first, p.count);
      }
      gl.endTransformFeedback();
      gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
      gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 1, null);
      gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
      gl.bindVertexArray(null);
      const positions = new Float32Array(tm.vertexCount * 3);
      const tangents = new Float32Array(tm.vertexCount * 4);
      gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, buffer);
      gl.getBufferSubData(gl.TRANSFORM_FEEDBACK_BUFFER, 0, positions);
      gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, tangentBuffer);
      gl.getBufferSubData(gl.TRANSFORM_FEEDBACK_BUFFER, 0, tangents);
      gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
      gl.deleteBuffer(buffer);
      gl.deleteBuffer(tangentBuffer);
      results.push({ positions, tangents, sourceVertex: tm.sourceVertex, approximated: tm.approximated });
    }
    gl.disable(gl.RASTERIZER_DISCARD);
    gl.deleteTransformFeedback(tf);
    this.variants[0] = null;
    this.variants[1] = null;
    return results;
  }

  /**
   * Drops program variants bound to a model other than `model` (a replaced, disposed one), so neither slot
   * keeps its scene alive: the diff view's reference slot is otherwise only revisited in the diff view. No allocation.
   */
  private forgetVariantsOf(model: ModelGpu): void {
    const v = this.variants;
    for (let i = 0; i < v.length; i++) if (v[i] && v[i]!.model !== model) v[i] = null;
  }

  /** Frees crowd mode's palette texture (rebuilt on the next crowd frame). */
  releaseCrowd(): void {
    this.crowdModel?.dispose();
    this.crowdModel = null;
    this.crowdModelOf = null;
  }

  /** Crowd mode's per-model state, built the first time the model is drawn as a crowd (allocates; not per frame). */
  crowdFor(model: ModelGpu): CrowdModel {
    if (this.crowdModelOf !== model || !this.crowdModel) {
      this.crowdModel?.dispose();
      this.crowdModel = new CrowdModel(this.gl, model.scene, this.caps.maxTextureSize);
      this.crowdModelOf = model;
      this.crowdDraws = model.scene.meshes.map(subsetDraws);
    }
    return this.crowdModel;
  }

  /** Crowd mode's programs for an influence count (compiled once, cached). */
  private crowdPrograms(influences: number): CrowdVariant {
    const c = this.crowdVariant;
    if (c && c.influences === influences) return c;
    const lit = this.programs.get('skinned.vert', 'lit.frag', { PALETTE_TEXTURE: true, CROWD: true, INFLUENCES: influences });
    const v: CrowdVariant = {
      influences,
      lit,
      litFrame: new UniformBinding(lit, this.frameUniforms),
      litMaterial: new UniformBinding(lit, this.materialUniforms),
      litCrowd: new UniformBinding(lit, this.crowdUniforms),
    };
    this.crowdVariant = v;
    return v;
  }

  /**
   * Crowd mode: `opts.crowd` instances of the model, each at its own phase (crowd.ts), on the crowd grid
   * (crowd-layout.ts). Whatever the technique menu says: the texture palette (every instance's palettes in
   * one RGBA32F texture, one upload per frame) and one drawElementsInstanced per subset, so the draw count
   * does not depend on N: the floor grid (1) and one per subset. No contact shadows: on SwiftShader N blended
   * shadow fans cost as much as the figures themselves. The
   * shaded view only (other views and the skeleton overlay are not drawn); morph targets are not applied.
   */
  renderCrowd(model: ModelGpu, player: AnimPlayer, camera: OrbitCamera, opts: RenderOptions, out: FrameFigures): void {
    const gl = this.gl;
    out.drawCalls = 0;
    out.meshDrawCalls = 0;
    out.groups = 1;
    out.duplicatedVertices = 0;
    out.vertexBytes = 0;
    out.approximatedTriangles = 0;
    out.unrepresentableScale = 0;
    out.diffPixels = -1;
    out.diffShare = -1;
    this.diffSchedule.reset();
    const fu = this.frameUniforms;
    fu.u_viewProj = camera.viewProj;
    fu.u_cameraPos = camera.position;
    this.forgetVariantsOf(model);
    const crowd = this.crowdFor(model);
    const count = crowd.fit(opts.crowd);
    const t0 = performance.now();
    crowd.pose(player, opts.bindPose ? model.bindPose : null, count);
    const t1 = performance.now();
    crowd.palette.upload(count);
    out.uploadBytes = crowd.palette.lastUploadBytes;
    // Animation (instances 1..N-1 sampled, every palette written) counts as animation; the one upload as the technique's work.
    out.crowdPoseUs = (t1 - t0) * 1000;
    out.skinUs = (performance.now() - t1) * 1000;
    out.crowd = count;
    for (let i = 0; i < model.meshes.length; i++) out.vertexBytes += model.meshes[i]!.vertexBytes;
    const v = this.crowdPrograms(clampInfluences(opts.influences));
    const cu = this.crowdUniforms;
    const grid = crowdGrid(count);
    cu.u_crowdSlots = crowd.slotsPerInstance;
    cu.u_crowdColumns = grid.columns;
    cu.u_crowdRows = grid.rows;
    cu.u_crowdSpacing = opts.crowdSpacing;

    this.clear();
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.disable(gl.CULL_FACE);
    if (opts.grid) {
      gl.useProgram(this.lines.program);
      fu.u_world = opts.crowdFloor;
      this.linesFrame.apply();
      fu.u_world = this.identity;
      this.lineUniforms.u_round = 0;
      this.linesStyle.apply();
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.depthMask(false);
      gl.bindVertexArray(model.gridVao);
      gl.drawArrays(gl.LINES, 0, model.gridVertexCount);
      out.drawCalls++;
      gl.depthMask(true);
      gl.disable(gl.BLEND);
    }

    gl.useProgram(v.lit.program);
    v.litFrame.apply();
    crowd.palette.bind();
    const mu = this.materialUniforms;
    mu.u_alpha = 1;
    for (let i = 0; i < model.meshes.length; i++) {
      const buffers = model.meshes[i]!;
      cu.u_crowdBase = crowd.meshBase[i]!;
      v.litCrowd.apply();
      gl.bindVertexArray(buffers.vao);
      const draws = this.crowdDraws[i]!;
      let material = -1;
      for (let d = 0; d < draws.length; d++) {
        const draw = draws[d]!;
        if (draw.material !== material) {
          material = draw.material;
          this.applyMaterial(model, material, v.litMaterial);
        }
        gl.drawElementsInstanced(gl.TRIANGLES, draw.count, gl.UNSIGNED_INT, draw.first * 4, count);
        out.drawCalls++;
        out.meshDrawCalls++;
      }
    }
    gl.bindVertexArray(null);
  }

  /**
   * Deletes every object the renderer owns (programs, white texture, crowd palette, diff targets) and forgets
   * the variants and crowd state. On a lost context the deletes are no-ops: the handles are just dropped.
   * The renderer is unusable afterwards (the app builds a new one after a context loss).
   */
  dispose(): void {
    this.releaseCrowd();
    this.crowdDraws = [];
    this.crowdVariant = null;
    this.variants[0] = null;
    this.variants[1] = null;
    this.diff?.dispose();
    this.diff = null;
    this.programs.dispose();
    this.gl.deleteTexture(this.white);
  }
}
