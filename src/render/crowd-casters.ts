import type { CrowdInstances } from '../gpu/crowd-instances.ts';
import type { DrawRange } from '../techniques/technique.ts';
import type { CrowdModel } from './crowd.ts';
import type { CrowdInstanceData } from './crowd-instance-data.ts';
import type { CrowdLodLevel } from './crowd-lod-level.ts';
import type { CrowdVariant } from './crowd-programs.ts';
import type { FrameFigures } from './frame-types.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { SceneUniforms } from './scene-uniforms.ts';

/** What the caster pass reads of the crowd pass's state (one object, refilled each frame). */
export interface CrowdCasterInput {
  model: ModelGpu;
  /** The chosen level's crowd state (its palette slots) and draws per mesh. */
  crowd: CrowdModel;
  draws: readonly DrawRange[][];
  /** The lighter levels (level l ≥ 1 is levels[l − 1]). */
  levels: readonly CrowdLodLevel[];
  instances: CrowdInstances;
  /** The frame's slots: levelStarts (the live instances by level) and castStarts (the culled ones by level). */
  data: CrowdInstanceData;
  /** The palette texture bound for the chosen level (bound again after a level with its own bake). */
  texture: { bind(): void };
}

/**
 * The crowd's shadow caster pass (inside ShadowMap.begin/end, the caster program in use and its frame
 * uniforms applied): every instance, live or culled, drawn at its own detail level — for each level, one
 * drawElementsInstanced per subset over its live range and one over its culled range (CrowdInstanceData's
 * levelStarts and castStarts; the caster pass is not culled, the light frustum holding the whole crowd). Every
 * material casts. A level with its own bake binds it for its draws. Allocates nothing.
 */
export function drawCrowdCasters(gl: WebGL2RenderingContext, uniforms: SceneUniforms, cu: { u_crowdBase: number }, v: CrowdVariant, c: CrowdCasterInput, out: FrameFigures): void {
  const data = c.data;
  for (let l = 0; l < data.levels; l++) {
    const lod = l === 0 ? null : c.levels[l - 1]!;
    const own = lod?.bake() ?? null;
    if (own) own.bakeTexture!.bind();
    const crowd = own ?? c.crowd;
    const meshDraws = lod === null ? c.draws : lod.draws;
    casterRange(gl, uniforms, cu, v, c, crowd, meshDraws, l, data.levelStarts[l]!, data.levelStarts[l + 1]!, out);
    casterRange(gl, uniforms, cu, v, c, crowd, meshDraws, l, data.castStarts[l]!, data.castStarts[l + 1]!, out);
    if (own) c.texture.bind();
  }
}

function casterRange(
  gl: WebGL2RenderingContext,
  uniforms: SceneUniforms,
  cu: { u_crowdBase: number },
  v: CrowdVariant,
  c: CrowdCasterInput,
  crowd: CrowdModel,
  meshDraws: readonly DrawRange[][],
  level: number,
  first: number,
  end: number,
  out: FrameFigures,
): void {
  const count = end - first;
  if (count <= 0) return;
  for (let i = 0; i < meshDraws.length; i++) {
    const draws = meshDraws[i]!;
    if (draws.length === 0) continue;
    cu.u_crowdBase = crowd.meshBase[i]!;
    v.casterCrowd!.apply();
    gl.bindVertexArray(c.instances.levelVao(level, i, first));
    let material = -1;
    for (let d = 0; d < draws.length; d++) {
      const draw = draws[d]!;
      if (draw.material !== material) {
        material = draw.material;
        uniforms.applyMaterial(c.model, material, v.casterMaterial!);
      }
      gl.drawElementsInstanced(gl.TRIANGLES, draw.count, gl.UNSIGNED_INT, draw.first * 4, count);
      out.crowdTriangles += (draw.count / 3) * count;
      out.drawCalls++;
      out.meshDrawCalls++;
    }
  }
}
