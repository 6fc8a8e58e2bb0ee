import { loadModelAsync } from '../loaders/load-model.ts';
import { errorFields, transferables, type ParseReply, type ParseRequest, type ParseWarm } from './parse-protocol.ts';

/**
 * Module worker entry (src/app/parse-client.ts starts one per load; the first may be started ahead with a
 * ParseWarm hint, parse-worker-start.ts): parses one model (with the files it
 * refers to, `resources`: a .gltf's buffers and images; Draco and meshopt decoders run here too) off the page's
 * thread so the GUI, the camera and the current model keep running. The Scene goes back with its
 * typed-array buffers transferred, a failure as plain error fields. Cancelling is terminate().
 */

/** The worker global, typed by hand: the project compiles against the DOM lib, whose `self` is a Window. */
const scope = self as unknown as {
  onmessage: ((e: MessageEvent<ParseRequest | ParseWarm>) => Promise<void>) | null;
  postMessage(message: ParseReply, transfer?: Transferable[]): void;
};

scope.onmessage = async (e: MessageEvent<ParseRequest | ParseWarm>): Promise<void> => {
  if ('type' in e.data) {
    // A hint that a glTF is coming: its reader (the glTF SDK) loads while the file is still on its way.
    if (/\.(glb|gltf)$/i.test(e.data.name)) void import('../loaders/gltf/read-gltf.ts').catch(() => {});
    return;
  }
  const { name, bytes, resources } = e.data;
  const t0 = performance.now();
  let reply: ParseReply;
  try {
    const scene = await loadModelAsync(name, bytes, resources);
    reply = { type: 'done', scene, parseMs: performance.now() - t0 };
  } catch (err) {
    reply = { type: 'error', error: errorFields(err), parseMs: performance.now() - t0 };
    scope.postMessage(reply);
    return;
  }
  try {
    scope.postMessage(reply, transferables(reply.scene));
  } catch (err) {
    // A Scene that does not survive structured clone is a loader defect: say so rather than die silently.
    scope.postMessage({ type: 'error', error: errorFields(err), parseMs: reply.parseMs });
  }
};

scope.postMessage({ type: 'ready' });
