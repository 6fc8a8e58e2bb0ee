import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFromGltfJson } from '../../src/app/early-gltf.ts';
import { analyseGltf } from '../fuzz/gltf-seeds.ts';
import { mutateGltf, truncatedGltf } from '../fuzz/gltf-mutate.ts';
import { caseRng } from '../fuzz/rng.ts';

/**
 * The parse worker's head start (early-gltf.ts, gltf-head.ts) on damaged files: mutants and truncations of
 * textured and compressed glTF seeds (the loader fuzzer's mutators, test/fuzz) go through startFromGltfJson as
 * the first model's response. It reads them as they arrive and must never throw or leave a rejection unhandled
 * (the parse reports what is wrong with a file, not the head start), must decode only whole byte ranges of the
 * file it was given, at most MAX_EARLY_IMAGES of them, and must ask for at most 32 files.
 */

const decoded: Uint8Array[] = [];
vi.mock('../../src/app/early-images.ts', () => ({ MAX_EARLY_IMAGES: 16, decodeEarly: (bytes: Uint8Array) => void decoded.push(bytes.slice()) }));

const SEED = 20261128;
const CASES = 300;
const SEEDS = [
  join(import.meta.dirname, '..', '..', 'public', 'models', 'fox', 'Fox.glb'),
  ...['SimpleSkin-draco.glb', 'SimpleSkin-meshopt.glb', 'AnimatedMorphCube.glb', 'SimpleSkin.gltf'].map((n) => join(import.meta.dirname, '..', 'fixtures', 'gltf-fuzz', n)),
];

/** Lets a head start's promise chain run to its end. */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 2));

/** Whether `part` occurs in `whole` as a contiguous range. */
function within(whole: Uint8Array, part: Uint8Array): boolean {
  outer: for (let at = 0; at + part.length <= whole.length; at++) {
    for (let i = 0; i < part.length; i++) if (whole[at + i] !== part[i]) continue outer;
    return true;
  }
  return false;
}

describe('the head start on damaged glTF files', () => {
  const asked: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown): void => void unhandled.push(e);
  beforeAll(() => {
    process.on('unhandledRejection', onUnhandled);
    vi.stubGlobal('fetch', async (href: string) => {
      asked.push(String(href));
      return new Response('not found', { status: 404 });
    });
  });
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
    vi.unstubAllGlobals();
  });

  it(`reads ${CASES} mutants and truncations without a throw, decoding only ranges of each file (seed ${SEED})`, async () => {
    const seeds = SEEDS.map((path) => ({ name: path.slice(path.lastIndexOf('/') + 1), seed: analyseGltf(path) }));
    let decodedCases = 0;
    for (let c = 0; c < CASES; c++) {
      const { name, seed } = seeds[c % seeds.length]!;
      // One case in six a structural truncation (the sweep's points spread over the seed), the others mutations.
      const mutant = c % 6 === 5 ? truncatedGltf(seed, name, Math.floor(c / 6), CASES / 6) : mutateGltf(seed, name, caseRng(SEED, c));
      decoded.length = 0;
      asked.length = 0;
      startFromGltfJson(Promise.resolve(new Response(mutant.bytes.slice())), `http://site.test/models/${name}`);
      await settle();
      await settle();
      expect(decoded.length, mutant.label).toBeLessThanOrEqual(16);
      for (const d of decoded) expect(within(mutant.bytes, d), `${name} ${mutant.label}: a decoded range is not the file's`).toBe(true);
      expect(asked.length, mutant.label).toBeLessThanOrEqual(32);
      if (decoded.length > 0) decodedCases++;
    }
    await settle();
    expect(unhandled).toEqual([]);
    // The Fox's texture is decoded ahead from most of its mutants.
    expect(decodedCases).toBeGreaterThan(CASES / seeds.length / 4);
  }, 120_000);
});
