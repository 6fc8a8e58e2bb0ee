import { describe, expect, it } from 'vitest';
import { cubeDirection, ENV_SIZE, envLevels, KEY_DIR, prefilterStudioCube, shBasis, studioIrradianceSH, studioRadiance } from '../../src/render/studio-env.ts';

/** The generated image-based light of the pbr shading (src/render/studio-env.ts). */

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
});
