import { concat } from './mutate.ts';

/**
 * Shrinks a failing input while `stillFails` holds: the shortest failing prefix first (binary search),
 * then ever smaller deletions (delta debugging), whole lines first, then byte chunks down to one byte. Deterministic,
 * in-process and synchronous, so it suits crashes, bad messages and allocation failures, not hangs.
 * `budget` caps the number of predicate calls.
 */
export function minimize(input: Uint8Array, stillFails: (b: Uint8Array) => boolean, budget = 20000): Uint8Array {
  let best = input;
  let calls = 0;
  const attempt = (candidate: Uint8Array): boolean => {
    if (calls >= budget) return false;
    calls++;
    if (!stillFails(candidate)) return false;
    best = candidate;
    return true;
  };
  best = shortestPrefix(best, attempt);
  best = byUnits(best, splitLines(best), attempt);
  let chunk = Math.max(1, best.length >> 1);
  while (chunk >= 1 && calls < budget) {
    let at = 0;
    let shrank = false;
    while (at < best.length && calls < budget) {
      const candidate = concat(best.subarray(0, at), best.subarray(Math.min(best.length, at + chunk)));
      if (attempt(candidate)) shrank = true;
      else at += chunk;
    }
    if (!shrank) chunk >>= 1;
  }
  return best;
}

/** Binary search for the shortest failing prefix (failures usually sit well before the end of a big file). */
function shortestPrefix(input: Uint8Array, attempt: (b: Uint8Array) => boolean): Uint8Array {
  let lo = 0;
  let hi = input.length;
  let best = input;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const candidate = input.subarray(0, mid);
    if (attempt(candidate)) {
      best = candidate;
      hi = mid;
    } else lo = mid;
  }
  return best;
}

/** Unit boundaries at each line start (so units are whole lines, newline included). */
function splitLines(b: Uint8Array): number[] {
  const starts = [0];
  for (let i = 0; i < b.length; i++) if (b[i] === 10 && i + 1 < b.length) starts.push(i + 1);
  return starts;
}

/** ddmin over units (start offsets, ascending): drops runs of units, halving the run length down to 1. */
function byUnits(input: Uint8Array, starts: number[], attempt: (b: Uint8Array) => boolean): Uint8Array {
  let units = starts.map((s, i) => input.subarray(s, i + 1 < starts.length ? starts[i + 1] : input.length));
  let run = Math.max(1, units.length >> 1);
  while (run >= 1) {
    let at = 0;
    let shrank = false;
    while (at < units.length) {
      const kept = [...units.slice(0, at), ...units.slice(at + run)];
      if (kept.length < units.length && attempt(concat(...kept))) {
        units = kept;
        shrank = true;
      } else at += run;
    }
    if (!shrank) run >>= 1;
  }
  return concat(...units);
}
