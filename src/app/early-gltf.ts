import { dracoWasm } from '../loaders/gltf/draco-wasm.ts';
import { isObj } from '../loaders/gltf/gltf-check-util.ts';
import { externalUris } from '../loaders/gltf/gltf-uris.ts';
import { companionName, companionUrl } from './companion-names.ts';
import { askingAhead, fetchEarly } from './early-fetch.ts';
import { decodeEarly, MAX_EARLY_IMAGES } from './early-images.ts';
import { readGltfHead, type GltfHead } from './gltf-head.ts';

/**
 * What the first model's JSON lets the parse worker start while it is still loading its parsers. The worker's entry
 * (parse-worker.ts) reads the head of a glTF's response as soon as it arrives (gltf-head.ts) — a copy: the parse
 * takes the response itself (early-fetch.ts) — and from its JSON
 * - asks for the files it names beside itself (buffers, images) at the addresses the parse's own reads use first
 *   (model-source.ts, through companion-names.ts), so those reads take the responses on their way (early-fetch.ts;
 *   the parse reads them once this step is done: askedAhead);
 * - starts the compression extensions' decoders (gltf-decoders.ts, from the worker's work module; Draco's
 *   Emscripten glue and its WebAssembly module are asked for beside it: draco-wasm.ts), which the parsers would
 *   start only once they have loaded (read-gltf.ts prewarmDecoders then finds them on their way: a decoder
 *   starts once per worker);
 * - starts decoding the images its textures show (early-images.ts; a .glb's binary chunk is read for them), which
 *   the parse would start only once it has parsed the file (image-predecode.ts then takes these decodes).
 * Whatever fails here is left to the parse, which reads the files and starts the decoders itself.
 */

/** The extensions whose decoders start here (gltf-decoders.ts loadDecoders starts each by its name). */
const COMPRESSION = ['KHR_draco_mesh_compression', 'EXT_meshopt_compression', 'KHR_meshopt_compression'] as const;

/** The most files asked for ahead (a model names a few; the parse reads any others itself). */
const MAX_EARLY_FILES = 32;

/** The largest image file (by its Content-Length) decoded ahead from a copy of its response. */
const EARLY_FILE_LIMIT = 64 << 20;

/** Starts what the glTF at `url` (absolute) names, from its `response` (never rejects). */
export function startFromGltfJson(response: Promise<Response>, url: string): void {
  const named = response
    .then((r) => (r.ok && r.body ? readGltfHead(r.clone().body!) : null))
    .then((head) => {
      if (!head) return null;
      const text = new TextDecoder().decode(head.json);
      const json = jsonObject(text);
      if (json) {
        const files = askForFiles(json, url);
        decodeImages(json, head, files);
      } else {
        head.cancel();
      }
      return text;
    });
  // The parse reads the files the JSON names once these are asked for (parse-early.ts).
  askingAhead(named);
  named
    .then((text) => {
      if (text === null) return;
      const used = COMPRESSION.filter((name) => text.includes(`"${name}"`));
      if (used.length === 0) return;
      // Draco's Emscripten glue and its WebAssembly module asked for beside the module that starts them: each would
      // otherwise wait for the one before it.
      if (used.includes('KHR_draco_mesh_compression')) {
        import('draco3d/draco_decoder_nodejs.js').catch(() => {});
        dracoWasm().catch(() => {});
      }
      const fileName = url.slice(url.lastIndexOf('/') + 1);
      // From the worker's work module, which the entry has asked for already (parse-worker-body.ts says why).
      return import('./parse-worker-body.ts').then((m) => m.loadDecoders({ extensionsUsed: used }, fileName));
    })
    .catch(() => {});
}

/** The JSON as an object, or null when the text is not whole JSON or not an object. */
function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const json: unknown = JSON.parse(text);
    return isObj(json) ? json : null;
  } catch {
    return null;
  }
}

/** Asks for the files the JSON names beside the model; returns their responses by URI as written. */
function askForFiles(json: Record<string, unknown>, url: string): Map<string, Promise<Response>> {
  const { buffers, images } = externalUris(json);
  const model = new URL(url);
  const asked = new Map<string, Promise<Response>>();
  const byUri = new Map<string, Promise<Response>>();
  for (const uri of [...buffers, ...images]) {
    const href = companionUrl(companionName(uri), model)?.href;
    if (!href) continue;
    let response = asked.get(href);
    if (!response) {
      if (asked.size === MAX_EARLY_FILES) break;
      response = fetchEarly(href);
      asked.set(href, response);
    }
    byUri.set(uri, response);
  }
  return byUri;
}

/**
 * Starts decoding the images the textures show (early-images.ts): a .glb's from its binary chunk, read on to its
 * end for them (gltf-head.ts bin(); else the rest of the stream is let go), a .gltf's files from copies of the
 * responses asked for (`files`, by URI as written). Each copy is made in a reaction registered as the file is asked
 * for, so before the parse can take that response and read it (early-fetch.ts).
 */
function decodeImages(json: Record<string, unknown>, head: GltfHead, files: ReadonlyMap<string, Promise<Response>>): void {
  const images = list(json['images']);
  const views = list(json['bufferViews']);
  // The .glb's own buffer: the first, without a URI.
  const glbBuffer = list(json['buffers'])[0];
  const stored = head.bin !== null && isObj(glbBuffer) && glbBuffer['uri'] === undefined;
  const inBin: { offset: number; length: number }[] = [];
  for (const i of texturedImages(json)) {
    const image = images[i];
    if (!isObj(image)) continue;
    const uri = image['uri'];
    const file = typeof uri === 'string' ? files.get(uri) : undefined;
    if (file) {
      file
        .then((r) => {
          const length = Number(r.headers.get('content-length') ?? NaN);
          return r.ok && length > 0 && length <= EARLY_FILE_LIMIT ? r.clone().arrayBuffer() : null;
        })
        .then((bytes) => bytes && decodeEarly(new Uint8Array(bytes)))
        .catch(() => {});
      continue;
    }
    const view = typeof image['bufferView'] === 'number' ? views[image['bufferView']] : undefined;
    if (!stored || !isObj(view) || view['buffer'] !== 0) continue;
    const offset = view['byteOffset'] ?? 0;
    const length = view['byteLength'];
    if (typeof offset === 'number' && typeof length === 'number' && Number.isSafeInteger(offset) && Number.isSafeInteger(length) && offset >= 0 && length > 0) {
      inBin.push({ offset, length });
    }
  }
  if (inBin.length === 0 || !head.bin) {
    head.cancel();
    return;
  }
  void head.bin().then((chunk) => {
    // Copies: the file's bytes are let go once the images' own are out.
    for (const { offset, length } of inBin) if (chunk && offset + length <= chunk.length) decodeEarly(chunk.slice(offset, offset + length));
  });
}

/** The images the textures show (`textures[].source`), each once, at most MAX_EARLY_IMAGES. */
function texturedImages(json: Record<string, unknown>): number[] {
  const out = new Set<number>();
  for (const texture of list(json['textures'])) {
    if (out.size === MAX_EARLY_IMAGES) break;
    const source = isObj(texture) ? texture['source'] : undefined;
    if (typeof source === 'number' && Number.isInteger(source) && source >= 0) out.add(source);
  }
  return [...out];
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
