import { findBuiltin } from './builtins.ts';
import { fetchEarly } from './early-fetch.ts';
import type { PrepInput } from './model-prep.ts';
import { prestartParseWorker } from './parse-worker-start.ts';
import { upFromSearch } from './up-param.ts';

/**
 * Work on the first model started before the page is built (src/boot.ts runs it while the page's main script
 * is still arriving; main.ts calls it again, which does nothing the second time): the parse worker starts and
 * reads and parses the first model's file at once (parse-worker-start.ts, parse-early.ts), so the model is
 * usually parsed by the time the page asks for it. Where no worker can start, the file's request goes out on
 * the page instead (early-fetch.ts). Small on purpose: it imports only the built-in list.
 */

let started = false;

/**
 * The model file the page's `model` and `detail` parameters name (a built-in's file at that level, or the value
 * itself as a URL), on this page's own server only; null otherwise. A guess the app may not follow: App.set
 * resolves the parameters in full.
 */
export function firstModelUrl(search: string, base: string): string | null {
  const params = new URLSearchParams(search);
  const model = params.get('model') || 'default';
  const builtin = findBuiltin(model);
  let path = model;
  if (builtin) {
    const details = builtin.details;
    const level = params.get('detail') || builtin.defaultDetail || '';
    path = (details && details[level]) ?? builtin.url;
  }
  try {
    const url = new URL(path, base);
    return url.origin === new URL(base).origin ? url.href : null;
  } catch {
    return null;
  }
}

/** The load options the query names for its first model (a guess, as firstModelUrl: the page checks it, model-prep.ts). */
export function firstModelPrep(search: string): PrepInput {
  const params = new URLSearchParams(search);
  return { up: upFromSearch(params), orient: findBuiltin(params.get('model') || 'default')?.orient };
}

/**
 * Starts the first model's load (in the parse worker, or its request on the page) once per page. True for the
 * call that started it, false for any later one.
 */
export function startEarly(search: string, base: string): boolean {
  if (started) return false;
  started = true;
  const href = firstModelUrl(search, base);
  if (!prestartParseWorker(href ?? undefined, firstModelPrep(search)) && href) fetchEarly(href);
  return true;
}
