import type { DecoderModule } from 'draco3d';
import { LoadError } from '../../model/errors.ts';
import type { GltfJson } from './gltf-container.ts';
import { dracoWasm } from './draco-wasm.ts';

/**
 * The official decoders of the compression extensions, loaded only when a file lists the extension in
 * `extensionsUsed` (dynamic import: the page's bundle keeps them in chunks of their own); gltf-decode.ts runs them.
 *
 * - KHR_draco_mesh_compression: draco3d's Emscripten decoder (draco_decoder_nodejs.js, which detects its
 *   environment). In Node it finds draco_decoder.wasm beside itself; in a browser or worker it is handed the
 *   wasm compiled (draco-wasm.ts: a Vite `?url` asset) through `instantiateWasm`. Instantiating WebAssembly
 *   needs the page's CSP to allow 'wasm-unsafe-eval'; neither decoder uses eval or new Function.
 * - EXT_meshopt_compression: meshoptimizer's MeshoptDecoder (its wasm is embedded in the module).
 * Each module is created once per JS realm and reused. Failures are LoadErrors naming the extension.
 */

let draco: Promise<DecoderModule> | null = null;
let meshopt: Promise<unknown> | null = null;

const isNode = (): boolean =>
  typeof process !== 'undefined' && typeof (process as { versions?: { node?: string } }).versions?.node === 'string';

async function loadDraco(): Promise<DecoderModule> {
  const mod = (await import('draco3d/draco_decoder_nodejs.js')) as unknown as {
    default?: (props: Record<string, unknown>) => Promise<DecoderModule>;
  };
  const factory = mod.default ?? (mod as unknown as (props: Record<string, unknown>) => Promise<DecoderModule>);
  if (isNode()) return factory({});
  // The compiled module may be on its way already (draco-wasm.ts); the glue instantiates it with its imports. A
  // module that fails to compile or instantiate rejects here: the glue itself would wait for it forever.
  const wasm = dracoWasm();
  let fail: (e: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  const ready = factory({
    instantiateWasm: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void): object => {
      wasm.then((m) => WebAssembly.instantiate(m, imports)).then(done, fail);
      return {};
    },
  });
  return Promise.race([ready, failed]);
}

async function loadMeshopt(): Promise<unknown> {
  const { MeshoptDecoder } = await import('meshoptimizer/decoder');
  await MeshoptDecoder.ready;
  return MeshoptDecoder;
}

/** The decoders a file needs: each null when its extension is not in `extensionsUsed`. */
export interface Decoders {
  readonly draco: DecoderModule | null;
  readonly meshopt: MeshoptDecoderApi | null;
}

/** The part of meshoptimizer's MeshoptDecoder the reader calls (synchronous: the module is ready). */
export interface MeshoptDecoderApi {
  decodeGltfBuffer(target: Uint8Array, count: number, size: number, source: Uint8Array, mode: string, filter?: string): void;
}

/** Starts (once per realm) the decoders of the compression extensions `json` uses. */
export async function loadDecoders(json: GltfJson, fileName: string): Promise<Decoders> {
  const used = Array.isArray(json['extensionsUsed']) ? (json['extensionsUsed'] as unknown[]) : [];
  let dracoModule: DecoderModule | null = null;
  let meshoptModule: MeshoptDecoderApi | null = null;
  if (used.includes('KHR_draco_mesh_compression')) {
    try {
      dracoModule = await (draco ??= loadDraco());
    } catch (e) {
      draco = null;
      throw new LoadError(`${fileName}: KHR_draco_mesh_compression: the Draco decoder could not start (${(e as Error).message})`);
    }
  }
  if (used.includes('EXT_meshopt_compression') || used.includes('KHR_meshopt_compression')) {
    try {
      meshoptModule = (await (meshopt ??= loadMeshopt())) as MeshoptDecoderApi;
    } catch (e) {
      meshopt = null;
      throw new LoadError(`${fileName}: EXT_meshopt_compression: the meshopt decoder could not start (${(e as Error).message})`);
    }
  }
  return { draco: dracoModule, meshopt: meshoptModule };
}
