import { mat4, vec3 } from 'gl-matrix';
import * as twgl from 'twgl.js';
import type { AnimPlayer } from '../anim/player.ts';
import { ProgramCache } from '../gpu/programs.ts';
import { solidTexture } from '../gpu/textures.ts';
import { UniformBinding } from '../gpu/uniforms.ts';
import type { DeviceCaps, Technique } from '../techniques/technique.ts';
import type { OrbitCamera } from './camera.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { ViewId } from './views.ts';


export interface RenderOptions {
  technique: Technique;
  influences: number;
  view: ViewId;
  /** Bone overlay on top of any view. */
  skeleton: boolean;
  /** The floor: grid and contact shadow. */
  grid: boolean;
}

/** Figures of the last frame; written in place by render(). */
export interface FrameFigures {
  drawCalls: number;
  /** Palette bytes uploaded this frame. */
  uploadBytes: number;
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
  warm(model: ModelGpu, technique: Technique, influences: number): void {
    this.variant(model, technique, influences);
  }

  // The programs of the last (model, technique, influences) and their uniform bindings; re-resolved only
  // when one of the three changes.
  private current: {
    model: ModelGpu | null;
    technique: Technique | null;
    influences: number;
    lit: twgl.ProgramInfo;
    flat: twgl.ProgramInfo;
    litFrame: UniformBinding<Renderer['frameUniforms']>;
    litMaterial: UniformBinding<Renderer['materialUniforms']>;
    flatFrame: UniformBinding<Renderer['frameUniforms']>;
    flatColour: UniformBinding<Renderer['flatUniforms']>;
  } | null = null;

  private variant(model: ModelGpu, technique: Technique, influences: number): NonNullable<Renderer['current']> {
    const c = this.current;
    if (c && c.model === model && c.technique === technique && c.influences === influences) return c;
    const defines = technique.defines(model.scene, this.caps, influences);
    const lit = this.programs.get('skinned.vert', 'lit.frag', defines);
    const flat = this.programs.get('skinned.vert', 'flat.frag', defines);
    this.current = {
      model,
      technique,
      influences,
      lit,
      flat,
      litFrame: new UniformBinding(lit, this.frameUniforms),
      litMaterial: new UniformBinding(lit, this.materialUniforms),
      flatFrame: new UniformBinding(flat, this.frameUniforms),
      flatColour: new UniformBinding(flat, this.flatUniforms),
    };
    return this.current;
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
    out.uploadBytes = 0;
    this.clear();
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.disable(gl.CULL_FACE);

    const fu = this.frameUniforms;
    fu.u_viewProj = camera.viewProj;
    fu.u_cameraPos = camera.position;

    const technique = opts.technique;
    const v = this.variant(model, technique, opts.influences);
    const lit = v.lit;
    const tmeshes = model.techniqueMeshesFor(technique, this.caps);
    for (let i = 0; i < tmeshes.length; i++) out.uploadBytes += tmeshes[i]!.update(player);

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

    // Surfaces.
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
    for (let i = 0; i < model.meshes.length; i++) {
      const buffers = model.meshes[i]!;
      tmeshes[i]!.bind();
      gl.bindVertexArray(buffers.vao);
      const subsets = buffers.mesh.subsets;
      for (let s = 0; s < subsets.length; s++) {
        const subset = subsets[s]!;
        if (subset.count === 0) continue;
        const mat = scene.materials[subset.material] ?? scene.materials[0]!;
        mu.u_diffuse[0] = mat.diffuse[0];
        mu.u_diffuse[1] = mat.diffuse[1];
        mu.u_diffuse[2] = mat.diffuse[2];
        mu.u_diffuse[3] = mat.diffuse[3];
        mu.u_specular[0] = mat.specular[0];
        mu.u_specular[1] = mat.specular[1];
        mu.u_specular[2] = mat.specular[2];
        mu.u_specPower = mat.specularPower;
        mu.u_diffuseMap = model.textures[subset.material] ?? this.white;
        v.litMaterial.apply();
        gl.drawElements(gl.TRIANGLES, subset.count * 3, gl.UNSIGNED_INT, subset.start * 12);
        out.drawCalls++;
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
      for (let i = 0; i < model.meshes.length; i++) {
        const buffers = model.meshes[i]!;
        tmeshes[i]!.bind();
        gl.bindVertexArray(buffers.wireVao);
        gl.drawElements(gl.LINES, buffers.edgeCount * 2, gl.UNSIGNED_INT, 0);
        out.drawCalls++;
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

  dispose(): void {
    this.programs.dispose();
    this.gl.deleteTexture(this.white);
  }
}
