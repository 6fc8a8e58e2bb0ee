import type { OrbitCamera } from '../render/camera.ts';
import { regionAspect, splitRegions } from '../render/compare-split.ts';
import { emptyFigures, type FrameFigures, type RenderOptions } from '../render/frame-types.ts';
import type { Renderer } from '../render/renderer.ts';
import { findTechnique, type Technique } from '../techniques/index.ts';
import type { ComparePair } from './compare-state.ts';
import { FrameStats } from './frame-stats.ts';
import type { LoadedModel } from './loaded-model.ts';
import type { AppState } from './state.ts';

/**
 * Side-by-side compare's frame (URL key `compare=A,B`, docs/api.md#url-parameters): one pose, one camera, two halves. Each half is its
 * own region of the canvas (render/compare-split.ts) drawn by the renderer with the half's technique — its
 * shadow map, surfaces, views and overlays — and the camera's projection takes the half's aspect while it
 * draws. The camera is framed for half the canvas (framingAspect), so moving the divider crops a half, never
 * re-frames it. Owns the right half's figures and stats window (the left half's are the frame's own: `stats()`
 * reports A); the labels read both through figures(). No allocation per frame.
 */
export class CompareFrame {
  /** The right half's last-frame figures and its stats window (the left half uses the frame drawer's). */
  readonly figuresB: FrameFigures = emptyFigures();
  readonly statsB = new FrameStats();
  private readonly left = new Int32Array(4);
  private readonly right = new Int32Array(4);
  /** The pair last resolved, and its techniques. */
  private pair: ComparePair | null = null;
  private techniqueA: Technique | null = null;
  private techniqueB: Technique | null = null;

  /**
   * Whether this frame is split: a pair is set, one character is drawn (crowd 1) and both techniques are in
   * this build (app.set reports any that is not and turns compare off). Resolves the pair when it changed.
   */
  active(s: AppState): boolean {
    const pair = s.compare;
    if (pair === null || s.crowd > 1) return false;
    if (pair !== this.pair) {
      this.pair = pair;
      this.techniqueA = findTechnique(pair.a) ?? null;
      this.techniqueB = findTechnique(pair.b) ?? null;
    }
    return this.techniqueA !== null && this.techniqueB !== null;
  }

  /** The projection aspect the camera is framed with in compare mode: half the buffer. */
  framingAspect(width: number, height: number): number {
    return width / 2 / Math.max(1, height);
  }

  /**
   * Draws both halves of `model` (pose evaluated) into the canvas: A left into `figuresA`, B right into
   * figuresB. Leaves the renderer drawing the whole canvas, the camera at `framingAspect` and `opts.technique`
   * as it found them. Call active() first.
   */
  draw(renderer: Renderer, model: LoadedModel, camera: OrbitCamera, opts: RenderOptions, figuresA: FrameFigures, split: number): void {
    const gl = renderer.gl;
    const width = gl.drawingBufferWidth;
    const height = gl.drawingBufferHeight;
    const single = opts.technique;
    const framing = camera.aspect;
    splitRegions(width, height, split, this.left, this.right);
    this.drawHalf(renderer, model, camera, opts, this.techniqueA!, this.left, figuresA, 0);
    this.drawHalf(renderer, model, camera, opts, this.techniqueB!, this.right, this.figuresB, 1);
    renderer.fullCanvas();
    opts.technique = single;
    camera.aspect = framing;
    camera.update();
  }

  private drawHalf(renderer: Renderer, model: LoadedModel, camera: OrbitCamera, opts: RenderOptions, technique: Technique, region: Int32Array, out: FrameFigures, half: number): void {
    opts.technique = technique;
    camera.aspect = regionAspect(region);
    camera.update();
    renderer.setRegion(region);
    renderer.render(model.gpu, model.player, camera, opts, out, model.palettes, half);
  }
}
