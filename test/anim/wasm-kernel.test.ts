import { afterEach, describe, expect, it, vi } from 'vitest';
import { PALETTE_SIMD_WASM } from '../../src/anim/palette-simd-wasm.ts';
import { precompileKernels, WasmKernel } from '../../src/anim/wasm-kernel.ts';

/** A kernel of the palette module whose `make` reports the exports it was given. */
function kernel(): WasmKernel<WebAssembly.Exports> {
  return new WasmKernel(PALETTE_SIMD_WASM, (instance) => instance.exports);
}

/** Lets the engine's compile promises settle. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((res) => setTimeout(res, 0));
}

describe('WasmKernel compiled ahead', () => {
  afterEach(() => vi.restoreAllMocks());

  it('instantiates the module compiled ahead at first use: nothing is compiled on the spot', async () => {
    const k = kernel();
    precompileKernels();
    await settle();
    const syncCompile = vi.spyOn(WebAssembly, 'Module');
    const validate = vi.spyOn(WebAssembly, 'validate');
    const exports = k.current();
    expect(exports).not.toBeNull();
    expect(Object.keys(exports!).length).toBeGreaterThan(0);
    expect(syncCompile).not.toHaveBeenCalled();
    expect(validate).not.toHaveBeenCalled();
  });

  it('compiles on the spot when first wanted before the compile ahead has finished, and keeps that kernel', async () => {
    const k = kernel();
    precompileKernels();
    const syncCompile = vi.spyOn(WebAssembly, 'Module');
    const first = k.current();
    expect(first).not.toBeNull();
    expect(syncCompile).toHaveBeenCalledTimes(1);
    await settle();
    expect(k.current()).toBe(first);
    expect(k.use(true)).toBe(true);
    expect(k.current()).toBe(first);
  });

  it('falls back to the JavaScript path with no error when the compile ahead is refused and the engine does not validate', async () => {
    const k = kernel();
    vi.spyOn(WebAssembly, 'compile').mockRejectedValue(new WebAssembly.CompileError('refused'));
    vi.spyOn(WebAssembly, 'validate').mockReturnValue(false);
    precompileKernels();
    await settle();
    expect(k.current()).toBeNull();
    expect(k.use(true)).toBe(false);
  });

  it('survives a policy that throws at once when asked to compile', () => {
    const k = kernel();
    vi.spyOn(WebAssembly, 'compile').mockImplementation(() => {
      throw new EvalError('WebAssembly compilation is refused');
    });
    expect(() => precompileKernels()).not.toThrow();
    vi.spyOn(WebAssembly, 'Module').mockImplementation(() => {
      throw new EvalError('WebAssembly compilation is refused');
    });
    expect(k.current()).toBeNull();
  });
});
