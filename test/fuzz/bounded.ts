/**
 * The bounded fuzz run of the unit tests (fuzz.test.ts), shared with the tests that inspect what it tries
 * (counts.test.ts). A fixed number of cases for a fixed seed, so every machine tries the same inputs; the
 * count is sized to about 25 s of one core on the 2-core CI machine (1,100 cases: 25 hostile inputs, ~340
 * truncations, the rest random mutations; about 40 cases a second). Longer, time-bounded runs:
 * `npm run fuzz -- --minutes N`.
 */
export const BOUNDED_SEED = Number(process.env.SKINLAB_FUZZ_SEED ?? '') || 20261123;
export const BOUNDED_CASES = Number(process.env.SKINLAB_FUZZ_CASES ?? '') || 1100;
/** Truncation sweep size (plan.ts): about 340 cuts over the corpus. */
export const BOUNDED_SWEEP_UNITS = 30;
