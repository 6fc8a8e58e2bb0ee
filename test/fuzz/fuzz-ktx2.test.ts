import { describe, expect, it } from 'vitest';
import { runKtx2Fuzz } from './ktx2-fuzz.ts';

/**
 * The KTX2 decoder under the seeded mutation fuzzer (ktx2-fuzz.ts): every mutant of the made-up UASTC and
 * ETC1S seeds and of the encoded fixtures (test/fixtures/ktx2) decodes or is refused with a "corrupt KTX2" / "unsupported KTX2" message (the page's warning
 * before it draws the checker), in time and within the size limits. A fixed number of cases for a fixed seed
 * (SKINLAB_FUZZ_KTX2_CASES, SKINLAB_FUZZ_SEED); longer runs: `npm run fuzz` (KTX2 included).
 */

const SEED = Number(process.env.SKINLAB_FUZZ_SEED ?? '') || 20261127;
const CASES = Number(process.env.SKINLAB_FUZZ_KTX2_CASES ?? '') || 600;

describe('KTX2 decoding under a seeded mutation fuzzer', () => {
  it(`every mutant decodes or is refused with a clear message (seed ${SEED}, ${CASES} cases)`, async () => {
    const run = await runKtx2Fuzz(SEED, CASES, Infinity);
    console.info(`[fuzz KTX2] seed ${SEED}: ${run.tried} inputs: ${run.ok} decoded, ${run.refused} refused, ${run.failures.length} failures`);
    expect(run.failures).toEqual([]);
    expect(run.tried).toBe(CASES);
    expect(run.ok, 'some mutants still decode').toBeGreaterThan(CASES / 50);
    expect(run.refused, 'most damage is refused').toBeGreaterThan(CASES / 4);
  }, 300_000);
});
