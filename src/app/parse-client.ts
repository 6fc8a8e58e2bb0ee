import type { Scene } from '../model/types.ts';
import { afterPaint } from './after-paint.ts';
import type { PrepFacts, PrepInput } from './model-prep.ts';
import { errorFromFields, ownedBytes, type EarlyFigures, type ParseReply, type ParseRequest, type ParseTake } from './parse-protocol.ts';
import { spareEarlyUrl, startParseWorker, takeSpareWorker, workerReady, type SpareWorker } from './parse-worker-start.ts';

/**
 * Parsing a model without stopping the page: each load gets its own module worker
 * (src/app/parse-worker.ts) running the same `loadModelAsync` as Node; the Scene comes back with its buffers
 * transferred. Cancelling terminates that worker, so even a long parse stops at once. Only when no worker
 * can be started (no Worker, the script blocked or failing to load) does the parse run on the page's
 * thread, as before workers.
 */

export interface ParseResult {
  readonly scene: Scene;
  /** Where it ran: 'worker', or 'main' after a worker could not be started. */
  readonly where: 'worker' | 'main';
  /** Time inside loadModelAsync, ms. */
  readonly parseMs: number;
  /** From the call to the Scene in hand (worker start, transfers and parse), ms. */
  readonly totalMs: number;
  /** The worker's preparation of the Scene (model-prep.ts), when it was asked for and succeeded: `scene` is then prepared. */
  readonly facts?: PrepFacts;
  /**
   * The Scene's own images the worker decoded (image-predecode.ts), by material file name, for
   * prepareMaterialTextures: they come after the Scene (undefined when none come: the worker stopped, or the
   * parse ran on the page). Never rejects. The receiver owns them (closeBitmaps when it does not use them).
   */
  readonly bitmaps?: Promise<ReadonlyMap<string, ImageBitmap> | undefined>;
}

/** Releases a ParseResult's decoded images, now or when they come (a result not used, or not as far as its textures). */
export function closeBitmaps(parsed: Pick<ParseResult, 'bitmaps'> | null | undefined): void {
  void parsed?.bitmaps?.then((bitmaps) => {
    if (bitmaps) for (const b of bitmaps.values()) b.close();
  });
}

/** Interval of `onTick` while parsing, ms. */
const TICK_MS = 200;

/**
 * Parses `bytes` (named `name`: the format is recognised as loadModelAsync does) with the files it refers
 * to (`resources`, keyed by the URI as the model writes it). `bytes` and the resources are handed over:
 * their buffers are transferred to the worker, so the caller must not use them afterwards. `onTick(elapsedMs)`
 * is called when parsing starts and then every TICK_MS until it ends. Rejects with a LoadError (same
 * message as loadModel would throw), an Error when the parser itself died (e.g. out of memory), or a
 * DOMException named AbortError when `signal` aborts. With `prep`, a worker also prepares the Scene for those
 * load options (model-prep.ts; the result's `facts`); the page's own fallback parse leaves that to the caller.
 */
export async function parseModel(
  name: string,
  bytes: Uint8Array,
  signal: AbortSignal,
  onTick: (elapsedMs: number) => void = () => {},
  resources?: ReadonlyMap<string, Uint8Array>,
  prep?: PrepInput,
): Promise<ParseResult> {
  const t0 = performance.now();
  throwIfAborted(signal);
  let started = takeSpareWorker();
  if (started?.earlyUrl) {
    // Busy reading another file than this one (the page resolved its first model otherwise): not this parse's.
    started.worker.terminate();
    started = null;
  }
  const worker = started?.worker ?? startParseWorker();
  const ready = worker !== null && (await (started ? readyUnlessAborted(started, signal) : workerReady(worker, signal)));
  if (worker && ready) {
    const done = await runInWorker(worker, (w) => postRequest(w, { name, bytes, resources, prep }), signal, onTick);
    if (!done) throw new Error('the parser declined the file');
    const { reply, bitmaps } = done;
    return { scene: reply.scene, where: 'worker', parseMs: reply.parseMs, totalMs: performance.now() - t0, facts: reply.facts, bitmaps };
  }
  worker?.terminate();
  onTick(0);
  // The progress message is painted before a long synchronous parse.
  await afterPaint();
  throwIfAborted(signal);
  const p0 = performance.now();
  // The loaders come with the page only on this path (a worker has its own).
  const { loadModelAsync } = await import('../loaders/load-model.ts');
  const scene = await loadModelAsync(name, bytes, resources);
  const now = performance.now();
  return { scene, where: 'main', parseMs: now - p0, totalMs: now - t0 };
}

/** The early load's result: the parse and what was read. */
export interface EarlyParse {
  readonly parsed: ParseResult;
  readonly figures: EarlyFigures;
}

/**
 * The page's first model as the worker started ahead read and parsed it (parse-early.ts), when that worker
 * was asked for exactly `href`; null otherwise, or when the worker did not start (the caller then reads and
 * parses the file itself). Waits for the early load to finish; rejects with its error (the same message the
 * page's own load would give) or an AbortError when `signal` aborts (the worker is terminated).
 */
