import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeHalfCube, halfValue } from '../../src/render/half-float.ts';
import { STUDIO_ENV_BAKED } from '../../src/render/studio-env-data.ts';
import { cubeDirection, ENV_SIZE, envLevels, KEY_DIR, prefilterStudioCube, SAMPLES, shBasis, studioEnvironment, studioIrradianceSH, studioRadiance } from '../../src/render/studio-env.ts';

/**
 * The generated image-based light of the pbr shading (src/render/studio-env.ts), and its copy baked at build
 * time (src/render/studio-env-data.ts, scripts/gen-env.ts) that the page uploads.
 */

/** Brute-force irradiance / π at normal n: the cosine-weighted mean over a fine grid of directions. */
function bruteIrradiance(n: readonly number[]): number[] {
  const out = [0, 0, 0];
  const c = new Float32Array(3);
  const steps = 256;
  let dw = 0;
  for (let i = 0; i < steps; i++) {
    const cosT = 1 - (2 * (i + 0.5)) / steps;
    const sinT = Math.sqrt(1 - cosT * cosT);
    for (let j = 0; j < steps * 2; j++) {
      const phi = (Math.PI * (j + 0.5)) / steps;
      const d = [sinT * Math.cos(phi), cosT, sinT * Math.sin(phi)];
      const nl = Math.max(0, d[0]! * n[0]! + d[1]! * n[1]! + d[2]! * n[2]!);
      studioRadiance(d[0]!, d[1]!, d[2]!, c);
      for (let k = 0; k < 3; k++) out[k]! += c[k]! * nl;
      dw++;
    }
  }
  // Uniform sphere samples: ∫ L cos dω / π = 4π/N Σ L cos / π.
  return out.map((v) => (v * 4) / dw);
}

function evalSH(sh: Float32Array, n: readonly number[]): number[] {
  const y = new Float64Array(9);
  shBasis(n[0]!, n[1]!, n[2]!, y);
  const out = [0, 0, 0];
  for (let k = 0; k < 9; k++) for (let ch = 0; ch < 3; ch++) out[ch]! += sh[k * 3 + ch]! * y[k]!;
  return out;
}

