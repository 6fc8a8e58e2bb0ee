/**
 * MikkTSpace (the `mikktspace` package: the mikktspace crate, a port of Morten Mikkelsen's reference code, built
 * to WebAssembly), loaded only when a model needs generated tangents (dynamic import: the page's bundle keeps
 * it in a chunk of its own), once per JS realm.
 *
 * - Node (CLIs, tests): the package's CommonJS entry (Node's resolution of `mikktspace`), which reads its .wasm
 *   beside itself.
 * - Browser and the parse worker: the package's .wasm as a Vite `?url` asset, instantiated here and called
 *   through `bindMikkTSpace` (the package's other entry needs a bundler with WebAssembly ES-module imports).
 *   Instantiating WebAssembly needs the page's CSP to allow 'wasm-unsafe-eval'; nothing here evaluates strings.
 *
 * MikkTSpace contract: unwelded triangles, one entry per triangle corner: positions and normals 3 floats,
 * texcoords 2; the result has 4 floats per corner (xyz unit tangent, w = ±1 bitangent sign in MikkTSpace's
 * own convention: bitangent = w · cross(normal, tangent) points along increasing v).
 */

export type MikkTSpace = (positions: Float32Array, normals: Float32Array, texcoords: Float32Array) => Float32Array;

let mikk: Promise<MikkTSpace> | null = null;

const isNode = (): boolean =>
  typeof process !== 'undefined' && typeof (process as { versions?: { node?: string } }).versions?.node === 'string';

/** The exports of the package's .wasm (wasm-bindgen's calling convention, version 0.2.7x). */
interface MikkExports {
  readonly memory: WebAssembly.Memory;
  generateTangents(retptr: number, p: number, pn: number, n: number, nn: number, t: number, tn: number): void;
  __wbindgen_add_to_stack_pointer(delta: number): number;
  __wbindgen_malloc(bytes: number): number;
  __wbindgen_free(ptr: number, bytes: number): void;
}

/** The module name the package's .wasm imports its two helpers from. */
const IMPORT_MODULE = './mikktspace_module_bg.js';

/**
 * The imports the package's .wasm expects: it only builds a string for a Rust panic and rethrows it, which
 * become one thrown Error here.
 */
export function mikkImports(memory: () => WebAssembly.Memory): WebAssembly.Imports {
  return {
    [IMPORT_MODULE]: {
      __wbindgen_string_new: (ptr: number, len: number): never => {
        throw new Error(`MikkTSpace: ${new TextDecoder().decode(new Uint8Array(memory().buffer, ptr, len))}`);
      },
      __wbindgen_rethrow: (): never => {
        throw new Error('MikkTSpace failed');
      },
    },
  };
}

/** A callable MikkTSpace over an instance of the package's .wasm: copies the inputs in and the tangents out. */
export function bindMikkTSpace(exports: MikkExports): MikkTSpace {
  const put = (a: Float32Array): number => {
    const ptr = exports.__wbindgen_malloc(a.length * 4);
    new Float32Array(exports.memory.buffer, ptr, a.length).set(a);
    return ptr;
  };
  return (positions, normals, texcoords) => {
    const ret = exports.__wbindgen_add_to_stack_pointer(-16);
    try {
      const p = put(positions);
      const n = put(normals);
      const t = put(texcoords);
      exports.generateTangents(ret, p, positions.length, n, normals.length, t, texcoords.length);
      const words = new Int32Array(exports.memory.buffer, ret, 2);
      const ptr = words[0]!;
      const len = words[1]!;
      const out = new Float32Array(exports.memory.buffer, ptr, len).slice();
      exports.__wbindgen_free(ptr, len * 4);
      return out;
    } finally {
      exports.__wbindgen_add_to_stack_pointer(16);
    }
  };
}

async function load(): Promise<MikkTSpace> {
  if (isNode()) {
    // A specifier the page's bundler leaves alone: the package's ES entry imports its .wasm as a module, which
    // Vite cannot bundle, and the browser never takes this branch.
    const node = 'mikktspace';
    const mod = (await import(/* @vite-ignore */ node)) as unknown as { generateTangents?: MikkTSpace; default?: { generateTangents: MikkTSpace } };
    const generate = mod.generateTangents ?? mod.default?.generateTangents;
    if (!generate) throw new Error('the mikktspace package has no generateTangents');
    return generate;
  }
  const url = ((await import('mikktspace/dist/module/mikktspace_module_bg.wasm?url')) as { default: string }).default;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  let memory: WebAssembly.Memory | null = null;
  const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), mikkImports(() => memory!));
  const exports = instance.exports as unknown as MikkExports;
  memory = exports.memory;
  return bindMikkTSpace(exports);
}

/** MikkTSpace, started on first call; a failed start is forgotten so a later model may try again. */
export async function loadMikkTSpace(): Promise<MikkTSpace> {
  try {
    return await (mikk ??= load());
  } catch (e) {
    mikk = null;
    throw e;
  }
}
