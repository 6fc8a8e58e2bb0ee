import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { cpuMsOfThread } from '../thread-cpu.ts';
import { signature, type CaseResult, type Verdict } from './check.ts';
import { ShapeCache, makePlan, mutantAt, sourceOf, type CorpusFile, type Plan } from './plan.ts';
import { SLOT, type FailureMessage, type WorkerInput } from './protocol.ts';

/**
 * A fuzz campaign: the plan's cases run in worker threads (one lane per worker, lane w taking cases
 * w, w + workers, ...) until the time budget or the case limit is reached. The parent is the watchdog:
 * a worker whose loadModel call has used more than `hangMs` of the worker thread's CPU time, or has run
 * for `hangWallMs` of wall time whatever its CPU (a load blocked without using the CPU), is terminated and
 * the case recorded as a hang. The CPU time is the worker thread's own (read by its OS thread id,
 * thread-cpu.ts), not the process's, which also holds the other lanes and V8's helper threads; so a busy
 * machine, which delays the thread without adding to its CPU time, does not turn a slow input into a
 * hang. Without a per-thread clock (not Linux) `hangMs` is judged by the wall clock. A worker that dies (heap limit: ERR_WORKER_OUT_OF_MEMORY) records an 'oom'. Either way the lane restarts
 * after that case. Failing inputs are kept in memory and, with `outDir`, written there (a few per distinct
 * failure) with failures.tsv and summary.json beside them.
 */

export type FailureKind = Verdict | 'hang' | 'oom' | 'harness';

export interface FailureRecord {
  readonly index: number;
  /** The corpus file mutated. */
  readonly source: string;
  /** The name the loader was given (usually `source`). */
  readonly fileName: string;
  readonly label: string;
  readonly kind: FailureKind;
  readonly message: string;
  readonly stack: string;
  readonly signature: string;
  readonly bytes: Uint8Array;
  savedAs: string | null;
}

export interface CampaignOptions {
  readonly seed: number;
  readonly files: readonly CorpusFile[];
  /** Time budget; the campaign stops starting cases after it. */
  readonly seconds: number;
  /** Stop after this many cases even with time left (Infinity: time only). */
  readonly maxCases: number;
  /** Size of the truncation sweep (plan.ts). */
  readonly sweepUnits: number;
  readonly workers: number;
  /** A loadModel call using more CPU time than this (ms, the loading thread's) is a failure ('slow'). */
  readonly slowMs: number;
  /** A loadModel call that has used this much CPU time (ms, the loading thread's) is killed ('hang'). */
  readonly hangMs: number;
  /** A loadModel call still running after this much wall time (ms), CPU or not, is killed ('hang'): the last resort. */
  readonly hangWallMs: number;
  /** Worker V8 heap limit (MiB). */
  readonly heapMiB: number;
  readonly outDir: string | null;
  /** Fuzz another checkout's loaders (check.ts loaderIn) instead of this tree's; null for this tree. */
  readonly against: string | null;
  /** Failing inputs written per distinct signature. */
  readonly keepPerSignature: number;
  readonly log: (line: string) => void;
  readonly progressSeconds: number;
}

export interface CampaignResult {
  readonly seed: number;
  readonly tried: number;
  readonly ok: number;
  readonly loadErrors: number;
  readonly failures: readonly FailureRecord[];
  /** Failures grouped by signature, in order of first appearance. */
  readonly bySignature: ReadonlyMap<string, FailureRecord[]>;
  readonly perFile: readonly { name: string; tried: number }[];
  readonly sweepCases: number;
  readonly hostileCases: number;
  /** Largest allocation total of a single input (MiB). */
  readonly maxAllocMiB: number;
  readonly restarts: number;
  readonly seconds: number;
}

export const DEFAULT_OPTIONS: Omit<CampaignOptions, 'files'> = {
  seed: 1,
  seconds: 45,
  maxCases: Infinity,
  sweepUnits: 300,
  workers: 1,
  slowMs: 2000,
  hangMs: 5000,
  /** 10 × hangMs: a load this thread is given a tenth of a core for still finishes, a blocked one is still caught. */
  hangWallMs: 50_000,
  heapMiB: 2048,
  outDir: null,
  against: null,
  keepPerSignature: 3,
  log: () => {},
  progressSeconds: 10,
};

const ENTRY = new URL('./worker-entry.mjs', import.meta.url);

