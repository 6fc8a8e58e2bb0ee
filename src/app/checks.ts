import type { TangentCheck } from '../render/tangent-check.ts';
import type { AppContext } from './context.ts';
import { morphCheck, skinCheck, tangentCheck, type MorphCheck, type SkinCheck } from './gpu-checks.ts';
import { qualityCheck, type QualityResult } from './quality-check.ts';

/**
 * The measuring hooks `window.skinlab` exposes (docs/api.md#scripting-api): a technique's GPU readback against its CPU
 * reference (gpu-checks.ts) and the artifact figures at the current pose (quality-check.ts). Each reads the
 * app's context when called and owns nothing between calls; the defaults are the state's technique and morph path.
 */
export class Checks {
  constructor(private readonly ctx: AppContext) {}

  /** The technique's transform-feedback positions, normals and tangents against its CPU reference. */
  skinCheck(id: string = this.ctx.state.technique, reference: 'auto' | 'gl-matrix' = 'auto'): SkinCheck {
    return skinCheck(this.ctx, id, reference);
  }

  /** The artifact figures of the technique(s) on screen (or `id`) at the current pose, GPU and CPU. */
  quality(id?: string): QualityResult {
    return qualityCheck(this.ctx, id);
  }

  /** A morph path's transform-feedback positions against the CPU morph + skin. */
  morphCheck(path: string = this.ctx.state.morphs, id: string = this.ctx.state.technique): MorphCheck {
    return morphCheck(this.ctx, path, id);
  }

  /** A morph path's transform-feedback tangents against the CPU. */
  tangentCheck(path: string = this.ctx.state.morphs, id: string = this.ctx.state.technique): TangentCheck {
    return tangentCheck(this.ctx, path, id);
  }
}
