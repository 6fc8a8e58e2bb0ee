import type { TechniqueMesh } from '../techniques/technique.ts';
import type { FrameFigures, RenderOptions } from './frame-types.ts';
import type { LinesPass } from './lines-pass.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { SceneUniforms } from './scene-uniforms.ts';
import type { Variant } from './variants.ts';

/**
 * One picture of a single model into the bound framebuffer (the canvas, or a diff view target): clear,
 * the floor, the technique's surfaces in the variant's colouring (ghosted in the skeleton view) and the
 * wireframe view's edges. The technique state is already updated for the frame (palettes, CPU skinning,
 * morph inputs); this pass only binds and draws. Owns nothing. No allocation.
 */
export class SurfacePass {
  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly uniforms: SceneUniforms,
    private readonly lines: LinesPass,
    private readonly clear: () => void,
  ) {}

  /** `meshFigures`: count the draws and uploads as the technique's (false for the diff view's reference pass). */
  draw(model: ModelGpu, v: Variant, tmeshes: readonly TechniqueMesh[], opts: RenderOptions, out: FrameFigures, meshFigures: boolean): void {
    const gl = this.gl;
    this.clear();
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.disable(gl.CULL_FACE);
    if (opts.grid) this.lines.drawFloor(model, null, true, out);

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
    const mu = this.uniforms.material;
    mu.u_alpha = ghost ? 0.3 : 1;
    const groupsView = v.surface === 'groups';
    const dataView = v.surface === 'weights' || v.surface === 'influences';
    const grouped = v.technique.groupUniform !== null;
    const vu = this.uniforms.view;
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
          this.uniforms.applyMaterial(model, material, v.litMaterial);
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
    if (opts.view === 'wireframe') this.drawWireframe(model, v, tmeshes, out);
    gl.bindVertexArray(null);
  }

  /** Wireframe on top of the shaded surface: every technique draw's edges, blended, polygon offset on. */
  private drawWireframe(model: ModelGpu, v: Variant, tmeshes: readonly TechniqueMesh[], out: FrameFigures): void {
    const gl = this.gl;
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
}
