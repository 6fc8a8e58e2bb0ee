/**
 * Seeded pseudo-random numbers for the generators (mulberry32). Same seed → same sequence on every
 * platform: integer arithmetic only, results are k / 2³² in [0, 1).
 */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
