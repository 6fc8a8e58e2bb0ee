import { generateLevels, type GeneratedLevel, type LodMeshInput } from '../model/lod-simplify.ts';
import type { Scene } from '../model/types.ts';
import type { LodReply, LodRequest } from './lod-worker.ts';

/**
 * Generated detail levels without stopping the page: the simplification runs in its own module worker
 * (src/app/lod-worker.ts); only when no worker can be started does it run on the page's thread. Each level
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
  let worker: Worker | null = null;
  try {
    worker = new Worker(new URL('./lod-worker.ts', import.meta.url), { type: 'module', name: 'skinlab-lod' });
  } catch {
    worker = null;
  }
  if (worker) generated = await inWorker(worker, { meshes }, signal);
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

function inWorker(worker: Worker, request: LodRequest, signal: AbortSignal): Promise<GeneratedLevel[]> {
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
      if (e.data.type === 'done') resolve(e.data.levels);
      else reject(new Error(e.data.message));
    };
    worker.onerror = (e) => {
      e.preventDefault();
      finish();
      reject(new Error(`the simplifier stopped: ${e.message || 'it failed to load or crashed'}`));
    };
    worker.postMessage(request);
  });
}