export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const o = options;
  const t0 = Date.now();
  const deadline = t0 + o.seconds * 1000;
  const shapes = new ShapeCache(o.files);
  const plan = makePlan(o.files, o.seed, o.sweepUnits, shapes);
  const failures: FailureRecord[] = [];
  const bySignature = new Map<string, FailureRecord[]>();
  if (o.outDir !== null) mkdirSync(o.outDir, { recursive: true });

  const record = (f: FailureRecord): void => {
    failures.push(f);
    let list = bySignature.get(f.signature);
    if (list === undefined) {
      list = [];
      bySignature.set(f.signature, list);
      o.log(`NEW FAILURE #${bySignature.size}: ${f.signature}\n    case ${f.index} ${f.source} [${f.label}]: ${f.message.slice(0, 200)}`);
    }
    list.push(f);
    if (o.outDir !== null && list.length <= o.keepPerSignature) {
      const name = `${String([...bySignature.keys()].indexOf(f.signature) + 1).padStart(3, '0')}-${f.kind}-case${f.index}-${f.fileName.replace(/[^A-Za-z0-9._-]/g, '_') || 'noname'}`;
      f.savedAs = join(o.outDir, name);
      writeFileSync(f.savedAs, f.bytes);
    }
  };

  const lanes = Array.from({ length: Math.max(1, o.workers) }, () => new SharedArrayBuffer(4 * (SLOT.perFile + o.files.length + 1)));
  const counters = lanes.map((b) => new Int32Array(b));
  let restarts = 0;
  const progress = setInterval(() => {
    const tried = counters.reduce((a, c) => a + c[SLOT.tried]!, 0);
    const secs = (Date.now() - t0) / 1000;
    o.log(`[${secs.toFixed(0)} s] ${tried} inputs (${(tried / secs).toFixed(0)}/s), ${failures.length} failures, ${bySignature.size} distinct`);
  }, o.progressSeconds * 1000);

  const runLane = async (lane: number): Promise<void> => {
    let start = lane;
    for (;;) {
      const outcome = await runWorker(plan, lane, start, lanes[lane]!, o, deadline, t0, record);
      if (outcome.kind === 'done') return;
      restarts++;
      const index = outcome.index;
      if (index < 0) {
        o.log(`lane ${lane}: the worker ended outside a case: ${outcome.message}`);
        return;
      }
      const regenerated = mutantAt(plan, shapes, index);
      const kind: FailureKind = outcome.kind;
      const message = outcome.message;
      record({
        index,
        source: sourceOf(plan, index),
        fileName: regenerated.mutant.fileName,
        label: regenerated.mutant.label,
        kind,
        message,
        stack: '',
        signature: `${kind} | ${sourceOf(plan, index)} | ${family(regenerated.mutant.label)}`,
        bytes: regenerated.mutant.bytes,
        savedAs: null,
      });
      start = index + Math.max(1, o.workers);
      if (Date.now() >= deadline || start >= o.maxCases) return;
    }
  };
  await Promise.all(lanes.map((_, lane) => runLane(lane)));
  clearInterval(progress);

  const sum = (slot: number): number => counters.reduce((a, c) => a + c[slot]!, 0);
  const result: CampaignResult = {
    seed: o.seed,
    tried: sum(SLOT.tried),
    ok: sum(SLOT.ok),
    loadErrors: sum(SLOT.loadErrors),
    failures,
    bySignature,
    perFile: [...o.files.map((f, i) => ({ name: f.name, tried: sum(SLOT.perFile + i) })), { name: '(hostile)', tried: sum(SLOT.perFile + o.files.length) }],
    sweepCases: plan.sweepTotal,
    hostileCases: plan.hostile,
    maxAllocMiB: Math.max(...counters.map((c) => c[SLOT.maxAllocMiB]!)),
    restarts,
    seconds: (Date.now() - t0) / 1000,
  };
  if (o.outDir !== null) writeReport(o.outDir, result);
  return result;
}

/** The mutation's kind without its position: `count@1234=0` → `count`. */
function family(label: string): string {
  return label.replace(/[@ *=].*$/, '');
}

type WorkerOutcome = { kind: 'done' } | { kind: 'hang' | 'oom' | 'harness'; index: number; message: string };

