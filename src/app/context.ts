import type { OrbitCamera } from '../render/camera.ts';
import type { Renderer } from '../render/renderer.ts';
import type { LoadedModel, AppView } from './loaded-model.ts';
import type { DeformGate } from './deform-gate.ts';
import type { AppState } from './state.ts';

/**
 * The handles every job of the app shares, owned by `App` (app.ts) and lent to the jobs it composes
 * (loading, frame loop, figures, checks, context loss). A job reads and writes through this shape and
 * never imports `App`, so the app's files form no import loop. `renderer` and `current` are replaced
 * (after a context loss, after a load); jobs read them through the context each time, never keep them.
 */
export interface AppContext {
  readonly state: AppState;
  readonly camera: OrbitCamera;
  readonly canvas: HTMLCanvasElement;
  readonly gl: WebGL2RenderingContext;
  readonly view: AppView;
  renderer: Renderer;
  current: LoadedModel | null;
  /** Holds techniques with load-time data (cor, ddm) back until it exists. */
  readonly deform: DeformGate;
  /** Shows an error (banner + console.error) and sets the readiness state to "error"; the model keeps running. */
  fail(message: string): void;
}
