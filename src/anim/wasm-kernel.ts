/** Every kernel made so far (one per kernel module, made as that module loads), for precompileKernels. */
const KERNELS: WasmKernel<unknown>[] = [];

/**
 * Starts compiling every kernel made so far off this thread (WebAssembly.compile: the engine's background
 * threads), so that a kernel's first use only instantiates the module. Optional: a kernel first wanted before
 * its compile has finished compiles on the spot as before. A thread calls it once, early (main.ts, the parse
 * worker), after the kernel modules have loaded. Nothing happens where WebAssembly is missing or refused.
 */
export function precompileKernels(): void {
  for (const k of KERNELS) k.precompile();
}

/**
 * A WebAssembly SIMD kernel that is compiled once, on first want (or ahead, precompileKernels), and can be
 * switched off for the JavaScript path it replaces (pose-simd.ts, palette-simd.ts). `available` says whether
 * this engine takes the module's instructions (WebAssembly.validate compiles nothing); `make` instantiates it and
 * wraps its exports, or throws (a policy that forbids compiling WebAssembly, an engine that cannot compile or
 * instantiate it): the kernel is then unavailable and the JavaScript path runs. Load-time work only; current()
 * allocates nothing.
 */
export class WasmKernel<K> {
  /** The instantiated kernel (null: unavailable), undefined until first wanted. */
  private compiled: K | null | undefined;
  /** The kernel in use: null when off or unavailable; undefined until first wanted (on by default). */
  private active: K | null | undefined;
  /** The module compiled ahead (precompile), once that compile has finished; null until then or if it failed. */
  private module: WebAssembly.Module | null = null;
  private precompiling = false;

  constructor(
    private readonly bytes: Uint8Array<ArrayBuffer>,
    private readonly make: (instance: WebAssembly.Instance) => K,
  ) {
    KERNELS.push(this as WasmKernel<unknown>);
  }

  /** Starts compiling the module off this thread, once, unless the kernel was already wanted. */
  precompile(): void {
    if (this.precompiling || this.compiled !== undefined || typeof WebAssembly !== 'object') return;
    this.precompiling = true;
    try {
      WebAssembly.compile(this.bytes).then(
        (m) => {
          if (this.compiled === undefined) this.module = m;
        },
        () => {},
      );
    } catch {
      // A policy that refuses WebAssembly may throw at once: the first use finds the kernel unavailable.
    }
  }

  /** Whether this engine validates the module (WebAssembly with the SIMD instructions it uses). */
  available(): boolean {
    try {
      return typeof WebAssembly === 'object' && WebAssembly.validate(this.bytes);
    } catch {
      return false;
    }
  }

  /** use(false): the JavaScript path from now on; use(true): the kernel where available. Returns whether it is in use. */
  use(on: boolean): boolean {
    this.active = on ? this.instance() : null;
    return this.active !== null;
  }

  /** The kernel in use now (compiled if it is still to be tried), or null. */
  current(): K | null {
    let k = this.active;
    if (k === undefined) k = this.active = this.instance();
    return k;
  }

  private instance(): K | null {
    if (this.compiled === undefined) {
      this.compiled = null;
      // A module compiled ahead was taken by this engine already; otherwise it is validated first.
      if (this.module !== null || this.available()) {
        try {
          this.compiled = this.make(new WebAssembly.Instance(this.module ?? new WebAssembly.Module(this.bytes)));
        } catch {
          this.compiled = null;
        }
      }
      this.module = null;
    }
    return this.compiled;
  }
}