/** Runs one worker from case `start` until it finishes, hangs or dies. */
function runWorker(
  plan: Plan,
  lane: number,
  start: number,
  shared: SharedArrayBuffer,
  o: CampaignOptions,
  deadline: number,
  epoch: number,
  record: (f: FailureRecord) => void,
): Promise<WorkerOutcome> {
  const slots = new Int32Array(shared);
  Atomics.store(slots, SLOT.index, -1);
  Atomics.store(slots, SLOT.phase, 0);
  Atomics.store(slots, SLOT.stop, Date.now() >= deadline ? 1 : 0);
  const input: WorkerInput = { plan, start, stride: Math.max(1, o.workers), end: o.maxCases, slowMs: o.slowMs, epoch, shared, against: o.against };
  const worker = new Worker(ENTRY, { workerData: input, resourceLimits: { maxOldGenerationSizeMb: o.heapMiB } });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: WorkerOutcome): void => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      resolve(outcome);
    };
    const watch = setInterval(() => {
      if (Date.now() >= deadline) Atomics.store(slots, SLOT.stop, 1);
      if (Atomics.load(slots, SLOT.phase) !== 1) return;
      const wall = Date.now() - epoch - Atomics.load(slots, SLOT.loadStarted);
      const tid = Atomics.load(slots, SLOT.tid);
      const now = tid > 0 ? cpuMsOfThread(tid) : null;
      const cpu = now === null ? null : Math.round(now - Atomics.load(slots, SLOT.loadStartedCpu));
      const overCpu = cpu === null ? wall > o.hangMs : cpu > o.hangMs;
      if (overCpu || wall > o.hangWallMs) {
        const index = Atomics.load(slots, SLOT.index);
        void worker.terminate();
        const spent = cpu === null ? `${wall} ms` : `${cpu} ms of CPU (${wall} ms wall)`;
        const limit = overCpu ? `over the ${o.hangMs} ms ${cpu === null ? '' : 'CPU '}limit` : `over the ${o.hangWallMs} ms wall-clock cap`;
        finish({ kind: 'hang', index, message: `loadModel still running after ${spent}, ${limit} (lane ${lane}); worker terminated` });
      }
    }, 50);
    worker.on('message', (m: FailureMessage | 'done') => {
      if (m === 'done') {
        finish({ kind: 'done' });
        return;
      }
      const f = m;
      record({
        index: f.index,
        source: sourceOf(plan, f.index),
        fileName: f.fileName,
        label: f.label,
        kind: f.result.verdict,
        message: f.result.message,
        stack: f.result.stack,
        signature: signature(f.result),
        bytes: f.bytes,
        savedAs: null,
      });
    });
    worker.on('error', (e: Error & { code?: string }) => {
      const index = Atomics.load(slots, SLOT.index);
      const oom = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish({ kind: oom ? 'oom' : 'harness', index, message: `worker died: ${e.code ?? e.name}: ${e.message}` });
    });
    worker.on('exit', (code) => {
      finish(code === 0 ? { kind: 'done' } : { kind: 'harness', index: Atomics.load(slots, SLOT.index), message: `worker exited with code ${code}` });
    });
  });
}

function writeReport(dir: string, r: CampaignResult): void {
  const rows = ['n\tkind\tcase\tsource\tfile name\tmutation\tsaved as\tmessage'];
  let n = 0;
  for (const [, list] of r.bySignature) {
    n++;
    for (const f of list) rows.push([n, f.kind, f.index, f.source, f.fileName, f.label, f.savedAs ?? '', f.message.replace(/\s+/g, ' ')].join('\t'));
  }
  writeFileSync(join(dir, 'failures.tsv'), `${rows.join('\n')}\n`);
  const summary = {
    seed: r.seed,
    seconds: Math.round(r.seconds),
    tried: r.tried,
    ok: r.ok,
    loadErrors: r.loadErrors,
    failures: r.failures.length,
    distinct: [...r.bySignature].map(([signature, list]) => ({ signature, count: list.length, first: { case: list[0]!.index, source: list[0]!.source, mutation: list[0]!.label } })),
    sweepCases: r.sweepCases,
    maxAllocMiB: r.maxAllocMiB,
    restarts: r.restarts,
    perFile: r.perFile,
  };
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
}

/** One line per distinct failure, for logs and test messages. */
export function describeFailures(r: CampaignResult): string[] {
  return [...r.bySignature].map(([sig, list]) => `${list.length}x ${sig} — e.g. case ${list[0]!.index} ${list[0]!.source} [${list[0]!.label}]${list[0]!.savedAs ? ` saved ${list[0]!.savedAs}` : ''}`);
}

export type { CaseResult };
