import { mat4 } from 'gl-matrix';
import { analyseWanderGait, wanderHalfExtent } from '../anim/wander-gait.ts';
import { crowdSpacing, layoutHalfExtent } from '../render/crowd-layout.ts';
import { standingTransform } from '../render/crowd-mix.ts';
import { plazaRadius } from '../render/crowd-plaza.ts';
import type { RenderOptions } from '../render/frame-types.ts';
import type { LoadedModel } from './loaded-model.ts';

const _transform = new Float32Array(4);

/**
 * Crowd layout for the app: the grid spacing from the model's footprint, the crowd's half extents (which
 * the camera frames), the floor scaled about the model to reach past the crowd's edge, and the stats label.
 * In wander mode (`o.wander`, set before update) the crowd walks about a square of floor centred on the
 * model's origin (anim/wander.ts, sized by wander-gait.ts from the model's standing footprint and N): the
 * grid spacing is 0 (no grid offset), the half extents reach over that square, and the floor covers it.
 * With `o.crowdLayout` 'plaza' (render/crowd-plaza.ts) the half extents are the plaza's radius (plus the
 * model turning), `plazaEdge` where the automatic camera stands (camera-placement.ts), and the model's own
 * facing (its locomotion's forward, wander-gait.ts; +z when it has none or is not standing on +y) and its
 * framing centre (the pivot it turns about) go into the render options.
 * A mixed crowd's spacing fits the widest of its models as drawn (o.crowdMix, set before update).
 * Recomputed only when the crowd size, the mode, the layout, the model or the mix changes (update() says so); writes
 * the spacing, facing, pivot and floor into the render options it is given. Never per frame; no GL.
 */
export class CrowdPlacement {
  /** Half extents of the crowd in x and z (model units), about the model's framing centre. */
  readonly extent = [0, 0];
  /** "crowd N (instanced, texture palette)" or "crowd N (wander: own controllers, texture palette)", rebuilt when N or the mode changes (no per-frame string). */
  label = '';
  /** Plaza layout: the distance from the plaza's centre to where the automatic camera stands (model units); 0 for the grid and wander. */
  plazaEdge = 0;
  private count = 1;
  private wander = false;
  private layout = '';
  /** The model's facing as modelled (radians), found once per model when a plaza first needs it (NaN: not yet). */
  private facing = NaN;
  /** The label of the baked path: "crowd N (instanced, baked palettes)". */
  bakedLabel = '';
  private model: LoadedModel | null = null;
  /** The mixed crowd's other models laid out last (RenderOptions.crowdMix). */
  private mix: RenderOptions['crowdMix'] = [];
  /** The wander spacing of `model` (its gait analysed once per model). */
  private wanderSpacing = 0;

  /** Lays out `n` instances of `model` if either (or o.wander) changed; returns true when it did (the camera may re-frame). */
  update(model: LoadedModel, n: number, o: RenderOptions): boolean {
    if (this.count === n && this.model === model && this.wander === o.wander && this.layout === o.crowdLayout && this.mix === o.crowdMix) return false;
    const f = model.framing;
    if (this.model !== model) {
      this.wanderSpacing = 0;
      this.facing = NaN;
    }
    this.plazaEdge = 0;
    if (o.wander) {
      if (this.wanderSpacing === 0) this.wanderSpacing = analyseWanderGait(model.scene).spacing;
      const half = wanderHalfExtent(n, this.wanderSpacing);
      o.crowdSpacing = 0;
      o.wanderSpacing = this.wanderSpacing;
      o.wanderFloorY = f.floorY;
      // The square is centred on the origin; the camera frames the framing box grown by these extents.
      this.extent[0] = half + Math.abs(f.centre[0]);
      this.extent[1] = half + Math.abs(f.centre[2]);
      this.label = `crowd ${n} (wander: own controllers, texture palette)`;
    } else {
      o.crowdSpacing = crowdSpacing(f.min, f.max);
      // A mixed crowd's cells fit its widest model at the height it is drawn (crowd-mix.ts standingTransform).
      for (const m of o.crowdMix) {
        standingTransform(f, m.gpu.framing, _transform);
        o.crowdSpacing = Math.max(o.crowdSpacing, crowdSpacing(m.gpu.framing.min, m.gpu.framing.max) * _transform[0]!);
      }
      layoutHalfExtent(o.crowdLayout, n, o.crowdSpacing, f.min, f.max, this.extent);
      if (o.crowdLayout === 'plaza') {
        if (Number.isNaN(this.facing)) {
          const g = analyseWanderGait(model.scene);
          this.facing = g.turned ? 0 : Math.atan2(g.forwardX, g.forwardZ);
        }
        o.crowdFacing = this.facing;
        o.crowdPivot[0] = f.centre[0];
        o.crowdPivot[1] = f.centre[2];
        this.plazaEdge = plazaRadius(n, o.crowdSpacing) + 0.7 * o.crowdSpacing;
      }
      this.label = `crowd ${n} (instanced, texture palette)`;
      this.bakedLabel = `crowd ${n} (instanced, baked palettes)`;
    }
    // gridLines (model-gpu.ts) reaches about 2.5 radii from the centre: scale it to reach past the crowd's edge.
    const scale = Math.max(1, (Math.max(this.extent[0]!, this.extent[1]!) + 2 * f.radius) / (2.5 * f.radius));
    const m = o.crowdFloor;
    mat4.fromTranslation(m, [f.centre[0], 0, f.centre[2]]);
    mat4.scale(m, m, [scale, 1, scale]);
    mat4.translate(m, m, [-f.centre[0], 0, -f.centre[2]]);
    const sameModel = this.model === model;
    this.count = n;
    this.wander = o.wander;
    this.layout = o.crowdLayout;
    this.model = model;
    this.mix = o.crowdMix;
    return sameModel;
  }
}
