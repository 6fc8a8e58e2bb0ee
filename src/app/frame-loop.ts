import { bufferPixels, pixelRatio } from './canvas-size.ts';

/**
 * The frame loop: requestAnimationFrame, the replaceable clock, the drawing buffer's size, and the promises
 * that wait for the next drawn frame. Each tick sizes the canvas and asks its host to draw; while the
 * context is lost (or the model's GPU state is being rebuilt) nothing is drawn, the clock stands still and
 * waiters keep waiting for a frame really drawn. Owns no model, no state and no GL objects.
 */

/** What the loop needs of the app. */
export interface LoopHost {
  readonly canvas: HTMLCanvasElement;
  readonly gl: WebGL2RenderingContext;
  /** When set, the drawing buffer has exactly this size in pixels whatever the canvas's CSS size (recorders). */
  readonly fixedSize: { width: number; height: number } | null;
  /** False while there is nothing to draw with (the model's GPU state is disposed until a rebuild). */
  canDraw(): boolean;
  /** Draws one frame `dt` seconds after the last, at clock time `now` (ms). */
  draw(dt: number, now: number): void;
  /** The drawing buffer changed size. */
  resized(): void;
}

export class FrameLoop {
  /** Replaceable clock in milliseconds (tests and recorders freeze it). */
  clock: () => number = () => performance.now();
  /** Render-loop frames since the page started (benchmarks count frames in a window with it). */
  framesDrawn = 0;
  /**
   * On demand: draw only when something waits for a frame (nextFrame), so a benchmark that draws its own
   * frames between `set()` calls does not compete with the loop.
   */
  onDemand = false;
  private running = false;
  private lastFrame = -1;
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly host: LoopHost) {}

  /** Resolves after the next frame is drawn (starting the loop if needed). */
  nextFrame(): Promise<void> {
    this.ensureRunning();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  ensureRunning(): void {
    if (this.running) return;
    this.running = true;
    requestAnimationFrame(this.tick);
  }

  /**
   * Draws a frame now, in this task, instead of at the next animation frame (a model just made current: its
   * first frame is then ready for the next display refresh, not the one after the callback). The loop keeps its
   * own schedule; waiters resolve as after any drawn frame. False when nothing could be drawn (a lost context,
   * no GPU state): the caller waits for a frame of the loop then.
   */
  drawNow(): boolean {
    this.ensureRunning();
    return this.drawFrame();
  }

  private readonly tick = (): void => {
    requestAnimationFrame(this.tick);
    if (this.onDemand && this.waiters.length === 0) return;
    this.drawFrame();
  };

  /** One frame: the clock, the buffer's size, the host's draw, the waiters. False when nothing was drawn. */
  private drawFrame(): boolean {
    const now = this.clock();
    const dt = this.lastFrame < 0 ? 0 : Math.min(0.25, (now - this.lastFrame) / 1000);
    this.lastFrame = now;
    const host = this.host;
    if (host.gl.isContextLost() || !host.canDraw()) return false;
    this.resize();
    host.draw(dt, now);
    this.framesDrawn++;
    if (this.waiters.length > 0) {
      const waiters = this.waiters.splice(0);
      for (const w of waiters) w();
    }
    return true;
  }

  private resize(): void {
    const { canvas, fixedSize } = this.host;
    const ratio = pixelRatio();
    const w = fixedSize?.width ?? bufferPixels(canvas.clientWidth, ratio);
    const h = fixedSize?.height ?? bufferPixels(canvas.clientHeight, ratio);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
      this.host.resized();
    }
  }
}
