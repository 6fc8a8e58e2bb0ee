import { findBuiltin } from './builtins.ts';
import { prestartParseWorker } from './parse-worker-start.ts';

/**
 * Work on the first model started before the page is built (src/boot.ts runs it while the page's main script
 * is still arriving; main.ts calls it again, which does nothing the second time): the model file's request goes
 * out at once — the model source's fetch (model-source.ts) takes that response instead of asking again — and
 * the parse worker starts (parse-worker-start.ts). Each early response is taken once; one nobody takes (the page
 * resolved the parameters otherwise) is left to the browser. Small on purpose: it imports only the built-in list.
 */

const pending = new Map<string, Promise<Response>>();
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

/** Starts the first model's request and the parse worker (once per page). */
export function startEarly(search: string, base: string): void {
  if (started) return;
  started = true;
  const href = firstModelUrl(search, base);
  if (href) {
    const response = fetch(href);
    // A failure is seen (and reported) by whoever takes the response; untaken, it must not be an unhandled rejection.
    response.catch(() => {});
    pending.set(href, response);
  }
  prestartParseWorker(href ? new URL(href).pathname : undefined);
}

/** The early response for `href`, once (null when none was started or it was taken already). */
export function takeEarlyResponse(href: string): Promise<Response> | null {
  const response = pending.get(href);
  if (!response) return null;
  pending.delete(href);
  return response;
}
