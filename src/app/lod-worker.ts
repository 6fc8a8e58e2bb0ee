import { MeshoptEncoder, MeshoptSimplifier } from 'meshoptimizer';
import { authoredLevelError, type ErrorMeshInput } from '../model/lod-error.ts';
import { generateLevels, type GeneratedLevel, type LodMeshInput } from '../model/lod-simplify.ts';

/**
 * Module worker entry (src/app/lod-client.ts keeps one for the page, started when a crowd with LOD is first
 * wanted or at boot when the page asks for one), off the page's thread: simplifies the meshes it is sent
 * (src/model/lod-simplify.ts) and posts the generated levels back with their index buffers transferred, or
 * measures authored levels' errors against the chosen level (src/model/lod-error.ts). Serves one request at a
 * time (the client queues them). Cancelling is terminate().
 *
 * meshoptimizer's WebAssembly (simplifier and encoder) is compiled from the moment this module loads, before
 * any request: a worker started early (prewarmLodWorker) has it ready when the model is. A `generate` reply
 * tells the two apart: `wasmMs` is how long the request waited for the compilation (0 once it is done), `ms`
 * the simplification itself.
 */

/** Page → worker (copies: the page keeps its own arrays). */
export type LodRequest =
  | { readonly type: 'generate'; readonly meshes: LodMeshInput[] }
  | { readonly type: 'measure'; readonly chosen: ErrorMeshInput[]; readonly levels: ErrorMeshInput[][] };

/** Worker → page. `ms`: the work itself; `wasmMs`: waiting for the WebAssembly first. */
export type LodReply =
  | { readonly type: 'done'; readonly levels: GeneratedLevel[]; readonly ms: number; readonly wasmMs: number }
  | { readonly type: 'measured'; readonly errors: number[]; readonly ms: number }
  | { readonly type: 'error'; readonly message: string };

/** Started at load: compiling overlaps the model's loading and the worker's start-up. */
const wasmReady = Promise.all([MeshoptSimplifier.ready, MeshoptEncoder.ready]);
let wasmDone = false;
void wasmReady.then(
  () => (wasmDone = true),
  () => {},
);

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<LodRequest>) => Promise<void>) | null;
  postMessage(message: LodReply, transfer?: Transferable[]): void;
};

scope.onmessage = async (e: MessageEvent<LodRequest>): Promise<void> => {
  try {
    const request = e.data;
    if (request.type === 'measure') {
      const t0 = performance.now();
      const errors = request.levels.map((meshes) => authoredLevelError({ meshes: request.chosen }, { meshes }));
      scope.postMessage({ type: 'measured', errors, ms: performance.now() - t0 });
      return;
    }
    const tw = performance.now();
    if (!wasmDone) await wasmReady;
    const t0 = performance.now();
    const levels = await generateLevels(request.meshes);
    const transfer = levels.flatMap((l) => l.indices.map((i) => i.buffer as ArrayBuffer));
    scope.postMessage({ type: 'done', levels, ms: performance.now() - t0, wasmMs: t0 - tw }, [...new Set(transfer)]);
  } catch (err) {
    scope.postMessage({ type: 'error', message: (err as Error)?.message ?? String(err) });
  }
};
