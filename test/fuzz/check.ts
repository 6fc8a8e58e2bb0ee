import { join } from 'node:path';
import { loadModel, loadModelAsync } from '../../src/loaders/load-model.ts';
import { validateScene } from '../../src/model/build.ts';
import { LoadError } from '../../src/model/errors.ts';
import type { Scene } from '../../src/model/types.ts';
import { CPU_CLOCK, threadCpuMs } from '../thread-cpu.ts';
import { arm, disarm } from './alloc-guard.ts';

/**
 * The fuzzer's oracle for one input: `loadModel` (`loadModelAsync` for glTF and in the campaign workers)
 * must either return a Scene (one that passes validateScene again) or throw a LoadError whose
 * message is non-empty, names the file and stays readable (a corrupt name must not turn into a
 * megabyte-long message). Anything else is a failure: another exception type (TypeError, RangeError,
 * "Maximum call stack size exceeded", "Invalid array length"...), an allocation over the input's budget
 * (alloc-guard.ts; only metered when the guard is installed), or spending more than `slowMs` of CPU time
 * on it: the CPU time of the thread running the loader (thread-cpu.ts), so a machine busy with other jobs,
 * which stretches the wall clock, does not make an input slow. Where there is no per-thread clock (not
 * Linux) the wall clock judges instead. A hang never returns here: the campaign's watchdog kills the
 * worker thread running it.
 */

export type Verdict = 'ok' | 'load-error' | 'crash' | 'bad-message' | 'alloc' | 'slow';

export interface CaseResult {
  readonly verdict: Verdict;
  /** The LoadError or exception message (first 300 characters), or '' for 'ok'. */
  readonly message: string;
  /** The exception's stack for failures, '' otherwise. */
  readonly stack: string;
  /** CPU milliseconds of the loading thread (wall milliseconds where the clock is 'wall'): what 'slow' judges. */
  readonly cpuMs: number;
  /** Wall-clock milliseconds, for the record only. */
  readonly ms: number;
  /** Bytes of typed arrays and buffers allocated while loading (0 without the guard). */
  readonly allocated: number;
}

export const isFailure = (v: Verdict): boolean => v !== 'ok' && v !== 'load-error';

/** Longest LoadError message accepted. */
export const MAX_MESSAGE = 2000;

/**
 * Allocation budget of one input: ALLOC_FACTOR bytes per byte of input (of the decompressed stream for
 * MSZIP files, which is what the readers walk) plus ALLOC_BASE. The unmutated corpus stays under a fifth
 * of this (see fuzz.test.ts), a count trusted without a check exceeds it by orders of magnitude.
 */
export const ALLOC_FACTOR = 64;
export const ALLOC_BASE = 64 * 1024 * 1024;

/** What the readers will walk: the bytes, or for tzip/bzip the decompressed size the header can honestly claim. */
export function streamSize(bytes: Uint8Array): number {
  if (bytes.length < 20) return bytes.length;
  const format = String.fromCharCode(bytes[8]!, bytes[9]!, bytes[10]!, bytes[11]!);
  if (format !== 'tzip' && format !== 'bzip') return bytes.length;
  const declared = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(16, true);
  const capacity = Math.floor((bytes.length - 20) / 7) * 65535;
  return Math.max(bytes.length, Math.min(declared, capacity));
}

export function allocationLimit(bytes: Uint8Array): number {
  return ALLOC_FACTOR * streamSize(bytes) + ALLOC_BASE;
}

/** The code under test: the working tree's loader, or another checkout's (`npm run fuzz -- --against DIR`). */
export interface Loader {
  readonly loadModel: (fileName: string, bytes: Uint8Array) => unknown;
  /** Every format, glTF included (absent in checkouts older than glTF support). */
  readonly loadModelAsync?: (fileName: string, bytes: Uint8Array) => Promise<unknown>;
  readonly LoadError: abstract new (...args: never[]) => Error;
}

export const CURRENT_LOADER: Loader = { loadModel, loadModelAsync, LoadError };

/** The loader of another checkout at `dir` (its src/loaders/load-model.ts and src/model/errors.ts). */
export async function loaderIn(dir: string): Promise<Loader> {
  const m = (await import(join(dir, 'src', 'loaders', 'load-model.ts'))) as Pick<Loader, 'loadModel' | 'loadModelAsync'>;
  const { LoadError: error } = (await import(join(dir, 'src', 'model', 'errors.ts'))) as { LoadError: Loader['LoadError'] };
  return { loadModel: m.loadModel, loadModelAsync: m.loadModelAsync, LoadError: error };
}

