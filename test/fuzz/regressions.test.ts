import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/loaders/load-model.ts';
import { LoadError } from '../../src/model/errors.ts';
import { threadCpuMs } from '../thread-cpu.ts';
import { HOSTILE } from './hostile.ts';

/**
 * What the fuzzer found, kept: every input in test/fixtures/fuzz (provenance in its README.md) and the
 * hostile inputs behind the fixed hangs, each with the behaviour it must keep. The bounded fuzz run
 * (fuzz.test.ts) also replays the hostile inputs; here each has its own name and expectation.
 */

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'fuzz');

/** Loads one input; `ms` is the CPU time this thread spent on it (thread-cpu.ts), which other jobs on the machine do not inflate. */
function outcome(name: string, bytes: Uint8Array): { error: unknown; ms: number } {
  const t0 = threadCpuMs();
  try {
    loadModel(name, bytes);
    return { error: null, ms: threadCpuMs() - t0 };
  } catch (error) {
    return { error, ms: threadCpuMs() - t0 };
  }
}

/** Fixture → the LoadError it must give now, and what it did before its fix. */
const FIXTURE_ERRORS: Record<string, { message: RegExp; before: string }> = {
  'binary-long-name.x': {
    message: /^binary-long-name\.x: byte 2105: expected '\{' to open data object 'Material\\x01\\x00.{0,120}…', found the end of the file/,
    before: 'a 2,228-character LoadError: a NAME length that swallowed the rest of the file, quoted whole with its control bytes',
  },
  'text-long-name.x': {
    message: /^text-long-name\.x: line 2: expected '\{' to open data object 'Frame n{54}…', found ';'$/,
    before: 'a 3,000-character LoadError quoting the whole word',
  },
  'validate-long-mesh-name.x': {
    message: /^validate-long-mesh-name\.x: mesh 'm{60}…': vertex 2 has a NaN or infinite position$/,
    before: 'a 3,060-character LoadError from validation quoting the 3,000-character mesh name whole',
  },
};

describe('fuzz fixtures', () => {
  it('every fixture has an expectation', () => {
    const files = readdirSync(FIXTURES).filter((f) => f !== 'README.md').sort();
    expect(files).toEqual(Object.keys(FIXTURE_ERRORS).sort());
  });
  for (const [file, expected] of Object.entries(FIXTURE_ERRORS)) {
    it(`${file}: a one-line LoadError naming the file (was ${expected.before})`, () => {
      const { error } = outcome(file, new Uint8Array(readFileSync(join(FIXTURES, file))));
      expect(error).toBeInstanceOf(LoadError);
      const message = (error as LoadError).message;
      expect(message).toMatch(expected.message);
      expect(message.length).toBeLessThan(300);
      expect(message).not.toMatch(/[\n\r]/);
    });
  }
});

/** Hostile input → the LoadError (message pattern) it must give now, and what it did before its fix. */
const REFUSED: Record<string, { message: RegExp; before: string }> = {
  'meshes-times-morph-targets.x': { message: /4000 meshes with morph targets × 4000 targets is 16000000 morph slots, more than the 1048576/, before: 'out of memory: 16 million morph deltas' },
  'meshes-times-targets.m3d': { message: /5000 meshes moved by 5000 morph targets make 25000000 morph slots/, before: '25 million deltas sliced out of every target for every mesh' },
};

/** Hostile input that must load in time linear in its size, and what made it quadratic before its fix. */
const LINEAR: Record<string, string> = {
  'mesh-morph-targets.x': 'each of 30,000 morph targets of one mesh checked against all earlier ones by name and mapped over every vertex (6-20 s)',
  'clips-times-tracks.m3d': 'each of 20,000 morph tracks searched all 20,000 clips by name, twice (3-27 s)',
  'tracks-one-clip.m3d': 'every morph track compared with all earlier tracks of its clip (4-12 s)',
  'tiny-blocks.tzip.x': 'every one-byte MSZIP block rebuilt its 32 KiB dictionary from the 32,768 blocks before it (minutes)',
};

const hostile = (name: string): ((scale?: number) => Uint8Array) => {
  const input = HOSTILE.find((h) => h.name === name);
  if (input === undefined) throw new Error(`hostile.ts has no ${name}`);
  return input.bytes;
};

describe('hostile inputs behind fixed hangs', () => {
  for (const [name, expected] of Object.entries(REFUSED)) {
    it(`${name} is refused with a LoadError at once (was ${expected.before})`, () => {
      const { error, ms } = outcome(name, hostile(name)());
      expect(error).toBeInstanceOf(LoadError);
      expect((error as LoadError).message).toMatch(expected.message);
      expect(ms).toBeLessThan(5000);
    }, 60_000);
  }
  for (const [name, before] of Object.entries(LINEAR)) {
    it(`${name} loads in time linear in its size (was quadratic: ${before})`, () => {
      // Four times the input may take about four times the CPU time, not six or more (quadratic: sixteen); judged on the better
      // of two tries, and only once the large input takes long enough (1 s) for the ratio to mean something.
      const time = (scale: number): number => {
        const r = outcome(name, hostile(name)(scale));
        expect(r.error).toBeNull();
        return r.ms;
      };
      time(0.05); // warms the JIT, so the first measured run is not the slow one
      let ratio = Infinity;
      let large = 0;
      for (let attempt = 0; attempt < 2 && (ratio > 6 && large > 1000 || attempt === 0); attempt++) {
        const small = time(0.25);
        large = time(1);
        ratio = large / Math.max(small, 25);
      }
      if (large > 1000) expect(ratio, `${large.toFixed(0)} ms of CPU for the full input`).toBeLessThan(6);
      expect(large).toBeLessThan(10_000);
    }, 120_000);
  }
});
