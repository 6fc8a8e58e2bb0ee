import { loadModelAsync } from '../loaders/load-model.ts';
import type { Scene } from '../model/types.ts';
import { errorFromFields, ownedBytes, type ParseReply, type ParseRequest } from './parse-protocol.ts';
import { startParseWorker, takeSpareWorker, workerReady, type SpareWorker } from './parse-worker-start.ts';

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
}

/** Interval of `onTick` while parsing, ms. */
const TICK_MS = 200;

/**
 * Parses `bytes` (named `name`: the format is recognised as loadModelAsync does) with the files it refers
 * to (`resources`, keyed by the URI as the model writes it). `bytes` and the resources are handed over:
 * their buffers are transferred to the worker, so the caller must not use them afterwards. `onTick(elapsedMs)`
 * is called when parsing starts and then every TICK_MS until it ends. Rejects with a LoadError (same
 * message as loadModel would throw), an Error when the parser itself died (e.g. out of memory), or a
 * DOMException named AbortError when `signal` aborts.
 */
export async function parseModel(
  name: string,
  bytes: Uint8Array,
  signal: AbortSignal,
  onTick: (elapsedMs: number) => void = () => {},
  resources?: ReadonlyMap<string, Uint8Array>,
): Promise<ParseResult> {
  const t0 = performance.now();
  throwIfAborted(signal);
  const started = takeSpareWorker();
  const worker = started?.worker ?? startParseWorker();
  const ready = worker !== null && (await (started ? readyUnlessAborted(started, signal) : workerReady(worker, signal)));
  if (worker && ready) return runInWorker(worker, { name, bytes, resources }, signal, onTick, t0);
  worker?.terminate();
  onTick(0);
  await yieldToPaint();
  throwIfAborted(signal);
  const p0 = performance.now();
  const scene = await loadModelAsync(name, bytes, resources);
  const now = performance.now();
  return { scene, where: 'main', parseMs: now - p0, totalMs: now - t0 };
}

function runInWorker(
  worker: Worker,
  request: ParseRequest,
  signal: AbortSignal,
  onTick: (elapsedMs: number) => void,
  t0: number,
): Promise<ParseResult> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      worker.terminate();
      reject(abortError());
      return;
    }
    const start = performance.now();
    onTick(0);
    const ticker = setInterval(() => onTick(performance.now() - start), TICK_MS);
    const finish = (): void => {
      clearInterval(ticker);
      signal.removeEventListener('abort', onAbort);
      worker.terminate();
    };
    const onAbort = (): void => {
      finish();
      reject(abortError());
    };
    signal.addEventListener('abort', onAbort);
    worker.onmessage = (e: MessageEvent<ParseReply>) => {
      const reply = e.data;
      if (reply.type === 'ready') return;
      finish();
      if (reply.type === 'done') resolve({ scene: reply.scene, where: 'worker', parseMs: reply.parseMs, totalMs: performance.now() - t0 });
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
    const message: ParseRequest = { name: request.name, bytes, resources };
    worker.postMessage(message, transfer);
  });
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError();
}

function abortError(): DOMException {
  return new DOMException('loading cancelled', 'AbortError');
}

/** Lets the browser paint the progress message before a long synchronous parse (without waiting on a hidden tab's frames). */
function yieldToPaint(): Promise<void> {
  return new Promise((r) => {
    const timer = setTimeout(r, 100);
    if (typeof requestAnimationFrame !== 'function') return;
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        r();
      }, 0),
    );
  });
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
