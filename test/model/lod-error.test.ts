import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModelAsync } from '../../src/loaders/load-model.ts';
import { authoredLevelError } from '../../src/model/lod-error.ts';
import type { Scene } from '../../src/model/types.ts';

/** Authored levels' errors (src/model/lod-error.ts): Dawn low and medium against medium and high. Prints the figures docs/crowds.md quotes. */
const load = async (f: string): Promise<Scene> => loadModelAsync(f, new Uint8Array(readFileSync(join(__dirname, '..', '..', 'public', 'models', 'generated', f))));

describe('authored level error', () => {
  it('is 0 for the level itself and small but positive for Dawn low and medium', async () => {
    const [low, medium, high] = [await load('dawn-low.m3d'), await load('dawn-medium.m3d'), await load('dawn-high.m3d')];
    expect(authoredLevelError(low, low)).toBe(0);
    for (const [chosen, level, name] of [[medium, low, 'low vs medium'], [high, medium, 'medium vs high'], [high, low, 'low vs high']] as const) {
      const t0 = performance.now();
      const e = authoredLevelError(chosen, level);
      console.log(`[lod error] Dawn ${name}: ${e.toPrecision(3)} model units, ${(performance.now() - t0).toFixed(0)} ms`);
      expect(e).toBeGreaterThan(0);
      expect(e).toBeLessThan(0.05);
    }
  }, 30_000);
});
