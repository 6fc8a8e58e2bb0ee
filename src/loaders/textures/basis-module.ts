/**
 * Binomial's official Basis Universal transcoder (WebAssembly + Emscripten glue, vendored unchanged in
 * src/vendor/basis from three.js r187's examples/jsm/libs/basis: see NOTICE), loaded only when a KTX2 image is
 * decoded (dynamic import: the page's bundle keeps it in a chunk of its own), once per JS realm.
 *
 * - Node (CLIs, tests, the fuzzer): the glue reads basis_transcoder.wasm beside itself.
 * - Browser: the .wasm is a Vite `?url` asset, fetched here and handed over as `wasmBinary`. Instantiating
 *   WebAssembly needs the page's CSP to allow 'wasm-unsafe-eval'; the glue uses no eval or new Function.
 *
 * A transcoder that threw (an Emscripten abort leaves the module unusable) is dropped with `forgetBasis`, so
 * the next image starts a fresh one.
 */

/** The part of the embind API used here (see ktx2.ts). */
export interface BasisModule {
  initializeBasis(): void;
  readonly KTX2File: new (bytes: Uint8Array) => BasisKtx2File;
  readonly transcoder_texture_format: Record<string, { readonly value: number }>;
}

export interface BasisKtx2File {
  isValid(): boolean;
  isUASTC(): boolean;
  isETC1S(): boolean;
  isHDR?(): boolean;
  getWidth(): number;
  getHeight(): number;
  getLevels(): number;
  getLayers(): number;
  getFaces(): number;
  getHasAlpha(): boolean;
  startTranscoding(): boolean;
  getImageTranscodedSizeInBytes(level: number, layer: number, face: number, format: number): number;
  transcodeImage(dst: Uint8Array, level: number, layer: number, face: number, format: number, getAlphaForOpaque: number, channel0: number, channel1: number): number | boolean;
  close(): void;
  delete(): void;
}

let basis: Promise<BasisModule> | null = null;

const isNode = (): boolean =>
  typeof process !== 'undefined' && typeof (process as { versions?: { node?: string } }).versions?.node === 'string';

async function load(): Promise<BasisModule> {
  const mod = (await import('../../vendor/basis/basis_transcoder.cjs')) as unknown as {
    default?: (props: Record<string, unknown>) => Promise<unknown>;
  };
  const factory = mod.default ?? (mod as unknown as (props: Record<string, unknown>) => Promise<unknown>);
  let props: Record<string, unknown> = {};
  if (!isNode()) {
    const url = ((await import('../../vendor/basis/basis_transcoder.wasm?url')) as { default: string }).default;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    props = { wasmBinary: new Uint8Array(await response.arrayBuffer()) };
  }
  const module = (await factory(props)) as BasisModule;
  module.initializeBasis();
  return module;
}

/** The transcoder, started on first call; a failed start is forgotten so a later image may try again. */
export async function loadBasis(): Promise<BasisModule> {
  try {
    return await (basis ??= load());
  } catch (e) {
    basis = null;
    throw e;
  }
}

/** Drops the transcoder after it threw: the next loadBasis starts a fresh one. */
export function forgetBasis(): void {
  basis = null;
}