export async function takeEarlyParse(href: string, signal: AbortSignal, onTick: (elapsedMs: number) => void = () => {}): Promise<EarlyParse | null> {
  if (spareEarlyUrl() !== href) return null;
  const t0 = performance.now();
  const started = takeSpareWorker()!;
  // Asked at once, before this thread has handled the worker's `ready` (it may be queued behind the page's own
  // tasks): a worker still starting keeps the message until its module runs (parse-worker.ts), and one that
  // never starts drops it (its readiness is false: the page then reads and parses the file itself). The handler
  // of the reply is in place before the reply can come: it is set in the same turn as `ready` is handled, and
  // the reply is a later message.
  started.worker.postMessage({ type: 'take', url: href } satisfies ParseTake);
  if (!(await readyUnlessAborted(started, signal))) {
    started.worker.terminate();
    return null;
  }
  const done = await runInWorker(started.worker, () => {}, signal, onTick);
  if (!done) return null;
  const { reply, bitmaps } = done;
  if (!reply.early) {
    closeBitmaps({ bitmaps });
    return null;
  }
  return { parsed: { scene: reply.scene, where: 'worker', parseMs: reply.parseMs, totalMs: performance.now() - t0, facts: reply.facts, bitmaps }, figures: reply.early };
}

/** A worker's Scene, and its decoded images to come (ParseResult `bitmaps`). */
interface WorkerDone {
  readonly reply: ParseReply & { type: 'done' };
  readonly bitmaps: Promise<ReadonlyMap<string, ImageBitmap> | undefined>;
}

/**
 * Sends the worker its request (`post`) and waits for its Scene; the worker is terminated on failure, on abort
 * before the Scene, and once the images that follow the Scene have come (or it stopped before sending them).
 * Resolves null when the worker declines (a take of an address it was not asked to load).
 */
function runInWorker(
  worker: Worker,
  post: (worker: Worker) => void,
  signal: AbortSignal,
  onTick: (elapsedMs: number) => void,
): Promise<WorkerDone | null> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      worker.terminate();
      reject(abortError());
      return;
    }
    const start = performance.now();
    onTick(0);
    const ticker = setInterval(() => onTick(performance.now() - start), TICK_MS);
    const finish = (terminate = true): void => {
      clearInterval(ticker);
      signal.removeEventListener('abort', onAbort);
      if (terminate) worker.terminate();
    };
    const onAbort = (): void => {
      finish();
      reject(abortError());
    };
    signal.addEventListener('abort', onAbort);
    worker.onmessage = (e: MessageEvent<ParseReply>) => {
      const reply = e.data;
      if (reply.type === 'ready' || reply.type === 'images') return;
      if (reply.type === 'done') {
        finish(false);
        resolve({ reply, bitmaps: imagesAfter(worker) });
        return;
      }
      finish();
      if (reply.type === 'declined') resolve(null);
      else reject(errorFromFields(reply.error));
    };
    worker.onerror = (e) => {
      e.preventDefault();
      finish();
      reject(new Error(`the parser stopped: ${e.message || 'it ran out of memory or crashed'}`));
    };
    worker.onmessageerror = () => {
      finish();
      reject(new Error('the parsed model could not be passed back to the page'));
    };
    post(worker);
  });
}

/** The `images` message that follows a worker's Scene (then the worker is terminated); undefined if it stops first. */
function imagesAfter(worker: Worker): Promise<ReadonlyMap<string, ImageBitmap> | undefined> {
  return new Promise((resolve) => {
    const end = (bitmaps?: ReadonlyMap<string, ImageBitmap>): void => {
      worker.onmessage = worker.onerror = worker.onmessageerror = null;
      worker.terminate();
      resolve(bitmaps);
    };
    worker.onmessage = (e: MessageEvent<ParseReply>) => {
      if (e.data.type === 'images') end(e.data.bitmaps.length > 0 ? new Map(e.data.bitmaps) : undefined);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      end();
    };
    worker.onmessageerror = () => end();
  });
}

/** Posts a ParseRequest with the bytes' and the resources' buffers transferred. */
function postRequest(worker: Worker, request: ParseRequest): void {
  const bytes = ownedBytes(request.bytes);
  const transfer: ArrayBuffer[] = [bytes.buffer];
  let resources: Map<string, Uint8Array> | undefined;
  if (request.resources && request.resources.size > 0) {
    resources = new Map();
    for (const [uri, data] of request.resources) {
      const owned = ownedBytes(data);
      resources.set(uri, owned);
      // One URI may be listed under two spellings that share bytes: a buffer goes once in the transfer list.
      if (!transfer.includes(owned.buffer)) transfer.push(owned.buffer);
    }
  }
  const message: ParseRequest = { name: request.name, bytes, resources, prep: request.prep };
  worker.postMessage(message, transfer);
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError();
}

function abortError(): DOMException {
  return new DOMException('loading cancelled', 'AbortError');
}

/** A prestarted worker's readiness, or an AbortError (the worker terminated) when `signal` aborts first. */
function readyUnlessAborted(started: SpareWorker, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      started.worker.terminate();
      reject(abortError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    void started.ready.then((ok) => {
      signal.removeEventListener('abort', onAbort);
      resolve(ok);
    });
  });
}
