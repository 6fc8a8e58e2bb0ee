import { startFromGltfJson } from './early-gltf.ts';
import { fetchEarly } from './early-fetch.ts';
import { earlyFromName, earlyIsGltf } from './parse-job.ts';
import { errorFields, type ParseReply, type ParseRequest, type ParseTake } from './parse-protocol.ts';

/**
 * Module worker entry (src/app/parse-client.ts starts one per load; the first may be started ahead of the page,
 * parse-worker-start.ts). A few kilobytes on purpose: it reports itself started at once — the page's entry
 * script waits for that before it holds its thread to make the WebGL context, since a worker's start needs
 * that thread — and then loads its work, the parsers (the glTF reader among them), as one module of its own
 * that imports nothing but this one (parse-worker-body.ts; parse-readers.ts says why), with the first model's
 * file beside it when it was started ahead (and, for a glTF, what its JSON names: early-gltf.ts). The page's
 * messages that come meanwhile are kept and handled in order once it has; if that module cannot load, each is
 * answered with the error.
 */

/** The worker global, typed by hand: the project compiles against the DOM lib, whose `self` is a Window. */
const scope = self as unknown as {
  readonly name: string;
  onmessage: ((e: MessageEvent<ParseRequest | ParseTake>) => void) | null;
  postMessage(message: ParseReply, transfer?: Transferable[]): void;
};

const waiting: MessageEvent<ParseRequest | ParseTake>[] = [];
scope.onmessage = (e) => void waiting.push(e);
// Started ahead of the page: the first model's job is in the worker's name (read as the work module starts it).
// Its file is asked for now, so it arrives while the work module loads and runs (parse-early.ts takes that
// response).
const job = earlyFromName(scope.name);
if (job) {
  const response = fetchEarly(job.url);
  if (earlyIsGltf(job)) {
    // And the files and decoders its JSON names, as soon as it arrives (early-gltf.ts).
    startFromGltfJson(response, job.url);
  }
}
import('./parse-worker-body.ts').then(
  ({ parseHandler }) => {
    const handle = parseHandler(scope, job);
    scope.onmessage = (e) => void handle(e);
    for (const e of waiting.splice(0)) void handle(e);
  },
  (err: unknown) => {
    const error = errorFields(new Error(`the parse worker could not load its parsers: ${(err as Error)?.message ?? String(err)}`));
    const fail = (): void => scope.postMessage({ type: 'error', error, parseMs: 0 });
    scope.onmessage = fail;
    waiting.splice(0).forEach(fail);
  },
);

scope.postMessage({ type: 'ready' });
