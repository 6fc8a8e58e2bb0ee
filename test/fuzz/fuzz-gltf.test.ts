import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, describeFailures, runCampaign } from './campaign.ts';
import { gltfSeedFiles } from './gltf-seeds.ts';
import { GLTF_HOSTILE } from './gltf-hostile.ts';

/**
 * glTF under the seeded mutation fuzzer (test/fuzz/README.md): the hand-built hostile glTF inputs, a
 * truncation sweep of every seed, then JSON-level and binary mutations of the seeds in
 * test/fixtures/gltf-fuzz, each through loadModelAsync. Every input must give a Scene that passes
 * validateScene or a LoadError naming the file, within 2 s of the loading thread's CPU time and its allocation budget. A fixed number of
 * cases for a fixed seed (SKINLAB_FUZZ_GLTF_CASES, SKINLAB_FUZZ_SEED), sized to about 6 s of one core on the 2-core CI machine;
 * longer runs: `npm run fuzz -- --minutes 30` (glTF seeds included).
 */

const SEED = Number(process.env.SKINLAB_FUZZ_SEED ?? '') || 20261125;
const CASES = Number(process.env.SKINLAB_FUZZ_GLTF_CASES ?? '') || 3000;
const SEEDS = join(import.meta.dirname, '..', 'fixtures', 'gltf-fuzz');

describe('glTF loading under a seeded mutation fuzzer', () => {
  it(
    `every mutant of every glTF seed loads or fails with a clear LoadError, in time and memory (seed ${SEED}, ${CASES} cases)`,
    async () => {
      const files = gltfSeedFiles(SEEDS);
      expect(files.length).toBeGreaterThanOrEqual(6);
      const result = await runCampaign({
        ...DEFAULT_OPTIONS,
        files,
        seed: SEED,
        seconds: Infinity,
        maxCases: CASES,
        sweepUnits: 40,
        outDir: `/tmp/fuzz-gltf-vitest-${SEED}`,
      });
      console.info(
        `[fuzz glTF] seed ${SEED}: ${result.tried} inputs in ${result.seconds.toFixed(0)} s (${result.hostileCases} hostile, ${result.sweepCases} truncations, ` +
          `the rest mutations): ${result.ok} loaded, ${result.loadErrors} LoadError, ${result.failures.length} failures; ` +
          `largest allocation of one input ${result.maxAllocMiB} MiB`,
      );
      expect(describeFailures(result)).toEqual([]);
      expect(result.tried).toBe(CASES);
      expect(result.hostileCases).toBe(GLTF_HOSTILE.length);
      expect(result.perFile.filter((f) => f.tried === 0).map((f) => f.name), 'seeds never mutated').toEqual([]);
      expect(result.ok, 'some mutants still load').toBeGreaterThan(CASES / 20);
      expect(result.loadErrors, 'most damage is refused').toBeGreaterThan(CASES / 4);
    },
    // The whole run's wall-clock budget: many times its time on an idle machine, since other jobs stretch it; a
    // hung input is the watchdog's to catch, by CPU time.
    600_000,
  );
});
