import { generateLevels, type GeneratedLevel, type LodMeshInput } from '../model/lod-simplify.ts';

/**
 * Module worker entry (src/app/lod-client.ts starts one per model when a crowd first wants LOD): simplifies the
 * meshes it is sent (src/model/lod-simplify.ts) off the page's thread and posts the generated levels back with
 * their index buffers transferred. Cancelling is terminate().
 */

/** Page → worker: the meshes to simplify (copies: the page keeps its own). */
export interface LodRequest {
  readonly meshes: LodMeshInput[];
}

/** Worker → page. */
export type LodReply = { readonly type: 'done'; readonly levels: GeneratedLevel[]; readonly ms: number } | { readonly type: 'error'; readonly message: string };

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<LodRequest>) => Promise<void>) | null;
  postMessage(message: LodReply, transfer?: Transferable[]): void;
};

scope.onmessage = async (e: MessageEvent<LodRequest>): Promise<void> => {
  const t0 = performance.now();
  try {
    const levels = await generateLevels(e.data.meshes);
    const transfer = levels.flatMap((l) => l.indices.map((i) => i.buffer as ArrayBuffer));
    scope.postMessage({ type: 'done', levels, ms: performance.now() - t0 }, [...new Set(transfer)]);
  } catch (err) {
    scope.postMessage({ type: 'error', message: (err as Error)?.message ?? String(err) });
  }
};
