import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { compareRecordings } from '../../src/cli/compare.ts';
import { DEFAULT_RULES, judgePair } from '../../src/cli/compare-rules.ts';
import { decodeMask, type Rgba } from '../../src/cli/shots-coverage.ts';

/**
 * compare's default rules on real recordings of the Walker (test/fixtures/compare/README.md): what a
 * person would call a regression fails, what nobody can see passes.
 */

const FIXTURES = join(__dirname, '..', 'fixtures', 'compare');
const SHOTS = ['default_walk_vs-hlsl_shaded_auto_t0.250.png', 'default_walk_vs-hlsl_shaded_auto_t0.750.png'];

function image(recording: string, file: string): Rgba {
  const png = PNG.sync.read(readFileSync(join(FIXTURES, recording, file)));
  return { data: new Uint8Array(png.data), width: png.width, height: png.height };
}

function mask(recording: string, file: string): Uint8Array {
  return decodeMask(readFileSync(join(FIXTURES, recording, 'masks', file))).mask;
}

/**
 * An anti-aliasing-only change: every pixel on the inside of the silhouette (covered, with an uncovered
 * 4-neighbour) blended half-way towards that background neighbour, as when the outline moves by half a
 * pixel or the rasteriser samples its edge pixels differently. Nothing inside the figure changes.
 */
function blendSilhouette(img: Rgba, covered: Uint8Array): Rgba {
  const { width, height } = img;
  const out = new Uint8Array(img.data);
  const steps: [number, number][] = [[1, 0], [-1, 0], [0, 1], [0, -1]];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (!covered[p]) continue;
      const step = steps.find(([dx, dy]) => x + dx >= 0 && x + dx < width && y + dy >= 0 && y + dy < height && !covered[p + dy * width + dx]);
      if (!step) continue;
      const q = p + step[1] * width + step[0];
      for (let c = 0; c < 3; c++) out[p * 4 + c] = Math.round((img.data[p * 4 + c]! + img.data[q * 4 + c]!) / 2);
    }
  }
  return { ...img, data: out };
}

let diffDir: string;
beforeEach(() => {
  diffDir = mkdtempSync(join(tmpdir(), 'skinlab-compare-fx-'));
});

describe('compare on real recordings (default rules)', () => {
  it('fails the rim light turned red (glow on hair, legs and shoes), by both rules', () => {
    const r = compareRecordings(join(FIXTURES, 'base'), join(FIXTURES, 'rim'), diffDir);
    expect(r.pairs.map((p) => p.status)).toEqual(['fail', 'fail']);
    for (const p of r.pairs) {
      expect(p.coverageSource).toBe('recorded');
      // 0.35–0.39 % of the whole image: under the old 0.5 %-of-the-image rule.
      expect(p.pixels! / (320 * 240)).toBeLessThan(0.005);
      expect(p.failedRules).toEqual(['coverage', 'region']);
    }
  });

  it('passes the same build recorded twice, and rounding noise of ±2 levels on every pixel', () => {
    // SwiftShader wrote the same bytes twice here; another machine's rasteriser may round differently.
    const r = compareRecordings(join(FIXTURES, 'base'), join(FIXTURES, 'again'), diffDir);
    expect(r.failed).toBe(0);
    expect(r.pairs.map((p) => p.status)).toEqual(['pass', 'pass']);
    for (const file of SHOTS) {
      const base = image('base', file);
      const noisy = { ...base, data: new Uint8Array(base.data) };
      let seed = 7;
      for (let i = 0; i < noisy.data.length; i++) {
        if (i % 4 === 3) continue;
        seed = (seed * 1103515245 + 12345) >>> 0;
        noisy.data[i] = Math.max(0, Math.min(255, noisy.data[i]! + ((seed >>> 16) % 5) - 2));
      }
      const j = judgePair(base, noisy, mask('base', file), mask('again', file), DEFAULT_RULES);
      expect(j.failed, file).toEqual([]);
    }
  });

  it('passes an anti-aliasing-only change of the silhouette; counting the AA pixels would fail it', () => {
    for (const file of SHOTS) {
      const base = image('base', file);
      const covered = mask('base', file);
      const moved = blendSilhouette(base, covered);
      const j = judgePair(base, moved, covered, covered, DEFAULT_RULES);
      expect(j.aaPixels).toBeGreaterThan(0);
      expect(j.failed, file).toEqual([]);
    }
    // The same change with the AA pixels counted (pixelmatch's includeAA) breaks a rule: the detector is
    // what makes it pass, not a change too faint to matter.
    const base = image('base', SHOTS[0]!);
    const covered = mask('base', SHOTS[0]!);
    const j = judgePair(base, blendSilhouette(base, covered), covered, covered, DEFAULT_RULES);
    expect(j.pixels + j.aaPixels).toBeGreaterThan(DEFAULT_RULES.threshold * j.coverage);
  });

  it('fails the Walker with its draw removed', () => {
    const r = compareRecordings(join(FIXTURES, 'base'), join(FIXTURES, 'nodraw'), diffDir);
    expect(r.pairs.map((p) => p.status)).toEqual(['fail', 'fail']);
    // The union of both masks: the baseline's figure (the new images have none).
    for (const p of r.pairs) expect(p.coverage).toBeGreaterThan(3000);
  });

  it('uses the recorded masks: the model covers about 5 % of a 320×240 shot, the floor is not counted', () => {
    for (const file of SHOTS) {
      const m = mask('base', file);
      const covered = m.reduce((n, v) => n + v, 0);
      expect(covered).toBeGreaterThan(3000);
      expect(covered).toBeLessThan(5000);
      // The bottom rows are floor only.
      expect(m.subarray(m.length - 320 * 5).every((v) => v === 0)).toBe(true);
    }
  });
});
