import { mat4 } from 'gl-matrix';
import { crowdHalfExtent, crowdSpacing } from '../render/crowd-layout.ts';
import type { RenderOptions } from '../render/frame-types.ts';
import type { LoadedModel } from './loaded-model.ts';

/**
 * Crowd layout for the app: the grid spacing from the model's footprint, the crowd's half extents (which
 * the camera frames), the floor scaled about the model to reach past the crowd's edge, and the stats label.
 * Recomputed only when the crowd size or the model changes (update() says so); writes the spacing and
 * floor into the render options it is given. Never per frame; no GL.
 */
export class CrowdPlacement {
  /** Half extents of the crowd grid in x and z (model units). */
  readonly extent = [0, 0];
  /** "crowd N (instanced, texture palette)", rebuilt when N changes (no per-frame string). */
  label = '';
  private count = 1;
  private model: LoadedModel | null = null;

  /** Lays out `n` instances of `model` if either changed; returns true when it did (the camera may re-frame). */
  update(model: LoadedModel, n: number, o: RenderOptions): boolean {
    if (this.count === n && this.model === model) return false;
    const f = model.framing;
    o.crowdSpacing = crowdSpacing(f.min, f.max);
    crowdHalfExtent(n, o.crowdSpacing, this.extent);
    // gridLines (model-gpu.ts) reaches about 2.5 radii from the centre: scale it to reach past the crowd's edge.
    const scale = Math.max(1, (Math.max(this.extent[0]!, this.extent[1]!) + 2 * f.radius) / (2.5 * f.radius));
    const m = o.crowdFloor;
    mat4.fromTranslation(m, [f.centre[0], 0, f.centre[2]]);
    mat4.scale(m, m, [scale, 1, scale]);
    mat4.translate(m, m, [-f.centre[0], 0, -f.centre[2]]);
    this.label = `crowd ${n} (instanced, texture palette)`;
    const sameModel = this.model === model;
    this.count = n;
    this.model = model;
    return sameModel;
  }
}
