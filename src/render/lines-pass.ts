import type { mat4 } from 'gl-matrix';
import type * as twgl from 'twgl.js';
import type { ProgramCache } from '../gpu/programs.ts';
import { UniformBinding } from '../gpu/uniforms.ts';
import type { PoseSource } from '../techniques/technique.ts';
import type { FrameFigures } from './frame-types.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { SceneUniforms } from './scene-uniforms.ts';
import { bindShadowSampler } from './shadow-map.ts';

/** The floor's shadow-receiving variant of the lines program. */
const RECEIVER = { SHADOW_RECEIVE: true } as const;

/** The lines program and its bindings. */
interface LinesProgram {
  readonly info: twgl.ProgramInfo;
  readonly frame: UniformBinding<SceneUniforms['frame']>;
  readonly style: UniformBinding<SceneUniforms['line']>;
}

/**
 * The line-drawn layers: the floor (grid, the contact shadow fan under a single model, the quad receiving
 * the key light's shadow map) and the
 * skeleton overlay (bones as segments, joints as round points). Owns the lines program's bindings; the
 * program itself belongs to the ProgramCache and the vertex data to the ModelGpu. Draws into whatever
 * framebuffer is bound; counts its draws in the figures. No allocation per frame.
 */
export class LinesPass {
  /** The lines program, asked for at construction and taken on first use (the GPU compiles it meanwhile). */
  private plain: LinesProgram | null = null;
  /** The floor quad's shadow-receiving program (lines.vert/frag with SHADOW_RECEIVE), compiled on first use. */
  private receiver: { info: twgl.ProgramInfo; frame: UniformBinding<SceneUniforms['frame']> } | null = null;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly programs: ProgramCache,
    private readonly uniforms: SceneUniforms,
  ) {
    programs.request('lines.vert', 'lines.frag');
  }

  private program(): LinesProgram {
    if (this.plain) return this.plain;
    const info = this.programs.get('lines.vert', 'lines.frag');
    this.plain = { info, frame: new UniformBinding(info, this.uniforms.frame), style: new UniformBinding(info, this.uniforms.line) };
    return this.plain;
  }

  /**
   * The floor, blended, depth not written, before the model: the grid, transformed by `floor` (null: the
   * model's own frame), then the contact shadow darkening it when `shadow`, then, when `receive`, the floor
   * quad darkened where the key light's shadow map (bound at SHADOW_TEXTURE_UNIT) says the floor is in shadow.
   */
  drawFloor(model: ModelGpu, floor: mat4 | null, shadow: boolean, receive: boolean, out: FrameFigures): void {
    const gl = this.gl;
    const u = this.uniforms;
    const lp = this.program();
    gl.useProgram(lp.info.program);
    if (floor) u.frame.u_world = floor;
    lp.frame.apply();
    u.frame.u_world = u.identity;
    u.line.u_round = 0;
    lp.style.apply();
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    gl.depthMask(false);
    gl.bindVertexArray(model.gridVao);
    gl.drawArrays(gl.LINES, 0, model.gridVertexCount);
    out.drawCalls++;
    if (shadow) {
      gl.bindVertexArray(model.shadowVao);
      gl.drawArrays(gl.TRIANGLE_FAN, 0, model.shadowVertexCount);
      out.drawCalls++;
    }
    if (receive) {
      const r = this.receiverProgram();
      gl.useProgram(r.info.program);
      if (floor) u.frame.u_world = floor;
      r.frame.apply();
      u.frame.u_world = u.identity;
      gl.bindVertexArray(model.floorVao);
      gl.drawArrays(gl.TRIANGLE_FAN, 0, 4);
      out.drawCalls++;
    }
    gl.depthMask(true);
    gl.disable(gl.BLEND);
  }

  /** Starts compiling the floor's shadow-receiving program ahead of its first use (ProgramCache.request). */
  requestReceiver(): void {
    if (!this.receiver) this.programs.request('lines.vert', 'lines.frag', RECEIVER);
  }

  private receiverProgram(): { info: twgl.ProgramInfo; frame: UniformBinding<SceneUniforms['frame']> } {
    if (this.receiver) return this.receiver;
    const info = this.programs.get('lines.vert', 'lines.frag', RECEIVER);
    bindShadowSampler(this.gl, info.program);
    this.receiver = { info, frame: new UniformBinding(info, this.uniforms.frame) };
    return this.receiver;
  }

  /**
   * The tangents view's T/B/N segments (render/tangent-lines.ts) at the model's vertices in `pose`, depth-tested
   * against the surface drawn before. No allocation.
   */
  drawTangentFrames(model: ModelGpu, pose: PoseSource, out: FrameFigures): void {
    const t = model.tangentLines();
    if (t.vertexCount === 0) return;
    t.update(pose);
    const gl = this.gl;
    const u = this.uniforms;
    const lp = this.program();
    gl.useProgram(lp.info.program);
    lp.frame.apply();
    u.line.u_round = 0;
    lp.style.apply();
    gl.bindVertexArray(t.vao);
    gl.drawArrays(gl.LINES, 0, t.vertexCount);
    out.drawCalls++;
  }

  /**
   * The skeleton on top of everything, in the pose of node → model matrices `nodeModel`; segments touching
   * node `highlight` (the weights view's bone, else the bone the user selected; -1 none) in cyan, and its
   * joint drawn larger. Leaves blending on (the caller resets it).
   */
  drawSkeleton(model: ModelGpu, nodeModel: Float32Array, highlight: number, out: FrameFigures): void {
    const gl = this.gl;
    const u = this.uniforms;
    const lp = this.program();
    gl.useProgram(lp.info.program);
    lp.frame.apply();
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    fillBoneLines(model, nodeModel, highlight);
    model.uploadBoneLines();
    gl.disable(gl.DEPTH_TEST);
    gl.bindVertexArray(model.boneVao);
    u.line.u_round = 0;
    lp.style.apply();
    gl.drawArrays(gl.LINES, 0, model.boneLines.length / 7);
    u.line.u_round = 1;
    const size = Math.max(4, 6 * (gl.drawingBufferHeight / 800));
    u.line.u_pointSize = size;
    lp.style.apply();
    gl.drawArrays(gl.POINTS, 0, model.boneLines.length / 7);
    out.drawCalls += 2;
    // The highlighted joint again, larger: a short bone's cyan is hard to see otherwise. Its vertex is the
    // second of its segment (fillBoneLines).
    if (highlight >= 0 && highlight * 2 + 1 < model.boneLines.length / 7) {
      u.line.u_pointSize = size * 2.2;
      lp.style.apply();
      gl.drawArrays(gl.POINTS, highlight * 2 + 1, 1);
      out.drawCalls++;
    }
    gl.enable(gl.DEPTH_TEST);
  }
}

/**
 * Node-to-parent segments from node → model matrices `m` (16 floats per node; translation column = joint
 * position) into model.boneLines (7 floats per vertex: xyz, rgba); nodes the overlay leaves out
 * (ModelGpu.boneShown) get alpha 0. Segments touching node `highlight` (-1 none) are cyan.
 */
function fillBoneLines(model: ModelGpu, m: Float32Array, highlight: number): void {
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
