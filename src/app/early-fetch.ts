/**
 * The first model's file asked for ahead of its reader: on the page itself before the page is built, where no
 * parse worker could start to read it (early-start.ts), or by the parse worker's entry while its parsers load
 * (parse-worker.ts). The model source's fetch (model-source.ts) takes that response instead of asking again.
 * Each response is taken once; one nobody takes is left to the browser. Imports nothing, so the parse worker's
 * bundle can carry model-source.ts without the page's start-up code.
 */

const pending = new Map<string, Promise<Response>>();
let asking: Promise<void> = Promise.resolve();

/**
 * Asks for `href` now and keeps the response for the first takeEarlyResponse(href); returns it as well (early-gltf.ts
 * reads a copy).
 */
export function fetchEarly(href: string): Promise<Response> {
  const response = fetch(href);
  // A failure is seen (and reported) by whoever takes the response; untaken, it must not be an unhandled rejection.
  response.catch(() => {});
  pending.set(href, response);
  return response;
}

/**
 * Says that files are being asked for ahead until `done` settles (early-gltf.ts, from a glTF's JSON): a read of the
 * files a model names waits for askedAhead() first, so that it takes those responses rather than racing them.
 */
export function askingAhead(done: Promise<unknown>): void {
  asking = done.then(
    () => {},
    () => {},
  );
}

/** Settles once whatever askingAhead() named has asked for its files (at once when nothing did; never rejects). */
export function askedAhead(): Promise<void> {
  return asking;
}

/** The early response for `href`, once (null when none was started or it was taken already). */
export function takeEarlyResponse(href: string): Promise<Response> | null {
  const response = pending.get(href);
  if (!response) return null;
  pending.delete(href);
  return response;
}
