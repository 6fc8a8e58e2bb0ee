import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CORPUS_DIR, describeCorpus } from '../corpus.ts';
import { BOUNDED_CASES, BOUNDED_SEED, BOUNDED_SWEEP_UNITS } from './bounded.ts';
import { DEFAULT_OPTIONS, describeFailures, runCampaign } from './campaign.ts';
import { corpusFiles } from './plan.ts';

/**
 * The loaders under a seeded mutation fuzzer (test/fuzz/README.md): the hand-built hostile inputs, a
 * truncation sweep of every corpus model at its structural boundaries, then random structure-aware
 * mutations of every corpus model (and the small generated ones). A fixed number of cases for a fixed seed
 * (bounded.ts), not a time budget: every machine tries the same inputs. Every input must load or fail with
 * a LoadError that names the file, within 2 s of the loading thread's CPU time and within its allocation budget; hangs and out-of-memory
 * deaths are caught by the campaign's watchdog. Failing inputs are written to /tmp/fuzz-vitest-<seed>;
 * `npm run fuzz -- --replay FILE --name NAME` reproduces one.
 *
 * SKINLAB_FUZZ_CASES and SKINLAB_FUZZ_SEED override the case count (default 1,100) and the seed; longer,
 * time-bounded runs: `npm run fuzz -- --minutes 30 --seed N`.
 */

describeCorpus('loaders under a seeded mutation fuzzer', () => {
  it(
    `every mutant of every corpus model loads or fails with a clear LoadError, in time and memory (seed ${BOUNDED_SEED}, ${BOUNDED_CASES} cases)`,
    async () => {
      const files = corpusFiles(CORPUS_DIR, join(import.meta.dirname, '..', '..', 'public', 'models', 'generated'));
      const result = await runCampaign({
        ...DEFAULT_OPTIONS,
        files,
        seed: BOUNDED_SEED,
        seconds: Infinity,
        maxCases: BOUNDED_CASES,
        sweepUnits: BOUNDED_SWEEP_UNITS,
        outDir: `/tmp/fuzz-vitest-${BOUNDED_SEED}`,
      });
      console.info(
        `[fuzz] seed ${BOUNDED_SEED}: ${result.tried} inputs in ${result.seconds.toFixed(0)} s (${result.hostileCases} hostile, ${result.sweepCases} truncations, ` +
          `the rest random mutations): ${result.ok} loaded, ${result.loadErrors} LoadError, ${result.failures.length} failures; ` +
          `largest allocation of one input ${result.maxAllocMiB} MiB`,
      );
      expect(describeFailures(result)).toEqual([]);
      expect(result.tried, 'cases tried (all of them, whatever the machine speed)').toBe(BOUNDED_CASES);
      expect(result.perFile.filter((f) => f.tried === 0).map((f) => f.name), 'files never mutated').toEqual([]);
      expect(result.tried).toBeGreaterThan(result.hostileCases + result.sweepCases);
    },
    // The whole run's wall-clock budget: many times its time on an idle machine, since other jobs stretch it; a
    // hung input is the watchdog's to catch, by CPU time.
    900_000,
  );
});
