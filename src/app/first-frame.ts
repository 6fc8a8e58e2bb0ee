/**
 * Time to first frame: from a model being asked for (the page's `model` at start, a switch, a file opened) to
 * the first frame drawn with it, its GL commands finished. The loader and the app mark the end of each step
 * on one clock (performance.now()); the time between two marks goes to the step just ended, so the parts add
 * up to the total exactly. Shader compiles are taken out of whichever step did them (the program cache's
 * compile time, ProgramCache.compileMs) and reported on their own.
 *
 * Only the measured frame is finished with gl.finish() (the one after a load's adopt); other frames never
 * wait for the GPU. Owns the last result (stats().firstFrame); allocates one object per load, nothing per frame.
 */

/** The steps of a load, in order (docs/api.md#stats, `firstFrame`). */
export type FirstFrameStep = 'fetch' | 'parse' | 'prepare' | 'upload' | 'wait' | 'draw';

/** The last model's time to first frame (stats().firstFrame); all times in ms. */
export interface FirstFrame {
  /** The `model` value that was loaded. */
  model: string;
  /** From the load asked for to the end of its first frame (commands finished). */
  totalMs: number;
  /** The end of that frame on the page's clock: ms since the page's navigation started (performance.now()). */
  pageMs: number;
  /** Reading the file and the files it refers to (network or disk); 0 for the page's first model, which the parse worker reads. */
  fetchMs: number;
  /**
   * The parse worker's round trip: its start, the transfers, the parse itself and the worker's preparation (upright,
   * framing: model-prep.ts); info().parse has the parse alone. For the first model, what is left of the
   * worker's early read and parse when the page asks for it (parse-early.ts).
   */
  parseMs: number;
  /** Main-thread work around the model: the animation player, the technique's checks, the panel. */
  prepareMs: number;
  /** Textures decoded and uploaded, vertex buffers made (ModelGpu). */
  uploadMs: number;
  /** Shader programs compiled and linked for the model's first frame (the technique's, the floor's, the shadow pass's). */
  shadersMs: number;
  /** From the model made current to its first frame: near 0 (it is drawn at once, FrameLoop.drawNow) unless a precomputed technique's data or a lost context is waited for. */
  waitMs: number;
  /** The first frame: its CPU work (posing, palettes, the technique's mesh state) and the GPU until finished, compiles excluded. */
  drawMs: number;
}

const PART: Readonly<Record<FirstFrameStep, 'fetchMs' | 'parseMs' | 'prepareMs' | 'uploadMs' | 'waitMs' | 'drawMs'>> = {
  fetch: 'fetchMs',
  parse: 'parseMs',
  prepare: 'prepareMs',
  upload: 'uploadMs',
  wait: 'waitMs',
  draw: 'drawMs',
};

export class FirstFrameClock {
  /** The last completed measurement, or null before any model was drawn. */
  last: FirstFrame | null = null;
  private current: FirstFrame | null = null;
  private mark = 0;
  private compileMark = 0;
  private armed = false;

  /** `compileMs`: the program cache's running compile time (ProgramCache.compileMs). */
  constructor(private readonly compileMs: () => number) {}

  /** A load of `model` was asked for: a new measurement starts (one in progress is dropped). */
  begin(model: string): void {
    const now = performance.now();
    this.current = { model, totalMs: 0, pageMs: 0, fetchMs: 0, parseMs: 0, prepareMs: 0, uploadMs: 0, shadersMs: 0, waitMs: 0, drawMs: 0 };
    this.mark = now;
    this.compileMark = this.compileMs();
    this.armed = false;
  }

  /** The step `step` of the load in progress ended now (no effect without one). */
  lap(step: FirstFrameStep): void {
    const c = this.current;
    if (!c) return;
    const now = performance.now();
    const compileTotal = this.compileMs();
    // A new program cache (after a context loss) starts its count again from 0.
    const compiled = compileTotal >= this.compileMark ? compileTotal - this.compileMark : compileTotal;
    c[PART[step]] += Math.max(0, now - this.mark - compiled);
    c.shadersMs += compiled;
    this.mark = now;
    this.compileMark = compileTotal;
  }

  /** The model is current: the next frame drawn is its first (true for `frameStart`/`frameEnd`). */
  adopted(): void {
    if (this.current) this.armed = true;
  }

  /** The load failed or was cancelled: its measurement is dropped, the last one stays. */
  drop(): void {
    this.current = null;
    this.armed = false;
  }

  /** True when the frame about to be drawn is the measured one: the caller finishes it (gl.finish) and calls frameEnd. */
  get measuring(): boolean {
    return this.armed;
  }

  /** The measured frame starts: the wait for it ends. */
  frameStart(): void {
    if (this.armed) this.lap('wait');
  }

  /** The measured frame's commands are finished: the measurement is complete. */
  frameEnd(): void {
    const c = this.current;
    if (!this.armed || !c) return;
    this.lap('draw');
    c.pageMs = this.mark;
    c.totalMs = c.fetchMs + c.parseMs + c.prepareMs + c.uploadMs + c.shadersMs + c.waitMs + c.drawMs;
    this.last = c;
    this.current = null;
    this.armed = false;
  }
}
