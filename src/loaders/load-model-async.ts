import { LoadError } from '../model/errors.ts';
import type { Scene } from '../model/types.ts';
import { looksLikeGltf } from './gltf/gltf-container.ts';
import { withGroupedWarnings } from './group-warnings.ts';
import { MAX_MODEL_BYTES } from './model-formats.ts';
import { sceneNeedsTangents, withGeneratedTangents } from './tangents/generate-tangents.ts';

/**
 * loadModelAsync, the single entry point from bytes to a validated Scene for every format, on its own: each
 * format's reader is a module it loads on first use (the glTF reader, and the .x and .m3d readers behind
 * load-model-sync.ts loadModel), so a parse worker whose first model is a glTF starts without compiling and running
 * the others. load-model.ts re-exports it beside the synchronous loadModel. loadModelWith is the same with the
 * readers given: the parse worker holds the glTF reader in its own work module (parse-worker-body.ts), so that
 * module arrives whole in one request instead of asking for the reader's chunks after it has arrived.
 */

/** Where loadModelWith gets each format's reader (a module, or the promise of one it loads). */
export interface ModelReaders {
  gltf(): Promise<{ readGltf: typeof import('./gltf/read-gltf.ts').readGltf }>;
  others(): Promise<{ loadModel: typeof import('./load-model-sync.ts').loadModel }>;
}

let gltfReader: Promise<typeof import('./gltf/read-gltf.ts')> | null = null;
let otherReaders: Promise<typeof import('./load-model-sync.ts')> | null = null;

/** The glTF reader, loaded on first use, once: it stays out of the way of .x and .m3d loads. */
function lazyGltfReader(): Promise<typeof import('./gltf/read-gltf.ts')> {
  gltfReader ??= import('./gltf/read-gltf.ts').catch((e: unknown) => {
    gltfReader = null; // a failed chunk load is tried again next time
    throw e;
  });
  return gltfReader;
}

/** The same rule for the .x and .m3d readers (and the messages for a file of no known format). */
export function lazyOtherReaders(): Promise<typeof import('./load-model-sync.ts')> {
  otherReaders ??= import('./load-model-sync.ts').catch((e: unknown) => {
    otherReaders = null;
    throw e;
  });
  return otherReaders;
}

/**
 * Every format, glTF included: glTF is read asynchronously (its module and the Draco / meshopt decoders are
 * loaded on first use), the others through loadModel. `resources`: the files a .gltf names (buffers, images), keyed
 * by the URI exactly as written in its JSON; a missing buffer is a LoadError naming it, a missing image is
 * left to the page as a companion file. Normal-mapped meshes without tangents get MikkTSpace ones (withTangents).
 */
export function loadModelAsync(fileName: string, bytes: Uint8Array, resources?: ReadonlyMap<string, Uint8Array>): Promise<Scene> {
  return loadModelWith({ gltf: lazyGltfReader, others: lazyOtherReaders }, fileName, bytes, resources);
}

/** loadModelAsync with the readers taken from `readers`. */
export async function loadModelWith(readers: ModelReaders, fileName: string, bytes: Uint8Array, resources?: ReadonlyMap<string, Uint8Array>): Promise<Scene> {
  checkSize(fileName, bytes);
  if (looksLikeGltf(fileName, bytes)) {
    const { readGltf } = await readers.gltf();
    return withGroupedWarnings(await withTangents(await readGltf(fileName, bytes, resources ?? new Map())));
  }
  const { loadModel } = await readers.others();
  return withTangents(loadModel(fileName, bytes));
}

/**
 * MikkTSpace tangents for normal-mapped meshes that carry none (tangents/generate-tangents.ts); MikkTSpace's
 * WebAssembly is loaded only for such a model.
 */
async function withTangents(scene: Scene): Promise<Scene> {
  if (!sceneNeedsTangents(scene)) return scene;
  try {
    const { loadMikkTSpace } = await import('./tangents/mikktspace.ts');
    return withGeneratedTangents(scene, await loadMikkTSpace());
  } catch (e) {
    // The model still draws (normal maps without a tangent frame): say why rather than refuse it.
    return { ...scene, warnings: [...scene.warnings, `MikkTSpace tangents could not be generated for the normal-mapped meshes (${(e as Error).message})`] };
  }
}

/** The size rule every format shares (loadModel's too). */
export function checkSize(fileName: string, bytes: Uint8Array): void {
  if (bytes.length > MAX_MODEL_BYTES) {
    throw new LoadError(`${fileName}: ${(bytes.length / 1048576).toFixed(0)} MiB is larger than the ${MAX_MODEL_BYTES / 1048576} MiB limit`);
  }
  if (bytes.length === 0) throw new LoadError(`${fileName}: the file is empty`, 1);
}
