import { authoredLevelError } from '../model/lod-error.ts';
import type { GeneratedLevel, LodMeshInput } from '../model/lod-simplify.ts';
import type { Scene } from '../model/types.ts';
import type { LodReply, LodRequest } from './lod-worker.ts';
import { WorkerQueue, type QueueWorker } from './worker-queue.ts';

/**
 * Detail levels' one-time work without stopping the page, in one module worker kept for the page
 * (src/app/lod-worker.ts; only when no worker can be started, on the page's thread): generated levels, and the
 * errors of authored ones. Requests are served one at a time, first come first served (worker-queue.ts): the
 * models of a mixed crowd queue for the one worker instead of four cold workers sharing the cores.
 *
 * The worker compiles meshoptimizer's WebAssembly as it loads; prewarmLodWorker() starts it early (at boot
 * when the page asks for a crowd with LOD), so a model's first request finds it compiled. Measured in the
 * page (SwiftShader, this 2-core machine, a crowd of 100, 200 × 150 canvas): see docs/crowds.md "Loading".
 *
 * Cancelling (`signal`) a queued request drops it; cancelling the one in flight terminates the worker (the
 * simplification stops at once) and the next request gets a fresh one. A worker that fails to load or
 * crashes rejects its request (`the simplifier worker stopped: …`) and is replaced.
 */

function startWorker(): QueueWorker<LodRequest, LodReply> | null {
  try {
    // Written out in full so Vite finds it and bundles the worker as its own module chunk.
    return new Worker(new URL('./lod-worker.ts', import.meta.url), { type: 'module', name: 'skinlab-lod' }) as unknown as QueueWorker<LodRequest, LodReply>;
  } catch {
    return null;
  }
}

let queue: WorkerQueue<LodRequest, LodReply> | null = null;

function lodQueue(): WorkerQueue<LodRequest, LodReply> {
  queue ??= new WorkerQueue(typeof Worker === 'undefined' ? () => null : startWorker, 'simplifier');
  return queue;
}

/** Starts the page's LOD worker if none runs (idempotent), so its WebAssembly compiles before the first request. */
export function prewarmLodWorker(): void {
  lodQueue().prewarm();
}

/** Generated levels as scenes, and where and how long they took. */
export interface GeneratedScenes {
  readonly levels: { scene: Scene; error: number }[];
  /** The simplification itself, ms (in the worker, or on the page's thread). */
  readonly ms: number;
  /** Waiting for meshoptimizer's WebAssembly before it, ms (0 when a warm worker had it compiled). */
  readonly wasmMs: number;
  /** From the call to the levels, ms: queueing, start-up, transfers and the above. */
  readonly totalMs: number;
  readonly where: 'worker' | 'main';
}

/**
 * The generated levels of `scene`. Each level comes back as a Scene that shares everything with the model but
 * its meshes' indices and subsets (the vertices are the originals). Rejects with an AbortError when `signal`
 * aborts.
 */
export async function generateLevelScenes(scene: Scene, signal: AbortSignal): Promise<GeneratedScenes> {
  const meshes: LodMeshInput[] = scene.meshes.map((m) => ({
    vertexCount: m.vertexCount, positions: m.positions, normals: m.normals, uvs: m.uvs, colors: m.colors ?? null, weights: m.weights, indices: m.indices, subsets: m.subsets,
  }));
  const t0 = performance.now();
  let generated: GeneratedLevel[];
  let ms: number;
  let wasmMs = 0;
  let where: 'worker' | 'main' = 'worker';
  const q = lodQueue();
  if (q.available()) {
    const reply = await q.request({ type: 'generate', meshes }, signal, (r) => (r.type === 'done' ? r : unexpected(r)));
    generated = reply.levels;
    ms = reply.ms;
    wasmMs = reply.wasmMs;
  } else {
    where = 'main';
    // The simplifier comes with the page only on this path (the LOD worker has its own).
    const { generateLevels } = await import('../model/lod-simplify.ts');
    generated = await generateLevels(meshes);
    ms = performance.now() - t0;
  }
  if (signal.aborted) throw new DOMException('cancelled', 'AbortError');
  const levels = generated.map((g) => ({
    scene: { ...scene, meshes: scene.meshes.map((m, i) => ({ ...m, indices: g.indices[i]!, subsets: g.subsets[i]! })) },
    error: g.error,
  }));
  return { levels, ms, wasmMs, totalMs: performance.now() - t0, where };
}

/** The errors of authored levels `levels` against `chosen` (src/model/lod-error.ts), model units. */
export async function measureLevels(chosen: Scene, levels: Scene[], signal: AbortSignal): Promise<number[]> {
  const pick = (s: Scene) => s.meshes.map((m) => ({ vertexCount: m.vertexCount, positions: m.positions, indices: m.indices }));
  const q = lodQueue();
  if (!q.available()) return levels.map((l) => authoredLevelError(chosen, l));
  const reply = await q.request({ type: 'measure', chosen: pick(chosen), levels: levels.map(pick) }, signal, (r) => (r.type === 'measured' ? r : unexpected(r)));
  return reply.errors;
}

/** A worker's error reply as an Error (or a reply of the wrong kind). */
function unexpected(r: LodReply): Error {
  return new Error(r.type === 'error' ? r.message : `unexpected reply from the simplifier: ${r.type}`);
}
