import { mat4, vec3 } from 'gl-matrix';
import * as twgl from 'twgl.js';
import type { AnimPlayer } from '../anim/player.ts';
import { ProgramCache } from '../gpu/programs.ts';
import { solidTexture } from '../gpu/textures.ts';
import { UniformBinding } from '../gpu/uniforms.ts';
import type { DeviceCaps, Technique, TechniqueMesh } from '../techniques/technique.ts';
import type { OrbitCamera } from './camera.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { ViewId } from './views.ts';


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
  };
}

/** Transform-feedback readback of one mesh: skinned model-space positions per technique vertex. */
export interface SkinReadback {
  readonly positions: Float32Array;
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
  warm(model: ModelGpu, technique: Technique, influences: number, palette: number): void {
    this.variant(model, technique, influences, palette);
  }

  // The programs of the last (model, technique, influences, palette) and their uniform bindings; re-resolved
  // only when one of them changes.
  private current: {
    model: ModelGpu | null;
    technique: Technique | null;
    influences: number;
    palette: number;
    lit: twgl.ProgramInfo;
    flat: twgl.ProgramInfo;
    litFrame: UniformBinding<Renderer['frameUniforms']>;
    litMaterial: UniformBinding<Renderer['materialUniforms']>;
    flatFrame: UniformBinding<Renderer['frameUniforms']>;
    flatColour: UniformBinding<Renderer['flatUniforms']>;
    /** The technique's per-draw group uniform in each program (null when it has none). */
    litGroup: WebGLUniformLocation | null;
    flatGroup: WebGLUniformLocation | null;
  } | null = null;

  private variant(model: ModelGpu, technique: Technique, influences: number, palette: number): NonNullable<Renderer['current']> {
    const c = this.current;
    if (c && c.model === model && c.technique === technique && c.influences === influences && c.palette === palette) return c;
    const o = this.techniqueOptions;
    o.influences = influences;
    o.palette = palette;
    const defines = technique.defines(model.scene, this.caps, o);
    const lit = this.programs.get('skinned.vert', 'lit.frag', defines);
    const flat = this.programs.get('skinned.vert', 'flat.frag', defines);
    const group = technique.groupUniform;
    this.current = {
      model,
      technique,
      influences,
      palette,
      lit,
      flat,
      litFrame: new UniformBinding(lit, this.frameUniforms),
      litMaterial: new UniformBinding(lit, this.materialUniforms),
      flatFrame: new UniformBinding(flat, this.frameUniforms),
      flatColour: new UniformBinding(flat, this.flatUniforms),
      litGroup: group ? this.gl.getUniformLocation(lit.program, group) : null,
      flatGroup: group ? this.gl.getUniformLocation(flat.program, group) : null,
    };
    return this.current;
  }

  /** The technique's mesh state for the model under these options (built on first use). */
  techniqueMeshes(model: ModelGpu, technique: Technique, influences: number, palette: number): TechniqueMesh[] {
    const o = this.techniqueOptions;
    o.influences = influences;
    o.palette = palette;
    return model.techniqueMeshesFor(technique, this.caps, o);
  }

