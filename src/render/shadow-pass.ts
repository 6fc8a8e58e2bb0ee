import type { TechniqueMesh } from '../techniques/technique.ts';
import { countMeshPass, type FrameFigures } from './frame-types.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { SceneUniforms } from './scene-uniforms.ts';
import type { ShadowMap } from './shadow-map.ts';
import type { Variant } from './variants.ts';

/**
 * The key light's caster pass for a single model: the light frustum fitted to the model's framing box (the
 * union of its posed bounds over every clip, its floor included: ModelGpu.framing), then every draw of the
 * technique's meshes into the shadow map with the variant's caster program: the technique's own define set
 * (so each technique casts with its own skinning — a technique that skins once draws its skinned buffers as
 * static geometry — and each morph path with its own morphing) and lit.frag's depth-only path. The binding
 * follows the technique drawing contract exactly as SurfacePass does: bind(), the morph inputs, the vao,
 * setGroup() whenever a draw's group changes, the material (culling, alpha cut-outs). Owns nothing. No allocation.
 */

const _min = new Float32Array(3);
const _max = new Float32Array(3);

export class ShadowPass {
  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly uniforms: SceneUniforms,
    private readonly map: ShadowMap,
  ) {}

  /**
   * Fits the light frustum to `model` and points the frame uniforms at the map (shadowMatrix, params); no
   * drawing. The frustum depends on the model and the light only.
   */
  fit(model: ModelGpu): void {
    const f = model.framing;
    for (let k = 0; k < 3; k++) {
      _min[k] = f.min[k]!;
      _max[k] = f.max[k]!;
    }
    _min[1] = Math.min(_min[1]!, f.floorY);
    this.fitBox(_min, _max, true);
  }

  /**
   * Fits the light frustum to a world-space box holding every caster and points the frame uniforms at the map.
   * `framed`: the box is the one the camera frames (a single model), else a crowd's (ShadowMap.fit).
   */
  fitBox(min: ArrayLike<number>, max: ArrayLike<number>, framed: boolean): void {
    const fu = this.uniforms.frame;
    this.map.fit(min, max, fu.u_keyDir, framed);
    fu.u_shadowMatrix = this.map.shadowMatrix;
    fu.u_shadowParams = this.map.params;
  }

  /**
   * Draws the technique's meshes (already updated for the frame) into the shadow map and leaves the default
   * framebuffer bound with the camera's u_viewProj restored (the caller binds its target). `meshFigures`:
   * count the draws, uploads and the pass as the technique's (false for the diff view's reference).
   */
  draw(model: ModelGpu, v: Variant, tmeshes: readonly TechniqueMesh[], out: FrameFigures, meshFigures: boolean): void {
    const caster = v.caster;
    if (!caster) return;
    const gl = this.gl;
    const uniforms = this.uniforms;
    const fu = uniforms.frame;
    const cameraViewProj = fu.u_viewProj;
    this.map.begin();
    gl.useProgram(caster.info.program);
    fu.u_viewProj = this.map.lightViewProj;
    caster.frame.apply();
    fu.u_viewProj = cameraViewProj;
    uniforms.material.u_alpha = 1;
    for (let i = 0; i < tmeshes.length; i++) {
      const tm = tmeshes[i]!;
      const indexBytes = tm.indexType === gl.UNSIGNED_SHORT ? 2 : 4;
      const draws = tm.draws;
      if (draws.length === 0) continue;
      tm.bind();
      model.morph?.bindMesh(i, caster.morph);
      model.vertexColours.bind(tm, model.scene.meshes[i]!);
      gl.bindVertexArray(tm.vao);
      let group = -1;
      let material = -1;
      for (let d = 0; d < draws.length; d++) {
        const draw = draws[d]!;
        if (draw.group !== group) {
          group = draw.group;
          const bytes = tm.setGroup(group, caster.group);
          if (meshFigures) out.uploadBytes += bytes;
        }
        if (draw.material !== material) {
          material = draw.material;
          uniforms.applyMaterial(model, material, caster.material);
        }
        gl.drawElements(gl.TRIANGLES, draw.count, tm.indexType, draw.first * indexBytes);
        out.drawCalls++;
        if (meshFigures) out.meshDrawCalls++;
      }
    }
    gl.bindVertexArray(null);
    this.map.end();
    if (meshFigures) countMeshPass(out, v.technique, tmeshes);
  }
}

/** A world-space box for the caster pass of an instanced crowd: the model's box grown by the crowd's half extents (x, z). */
export function crowdBox(model: ModelGpu, halfX: number, halfZ: number, outMin: Float32Array, outMax: Float32Array): void {
  const f = model.framing;
  outMin[0] = f.min[0]! - halfX;
  outMin[1] = Math.min(f.min[1]!, f.floorY);
  outMin[2] = f.min[2]! - halfZ;
  outMax[0] = f.max[0]! + halfX;
  outMax[1] = f.max[1]!;
  outMax[2] = f.max[2]! + halfZ;
}
