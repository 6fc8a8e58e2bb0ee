import { DEFORM_KINDS } from '../deform/kinds.ts';
import { transferables } from './parse-protocol.ts';
import type { DeformReply, DeformRequest } from './deform-protocol.ts';

/**
 * Module worker entry (src/app/deform-gate.ts starts one per precompute): computes one technique's load-time
 * data for every mesh of a model (DEFORM_KINDS: cor's centres, ddm's Ω) and posts it back with its buffers
 * transferred, reporting progress over all meshes weighted by vertex count. Cancelling is terminate().
 */

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<DeformRequest>) => void) | null;
  postMessage(message: DeformReply, transfer?: Transferable[]): void;
};

/** Progress messages at most this often (ms): enough for a smooth bar, few enough to cost nothing. */
const PROGRESS_MS = 100;

scope.onmessage = (e: MessageEvent<DeformRequest>): void => {
  const { kind, meshes } = e.data;
  const spec = DEFORM_KINDS[kind];
  const t0 = performance.now();
  const total = meshes.reduce((n, m) => n + m.vertexCount, 0) || 1;
  let before = 0;
  let last = 0;
  try {
    const data = meshes.map((mesh) => {
      const result = spec.compute(mesh, (fraction) => {
        const now = performance.now();
        if (now - last < PROGRESS_MS) return;
        last = now;
        scope.postMessage({ type: 'progress', fraction: (before + fraction * mesh.vertexCount) / total });
      });
      before += mesh.vertexCount;
      return result;
    });
    const reply: DeformReply = { type: 'done', data, ms: performance.now() - t0 };
    scope.postMessage(reply, transferables(data));
  } catch (err) {
    scope.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
};

scope.postMessage({ type: 'ready' });
