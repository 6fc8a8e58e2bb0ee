/**
 * Timing helpers for the Node benchmarks. Times are wall-clock from performance.now() (sub-microsecond
 * resolution in Node), in microseconds. The machine is shared, so every figure is a median over many
 * repetitions, and peers run interleaved (ours, peer, peer, ours, …) so contention hits both alike.
 */

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Runs `blocks` rounds; in each, every contestant runs `perBlock` calls of its step, timed as one block.
 * The order of the contestants alternates between rounds. Returns, per contestant, the median over
 * rounds of µs per call.
 */
export function interleaved(steps: readonly (() => void)[], blocks: number, perBlock: number): number[] {
  const samples: number[][] = steps.map(() => []);
  for (let b = 0; b < blocks; b++) {
    for (let j = 0; j < steps.length; j++) {
      const k = b % 2 === 0 ? j : steps.length - 1 - j;
      const step = steps[k];
      const t0 = performance.now();
      for (let i = 0; i < perBlock; i++) step();
      samples[k].push(((performance.now() - t0) * 1000) / perBlock);
    }
  }
  return samples.map(median);
}
