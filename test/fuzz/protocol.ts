import type { CaseResult } from './check.ts';
import type { Plan } from './plan.ts';

/**
 * What a campaign's parent and its worker threads share. The worker reads WorkerInput from workerData
 * and posts a FailureMessage per failing case, then 'done'. `shared` is a SharedArrayBuffer of Int32
 * slots (SLOT below, then one counter per corpus file from SLOT.perFile on): the worker writes them with
 * Atomics, the parent reads them, and raises `stop`. Wall times are milliseconds since `epoch`; CPU times
 * are milliseconds of the worker thread's own CPU clock (thread-cpu.ts), which the parent reads through the
 * worker's OS thread id.
 */

export const SLOT = {
  /** Case being generated or loaded, -1 when idle. */
  index: 0,
  /** 0 generating the mutant, 1 inside loadModel. */
  phase: 1,
  /** When the current loadModel call started (wall clock). */
  loadStarted: 2,
  /** Set by the parent: finish the current case and stop. */
  stop: 3,
  tried: 4,
  ok: 5,
  loadErrors: 6,
  /** Largest allocation total of one input so far, in MiB (rounded up). */
  maxAllocMiB: 7,
  /** The worker's OS thread id, 0 until known or where there is no per-thread CPU clock (then wall time judges). */
  tid: 8,
  /** The worker thread's CPU clock when the current loadModel call started (ms, whole). */
  loadStartedCpu: 9,
  perFile: 10,
} as const;

export interface WorkerInput {
  readonly plan: Plan;
  readonly start: number;
  readonly stride: number;
  /** First case index not to run. */
  readonly end: number;
  /** A loadModel call using more CPU time than this (ms) fails as 'slow'. */
  readonly slowMs: number;
  readonly epoch: number;
  readonly shared: SharedArrayBuffer;
  /** Another checkout whose loaders to fuzz, or null. */
  readonly against: string | null;
}

export interface FailureMessage {
  readonly index: number;
  readonly file: number;
  readonly fileName: string;
  readonly label: string;
  readonly result: CaseResult;
  readonly bytes: Uint8Array;
}