  /** Clears to the background colour (also what is drawn while no model is loaded). */
  clear(): void {
    const gl = this.gl;
    gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
    gl.clearColor(0.105, 0.115, 0.135, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
  }

  render(model: ModelGpu, player: AnimPlayer, camera: OrbitCamera, opts: RenderOptions, out: FrameFigures): void {
    const gl = this.gl;
    out.drawCalls = 0;
    out.meshDrawCalls = 0;
    out.uploadBytes = 0;
    out.groups = 0;
    out.duplicatedVertices = 0;
    out.vertexBytes = 0;
    out.approximatedTriangles = 0;
    out.unrepresentableScale = 0;
    this.clear();
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.disable(gl.CULL_FACE);

    const fu = this.frameUniforms;
    fu.u_viewProj = camera.viewProj;
    fu.u_cameraPos = camera.position;

    const technique = opts.technique;
    const v = this.variant(model, technique, opts.influences, opts.palette);
    const lit = v.lit;
    const tmeshes = this.techniqueMeshes(model, technique, opts.influences, opts.palette);
    const t0 = performance.now();
    for (let i = 0; i < tmeshes.length; i++) {
      const tm = tmeshes[i]!;
      out.uploadBytes += tm.update(player);
      out.groups += tm.cost.groups;
      out.duplicatedVertices += tm.cost.duplicatedVertices;
      out.vertexBytes += tm.cost.vertexBytes;
      out.approximatedTriangles += tm.cost.approximatedTriangles;
      if (tm.unrepresentableScale > out.unrepresentableScale) out.unrepresentableScale = tm.unrepresentableScale;
    }
    out.skinUs = (performance.now() - t0) * 1000;

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
    const ghost = opts.view === 'skeleton';
    if (ghost) {
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.depthMask(false);
    }
    gl.useProgram(lit.program);
    v.litFrame.apply();
    const mu = this.materialUniforms;
    mu.u_alpha = ghost ? 0.3 : 1;
    const scene = model.scene;
    for (let i = 0; i < tmeshes.length; i++) {
      const tm = tmeshes[i]!;
      tm.bind();
      gl.bindVertexArray(tm.vao);
      const indexBytes = tm.indexType === gl.UNSIGNED_SHORT ? 2 : 4;
      const draws = tm.draws;
      let group = -1;
      let material = -1;
      for (let d = 0; d < draws.length; d++) {
        const draw = draws[d]!;
        if (draw.group !== group) {
          group = draw.group;
          out.uploadBytes += tm.setGroup(group, v.litGroup);
        }
        if (draw.material !== material) {
          material = draw.material;
          const mat = scene.materials[material] ?? scene.materials[0]!;
          mu.u_diffuse[0] = mat.diffuse[0];
          mu.u_diffuse[1] = mat.diffuse[1];
          mu.u_diffuse[2] = mat.diffuse[2];
          mu.u_diffuse[3] = mat.diffuse[3];
          mu.u_specular[0] = mat.specular[0];
          mu.u_specular[1] = mat.specular[1];
          mu.u_specular[2] = mat.specular[2];
          mu.u_specPower = mat.specularPower;
          mu.u_diffuseMap = model.textures[material] ?? this.white;
          v.litMaterial.apply();
        }
        gl.drawElements(gl.TRIANGLES, draw.count, tm.indexType, draw.first * indexBytes);
        out.drawCalls++;
        out.meshDrawCalls++;
      }
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

    // Skeleton on top of everything.
    if (opts.skeleton || opts.view === 'skeleton') {
      gl.useProgram(this.lines.program);
      this.linesFrame.apply();
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      this.fillBoneLines(model, player);
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

  /** Node-to-parent segments from the player's model matrices (translation column = joint position). */
  private fillBoneLines(model: ModelGpu, player: AnimPlayer): void {
    const parents = model.scene.skeleton.parents;
    const m = player.model;
    const out = model.boneLines;
    for (let i = 0; i < parents.length; i++) {
      const p = parents[i]!;
      const o = i * 14;
      const q = p < 0 ? i : p;
      out[o] = m[q * 16 + 12]!;
      out[o + 1] = m[q * 16 + 13]!;
      out[o + 2] = m[q * 16 + 14]!;
      out[o + 7] = m[i * 16 + 12]!;
      out[o + 8] = m[i * 16 + 13]!;
      out[o + 9] = m[i * 16 + 14]!;
      const a = p < 0 ? 0 : 1;
      out[o + 3] = 1.0;
      out[o + 4] = 0.62;
      out[o + 5] = 0.2;
      out[o + 6] = a;
      out[o + 10] = 1.0;
      out[o + 11] = 0.85;
      out[o + 12] = 0.35;
      out[o + 13] = 1;
    }
  }

  /**
   * Debug path for tests: skins every vertex of every mesh with `technique` on the GPU and captures the
   * model-space positions (v_worldPos, u_world = identity) with transform feedback, one point per technique
   * vertex, group by group. Allocates (buffers, arrays): not for the frame loop.
   */
  readbackSkin(model: ModelGpu, player: AnimPlayer, technique: Technique, influences: number, palette: number): SkinReadback[] {
    const gl = this.gl;
    const o = this.techniqueOptions;
    o.influences = influences;
    o.palette = palette;
    const defines = technique.defines(model.scene, this.caps, o);
    const program = this.programs.get('skinned.vert', 'flat.frag', defines, ['v_worldPos']);
    const groupLoc = technique.groupUniform ? gl.getUniformLocation(program.program, technique.groupUniform) : null;
    const tmeshes = this.techniqueMeshes(model, technique, influences, palette);
    gl.useProgram(program.program);
    new UniformBinding(program, this.frameUniforms).apply();
    const tf = gl.createTransformFeedback();
    const results: SkinReadback[] = [];
    gl.enable(gl.RASTERIZER_DISCARD);
    for (const tm of tmeshes) {
      tm.update(player);
      tm.bind();
      const buffer = gl.createBuffer();
      gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, buffer);
      gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, tm.vertexCount * 12, gl.STATIC_READ);
      gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
      gl.bindVertexArray(tm.vao);
      gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, tf);
      gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
      gl.beginTransformFeedback(gl.POINTS);
      for (const p of tm.points) {
        tm.setGroup(p.group, groupLoc);
        gl.drawArrays(gl.POINTS, p.first, p.count);
      }
      gl.endTransformFeedback();
      gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
      gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
      gl.bindVertexArray(null);
      const positions = new Float32Array(tm.vertexCount * 3);
      gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, buffer);
      gl.getBufferSubData(gl.TRANSFORM_FEEDBACK_BUFFER, 0, positions);
      gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
      gl.deleteBuffer(buffer);
      results.push({ positions, sourceVertex: tm.sourceVertex, approximated: tm.approximated });
    }
    gl.disable(gl.RASTERIZER_DISCARD);
    gl.deleteTransformFeedback(tf);
    this.current = null;
    return results;
  }

  dispose(): void {
    this.programs.dispose();
    this.gl.deleteTexture(this.white);
  }
}
