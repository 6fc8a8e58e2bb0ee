import { readFileSync, readlinkSync } from 'node:fs';

/**
 * The CPU time of one thread, for tests that judge "too slow" on a machine other jobs share: a thread
 * that waits for a core does not advance its CPU clock, so a busy machine stretches the wall clock only.
 *
 * Linux: `/proc/thread-self/schedstat` (first field: nanoseconds on a CPU, the scheduler's own
 * sum_exec_runtime, brought up to date at each scheduler tick and context switch: steps of a few ms), else
 * `/proc/thread-self/stat` utime + stime (clock ticks, 100 Hz: 10 ms steps). Fine for limits of 100 ms and
 * more; not a clock for timing a millisecond.
 * Both are the calling OS thread's alone: a Node worker thread, the main thread and V8's GC helper
 * threads are separate tasks of the process, unlike `process.cpuUsage()` which sums them all. Another
 * thread of this process is read at `/proc/self/task/<tid>/…`, so a watchdog can clock a worker that is
 * stuck in a loop. Elsewhere (no /proc) the clock is the wall clock (`performance.now()`), as before.
 */

export type CpuClockSource = 'schedstat' | 'stat' | 'wall';

/** clock ticks per second of /proc/…/stat (USER_HZ, 100 on every mainstream Linux build). */
const CLK_TCK = 100;

function readSchedstat(path: string): number | null {
  try {
    const ns = Number(readFileSync(`${path}/schedstat`, 'latin1').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    return null;
  }
}

function readStat(path: string): number | null {
  try {
    const text = readFileSync(`${path}/stat`, 'latin1');
    // Fields after the command name (which may hold spaces), from field 3: utime and stime are fields 14 and 15.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLK_TCK : null;
  } catch {
    return null;
  }
}

/** Which clock this machine gives (decided once; a kernel without schedstat falls back to stat ticks). */
export const CPU_CLOCK: CpuClockSource =
  readSchedstat('/proc/thread-self') !== null ? 'schedstat' : readStat('/proc/thread-self') !== null ? 'stat' : 'wall';

function readCpuMs(path: string): number | null {
  return CPU_CLOCK === 'schedstat' ? readSchedstat(path) : CPU_CLOCK === 'stat' ? readStat(path) : null;
}

/** CPU milliseconds the calling thread has used so far (wall-clock milliseconds where there is no per-thread clock). */
export function threadCpuMs(): number {
  return readCpuMs('/proc/thread-self') ?? performance.now();
}

/** The calling thread's OS thread id (Linux), for `cpuMsOfThread` in another thread; null without /proc. */
export function threadId(): number | null {
  if (CPU_CLOCK === 'wall') return null;
  try {
    const tid = Number(/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** CPU milliseconds used so far by thread `tid` of this process, or null (no per-thread clock, or the thread is gone). */
export function cpuMsOfThread(tid: number): number | null {
  return readCpuMs(`/proc/self/task/${tid}`);
}
