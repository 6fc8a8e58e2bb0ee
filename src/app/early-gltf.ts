import { dracoWasm } from '../loaders/gltf/draco-wasm.ts';
import { externalUris } from '../loaders/gltf/gltf-uris.ts';
import { companionName, companionUrl } from './companion-names.ts';
import { fetchEarly } from './early-fetch.ts';

/**
 * What the first model's JSON lets the parse worker start while it is still loading its parsers. The worker's entry
 * (parse-worker.ts) reads the head of a glTF's response as soon as it arrives — a copy: the parse takes the
 * response itself (early-fetch.ts) — and from its JSON
 * - asks for the files it names beside itself (buffers, images) at the addresses the parse's own reads use first
 *   (model-source.ts, through companion-names.ts), so those reads take the responses on their way (early-fetch.ts);
 * - starts the compression extensions' decoders (gltf-decoders.ts, a chunk of its own; Draco's Emscripten glue and
 *   its WebAssembly module are asked for beside it: draco-wasm.ts), which the parsers would start only once they
 *   have loaded (read-gltf.ts prewarmDecoders then finds them on their way: a decoder starts once per worker).
 * Whatever fails here is left to the parse, which reads the files and starts the decoders itself.
 */

/** The extensions whose decoders start here (gltf-decoders.ts loadDecoders starts each by its name). */
const COMPRESSION = ['KHR_draco_mesh_compression', 'EXT_meshopt_compression', 'KHR_meshopt_compression'] as const;

/** The most files asked for ahead (a model names a few; the parse reads any others itself). */
const MAX_EARLY_FILES = 32;

/** The most bytes read for the JSON: a .gltf's text, or a .glb's JSON chunk. */
const HEAD_LIMIT = 8 << 20;

/** A .glb's 12-byte header and its first chunk's 8-byte header, then the JSON. */
const GLB_JSON_START = 20;

/** Starts what the glTF at `url` (absolute) names, from its `response` (never rejects). */
export function startFromGltfJson(response: Promise<Response>, url: string): void {
  response
    .then((r) => (r.ok && r.body ? jsonHead(r.clone().body!) : null))
    .then((head) => {
      if (!head) return;
      const text = new TextDecoder().decode(head);
      askForFiles(text, url);
      const used = COMPRESSION.filter((name) => text.includes(`"${name}"`));
      if (used.length === 0) return;
      // Draco's Emscripten glue and its WebAssembly module asked for beside the module that starts them: each would
      // otherwise wait for the one before it.
      if (used.includes('KHR_draco_mesh_compression')) {
        import('draco3d/draco_decoder_nodejs.js').catch(() => {});
        dracoWasm().catch(() => {});
      }
      const fileName = url.slice(url.lastIndexOf('/') + 1);
      return import('../loaders/gltf/gltf-decoders.ts').then((m) => m.loadDecoders({ extensionsUsed: used }, fileName));
    })
    .catch(() => {});
}

/** Asks for the files the JSON names beside the model (nothing when the text is not whole JSON). */
function askForFiles(text: string, url: string): void {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return;
  const { buffers, images } = externalUris(json as Record<string, unknown>);
  const model = new URL(url);
  const asked = new Set<string>();
  for (const uri of [...buffers, ...images]) {
    if (asked.size === MAX_EARLY_FILES) break;
    const href = companionUrl(companionName(uri), model)?.href;
    if (!href || asked.has(href)) continue;
    asked.add(href);
    fetchEarly(href);
  }
}

/**
 * The JSON at the start of a glTF stream: a .glb's JSON chunk (its length from the header), or the first
 * HEAD_LIMIT bytes of anything else (a .gltf is JSON throughout). The rest of the stream is cancelled unread.
 */
async function jsonHead(stream: ReadableStream<Uint8Array>): Promise<Uint8Array | null> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let have = 0;
  let end: number | null = null;
  let glb = false;
  try {
    while (have < (end ?? HEAD_LIMIT)) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
      have += value.length;
      if (end === null && have >= GLB_JSON_START) {
        const header = new DataView(join(parts, GLB_JSON_START).buffer);
        glb = header.getUint32(0, true) === 0x46546c67; // 'glTF'
        end = glb ? Math.min(HEAD_LIMIT, GLB_JSON_START + header.getUint32(12, true)) : HEAD_LIMIT;
      }
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
  const all = join(parts, Math.min(have, end ?? HEAD_LIMIT));
  return glb ? all.subarray(GLB_JSON_START) : all;
}

/** The first `length` bytes of `parts`, in one array. */
function join(parts: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    if (at >= length) break;
    const n = Math.min(p.length, length - at);
    out.set(p.subarray(0, n), at);
    at += n;
  }
  return out;
}
