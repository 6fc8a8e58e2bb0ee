import { loadModel } from '../loaders/load-model.ts';
import { errorFields, transferables, type ParseReply, type ParseRequest } from './parse-protocol.ts';

/**
 * Module worker entry (src/app/parse-client.ts starts one per load): parses one model off the page's
 * thread so the GUI, the camera and the current model keep running. The Scene goes back with its
 * typed-array buffers transferred, a failure as plain error fields. Cancelling is terminate().
 */

/** The worker global, typed by hand: the project compiles against the DOM lib, whose `self` is a Window. */
const scope = self as unknown as {
  onmessage: ((e: MessageEvent<ParseRequest>) => void) | null;
  postMessage(message: ParseReply, transfer?: Transferable[]): void;
};

scope.onmessage = (e: MessageEvent<ParseRequest>): void => {
  const { name, bytes } = e.data;
  const t0 = performance.now();
  let reply: ParseReply;
  try {
    const scene = loadModel(name, bytes);
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
