/**
 * GPU time of a span of GL commands through `EXT_disjoint_timer_query_webgl2` (TIME_ELAPSED_EXT queries).
 *
 * Contract
 * - begin() starts a TIME_ELAPSED query; end() ends it and returns a promise of the GPU milliseconds between
 *   the two, or null when the figure cannot be trusted or had to be given up: the GPU reported a disjoint
 *   event (GPU_DISJOINT_EXT: a clock change or a context switch inside the span), the result did not come
 *   within `timeoutMs`, or dispose() ran first. One query at a time (TIME_ELAPSED queries cannot nest):
 *   begin() while one is open throws.
 * - Results are polled from a timer task (a WebGL query never completes inside the task that issued it), with
 *   QUERY_RESULT_AVAILABLE only: nothing here stalls the GL pipeline. Every query object is deleted once read,
 *   given up or disposed.
 * - `available` is false when the context lacks the extension (or it was turned off with `force: 'wall'`):
 *   begin() and end() then do nothing and end() resolves null; callers fall back to wall-clock time and say so.
 * - Owns its query objects only; dispose() deletes them and resolves their promises with null.
 */

/** The constants of EXT_disjoint_timer_query_webgl2 (WebGL2: the query calls are the context's own). */
interface TimerQueryExt {
  readonly TIME_ELAPSED_EXT: number;
  readonly GPU_DISJOINT_EXT: number;
}

interface Pending {
  query: WebGLQuery;
  resolve: (ms: number | null) => void;
  started: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class GpuTimer {
  /** The extension's name, for notes and the UI. */
  static readonly EXTENSION = 'EXT_disjoint_timer_query_webgl2';
  private readonly ext: TimerQueryExt | null;
  private open: WebGLQuery | null = null;
  private readonly pending = new Set<Pending>();

  /**
   * `force: 'wall'` behaves as if the extension were absent (the benchmark's fallback, on demand);
   * `pollMs` is the interval between availability checks, `timeoutMs` how long a result may take.
   */
  constructor(
    private readonly gl: WebGL2RenderingContext,
    opts: { force?: 'wall'; pollMs?: number; timeoutMs?: number } = {},
  ) {
    this.ext = opts.force === 'wall' ? null : (gl.getExtension(GpuTimer.EXTENSION) as TimerQueryExt | null);
    this.pollMs = opts.pollMs ?? 2;
    this.timeoutMs = opts.timeoutMs ?? 5000;
  }

  private readonly pollMs: number;
  private readonly timeoutMs: number;

  get available(): boolean {
    return this.ext !== null;
  }

  /** Starts timing the commands that follow. No-op without the extension. */
  begin(): void {
    const ext = this.ext;
    if (!ext) return;
    if (this.open) throw new Error('GpuTimer.begin: a query is already open (TIME_ELAPSED queries cannot nest)');
    const gl = this.gl;
    // Reading GPU_DISJOINT_EXT clears it: a disjoint event seen at the end happened inside this span (or later).
    gl.getParameter(ext.GPU_DISJOINT_EXT);
    const q = gl.createQuery();
    if (!q) return;
    gl.beginQuery(ext.TIME_ELAPSED_EXT, q);
    this.open = q;
  }

  /** Ends the span begun by begin(); resolves with its GPU milliseconds, or null (see the contract). */
  end(): Promise<number | null> {
    const ext = this.ext;
    const q = this.open;
    if (!ext || !q) return Promise.resolve(null);
    this.gl.endQuery(ext.TIME_ELAPSED_EXT);
    this.open = null;
    return new Promise((resolve) => {
      const p: Pending = { query: q, resolve, started: performance.now(), timer: undefined };
      this.pending.add(p);
      p.timer = setTimeout(() => this.poll(p), this.pollMs);
    });
  }

  private poll(p: Pending): void {
    const gl = this.gl;
    const ext = this.ext!;
    if (!this.pending.has(p)) return;
    if (gl.isContextLost()) {
      this.finish(p, null);
      return;
    }
    const ready = gl.getQueryParameter(p.query, gl.QUERY_RESULT_AVAILABLE) as boolean;
    if (ready) {
      const disjoint = gl.getParameter(ext.GPU_DISJOINT_EXT) as boolean;
      const ns = gl.getQueryParameter(p.query, gl.QUERY_RESULT) as number;
      this.finish(p, disjoint ? null : ns / 1e6);
      return;
    }
    if (performance.now() - p.started > this.timeoutMs) {
      this.finish(p, null);
      return;
    }
    p.timer = setTimeout(() => this.poll(p), this.pollMs);
  }

  private finish(p: Pending, ms: number | null): void {
    clearTimeout(p.timer);
    this.pending.delete(p);
    if (!this.gl.isContextLost()) this.gl.deleteQuery(p.query);
    p.resolve(ms);
  }

  /** Ends an open query, deletes every query object and resolves the waiting promises with null. */
  dispose(): void {
    const ext = this.ext;
    if (ext && this.open) {
      this.gl.endQuery(ext.TIME_ELAPSED_EXT);
      if (!this.gl.isContextLost()) this.gl.deleteQuery(this.open);
      this.open = null;
    }
    for (const p of [...this.pending]) this.finish(p, null);
  }
}
