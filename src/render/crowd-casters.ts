import type { CrowdInstances } from '../gpu/crowd-instances.ts';
import type { DrawRange } from '../techniques/technique.ts';
import type { CrowdModel } from './crowd.ts';
import type { CrowdLodLevel } from './crowd-lod-level.ts';
import type { CrowdVariant } from './crowd-programs.ts';
import type { FrameFigures } from './frame-types.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { SceneUniforms } from './scene-uniforms.ts';

/** What the caster pass reads of a sub-crowd's state (one object, refilled each frame). */
export interface CrowdCasterInput {
  model: ModelGpu;
  /** The chosen level's crowd state (its palette slots) and draws per mesh. */
  crowd: CrowdModel;
  draws: readonly DrawRange[][];
  /** The lighter levels (level l ≥ 1 is levels[l − 1]). */
  levels: readonly CrowdLodLevel[];
  instances: CrowdInstances;
  /** The palette texture bound for the chosen level (bound again after a level with its own bake). */
  texture: { bind(): void };
}

/**
 * One range of the crowd's shadow caster pass for one model (inside ShadowMap.begin/end, the caster program in
 * use and its frame uniforms applied): instance slots [first, first + slots) drawn at detail level `level`, one
 * drawElementsInstanced per subset (SubCrowd.drawCasters picks the ranges and their levels). Every material
 * casts. A level with its own bake binds it and its block size for its draws. Allocates nothing.
 */
export function drawCrowdCasters(gl: WebGL2RenderingContext, uniforms: SceneUniforms, cu: { u_crowdBase: number; u_crowdSlots: number }, v: CrowdVariant, c: CrowdCasterInput, level: number, first: number, slots: number, out: FrameFigures): void {
  if (slots <= 0) return;
  const lod = level === 0 ? null : c.levels[level - 1]!;
  const own = lod?.bake() ?? null;
  const block = cu.u_crowdSlots;
  if (own) {
    own.bakeTexture!.bind();
    cu.u_crowdSlots = own.bake().slotsPerFrame;
  }
  const crowd = own ?? c.crowd;
  const meshDraws = lod === null ? c.draws : lod.draws;
  for (let i = 0; i < meshDraws.length; i++) {
    const draws = meshDraws[i]!;
    if (draws.length === 0) continue;
    cu.u_crowdBase = crowd.meshBase[i]!;
    v.casterCrowd!.apply();
    c.model.vertexColours.bindMesh(c.instances.levelMesh(level, i));
    gl.bindVertexArray(c.instances.levelVao(level, i, first));
    let material = -1;
    for (let d = 0; d < draws.length; d++) {
      const draw = draws[d]!;
      if (draw.material !== material) {
        material = draw.material;
        uniforms.applyMaterial(c.model, material, v.casterMaterial!);
      }
      gl.drawElementsInstanced(gl.TRIANGLES, draw.count, gl.UNSIGNED_INT, draw.first * 4, slots);
      out.crowdTriangles += (draw.count / 3) * slots;
      out.drawCalls++;
      out.meshDrawCalls++;
    }
  }
  if (own) {
    c.texture.bind();
    cu.u_crowdSlots = block;
  }
}
