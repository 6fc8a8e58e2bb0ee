import { authoredLevelError, type ErrorMeshInput } from '../model/lod-error.ts';
import { generateLevels, type GeneratedLevel, type LodMeshInput } from '../model/lod-simplify.ts';

/**
 * Module worker entry (src/app/lod-client.ts starts one per request when a crowd first wants LOD), off the
 * page's thread: simplifies the meshes it is sent (src/model/lod-simplify.ts) and posts the generated levels
 * back with their index buffers transferred, or measures authored levels' errors against the chosen level
 * (src/model/lod-error.ts). Cancelling is terminate().
 */

/** Page → worker (copies: the page keeps its own arrays). */
export type LodRequest =
  | { readonly type: 'generate'; readonly meshes: LodMeshInput[] }
  | { readonly type: 'measure'; readonly chosen: ErrorMeshInput[]; readonly levels: ErrorMeshInput[][] };

/** Worker → page. */
export type LodReply =
  | { readonly type: 'done'; readonly levels: GeneratedLevel[]; readonly ms: number }
  | { readonly type: 'measured'; readonly errors: number[]; readonly ms: number }
  | { readonly type: 'error'; readonly message: string };

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<LodRequest>) => Promise<void>) | null;
  postMessage(message: LodReply, transfer?: Transferable[]): void;
};

scope.onmessage = async (e: MessageEvent<LodRequest>): Promise<void> => {
  const t0 = performance.now();
  try {
    const request = e.data;
    if (request.type === 'measure') {
      const errors = request.levels.map((meshes) => authoredLevelError({ meshes: request.chosen }, { meshes }));
      scope.postMessage({ type: 'measured', errors, ms: performance.now() - t0 });
      return;
    }
    const levels = await generateLevels(request.meshes);
    const transfer = levels.flatMap((l) => l.indices.map((i) => i.buffer as ArrayBuffer));
    scope.postMessage({ type: 'done', levels, ms: performance.now() - t0 }, [...new Set(transfer)]);
  } catch (err) {
    scope.postMessage({ type: 'error', message: (err as Error)?.message ?? String(err) });
  }
};
