/**
 * WasmHeap: blocks of a WebAssembly memory handed out and taken back from JavaScript, for kernels whose
 * data lives in their module's memory (pose-simd.ts).
 *
 * Contract
 * - alloc(bytes): the byte address of a free block of at least `bytes` (rounded up to 16, 16-aligned), or
 *   -1 when the memory cannot grow enough (WebAssembly's limit, or the engine's). First fit; the memory
 *   grows (whole 64 KiB pages) only when no free block fits.
 * - free(at): gives back the block alloc returned at `at` (anything else is ignored); neighbouring free
 *   blocks merge. The memory never shrinks.
 * - buffer, f32, i32, i16: views of the whole memory, made again after each growth (growing detaches the
 *   old ones): read them after alloc, never keep them across an alloc.
 * - alloc and free allocate a little (the block lists, the views after a growth): setup-time calls.
 */

const PAGE = 65536;
const ALIGN = 16;

export class WasmHeap {
  buffer: ArrayBuffer;
  f32: Float32Array;
  i32: Int32Array;
  i16: Int16Array;
  private readonly memory: WebAssembly.Memory;
  /** Free blocks, sorted by address: start and size in bytes. */
  private readonly freeAt: number[] = [];
  private readonly freeSize: number[] = [];
  /** Size of each block handed out, by address. */
  private readonly used = new Map<number, number>();

  constructor(memory: WebAssembly.Memory) {
    this.memory = memory;
    this.buffer = memory.buffer;
    this.f32 = new Float32Array(this.buffer);
    this.i32 = new Int32Array(this.buffer);
    this.i16 = new Int16Array(this.buffer);
    // Address 0 is kept out of use, so no block starts at a null-looking address.
    if (this.buffer.byteLength > ALIGN) {
      this.freeAt.push(ALIGN);
      this.freeSize.push(this.buffer.byteLength - ALIGN);
    }
  }

  alloc(bytes: number): number {
    const size = Math.max(ALIGN, Math.ceil(bytes / ALIGN) * ALIGN);
    let i = this.freeAt.findIndex((_, j) => this.freeSize[j] >= size);
    if (i < 0) {
      if (!this.grow(size)) return -1;
      i = this.freeAt.findIndex((_, j) => this.freeSize[j] >= size);
      if (i < 0) return -1;
    }
    const at = this.freeAt[i];
    if (this.freeSize[i] === size) {
      this.freeAt.splice(i, 1);
      this.freeSize.splice(i, 1);
    } else {
      this.freeAt[i] += size;
      this.freeSize[i] -= size;
    }
    this.used.set(at, size);
    return at;
  }

  free(at: number): void {
    const size = this.used.get(at);
    if (size === undefined) return;
    this.used.delete(at);
    this.insertFree(at, size);
  }

  /** Bytes handed out and not freed (tests). */
  get usedBytes(): number {
    let s = 0;
    for (const v of this.used.values()) s += v;
    return s;
  }

  /** Grows so that a free block at the end holds `size` bytes; false when the memory cannot grow. */
  private grow(size: number): boolean {
    const end = this.buffer.byteLength;
    const n = this.freeAt.length;
    const tail = n > 0 && this.freeAt[n - 1] + this.freeSize[n - 1] === end ? this.freeSize[n - 1] : 0;
    const pages = Math.ceil((size - tail) / PAGE);
    try {
      this.memory.grow(pages);
    } catch {
      return false;
    }
    this.buffer = this.memory.buffer;
    this.f32 = new Float32Array(this.buffer);
    this.i32 = new Int32Array(this.buffer);
    this.i16 = new Int16Array(this.buffer);
    this.insertFree(end, this.buffer.byteLength - end);
    return true;
  }

  private insertFree(at: number, size: number): void {
    let i = 0;
    while (i < this.freeAt.length && this.freeAt[i] < at) i++;
    this.freeAt.splice(i, 0, at);
    this.freeSize.splice(i, 0, size);
    // Merge with the next block, then with the previous one.
    if (i + 1 < this.freeAt.length && at + size === this.freeAt[i + 1]) {
      this.freeSize[i] += this.freeSize[i + 1];
      this.freeAt.splice(i + 1, 1);
      this.freeSize.splice(i + 1, 1);
    }
    if (i > 0 && this.freeAt[i - 1] + this.freeSize[i - 1] === at) {
      this.freeSize[i - 1] += this.freeSize[i];
      this.freeAt.splice(i, 1);
      this.freeSize.splice(i, 1);
    }
  }
}
