import type { TechniqueMesh } from '../techniques/technique.ts';
import { countMeshPass, type FrameFigures, type RenderOptions } from './frame-types.ts';
import type { LinesPass } from './lines-pass.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { SceneUniforms } from './scene-uniforms.ts';
import type { Variant } from './variants.ts';

/** Rounds of surface draws: every draw; draws of non-blended materials; draws of 'blend' materials. */
const ROUND_ALL = 0;
const ROUND_UNBLENDED = 1;
const ROUND_BLENDED = 2;

/**
 * One picture of a single model into the bound framebuffer (the canvas, or a diff view target): clear,
 * the floor, the technique's surfaces in the variant's colouring (ghosted in the skeleton view) and the
 * wireframe view's edges. With `v.shadows` the floor and the shaded surfaces receive the key light's
 * shadow map (drawn by ShadowPass and bound by the renderer before this pass). The technique state is already updated for the frame (palettes, CPU skinning,
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
    if (opts.grid) this.lines.drawFloor(model, null, true, v.shadows, out);

    // Surfaces: per mesh, the technique's draws; a group's matrices are loaded when the group changes.
    // The groups view numbers groups across meshes: a grouped technique's bone groups, else one per draw (subset).
    // Materials with alphaMode 'blend' (shaded colouring only) are drawn in a second round after every other
    // draw of every mesh, blended over them with depth writes off; the ghost view blends every draw in one round.
    const ghost = opts.view === 'skeleton';
    if (ghost) {
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.depthMask(false);
    }
    gl.useProgram(v.lit.program);
    v.litFrame.apply();
    this.uniforms.material.u_alpha = ghost ? 0.3 : 1;
    const rounds = !ghost && v.surface === 'shaded' && this.uniforms.hasBlended(model);
    this.drawSurfaces(model, v, tmeshes, out, meshFigures, rounds ? ROUND_UNBLENDED : ROUND_ALL);
    if (rounds) {
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.depthMask(false);
      this.drawSurfaces(model, v, tmeshes, out, meshFigures, ROUND_BLENDED);
    }
    if (ghost || rounds) {
      gl.disable(gl.BLEND);
      gl.depthMask(true);
    }
    gl.disable(gl.CULL_FACE);
    if (meshFigures) countMeshPass(out, v.technique, tmeshes);
    if (opts.view === 'wireframe') {
      this.drawWireframe(model, v, tmeshes, out);
      if (meshFigures) countMeshPass(out, v.technique, tmeshes);
    }
    gl.bindVertexArray(null);
  }

  /**
   * The technique's draws of every mesh whose material belongs to `round` (ROUND_ALL: every draw). Meshes
   * with no draw in the round are not bound. Draw numbering (the groups view) counts every draw, in or out of
   * the round, so a draw has one colour whichever round draws it.
   */
  private drawSurfaces(model: ModelGpu, v: Variant, tmeshes: readonly TechniqueMesh[], out: FrameFigures, meshFigures: boolean, round: number): void {
    const gl = this.gl;
    const uniforms = this.uniforms;
    const groupsView = v.surface === 'groups';
    const dataView = v.surface === 'weights' || v.surface === 'influences' || v.surface === 'distortion';
    const grouped = v.technique.groupUniform !== null;
    const vu = uniforms.view;
    let groupBase = 0;
    let drawIndex = 0;
    for (let i = 0; i < tmeshes.length; i++) {
      const tm = tmeshes[i]!;
      const indexBytes = tm.indexType === gl.UNSIGNED_SHORT ? 2 : 4;
      const draws = tm.draws;
      let bound = false;
      let group = -1;
      let material = -1;
      for (let d = 0; d < draws.length; d++, drawIndex++) {
        const draw = draws[d]!;
        if (round !== ROUND_ALL && (uniforms.blends(model, draw.material) ? ROUND_BLENDED : ROUND_UNBLENDED) !== round) continue;
        if (!bound) {
          bound = true;
          tm.bind();
          model.morph?.bindMesh(i, v.litMorph);
          if (dataView) model.viewData.bind(tm);
          model.vertexColours.bind(tm, model.scene.meshes[i]!);
          if (v.litTangentFrame) gl.uniform1f(v.litTangentFrame, model.scene.meshes[i]!.tangents ? 1 : 0);
          gl.bindVertexArray(tm.vao);
        }
        if (draw.group !== group) {
          group = draw.group;
          const bytes = tm.setGroup(group, v.litGroup);
          if (meshFigures) out.uploadBytes += bytes;
        }
        if (draw.material !== material) {
          material = draw.material;
          uniforms.applyMaterial(model, material, v.litMaterial);
        }
        if (groupsView) {
          vu.u_viewGroup = grouped ? groupBase + draw.group : drawIndex;
          v.litView.apply();
        }
        gl.drawElements(gl.TRIANGLES, draw.count, tm.indexType, draw.first * indexBytes);
        out.drawCalls++;
        if (meshFigures) out.meshDrawCalls++;
      }
      groupBase += tm.cost.groups;
    }
  }

  /** Wireframe on top of the shaded surface: every technique draw's edges, blended, polygon offset on. */
  private drawWireframe(model: ModelGpu, v: Variant, tmeshes: readonly TechniqueMesh[], out: FrameFigures): void {
    const gl = this.gl;
    const flat = v.flat();
    gl.useProgram(flat.info.program);
    flat.frame.apply();
    flat.colour.apply();
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    gl.enable(gl.POLYGON_OFFSET_FILL);
    for (let i = 0; i < tmeshes.length; i++) {
      const tm = tmeshes[i]!;
      tm.bind();
      model.morph?.bindMesh(i, flat.morph);
      model.vertexColours.bind(tm, model.scene.meshes[i]!);
      // Read first: the first read builds the mesh's edges and gives wireVao its elements.
      const draws = tm.wireDraws;
      gl.bindVertexArray(tm.wireVao);
      const indexBytes = tm.indexType === gl.UNSIGNED_SHORT ? 2 : 4;
      for (let d = 0; d < draws.length; d++) {
        const draw = draws[d]!;
        out.uploadBytes += tm.setGroup(draw.group, flat.group);
        gl.drawElements(gl.LINES, draw.count, tm.indexType, draw.first * indexBytes);
        out.drawCalls++;
      }
    }
    gl.disable(gl.POLYGON_OFFSET_FILL);
    gl.disable(gl.BLEND);
  }
}
