import { parentPort, workerData } from 'node:worker_threads';
import { threadCpuMs, threadId } from '../thread-cpu.ts';
import { CURRENT_LOADER, describeTime, isFailure, loaderIn, runCaseAsync } from './check.ts';
import { ShapeCache, mutantAt, type Plan } from './plan.ts';
import { SLOT, type FailureMessage, type WorkerInput } from './protocol.ts';

/**
 * One fuzz worker: runs cases start, start + stride, ... of the plan until the parent raises the stop
 * flag or `end` is reached. Before each case it publishes the index and the phase in the shared slots
 * (protocol.ts), with the wall and this thread's CPU clock at the start of each load and this thread's OS
 * id, so the parent's watchdog can tell a hang from slow mutant generation and judge it by the CPU time
 * this thread spent loading; each failure is posted with its bytes. A case over the CPU time limit is run
 * twice more and fails as 'slow' only if it stays over it. Counters live in shared memory so they survive
 * the worker being killed.
 */

const input = workerData as WorkerInput;
const plan: Plan = input.plan;
const slots = new Int32Array(input.shared);
const shapes = new ShapeCache(plan.files);
const port = parentPort!;
const loader = input.against === null ? CURRENT_LOADER : await loaderIn(input.against);
/** SKINLAB_FUZZ_TRACE=1: one line per case on stderr (index, generation and load times, verdict, mutation). */
const trace = process.env.SKINLAB_FUZZ_TRACE === '1';
Atomics.store(slots, SLOT.tid, threadId() ?? 0);

/** Marks the start of a loadModel call: wall and CPU clocks for the watchdog, then the phase. */
function loadStarts(): void {
  Atomics.store(slots, SLOT.loadStartedCpu, Math.floor(threadCpuMs()));
  Atomics.store(slots, SLOT.loadStarted, Date.now() - input.epoch);
  Atomics.store(slots, SLOT.phase, 1);
}

for (let i = input.start; i < input.end && Atomics.load(slots, SLOT.stop) === 0; i += input.stride) {
  Atomics.store(slots, SLOT.phase, 0);
  Atomics.store(slots, SLOT.index, i);
  const generating = performance.now();
  const { file, mutant } = mutantAt(plan, shapes, i);
  const generated = performance.now() - generating;
  loadStarts();
  let result = await runCaseAsync(mutant.bytes, mutant.fileName, input.slowMs, loader);
  // CPU time still varies a little (caches, clock frequency, GC pauses): a slow case counts only if it is slow every time.
  for (let again = 0; again < 2 && result.verdict === 'slow'; again++) {
    loadStarts();
    result = await runCaseAsync(mutant.bytes, mutant.fileName, input.slowMs, loader);
  }
  Atomics.store(slots, SLOT.phase, 0);
  if (trace) process.stderr.write(`case ${i}: gen ${generated.toFixed(0)} ms, load ${describeTime(result)}, ${result.verdict} [${mutant.label}]\n`);
  Atomics.add(slots, SLOT.tried, 1);
  Atomics.add(slots, SLOT.perFile + file, 1);
  if (result.verdict === 'ok') Atomics.add(slots, SLOT.ok, 1);
  else if (result.verdict === 'load-error') Atomics.add(slots, SLOT.loadErrors, 1);
  if (isFailure(result.verdict)) {
    const message: FailureMessage = { index: i, file, fileName: mutant.fileName, label: mutant.label, result, bytes: mutant.bytes };
    port.postMessage(message);
  }
  if (result.allocated > Atomics.load(slots, SLOT.maxAllocMiB) * 1048576) Atomics.store(slots, SLOT.maxAllocMiB, Math.ceil(result.allocated / 1048576));
}
Atomics.store(slots, SLOT.index, -1);
port.postMessage('done');
