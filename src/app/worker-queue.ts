/**
 * One persistent worker serving requests one at a time, first in first out (the LOD worker's, lod-client.ts).
 * No DOM of its own: the worker comes from a factory, so tests drive it with a fake (test/app/worker-queue.test.ts).
 *
 * Contract
 * - The worker is started lazily: by prewarm() or by the first request; it stays for the next requests.
 * - One request is in flight at a time; the others wait in the queue in the order they came.
 * - A reply (a message from the worker) settles the request in flight: `settle` turns it into a value or an
 *   Error (a worker's own error reply); then the next queued request is posted.
 * - Cancelling a queued request (its AbortSignal) removes it from the queue; cancelling the request in flight
 *   terminates the worker (the work stops at once) and the next queued request gets a fresh worker. Either way
 *   the request rejects with an AbortError.
 * - A worker error (onerror: the module failed to load, or the worker crashed) rejects the request in flight with
 *   `the <name> worker stopped: …`, and the worker is replaced: the next request starts a fresh one. An error
 *   while idle only drops the worker.
 * - available() is false when the factory cannot start a worker (it returned null): the caller does the work
 *   itself. A factory that fails later rejects the request it was started for.
 * - Allocates per request (one-time work); nothing per frame.
 */

/** What the queue needs of a worker (a DOM Worker fits). */
export interface QueueWorker<Req, Rep> {
  onmessage: ((e: { data: Rep }) => void) | null;
  onerror: ((e: { message?: string; preventDefault(): void }) => void) | null;
  postMessage(message: Req): void;
  terminate(): void;
}

interface Pending<Req, Rep, Out> {
  readonly request: Req;
  readonly signal: AbortSignal;
  readonly settle: (reply: Rep) => Out | Error;
  readonly resolve: (value: Out) => void;
  readonly reject: (error: Error) => void;
  readonly onAbort: () => void;
}

function abortError(): Error {
  return new DOMException('cancelled', 'AbortError');
}

export class WorkerQueue<Req, Rep> {
  private worker: QueueWorker<Req, Rep> | null = null;
  /** The factory returned null once: no worker here. */
  private unavailable = false;
  /** Workers started so far (a replaced one counts again). */
  started = 0;
  private current: Pending<Req, Rep, unknown> | null = null;
  private readonly queue: Pending<Req, Rep, unknown>[] = [];

  /** `start` returns a new worker, or null when none can be started; `name` names it in errors. */
  constructor(
    private readonly start: () => QueueWorker<Req, Rep> | null,
    private readonly name: string,
  ) {}

  /** Starts the worker if none is running (idempotent); false when no worker can be started. */
  prewarm(): boolean {
    return this.ensure() !== null;
  }

  /** A worker runs or can be started (starts it: the caller is about to send a request). */
  available(): boolean {
    return !this.unavailable && this.prewarm();
  }

  /** Requests waiting behind the one in flight. */
  get queued(): number {
    return this.queue.length;
  }

  /** A request is in flight. */
  get busy(): boolean {
    return this.current !== null;
  }

  /** Queues `request`; resolves with `settle(reply)` or rejects (its Error, an AbortError, a worker error). */
  request<Out>(request: Req, signal: AbortSignal, settle: (reply: Rep) => Out | Error): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      if (signal.aborted) return reject(abortError());
      const p: Pending<Req, Rep, Out> = {
        request,
        signal,
        settle,
        resolve,
        reject,
        onAbort: () => this.cancel(p as Pending<Req, Rep, unknown>),
      };
      signal.addEventListener('abort', p.onAbort, { once: true });
      this.queue.push(p as Pending<Req, Rep, unknown>);
      this.next();
    });
  }

  /** Terminates the worker and rejects everything pending with an AbortError. */
  dispose(): void {
    const all = this.current ? [this.current, ...this.queue] : [...this.queue];
    this.queue.length = 0;
    this.current = null;
    this.drop();
    for (const p of all) this.finish(p, abortError());
  }

  private ensure(): QueueWorker<Req, Rep> | null {
    if (this.worker !== null || this.unavailable) return this.worker;
    const w = this.start();
    if (w === null) {
      this.unavailable = true;
      return null;
    }
    this.started++;
    w.onmessage = (e) => this.onReply(w, e.data);
    w.onerror = (e) => this.onError(w, e);
    this.worker = w;
    return w;
  }

  private drop(): void {
    const w = this.worker;
    this.worker = null;
    if (w === null) return;
    w.onmessage = null;
    w.onerror = null;
    w.terminate();
  }

  /** Posts the next queued request when none is in flight. */
  private next(): void {
    while (this.current === null && this.queue.length > 0) {
      const p = this.queue.shift()!;
      const w = this.ensure();
      if (w === null) {
        this.finish(p, new Error(`the ${this.name} worker could not be started`));
        continue;
      }
      this.current = p;
      w.postMessage(p.request);
    }
  }

  private onReply(w: QueueWorker<Req, Rep>, reply: Rep): void {
    const p = this.current;
    if (w !== this.worker || p === null) return;
    this.current = null;
    let out: unknown;
    try {
      out = p.settle(reply);
    } catch (err) {
      out = err instanceof Error ? err : new Error(String(err));
    }
    this.finish(p, out);
    this.next();
  }

  private onError(w: QueueWorker<Req, Rep>, e: { message?: string; preventDefault(): void }): void {
    e.preventDefault();
    if (w !== this.worker) return;
    this.drop();
    const p = this.current;
    this.current = null;
    if (p !== null) this.finish(p, new Error(`the ${this.name} worker stopped: ${e.message || 'it failed to load or crashed'}`));
    this.next();
  }

  private cancel(p: Pending<Req, Rep, unknown>): void {
    if (this.current === p) {
      this.current = null;
      this.drop();
    } else {
      const k = this.queue.indexOf(p);
      if (k >= 0) this.queue.splice(k, 1);
    }
    this.finish(p, abortError());
    this.next();
  }

  /** Settles `p` with `out` (an Error rejects) and stops listening to its signal. */
  private finish(p: Pending<Req, Rep, unknown>, out: unknown): void {
    p.signal.removeEventListener('abort', p.onAbort);
    if (out instanceof Error) p.reject(out);
    else p.resolve(out);
  }
}
