import type { PrepInput } from './model-prep.ts';

/**
 * The first model's job, handed to a parse worker started ahead of the page in the worker's name: what the page's
 * entry script (src/boot.ts, through parse-worker-start.ts) and the worker's entry (parse-worker.ts) both read.
 * Imports nothing at run time, so the entry script's chunk carries it without waiting for another.
 */

/**
 * Page → worker, in the name of a worker started ahead of the page (parse-worker-start.ts, workerName): read the
 * page's first model from `url` (an absolute address on the page's own server) with the files it refers to,
 * and parse it now (parse-early.ts); the result waits in the worker for a ParseTake of the same `url`.
 */
export interface ParseEarly {
  readonly type: 'early';
  readonly url: string;
  /** The load options the page's query names, to prepare the Scene for (model-prep.ts). */
  readonly prep: PrepInput;
}

/** True when the early job's file is a glTF by its address (its reader, a chunk of its own, can load beside the file). */
export function earlyIsGltf(early: ParseEarly): boolean {
  try {
    return /\.(glb|gltf)$/i.test(new URL(early.url).pathname);
  } catch {
    return false;
  }
}

/** The parse worker's name; a worker started ahead carries its ParseEarly after it. */
const WORKER_NAME = 'skinlab-parse';

/**
 * The name a parse worker is started with: its job, when it has one from the start, travels in it (the worker
 * reads its name as its module runs, where a message would wait for the page's thread to forward it).
 */
export function workerName(early?: ParseEarly): string {
  return early ? `${WORKER_NAME} ${JSON.stringify(early)}` : WORKER_NAME;
}

/** The ParseEarly a worker's name carries (workerName), or null. */
export function earlyFromName(name: string): ParseEarly | null {
  if (!name.startsWith(`${WORKER_NAME} `)) return null;
  try {
    const early = JSON.parse(name.slice(WORKER_NAME.length + 1)) as ParseEarly | null;
    return early?.type === 'early' && typeof early.url === 'string' && typeof early.prep?.up === 'string' ? early : null;
  } catch {
    return null;
  }
}
