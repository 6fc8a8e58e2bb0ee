import { describe, expect, it } from 'vitest';
import { WasmHeap } from '../../src/anim/wasm-heap.ts';

describe('WasmHeap', () => {
  it('hands out 16-aligned, non-overlapping blocks, grows the memory when full and reuses freed blocks', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const heap = new WasmHeap(memory);
    const a = heap.alloc(100);
    const b = heap.alloc(40000);
    expect(a % 16).toBe(0);
    expect(b % 16).toBe(0);
    expect(b).toBeGreaterThanOrEqual(a + 112);
    const before = heap.f32;
    const c = heap.alloc(50000); // over one page: the memory grows, the views are made again
    expect(memory.buffer.byteLength).toBeGreaterThan(65536);
    expect(heap.f32 === before).toBe(false);
    expect(before.length).toBe(0); // the old view is detached
    expect(heap.f32.length).toBe(memory.buffer.byteLength / 4);
    expect(c).toBeGreaterThanOrEqual(b + 40000);
    expect(heap.usedBytes).toBe(112 + 40000 + 50000);
    heap.free(b);
    heap.free(a);
    // a and b merged: a block as large as both fits where they were, before c.
    const d = heap.alloc(40100);
    expect(d).toBe(a);
    heap.free(12345); // not a block: ignored
    expect(heap.usedBytes).toBe(40112 + 50000);
  });

  it('returns -1 when the memory cannot grow enough', () => {
    const heap = new WasmHeap(new WebAssembly.Memory({ initial: 1, maximum: 2 }));
    expect(heap.alloc(3 * 65536)).toBe(-1);
    expect(heap.alloc(1000)).toBeGreaterThan(0);
  });
});
