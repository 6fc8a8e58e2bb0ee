/**
 * A small seeded PRNG (mulberry32 stepping, splitmix-style seeding) so every fuzz case is reproducible
 * from (campaign seed, case index) alone: `caseRng(seed, index)` needs no state from earlier cases,
 * which lets a parent re-create the exact input a killed worker was running.
 */
export class Rng {
  private s: number;

  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform integer in [0, n); n >= 1. */
  int(n: number): number {
    return Math.floor((this.u32() / 4294967296) * n);
  }

  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.u32() / 4294967296 < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** An index into `weights` chosen with probability proportional to its weight (weights >= 0, sum > 0). */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = (this.u32() / 4294967296) * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** Small values far more often than large ones: floor(max^u) for uniform u, in [1, max]. */
  skewed(max: number): number {
    return Math.max(1, Math.min(max, Math.floor(Math.pow(max, this.u32() / 4294967296))));
  }
}

/** 32-bit avalanche of two integers (murmur3 finaliser over a combined word). */
export function mix(a: number, b: number): number {
  let h = (Math.imul(a >>> 0, 0x9e3779b1) ^ (b >>> 0)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The generator of case `index` of a campaign seeded with `seed`. */
export function caseRng(seed: number, index: number): Rng {
  return new Rng(mix(mix(seed, 0x5eed), index));
}
