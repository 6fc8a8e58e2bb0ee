import { looksLikeGltf, peekGltfContainer } from '../loaders/gltf/gltf-container.ts';
import { externalUris } from '../loaders/gltf/gltf-uris.ts';
import { MAX_MODEL_BYTES } from '../loaders/model-formats.ts';
import type { ModelSource } from './model-source.ts';

/**
 * A model's files around its own bytes: the files a glTF refers to, read through its source, and the byte
 * counts shown while loading. No DOM and no WebGL: the page's loader (loader.ts) and the parse worker's early
 * load (parse-early.ts) use the same rules.
 */

/**
 * The external files a glTF names (buffers, then images), read through the source's companion rules and keyed
 * by the URI exactly as written; empty for other formats and for a glTF that names none. A file that is not
 * there is left out: the reader then names the missing buffer and its JSON pointer, and a missing image becomes
 * a checker and a warning. A file over the size limit fails the load with its name. The JSON is read here only
 * to list the URIs; a container the reader will reject is left to its error.
 */
export async function fetchResources(
  source: ModelSource,
  bytes: Uint8Array,
  signal: AbortSignal,
  progress: (text: string, share?: number) => void,
): Promise<Map<string, Uint8Array>> {
  const resources = new Map<string, Uint8Array>();
  if (!looksLikeGltf(source.name, bytes)) return resources;
  let uris: string[];
  try {
    const { buffers, images } = externalUris(peekGltfContainer(source.name, bytes).json);
    uris = [...new Set([...buffers, ...images])];
  } catch {
    return resources;
  }
  let done = 0;
  let loaded = 0;
  const report = (): void => progress(`Loading the files ${source.name} refers to… ${done} of ${uris.length} (${formatBytes(loaded)})`, uris.length ? done / uris.length : undefined);
  report();
  await Promise.all(
    uris.map(async (uri) => {
      const data = await source.resource(uri, MAX_MODEL_BYTES, signal);
      if (data) {
        resources.set(uri, data);
        loaded += data.length;
      }
      done++;
      report();
    }),
  );
  return resources;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1048576) return `${(n / 1024).toFixed(0)} KiB`;
  return `${(n / 1048576).toFixed(1)} MiB`;
}
