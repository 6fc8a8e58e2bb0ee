/**
 * Draco's WebAssembly module in a browser or worker, fetched and compiled once per JS realm as soon as anything asks
 * for it: the parse worker's entry on finding the extension in the first model's JSON (app/early-gltf.ts), or
 * the decoder's start (gltf-decoders.ts), which hands the compiled module to the Emscripten glue
 * (`instantiateWasm`), so the download and compile run beside the glue's own chunk instead of after it. Streams the
 * compile where the server sends application/wasm. Not for Node, whose decoder reads the wasm beside itself.
 */

let compiled: Promise<WebAssembly.Module> | null = null;

/** The compiled module (one fetch and compile per realm; a failure is forgotten, so a later load tries again). */
export function dracoWasm(): Promise<WebAssembly.Module> {
  if (!compiled) {
    const started = compileDracoWasm();
    compiled = started;
    started.catch(() => {
      if (compiled === started) compiled = null;
    });
  }
  return compiled;
}

async function compileDracoWasm(): Promise<WebAssembly.Module> {
  // The package's file, which the build copies beside the chunks and names here (Vite's `new URL(…,
  // import.meta.url)` rule): its address is part of this chunk, so the fetch starts at once (a `?url` import would
  // first load a chunk holding only the address).
  const url = new URL('../../../node_modules/draco3d/draco_decoder.wasm', import.meta.url).href;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status} for ${url}`);
  if ((res.headers.get('content-type') ?? '').startsWith('application/wasm')) return WebAssembly.compileStreaming(res);
  return WebAssembly.compile(await res.arrayBuffer());
}