describe('studio environment', () => {
  it('SH9 irradiance matches a brute-force cosine integral within a few percent: sky above, ground below', () => {
    const sh = studioIrradianceSH();
    for (const n of [[0, 1, 0], [0, -1, 0], [1, 0, 0], [0, 0, -1], [...KEY_DIR]]) {
      const want = bruteIrradiance(n);
      const got = evalSH(sh, n);
      for (let k = 0; k < 3; k++) expect(Math.abs(got[k]! - want[k]!)).toBeLessThan(0.03 + 0.05 * want[k]!);
    }
    const up = evalSH(sh, [0, 1, 0]);
    const down = evalSH(sh, [0, -1, 0]);
    expect(up[2]!).toBeGreaterThan(down[2]! * 2);
  });

  it('prefilters a mip chain: the mirror level keeps the key light sharp, the roughest keeps only the sky-over-ground gradient', () => {
    const t0 = performance.now();
    const cube = prefilterStudioCube();
    const ms = performance.now() - t0;
    expect(cube.length).toBe(envLevels());
    expect(cube.map((l) => Math.sqrt(l[0]!.length / 4))).toEqual([32, 16, 8, 4, 2, 1]);
    const spread = (level: number): number => {
      let lo = Infinity;
      let hi = 0;
      for (const face of cube[level]!) for (let i = 0; i < face.length; i += 4) {
        lo = Math.min(lo, face[i]!);
        hi = Math.max(hi, face[i]!);
      }
      return hi / lo;
    };
    expect(spread(0)).toBeGreaterThan(spread(2));
    expect(spread(2)).toBeGreaterThan(spread(5));
    expect(spread(5)).toBeLessThan(6);
    // Every texel finite and positive.
    expect(cube.every((level) => level.every((face) => face.every((v) => Number.isFinite(v) && v > 0)))).toBe(true);
    // Brightest texel of level 0 points at the key light.
    const d = [0, 0, 0];
    let best = -1;
    let bestDot = 0;
    cube[0]!.forEach((face, f) => {
      for (let i = 0; i < face.length; i += 4) if (face[i]! > best) {
        best = face[i]!;
        cubeDirection(f, (i / 4) % ENV_SIZE, Math.floor(i / 4 / ENV_SIZE), ENV_SIZE, d);
        bestDot = d[0]! * KEY_DIR[0] + d[1]! * KEY_DIR[1] + d[2]! * KEY_DIR[2];
      }
    });
    expect(bestDot).toBeGreaterThan(0.99);
    // Startup cost: generous bound (this runs once per page).
    expect(ms).toBeLessThan(2000);
  });

  afterEach(() => {
    vi.restoreAllMocks();
    vi.doUnmock('../../src/render/studio-env-data.ts');
    vi.resetModules();
  });

  it('the baked environment is what studio-env.ts computes now, to binary16 rounding (else run `npm run gen`)', () => {
    expect({ size: STUDIO_ENV_BAKED.size, samples: STUDIO_ENV_BAKED.samples }, 'the generated file was made for these parameters').toEqual({ size: ENV_SIZE, samples: SAMPLES });
    const baked = decodeHalfCube(STUDIO_ENV_BAKED.cube, ENV_SIZE);
    expect(baked, 'the baked cube decodes').not.toBeNull();
    const cube = prefilterStudioCube();
    expect(baked!.map((faces) => faces.map((d) => d.length))).toEqual(cube.map((faces) => faces.map((d) => d.length)));
    // Each value within one binary16 step of the float (round to nearest is within half a step; one step
    // leaves room for another engine's last bit in Math.cos and friends).
    let worst = 0;
    cube.forEach((faces, l) => faces.forEach((data, f) => data.forEach((v, i) => {
      const step = 2 ** (Math.floor(Math.log2(Math.max(Math.abs(v), 2 ** -14))) - 10);
      worst = Math.max(worst, Math.abs(halfValue(baked![l]![f]![i]!) - v) / step);
    })));
    expect(worst, 'largest difference, in binary16 steps').toBeLessThanOrEqual(1);
    const sh = studioIrradianceSH();
    STUDIO_ENV_BAKED.sh.forEach((v, k) => expect(Math.abs(v - sh[k]!), `SH coefficient ${k}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(sh[k]!))));
  });

  it('studioEnvironment gives the baked data without computing it, once per page', () => {
    const warn = vi.spyOn(console, 'warn');
    const env = studioEnvironment();
    expect(warn).not.toHaveBeenCalled();
    expect(env.levels.map((faces) => faces.map((d) => Array.from(d)))).toEqual(decodeHalfCube(STUDIO_ENV_BAKED.cube, ENV_SIZE)!.map((faces) => faces.map((d) => Array.from(d))));
    expect(Array.from(env.sh)).toEqual(Array.from(new Float32Array(STUDIO_ENV_BAKED.sh)));
    expect(studioEnvironment()).toBe(env);
  });

  it('a stale generated file (made for another size): the page still gets the environment, computed, with a warning', async () => {
    vi.resetModules();
    vi.doMock('../../src/render/studio-env-data.ts', () => ({ STUDIO_ENV_BAKED: { ...STUDIO_ENV_BAKED, size: 16 } }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fresh = await import('../../src/render/studio-env.ts');
    const env = fresh.studioEnvironment();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/npm run gen/));
    expect(env.levels.map((faces) => Math.sqrt(faces[0]!.length / 4))).toEqual([32, 16, 8, 4, 2, 1]);
    const baked = decodeHalfCube(STUDIO_ENV_BAKED.cube, ENV_SIZE)!;
    const near = (a: Uint16Array, b: Uint16Array): boolean => a.every((h, i) => Math.abs(halfValue(h) - halfValue(b[i]!)) <= 1e-3 * Math.abs(halfValue(b[i]!)));
    expect(env.levels.every((faces, l) => faces.every((d, f) => near(d, baked[l]![f]!))), 'the computed levels are the baked ones').toBe(true);
    env.sh.forEach((v, k) => expect(v).toBeCloseTo(STUDIO_ENV_BAKED.sh[k]!, 6));
  });
});
