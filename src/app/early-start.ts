import { modelRequest } from './model-state.ts';
import { applyParams, defaultState } from './state.ts';

/**
 * Work on the first model started before the page is built (creating the WebGL context and the panels takes
 * a while, and the first GL call waits for the GPU process): the model file's request goes out at once, and
 * the model source's fetch (model-source.ts) takes that response instead of asking again. Each early request is
 * taken once; one nobody takes is simply left to the browser. No state is kept beyond the pending responses.
 */

const pending = new Map<string, Promise<Response>>();

/** The model file the page's parameters load first (as `App.set` will resolve it), or null when there is none. */
export function firstModelUrl(params: Record<string, string>, base: string): string | null {
  const state = defaultState();
  const asked = { model: 'default', ...params };
  applyParams(state, asked);
  const request = modelRequest(state, asked, null);
  if (!request.load) return null;
  try {
    const url = new URL(request.load.url, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Starts fetching `href` now; a later fetch of the same address through takeEarlyResponse gets this response. */
export function fetchEarly(href: string): void {
  if (pending.has(href)) return;
  const response = fetch(href);
  // A failure is seen (and reported) by whoever takes the response; untaken, it must not be an unhandled rejection.
  response.catch(() => {});
  pending.set(href, response);
}

/** The early response for `href`, once (null when none was started or it was taken already). */
export function takeEarlyResponse(href: string): Promise<Response> | null {
  const response = pending.get(href);
  if (!response) return null;
  pending.delete(href);
  return response;
}
