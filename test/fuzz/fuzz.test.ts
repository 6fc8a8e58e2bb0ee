import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CORPUS_DIR, describeCorpus } from '../corpus.ts';
import { DEFAULT_OPTIONS, describeFailures, runCampaign } from './campaign.ts';
import { corpusFiles } from './plan.ts';

/**
 * The loaders under a seeded mutation fuzzer (test/fuzz/README.md): the hand-built hostile inputs, a
 * truncation sweep of every corpus model at its structural boundaries, then random structure-aware
 * mutations of every corpus model (and the small generated ones) for a fixed time. Every input must load
 * or fail with a LoadError that names the file, within 2 s and within its allocation budget; hangs and
 * out-of-memory deaths are caught by the campaign's watchdog. Failing inputs are written to
 * /tmp/fuzz-vitest-<seed>; `npm run fuzz -- --replay FILE --name NAME` reproduces one.
 *
 * SKINLAB_FUZZ_SECONDS and SKINLAB_FUZZ_SEED override the budget (default 45 s) and the seed; longer runs:
 * `npm run fuzz -- --minutes 30 --seed N`.
 */

const SECONDS = Number(process.env.SKINLAB_FUZZ_SECONDS ?? '') || 45;
const SEED = Number(process.env.SKINLAB_FUZZ_SEED ?? '') || 20261123;

describeCorpus('loaders under a seeded mutation fuzzer', () => {
  it(
    `every mutant of every corpus model loads or fails with a clear LoadError, in time and memory (seed ${SEED}, ${SECONDS} s)`,
    async () => {
      const files = corpusFiles(CORPUS_DIR, join(import.meta.dirname, '..', '..', 'public', 'models', 'generated'));
      // A short sweep (about 1,000 cuts) leaves most of the budget to random mutations.
      const result = await runCampaign({ ...DEFAULT_OPTIONS, files, seed: SEED, seconds: SECONDS, sweepUnits: 100, outDir: `/tmp/fuzz-vitest-${SEED}` });
      console.info(
        `[fuzz] seed ${SEED}: ${result.tried} inputs in ${result.seconds.toFixed(0)} s (${result.hostileCases} hostile, ${result.sweepCases} truncations, ` +
          `the rest random mutations): ${result.ok} loaded, ${result.loadErrors} LoadError, ${result.failures.length} failures; ` +
          `largest allocation of one input ${result.maxAllocMiB} MiB`,
      );
      expect(describeFailures(result)).toEqual([]);
      expect(result.perFile.filter((f) => f.tried === 0).map((f) => f.name), 'files never mutated').toEqual([]);
      expect(result.tried).toBeGreaterThan(result.hostileCases + result.sweepCases);
    },
    (SECONDS + 90) * 1000,
  );
});
