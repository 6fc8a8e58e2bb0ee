import { precompileKernels } from '../anim/wasm-kernel.ts';
import { prepareForPage } from './model-prep-worker.ts';
import { loadEarly, type EarlyOutcome } from './parse-early.ts';
import { parseModel } from './parse-readers.ts';
import type { ParseEarly } from './parse-job.ts';
import { errorFields, transferables, type ParseReply, type ParseRequest, type ParseTake } from './parse-protocol.ts';

/**
 * The compression decoders' start, for the worker's entry (early-gltf.ts), which takes it from this module rather
 * than importing gltf-decoders.ts itself: that module, shared by two chunks the entry asks for, would be a
 * chunk of its own, which this one would then ask for once it had arrived.
 */
export { loadDecoders } from '../loaders/gltf/gltf-decoders.ts';

/**
 * The parse worker's work (its entry, parse-worker.ts, loads this module once it has reported itself started):
 * parses one model (with the files it refers to, `resources`: a .gltf's buffers and images; Draco and meshopt
 * decoders run here too) off the page's thread so the GUI, the camera and the current model keep running. The
 * Scene goes back with its typed-array buffers transferred, then the file's own images it decoded meanwhile
 * (image-predecode.ts; ImageBitmaps transferred, in a message of their own: the page starts on the Scene while
 * they decode), a failure as plain error fields. Cancelling is terminate().
 *
 * With `prep`, the Scene is prepared for the page too (model-prep.ts: upright, framing).
 * A worker started ahead carries a ParseEarly in its name: it reads and parses the page's first model at once
 * (parse-early.ts) and hands the result over on the matching ParseTake; a take of another address is declined.
 */

/** The worker global, typed by hand: the project compiles against the DOM lib, whose `self` is a Window. */
export interface ParseScope {
  postMessage(message: ParseReply, transfer?: Transferable[]): void;
}

/** Starts `job` (the first model, when the worker was started ahead) and returns the handler of the page's messages. */
export function parseHandler(scope: ParseScope, job: ParseEarly | null): (e: MessageEvent<ParseRequest | ParseTake>) => Promise<void> {
  let early: { readonly url: string; readonly outcome: Promise<EarlyOutcome> } | null = job ? { url: job.url, outcome: loadEarly(job) } : null;
  // The preparation's posing kernels compile on the engine's threads while the file is read and parsed.
  precompileKernels();

  /** Posts a parsed Scene with its buffers transferred, then, once decoded, its images (ParseReply `images`). */
  const send = (reply: ParseReply & { type: 'done' }, bitmaps: Promise<ReadonlyMap<string, ImageBitmap>>): void => {
    try {
      scope.postMessage(reply, transferables(reply.scene));
    } catch (err) {
      // A Scene that does not survive structured clone is a loader defect: say so rather than die silently.
      scope.postMessage({ type: 'error', error: errorFields(err), parseMs: reply.parseMs });
      void bitmaps.then(closeAll);
      return;
    }
    void bitmaps.then((decoded) => {
      const list = [...decoded];
      try {
        scope.postMessage({ type: 'images', bitmaps: list }, list.map(([, bitmap]) => bitmap));
      } catch {
        closeAll(decoded);
        scope.postMessage({ type: 'images', bitmaps: [] }); // the page decodes them itself
      }
    });
  };

  return async (e) => {
    const message = e.data;
    if ('type' in message) {
      if (!early || early.url !== message.url) {
        scope.postMessage({ type: 'declined' });
        return;
      }
      const outcome = await early.outcome;
      early = null;
      if (outcome.ok) send({ type: 'done', scene: outcome.scene, parseMs: outcome.parseMs, early: outcome.figures, facts: outcome.facts }, outcome.bitmaps);
      else scope.postMessage({ type: 'error', error: outcome.error, parseMs: outcome.parseMs });
      return;
    }
    const { name, bytes, resources, prep } = message;
    const t0 = performance.now();
    try {
      const parsed = await parseModel(name, bytes, resources);
      const parseMs = performance.now() - t0;
      const { scene, facts, bitmaps } = await prepareForPage(parsed, prep);
      send({ type: 'done', scene, facts, parseMs }, bitmaps);
    } catch (err) {
      scope.postMessage({ type: 'error', error: errorFields(err), parseMs: performance.now() - t0 });
    }
  };
}

function closeAll(bitmaps: ReadonlyMap<string, ImageBitmap>): void {
  for (const b of bitmaps.values()) b.close();
}
