import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/loaders/load-model.ts';
import { LoadError } from '../../src/model/errors.ts';
import { CORPUS_DIR, describeCorpus } from '../corpus.ts';
import { BOUNDED_CASES, BOUNDED_SEED, BOUNDED_SWEEP_UNITS } from './bounded.ts';
import { COUNT_BOUNDARIES, drawCount } from './counts.ts';
import { ShapeCache, corpusFiles, fileOf, makePlan, mutantAt } from './plan.ts';
import { Rng } from './rng.ts';

/** The fuzzer's inflated counts cover the whole range, and the bounded run's mid-range counts reach the .m3d guards. */

describe('count mutations', () => {
  it('draw every decade from 10 to 10^9 and every boundary', () => {
    const r = new Rng(7);
    const decades = new Array<number>(10).fill(0);
    const seen = new Set<number>();
    const N = 20_000;
    for (let i = 0; i < N; i++) {
      const v = drawCount(r, 12);
      seen.add(v);
      if (v >= 10) decades[Math.min(9, Math.floor(Math.log10(v)))]!++;
    }
    for (let d = 1; d <= 9; d++) expect(decades[d]! / N, `share of counts in [1e${d}, 1e${d + 1})`).toBeGreaterThan(0.02);
    for (const b of COUNT_BOUNDARIES) expect(seen.has(b), `boundary ${b}`).toBe(true);
    // Between 2^16 and 10^9, where the old list had nothing but 65536 + 12: a quarter of all draws.
    let mid = 0;
    for (let d = 5; d <= 8; d++) mid += decades[d]!;
    expect(mid / N).toBeGreaterThan(0.2);
  });
});

/** Cases of the bounded run's plan inspected: its own and the ones a longer run of the same seed goes on to. */
const INSPECTED_CASES = 8000;

describeCorpus('count mutations of the fuzz plan', () => {
  it(`reach the .m3d guards with counts between 2^16 and 10^9 (cases up to ${INSPECTED_CASES} of seed ${BOUNDED_SEED}; the bounded run tries ${BOUNDED_CASES})`, () => {
    const files = corpusFiles(CORPUS_DIR, join(import.meta.dirname, '..', '..', 'public', 'models', 'generated'));
    const shapes = new ShapeCache(files);
    const plan = makePlan(files, BOUNDED_SEED, BOUNDED_SWEEP_UNITS, shapes);
    const guards = new Map<string, string>();
    let midRange = 0;
    let inBounded = 0;
    for (let i = plan.hostile + plan.sweepTotal; i < INSPECTED_CASES; i++) {
      if (!/\.m3d$/i.test(files[fileOf(plan, i)]!.name)) continue;
      const { mutant } = mutantAt(plan, shapes, i);
      const m = /^count@\d+=(\d+)$/.exec(mutant.label);
      if (m === null || !(Number(m[1]) > 65536 && Number(m[1]) < 1e9)) continue;
      midRange++;
      if (i < BOUNDED_CASES) inBounded++;
      try {
        loadModel(mutant.fileName, mutant.bytes);
      } catch (e) {
        if (!(e instanceof LoadError)) throw e;
        const guard = /\w+ \d+ is (larger than the rest of the file|out of range \[\d+, \d+\])/.exec(e.message)?.[0].replace(/\d+/g, 'N');
        if (guard !== undefined && !guards.has(guard)) guards.set(guard, `case ${i} ${mutant.label}: ${e.message.slice(0, 160)}`);
      }
    }
    console.info(`[fuzz counts] ${midRange} mid-range .m3d count mutations (${inBounded} in the bounded run); guards reached:\n  ${[...guards.values()].join('\n  ')}`);
    expect(inBounded, 'mid-range .m3d counts in the bounded run').toBeGreaterThanOrEqual(1);
    expect(guards.size, 'distinct .m3d guards reached by mid-range counts').toBeGreaterThanOrEqual(2);
  });
});
