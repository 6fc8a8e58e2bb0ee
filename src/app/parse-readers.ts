import { readGltf } from '../loaders/gltf/read-gltf.ts';
import { lazyOtherReaders, loadModelWith } from '../loaders/load-model-async.ts';
import type { Scene } from '../model/types.ts';

/**
 * loadModelAsync as the parse worker runs it: the glTF reader is imported here, not loaded on first use, so it
 * is part of the worker's work module (parse-worker-body.ts), which the worker's entry asks for once and which
 * then imports no chunk but the entry's. A reader loaded on first use would be a chunk of its own, asked for
 * only once the work module had arrived and run, with the modules it shares with that module in a third. The .x
 * and .m3d readers still load on first use.
 */
export function parseModel(fileName: string, bytes: Uint8Array, resources?: ReadonlyMap<string, Uint8Array>): Promise<Scene> {
  return loadModelWith({ gltf: () => Promise.resolve({ readGltf }), others: lazyOtherReaders }, fileName, bytes, resources);
}
