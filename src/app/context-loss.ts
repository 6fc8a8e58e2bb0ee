import type { ModelGpu } from '../render/model-gpu.ts';
import { Renderer } from '../render/renderer.ts';
import { findTechnique, TECHNIQUES } from '../techniques/index.ts';
import type { AppContext } from './context.ts';

/**
 * Surviving a lost WebGL context: on the loss every GL handle is dropped (deletes on a lost context are
 * no-ops) and the readiness state goes to "loading"; on the restore a new Renderer is built, the current
 * model's GPU state is rebuilt from the scene it still holds, and one frame is drawn at the kept state
 * before the readiness state returns to what it was. CPU state (scene, player, AppState, camera) is never
 * touched. Owns only the bookkeeping of losses in flight.
 */
export class ContextLoss {
  /** Losses seen (a restore in progress checks it is still the latest). */
  private losses = 0;
  /** The readiness state at the loss. */
  private stateAtLoss = 'ready';
  /** From a loss until the restore has drawn its frame (a second loss meanwhile keeps the first one's stateAtLoss). */
  restoring = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly nextFrame: () => Promise<void>,
  ) {}

  /**
   * `webglcontextlost` (the caller has called preventDefault, so the context can come back). Stops drawing
   * (the frame loop sees the lost context) until lost() is followed by restored(). A load in flight waits
   * in ModelGpu.create.
   */
  lost(): void {
    this.losses++;
    if (!this.restoring) this.stateAtLoss = document.documentElement.dataset.state ?? 'ready';
    this.restoring = true;
    document.documentElement.dataset.state = 'loading';
    this.ctx.renderer.dispose();
    this.ctx.current?.gpu.dispose();
  }

  /** `webglcontextrestored`: resolves after the restored frame is drawn (or at once when superseded by another loss). */
  async restored(): Promise<void> {
    const ctx = this.ctx;
    const loss = this.losses;
    if (ctx.gl.isContextLost()) return;
    ctx.renderer = new Renderer(ctx.gl);
    const m = ctx.current;
    if (m) {
      let gpu: ModelGpu;
      try {
        gpu = await m.gpu.rebuild();
      } catch (e) {
        if (loss !== this.losses) return;
        this.restoring = false;
        ctx.fail(`could not rebuild the GPU state after a context loss: ${(e as Error).message}`);
        return;
      }
      if (loss !== this.losses || ctx.current !== m) {
        // Lost again (the next restore rebuilds), or a load replaced the model meanwhile.
        gpu.dispose();
      } else {
        ctx.current = { ...m, gpu };
        const technique = findTechnique(ctx.state.technique) ?? TECHNIQUES[0]!;
        ctx.renderer.shadows = ctx.state.shadows;
        ctx.renderer.shading = ctx.state.shading;
        ctx.renderer.warm(gpu, technique, ctx.state.influences, ctx.state.palette, ctx.state.morphs);
      }
    }
    if (loss !== this.losses) return;
    await this.nextFrame();
    const root = document.documentElement;
    // A load in flight at the loss sets the state itself when its frame is drawn.
    if (loss !== this.losses) return;
    this.restoring = false;
    if (root.dataset.state === 'loading' && this.stateAtLoss !== 'loading') root.dataset.state = this.stateAtLoss;
  }
}
