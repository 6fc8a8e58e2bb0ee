/**
 * A WebAssembly SIMD kernel that is compiled once, on first want, and can be switched off for the JavaScript
 * path it replaces (pose-simd.ts, palette-simd.ts). `validate` says whether this engine takes the module's
 * instructions (WebAssembly.validate compiles nothing); `make` instantiates it and wraps its exports, or
 * throws (a policy that forbids compiling WebAssembly, an engine that validates but cannot instantiate): the
 * kernel is then unavailable and the JavaScript path runs. Load-time work only; current() allocates nothing.
 */
export class WasmKernel<K> {
  /** The instantiated kernel (null: unavailable), undefined until first wanted. */
  private compiled: K | null | undefined;
  /** The kernel in use: null when off or unavailable; undefined until first wanted (on by default). */
  private active: K | null | undefined;

  constructor(
    private readonly bytes: Uint8Array<ArrayBuffer>,
    private readonly make: (instance: WebAssembly.Instance) => K,
  ) {}

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
      if (this.available()) {
        try {
          this.compiled = this.make(new WebAssembly.Instance(new WebAssembly.Module(this.bytes)));
        } catch {
          this.compiled = null;
        }
      }
    }
    return this.compiled;
  }
}
