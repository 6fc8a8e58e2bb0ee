import { prewarmDecoders } from '../loaders/gltf/read-gltf.ts';
import { askedAhead } from './early-fetch.ts';
import { fetchResources } from './model-resources.ts';
import { urlSource } from './model-source.ts';
import { earlyIsGltf, type ParseEarly } from './parse-job.ts';
import { errorFields, type EarlyFigures, type ErrorFields } from './parse-protocol.ts';
import type { Scene } from '../model/types.ts';
import { prepareForPage } from './model-prep-worker.ts';
import { parseModel } from './parse-readers.ts';
import type { PrepFacts } from './model-prep.ts';

/**
 * The page's first model, read and parsed in the parse worker before the page asks for it (a ParseEarly,
 * parse-worker.ts): the same source rules (model-source.ts: size limits, companion addresses, HTTP errors), the
 * same external files (model-resources.ts) and the same loadModelAsync as a load the page starts, so the page
 * taking the result sees exactly what its own load would have given — the Scene, or the same error message.
 * Runs once per worker; holds the Scene until it is taken.
 */

export type EarlyOutcome =
  | { readonly ok: true; readonly scene: Scene; readonly parseMs: number; readonly figures: EarlyFigures; readonly facts?: PrepFacts; readonly bitmaps: Promise<ReadonlyMap<string, ImageBitmap>> }
  | { readonly ok: false; readonly error: ErrorFields; readonly parseMs: number };

/**
 * Reads the job's `url` (absolute) and the files it refers to, then parses and prepares them (`prep`); never
 * rejects. The worker's entry asked for the file already (parse-worker.ts): the fetch takes that response
 * (early-fetch.ts).
 */
export async function loadEarly(job: ParseEarly): Promise<EarlyOutcome> {
  const { url, prep } = job;
  const signal = new AbortController().signal;
  let parseMs = 0;
  try {
    const source = urlSource(url, url);
    const bytes = await source.read(() => {}, signal);
    // And the decoders it names (Draco's is a WebAssembly module to compile) while its other files are fetched.
    if (earlyIsGltf(job)) prewarmDecoders(source.name, bytes);
    // Once the worker's entry has asked for the files its JSON names (early-gltf.ts), so each crosses the network once.
    await askedAhead();
    const resources = await fetchResources(source, bytes, signal, () => {});
    let total = bytes.length;
    for (const r of resources.values()) total += r.length;
    const figures: EarlyFigures = { bytes: total, resources: resources.size };
    const t0 = performance.now();
    const parsed = await parseModel(source.name, bytes, resources);
    parseMs = performance.now() - t0;
    return { ok: true, ...(await prepareForPage(parsed, prep)), parseMs, figures };
  } catch (e) {
    return { ok: false, error: errorFields(e), parseMs };
  }
}
