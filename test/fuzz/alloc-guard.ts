/**
 * An allocation meter for the fuzzer: while armed, every ArrayBuffer and typed array constructed (slices
 * and maps included) adds its byte size to a running total, and a construction that would take
 * the total past the limit is refused (AllocationLimitError) before anything is allocated, so a count
 * the loader trusted without checking shows up as a failure instead of a multi-gigabyte allocation.
 *
 * `installAllocationGuard` replaces the global constructors with counting subclasses; it must run before
 * the loaders, gl-matrix and fflate are imported (they capture `Uint8Array` / `Float32Array` when their
 * modules load). `instanceof` and every method behave as before. Process-wide: meant for the fuzz worker
 * thread and the fuzz CLI only. The trip is also remembered, so a loader that catches the error and
 * turns it into a LoadError is still caught.
 */

export class AllocationLimitError extends Error {
  override readonly name = 'AllocationLimitError';
}

interface Meter {
  armed: boolean;
  limit: number;
  used: number;
  largest: number;
  /** Message and stack of the first refused allocation since arming, or null. */
  tripped: { message: string; stack: string } | null;
}

const meter: Meter = { armed: false, limit: Infinity, used: 0, largest: 0, tripped: null };

const TYPED = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'] as const;

let installed = false;

function account(bytes: number): void {
  if (!meter.armed) return;
  if (bytes > meter.largest) meter.largest = bytes;
  if (meter.used + bytes > meter.limit) {
    const e = new AllocationLimitError(
      `allocation of ${bytes} bytes would bring this input's total to ${meter.used + bytes}, over its limit of ${meter.limit}`,
    );
    if (meter.tripped === null) meter.tripped = { message: e.message, stack: e.stack ?? '' };
    throw e;
  }
  meter.used += bytes;
}

function requestedBytes(args: readonly unknown[], perElement: number): number {
  const a = args[0];
  if (typeof a === 'number') return Math.max(0, a) * perElement;
  if (a instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && a instanceof SharedArrayBuffer)) return 0;
  if (a !== null && typeof a === 'object' && typeof (a as { length?: unknown }).length === 'number') {
    return (a as { length: number }).length * perElement;
  }
  return 0;
}

export function installAllocationGuard(): void {
  if (installed) return;
  installed = true;
  const g = globalThis as unknown as Record<string, unknown>;
  for (const name of TYPED) {
    type Typed = { new (...args: unknown[]): object; BYTES_PER_ELEMENT: number };
    const Real = g[name] as Typed;
    const perElement = Real.BYTES_PER_ELEMENT;
    // A subclass rather than a Proxy: V8 constructs it at full speed, so timings stay honest. `slice`,
    // `map`, `filter` and `subarray` construct through it too (species), views are counted as 0 bytes.
    const Counting = class extends Real {
      constructor(...args: unknown[]) {
        account(requestedBytes(args, perElement));
        super(...args);
      }
    };
    Object.defineProperty(Counting, 'name', { value: name });
    g[name] = Counting;
  }
  const RealBuffer = ArrayBuffer;
  g.ArrayBuffer = class ArrayBuffer extends RealBuffer {
    constructor(...args: unknown[]) {
      account(typeof args[0] === 'number' ? Math.max(0, args[0]) : 0);
      super(...(args as [number]));
    }
  };
}

/** Starts metering one input with a limit in bytes. */
export function arm(limit: number): void {
  meter.armed = true;
  meter.limit = limit;
  meter.used = 0;
  meter.largest = 0;
  meter.tripped = null;
}

/** Stops metering; returns what the input allocated and the first refusal, if any. */
export function disarm(): { used: number; largest: number; tripped: { message: string; stack: string } | null } {
  meter.armed = false;
  return { used: meter.used, largest: meter.largest, tripped: meter.tripped };
}
