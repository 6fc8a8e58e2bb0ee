import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { CPU_CLOCK, cpuMsOfThread, threadCpuMs, threadId } from '../thread-cpu.ts';
import { DEFAULT_OPTIONS, runCampaign, type CampaignResult } from './campaign.ts';

/**
 * The campaign's time limits judge the CPU time of the thread that loads (thread-cpu.ts), with a wall-clock
 * cap as the last resort. Each case runs one input through a fake loader (a stand-in checkout, the
 * campaign's `against` seam) that spins, burns a fixed amount of its own CPU, or blocks without using the
 * CPU, while busy threads of the same process compete for the cores: a limit judged by the wall clock or
 * by the process's CPU time would get these verdicts wrong. Times are small multiples of the limits and
 * the wall caps wide, so a machine running other jobs gives the same verdicts.
 */

const root = mkdtempSync(join(tmpdir(), 'skinlab-watchdog-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A stand-in checkout whose loadModel runs `body` (plain JavaScript; `name` is the file name, `LoadError` in scope). */
function fakeLoader(label: string, body: string): string {
  const dir = join(root, label);
  mkdirSync(join(dir, 'src', 'loaders'), { recursive: true });
  mkdirSync(join(dir, 'src', 'model'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'src', 'model', 'errors.ts'), 'export class LoadError extends Error {}\n');
  writeFileSync(
    join(dir, 'src', 'loaders', 'load-model.ts'),
    `import { LoadError } from '../model/errors.ts';\nimport { threadCpuMs } from '${join(import.meta.dirname, '..', 'thread-cpu.ts')}';\n` +
      `export function loadModel(name: string, bytes: Uint8Array): unknown {\n  void threadCpuMs; void bytes;\n${body}\n}\n`,
  );
  return dir;
}

const SPIN = fakeLoader('spin', '  for (;;) {}');
/** Burns `ms` of this thread's CPU, then refuses the input. */
const burn = (ms: number): string => fakeLoader(`burn-${ms}`, `  const t0 = threadCpuMs();\n  while (threadCpuMs() - t0 < ${ms}) {}\n  throw new LoadError(name + ': refused');`);
/** Blocks the thread for `ms` without using the CPU (Infinity: for ever), then refuses the input. */
const block = (ms: number): string =>
  fakeLoader(`block-${ms}`, `  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0${Number.isFinite(ms) ? `, ${ms}` : ''});\n  throw new LoadError(name + ': refused');`);

/** Busy threads of this process, spinning until stopped; `cpuMs()` is what they have used together. */
function burners(n: number): { cpuMs: () => number; stop: () => Promise<void> } {
  const code = `const { parentPort } = require('node:worker_threads'); const fs = require('node:fs');
parentPort.postMessage(Number(/task\\/(\\d+)$/.exec(fs.readlinkSync('/proc/thread-self'))?.[1] ?? 0));
for (;;) {}`;
  const workers = Array.from({ length: n }, () => new Worker(code, { eval: true }));
  const tids: number[] = [];
  for (const w of workers) w.once('message', (tid: number) => tids.push(tid));
  return {
    cpuMs: () => tids.reduce((a, tid) => a + (cpuMsOfThread(tid) ?? 0), 0),
    stop: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/** Runs the first hostile input through the loader of `against`, timed. */
async function oneCase(against: string, limits: { slowMs: number; hangMs: number; hangWallMs: number }): Promise<CampaignResult & { wallMs: number }> {
  const t0 = performance.now();
  const result = await runCampaign({ ...DEFAULT_OPTIONS, ...limits, files: [], seed: 1, seconds: Infinity, maxCases: 1, against });
  return { ...result, wallMs: performance.now() - t0 };
}

const only = (r: CampaignResult): { kind: string; message: string }[] => r.failures.map((f) => ({ kind: f.kind, message: f.message }));

describe.runIf(CPU_CLOCK !== 'wall')('fuzz watchdog judges the loading thread by its CPU time', () => {
  it('reads a thread\'s own CPU clock, and another thread\'s by its id', () => {
    const tid = threadId();
    expect(tid).not.toBeNull();
    const t0 = threadCpuMs();
    const w0 = performance.now();
    while (performance.now() - w0 < 100) { /* spin */ }
    const own = threadCpuMs() - t0;
    expect(own).toBeGreaterThan(0);
    expect(own).toBeLessThanOrEqual(performance.now() - w0 + 20);
    expect(Math.abs(cpuMsOfThread(tid!)! - threadCpuMs())).toBeLessThan(50);
  });

  it('kills a loader spinning for ever once it has used hangMs of CPU, while busy threads compete', async () => {
    const busy = burners(3);
    try {
      const r = await oneCase(SPIN, { slowMs: 200, hangMs: 600, hangWallMs: 60_000 });
      expect(only(r)).toEqual([{ kind: 'hang', message: expect.stringMatching(/ms of CPU .* over the 600 ms CPU limit/) }]);
      const cpu = Number(/after (\d+) ms of CPU/.exec(r.failures[0]!.message)![1]);
      expect(cpu).toBeGreaterThanOrEqual(600);
      expect(r.wallMs, 'killed long before the wall-clock cap').toBeLessThan(50_000);
    } finally {
      await busy.stop();
    }
  }, 90_000);

  it('calls a loader that burns more than slowMs of its CPU slow, on all three tries', async () => {
    const r = await oneCase(burn(400), { slowMs: 200, hangMs: 5_000, hangWallMs: 60_000 });
    expect(only(r)).toEqual([{ kind: 'slow', message: expect.stringMatching(/^failed after \d+ ms of CPU \(\d+ ms wall\): /) }]);
  }, 90_000);

  it('does not call a loader slow or hung for blocking without the CPU while other threads of the process burn it', async () => {
    const busy = burners(2);
    try {
      const before = busy.cpuMs();
      // 1.5 s blocked: three times the CPU hang limit in wall time, and about twice it in the process's CPU time.
      const r = await oneCase(block(1500), { slowMs: 200, hangMs: 500, hangWallMs: 60_000 });
      expect(only(r)).toEqual([]);
      expect(r.loadErrors).toBe(1);
      expect(busy.cpuMs() - before, 'the process used more CPU than the hang limit meanwhile').toBeGreaterThan(500);
    } finally {
      await busy.stop();
    }
  }, 90_000);

  it('kills a loader blocked for ever at the wall-clock cap, not before', async () => {
    const r = await oneCase(block(Infinity), { slowMs: 200, hangMs: 500, hangWallMs: 2_000 });
    expect(only(r)).toEqual([{ kind: 'hang', message: expect.stringMatching(/over the 2000 ms wall-clock cap/) }]);
    expect(r.wallMs).toBeGreaterThanOrEqual(2_000);
  }, 90_000);
});
