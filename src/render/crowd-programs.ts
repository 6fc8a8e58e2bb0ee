import type * as twgl from 'twgl.js';
import type { Defines, ProgramCache } from '../gpu/programs.ts';
import { UniformBinding } from '../gpu/uniforms.ts';
import type { SceneUniforms } from './scene-uniforms.ts';
import { bindShadowSampler } from './shadow-map.ts';

/** Clips the baked path's vertex stage can address (u_bakeClips); a model's later clips draw on the cpu path. */
export const BAKE_CLIPS = 32;

/** The crowd programs' own uniforms (crowd_pars.glsl), one object the pass updates per frame. */
export interface CrowdUniforms {
  u_crowdSlots: number;
  u_crowdBase: number;
  u_crowdTime: number;
  u_crowdBindPose: number;
  /** A mixed crowd's model: uniform scale, then translation (crowd-mix.ts standingTransform); (1, 0, 0, 0) for one model. */
  u_crowdModel: Float32Array;
  /** Per clip (first frame, intervals, duration, intervals per second), BAKE_CLIPS of them. */
  u_bakeClips: Float32Array;
}

/** Crowd mode's programs for one influence count and shadow setting, and their uniform bindings. */
export interface CrowdVariant {
  influences: number;
  shadows: boolean;
  baked: boolean;
  lit: twgl.ProgramInfo;
  litFrame: UniformBinding<SceneUniforms['frame']>;
  litMaterial: UniformBinding<SceneUniforms['material']>;
  litCrowd: UniformBinding<CrowdUniforms>;
  /** The instanced caster program (the crowd's own skinning + lit.frag's depth-only path); null without shadows. */
  caster: twgl.ProgramInfo | null;
  casterFrame: UniformBinding<SceneUniforms['frame']> | null;
  casterMaterial: UniformBinding<SceneUniforms['material']> | null;
  casterCrowd: UniformBinding<CrowdUniforms> | null;
}

/**
 * Compiles (or takes from the cache) crowd mode's programs for an influence count, shadow setting and path
 * (`baked`: the vertex stage blends baked frames; else the cpu path's per-instance palettes) and binds their
 * uniforms. Allocates: once per setting, not per frame.
 */
export function crowdVariant(
  gl: WebGL2RenderingContext,
  programs: ProgramCache,
  u: SceneUniforms,
  crowdUniforms: CrowdUniforms,
  influences: number,
  shadows: boolean,
  baked: boolean,
): CrowdVariant {
  const defines: Defines = baked
    ? { PALETTE_TEXTURE: true, CROWD: true, CROWD_BAKED: true, BAKE_CLIPS, INFLUENCES: influences }
    : { PALETTE_TEXTURE: true, CROWD: true, INFLUENCES: influences };
  const lit = programs.get('skinned.vert', 'lit.frag', shadows ? { ...defines, SHADOW_RECEIVE: true } : defines);
  if (shadows) bindShadowSampler(gl, lit.program);
  const caster = shadows ? programs.get('skinned.vert', 'lit.frag', { ...defines, SHADOW_DEPTH: true }) : null;
  return {
    influences,
    shadows,
    baked,
    lit,
    litFrame: new UniformBinding(lit, u.frame),
    litMaterial: new UniformBinding(lit, u.material),
    litCrowd: new UniformBinding(lit, crowdUniforms),
    caster,
    casterFrame: caster ? new UniformBinding(caster, u.frame) : null,
    casterMaterial: caster ? new UniformBinding(caster, u.material) : null,
    casterCrowd: caster ? new UniformBinding(caster, crowdUniforms) : null,
  };
}
