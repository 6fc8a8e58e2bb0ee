import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';

/**
 * Per-call heap allocation of a loop, measured in a child Node.
 *
 * Probe side (`measureAllocation`, called by the probe scripts): the loop is warmed up until optimised,
 * then measured REPEATS times; each time after two full GCs (--expose-gc), as the growth of V8's used heap
 * (every space: a pretenured allocation counts too) over `calls` calls, printed as
 * `BEGIN name` … `END name <bytes> <calls>`. The child's young generation is 16 MiB per semi-space, so a
 * loop allocating less than that triggers no GC inside a window and the growth is exact (a boxed double is
 * 16 bytes a call, to the byte).
 *
 * Test side (`allocationOfProbe`): runs the probe with --trace-gc and returns, per section, the smallest
 * bytes per call of its windows. A window with a GC inside has freed some of what it allocated: it counts as
 * Infinity (it allocated at least a semi-space). The smallest window filters one-off noise (a deopt and
 * re-optimisation, lazy feedback); an allocation made on every call is in every window.
 */

/** Windows measured per section. */
const REPEATS = 3;

/**
 * A section whose smallest window grows the heap by less than this per call allocates nothing per call:
 * half the smallest V8 object a frame could allocate (a 16-byte boxed double), well above the fixed noise of
 * a window (a few KiB of measurement objects over ≥ 10,000 calls: under 1 byte per call).
 */
export const NO_ALLOCATION_BYTES_PER_CALL = 8;

const used = (): number => getHeapStatistics().used_heap_size;

/** Probe side: warms `body` up (`warmup` calls) and prints REPEATS measured windows of `calls` calls. */
export function measureAllocation(name: string, calls: number, body: (i: number) => void, warmup = 2 * calls): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('measureAllocation needs node --expose-gc (run the probe through allocationOfProbe)');
  for (let i = 0; i < warmup; i++) body(i);
  for (let r = 0; r < REPEATS; r++) {
    gc();
    gc();
    console.log(`BEGIN ${name}`);
    const before = used();
    for (let i = 0; i < calls; i++) body(i);
    const after = used();
    console.log(`END ${name} ${after - before} ${calls}`);
  }
}

export interface SectionAllocation {
  /** Smallest heap growth per call over the section's windows (Infinity: a GC ran inside every window). */
  readonly bytesPerCall: number;
  /** Per window: bytes per call, Infinity where a GC ran inside it. */
  readonly windows: readonly number[];
}

/** Test side: runs `probe` in a child Node and returns each section's allocation per call. */
export function allocationOfProbe(probe: string): Map<string, SectionAllocation> {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const run = spawnSync(
    process.execPath,
    // Optimisation on the main thread: on a busy machine a background compile may finish only after the
    // warm-up, and the windows would then measure the unoptimised loop (its boxed doubles) instead.
    ['--expose-gc', '--min-semi-space-size=16', '--max-semi-space-size=16', '--no-concurrent-recompilation', '--no-concurrent-osr', '--trace-gc', '--import', 'tsx', probe],
    { cwd: root, encoding: 'utf8', timeout: 120_000 },
  );
  if (run.status !== 0) throw new Error(`probe ${probe} exited ${run.status}: ${run.stderr}`);
  const windows = new Map<string, number[]>();
  let section: string | null = null;
  let gcInside = false;
  for (const line of run.stdout.split('\n')) {
    const begin = /^BEGIN (\S+)$/.exec(line);
    const end = /^END (\S+) (-?\d+) (\d+)$/.exec(line);
    if (begin) {
      section = begin[1]!;
      gcInside = false;
    } else if (end) {
      if (end[1] !== section) throw new Error(`probe ${probe}: END ${end[1]} inside section ${section}`);
      const list = windows.get(section) ?? [];
      list.push(gcInside ? Infinity : Number(end[2]) / Number(end[3]));
      windows.set(section, list);
      section = null;
    } else if (section !== null && /Scavenge|Mark-Compact|Mark-sweep/i.test(line)) gcInside = true;
  }
  const out = new Map<string, SectionAllocation>();
  for (const [name, list] of windows) out.set(name, { bytesPerCall: Math.min(...list), windows: list });
  return out;
}

/** "name: 0.4 B/call (windows 0.4, 0.6, 0.4)" for assertion messages. */
export function describeAllocation(name: string, a: SectionAllocation | undefined): string {
  if (a === undefined) return `${name}: not measured`;
  return `${name}: ${a.bytesPerCall.toFixed(2)} B/call (windows ${a.windows.map((w) => w.toFixed(2)).join(', ')})`;
}
