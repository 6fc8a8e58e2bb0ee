import type { PrepInput } from './model-prep.ts';
import { workerName, type ParseEarly } from './parse-job.ts';
import type { ParseReply } from './parse-protocol.ts';

/**
 * Starting the parse worker (src/app/parse-worker.ts), kept apart from parse-client.ts (which carries the
 * loaders for the main-thread fallback) so the page's first script (src/boot.ts) can start one before the rest
 * of the page has arrived. A worker started ahead is the "spare": the next parse takes it. At most one is ever
 * started ahead per page, so a late call never leaves an idle worker behind.
 */

/** How long a worker may take to start before the parse runs on the page instead. */
export const WORKER_START_MS = 15_000;

/**
 * A worker started ahead of the first parse and its readiness (true once its module ran); `earlyUrl`: the
 * address it was asked to read and parse at once (ParseEarly), if any.
 */
export interface SpareWorker {
  readonly worker: Worker;
  readonly ready: Promise<boolean>;
  readonly earlyUrl?: string;
}

let spare: SpareWorker | null = null;
let prestarted = false;

/**
 * A new parse worker, or null when none can be made (no Worker, the script refused). `early`: the first model
 * to read and parse at once, handed over in the worker's name — the worker reads it as its module starts, where a
 * message would wait for the page's thread (busy building the page) to forward it.
 */
export function startParseWorker(early?: ParseEarly): Worker | null {
  try {
    const name = workerName(early);
    // Written out in full so Vite finds it and bundles the worker as its own module chunk.
    return new Worker(new URL('./parse-worker.ts', import.meta.url), { type: 'module', name });
  } catch {
    return null;
  }
}

/**
 * Starts the first parse's worker now (once per page: later calls do nothing and return false), so its module
 * loads while the page builds itself. `url`: the first model's absolute address when known; the worker then
 * reads and parses it at once (ParseEarly, parse-early.ts) and the page takes the result (parse-client.ts,
 * takeEarlyParse), prepared for `prep` (model-prep.ts). True when a worker was started.
 */
export function prestartParseWorker(url?: string, prep: PrepInput = { up: 'auto' }): boolean {
  if (prestarted) return false;
  prestarted = true;
  const worker = startParseWorker(url ? { type: 'early', url, prep } : undefined);
  if (!worker) return false;
  spare = { worker, ready: workerReady(worker, new AbortController().signal), earlyUrl: url };
  return true;
}

/** The address the worker started ahead is loading early, or null (none, none asked, or already taken). */
export function spareEarlyUrl(): string | null {
  return spare?.earlyUrl ?? null;
}

/**
 * Settles once the worker started ahead has run its module (or could not: it never blocks the page), at once
 * when there is none. The page's entry script waits for it before a call that holds this thread for long
 * (asking for the WebGL context): the worker's start needs this thread for a few short tasks.
 */
export function spareStarted(): Promise<unknown> {
  return spare ? spare.ready : Promise.resolve();
}

/** The worker started ahead, once (null when none was or it was taken). */
export function takeSpareWorker(): SpareWorker | null {
  const s = spare;
  spare = null;
  return s;
}

/** True once the worker reports that its module ran; false when it fails to load or does not start in time. */
export function workerReady(worker: Worker, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      worker.onmessage = null;
      worker.onerror = null;
      signal.removeEventListener('abort', onAbort);
    };
    const timer = setTimeout(() => {
      done();
      resolve(false);
    }, WORKER_START_MS);
    const onAbort = (): void => {
      done();
      worker.terminate();
      reject(new DOMException('loading cancelled', 'AbortError'));
    };
    signal.addEventListener('abort', onAbort);
    worker.onmessage = (e: MessageEvent<ParseReply>) => {
      if (e.data.type !== 'ready') return;
      done();
      resolve(true);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      done();
      resolve(false);
    };
  });
}