/** One input through the synchronous loadModel (.x, .m3d). */
export function runCase(bytes: Uint8Array, fileName: string, slowMs: number, loader: Loader = CURRENT_LOADER): CaseResult {
  arm(allocationLimit(bytes));
  const t0 = performance.now();
  const cpu0 = threadCpuMs();
  let error: unknown = null;
  try {
    loader.loadModel(fileName, bytes);
  } catch (e) {
    error = e;
  }
  return verdict(error, { cpuMs: threadCpuMs() - cpu0, ms: performance.now() - t0 }, disarm(), fileName, slowMs, loader);
}

/**
 * One input through loadModelAsync (every format, glTF included), where the loader has it; the meter stays
 * armed across its awaits (one case at a time per worker, nothing else allocates meanwhile).
 */
export async function runCaseAsync(bytes: Uint8Array, fileName: string, slowMs: number, loader: Loader = CURRENT_LOADER): Promise<CaseResult> {
  if (loader.loadModelAsync === undefined) return runCase(bytes, fileName, slowMs, loader);
  arm(allocationLimit(bytes));
  const t0 = performance.now();
  const cpu0 = threadCpuMs();
  let error: unknown = null;
  let scene: unknown = null;
  try {
    scene = await loader.loadModelAsync(fileName, bytes);
  } catch (e) {
    error = e;
  }
  if (error === null && loader === CURRENT_LOADER) {
    // The Scene must pass validation again unchanged (validateScene is idempotent): a throw here is a failure.
    try {
      validateScene(scene as Scene);
    } catch (e) {
      error = new Error(`the loaded Scene fails validateScene: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return verdict(error, { cpuMs: threadCpuMs() - cpu0, ms: performance.now() - t0 }, disarm(), fileName, slowMs, loader);
}

/** '1234 ms of CPU (2345 ms wall)', or '1234 ms' where the clock is the wall clock. */
export function describeTime(t: { cpuMs: number; ms: number }): string {
  return CPU_CLOCK === 'wall' ? `${t.ms.toFixed(0)} ms` : `${t.cpuMs.toFixed(0)} ms of CPU (${t.ms.toFixed(0)} ms wall)`;
}

function verdict(error: unknown, time: { cpuMs: number; ms: number }, meter: ReturnType<typeof disarm>, fileName: string, slowMs: number, loader: Loader): CaseResult {
  const base = { ...time, allocated: meter.used };
  const slow = time.cpuMs > slowMs;
  if (meter.tripped !== null) return { ...base, verdict: 'alloc', message: meter.tripped.message, stack: meter.tripped.stack };
  if (error === null) return slow ? { ...base, verdict: 'slow', message: `loaded in ${describeTime(time)}`, stack: '' } : { ...base, verdict: 'ok', message: '', stack: '' };
  if (!(error instanceof loader.LoadError)) {
    const e = error instanceof Error ? error : new Error(String(error));
    return { ...base, verdict: 'crash', message: `${e.name}: ${e.message.slice(0, 300)}`, stack: e.stack ?? '' };
  }
  const message = error.message;
  const problem =
    message.trim() === '' ? 'empty LoadError message'
    : !message.includes(fileName) ? 'LoadError message does not name the file'
    : message.length > MAX_MESSAGE ? `LoadError message of ${message.length} characters`
    : null;
  if (problem !== null) return { ...base, verdict: 'bad-message', message: `${problem}: ${message.slice(0, 300)}`, stack: error.stack ?? '' };
  if (slow) return { ...base, verdict: 'slow', message: `failed after ${describeTime(time)}: ${message.slice(0, 200)}`, stack: '' };
  return { ...base, verdict: 'load-error', message: message.slice(0, 300), stack: '' };
}

/**
 * A failure's identity for de-duplication: verdict, exception type, the message with numbers and quoted
 * text blanked, and the first stack frame inside src/ (file:line).
 */
export function signature(r: CaseResult): string {
  const text = r.message
    .replace(/'[^']*'/g, "'…'")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/[0-9]+(\.[0-9]+)?/g, '#')
    .slice(0, 120);
  const frame = /\/src\/([^\s:()]+):(\d+)/.exec(r.stack);
  return `${r.verdict} | ${text}${frame ? ` | ${frame[1]}:${frame[2]}` : ''}`;
}
