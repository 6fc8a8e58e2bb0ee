import { authoredLevelError } from '../model/lod-error.ts';
import { generateLevels, type GeneratedLevel, type LodMeshInput } from '../model/lod-simplify.ts';
import type { Scene } from '../model/types.ts';
import type { LodReply, LodRequest } from './lod-worker.ts';

/**
 * Detail levels' one-time work without stopping the page, in a module worker of its own
 * (src/app/lod-worker.ts; only when no worker can be started on the page's thread): generated levels, and the
 * errors of authored ones. Each level
 * comes back as a Scene that shares everything with the model but its meshes' indices and subsets (the
 * vertices are the originals). Rejects with an AbortError when `signal` aborts (the worker is terminated).
 */
export async function generateLevelScenes(scene: Scene, signal: AbortSignal): Promise<{ levels: { scene: Scene; error: number }[]; ms: number; where: 'worker' | 'main' }> {
  const meshes: LodMeshInput[] = scene.meshes.map((m) => ({
    vertexCount: m.vertexCount, positions: m.positions, normals: m.normals, uvs: m.uvs, weights: m.weights, indices: m.indices, subsets: m.subsets,
  }));
  const t0 = performance.now();
  let generated: GeneratedLevel[];
  let where: 'worker' | 'main' = 'worker';
  const worker = startWorker();
  if (worker) generated = ((await inWorker(worker, { type: 'generate', meshes }, signal)) as { levels: GeneratedLevel[] }).levels;
  else {
    where = 'main';
    generated = await generateLevels(meshes);
  }
  if (signal.aborted) throw new DOMException('cancelled', 'AbortError');
  const levels = generated.map((g) => ({
    scene: { ...scene, meshes: scene.meshes.map((m, i) => ({ ...m, indices: g.indices[i]!, subsets: g.subsets[i]! })) },
    error: g.error,
  }));
  return { levels, ms: performance.now() - t0, where };
}

/** The errors of authored levels `levels` against `chosen` (src/model/lod-error.ts), model units. */
export async function measureLevels(chosen: Scene, levels: Scene[], signal: AbortSignal): Promise<number[]> {
  const pick = (s: Scene) => s.meshes.map((m) => ({ vertexCount: m.vertexCount, positions: m.positions, indices: m.indices }));
  const worker = startWorker();
  if (!worker) return levels.map((l) => authoredLevelError(chosen, l));
  const reply = await inWorker(worker, { type: 'measure', chosen: pick(chosen), levels: levels.map(pick) }, signal);
  return (reply as { errors: number[] }).errors;
}

function startWorker(): Worker | null {
  try {
    // Written out in full so Vite finds it and bundles the worker as its own module chunk.
    return new Worker(new URL('./lod-worker.ts', import.meta.url), { type: 'module', name: 'skinlab-lod' });
  } catch {
    return null;
  }
}

function inWorker(worker: Worker, request: LodRequest, signal: AbortSignal): Promise<Exclude<LodReply, { type: 'error' }>> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      worker.terminate();
      reject(new DOMException('cancelled', 'AbortError'));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const finish = (): void => {
      signal.removeEventListener('abort', onAbort);
      worker.terminate();
    };
    worker.onmessage = (e: MessageEvent<LodReply>) => {
      finish();
      if (e.data.type === 'error') reject(new Error(e.data.message));
      else resolve(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      finish();
      reject(new Error(`the simplifier stopped: ${e.message || 'it failed to load or crashed'}`));
    };
    worker.postMessage(request);
  });
}
