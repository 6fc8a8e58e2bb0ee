/**
 * The pbr shading's image-based light (glsl/include/pbr_pars.glsl), generated here at startup: no image is
 * downloaded. A procedural studio environment (studioRadiance: a sky-over-ground gradient with a soft horizon
 * plus two soft lobes, a warm one towards the key light and a cool one towards the rim light, the directions
 * and colours of lighting_pars.glsl) is
 * - prefiltered for GGX (prefilterStudioCube): a small cube map whose mip level l holds the radiance a mirror
 *   direction sees through roughness l / (levels − 1), by importance-sampling the GGX lobe with N = V = R
 *   (the split-sum's usual assumption) over the analytic environment itself (no source map, no aliasing);
 * - projected on 9 spherical harmonics and convolved with the clamped cosine (studioIrradianceSH): the diffuse
 *   light, irradiance / π per normal.
 * The split-sum's DFG term is an analytic fit in the shader (no LUT). CPU only, no GL (gpu/env-cube.ts uploads);
 * deterministic (a Hammersley point set). Units: linear radiance, the scale of the studio shading's lights.
 */

/** Cube face edge of mip level 0, in texels; levels down to 1x1 (6 for 32). */
export const ENV_SIZE = 32;
/** GGX samples per texel of the prefiltered levels. */
const SAMPLES = 128;

/** Unit direction towards the key light and the rim light (scene-uniforms.ts holds the same). */
export const KEY_DIR: readonly [number, number, number] = unit([-0.6, 0.7, 0.45]);
export const RIM_DIR: readonly [number, number, number] = unit([0.7, 0.3, -0.65]);

function unit(v: [number, number, number]): [number, number, number] {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
}

const SKY = [0.62, 0.7, 0.82];
const GROUND = [0.2, 0.17, 0.15];
const KEY = [1.0, 0.93, 0.84];
const RIM = [0.55, 0.65, 0.85];

const smoothstep = (a: number, b: number, x: number): number => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

/** Radiance arriving from unit direction (x, y, z), linear RGB, written to `out` at `o`. */
export function studioRadiance(x: number, y: number, z: number, out: Float32Array | number[], o = 0): void {
  const t = smoothstep(-0.3, 0.4, y);
  const zenith = 1 + 0.25 * Math.max(0, y);
  // Lobes cos^40 and cos^20 by repeated squaring (this runs some 400k times at startup).
  const k1 = Math.max(0, x * KEY_DIR[0] + y * KEY_DIR[1] + z * KEY_DIR[2]);
  const k4 = k1 * k1 * (k1 * k1);
  const k8 = k4 * k4;
  const k = k8 * k8 * k8 * k8 * k8 * 2.4;
  const r1 = Math.max(0, x * RIM_DIR[0] + y * RIM_DIR[1] + z * RIM_DIR[2]);
  const r4 = r1 * r1 * (r1 * r1);
  const r = r4 * r4 * r4 * r4 * r4 * 1.1;
  for (let c = 0; c < 3; c++) out[o + c] = 0.42 * (GROUND[c]! + (SKY[c]! * zenith - GROUND[c]!) * t) + KEY[c]! * k + RIM[c]! * r;
}

/**
 * Unit direction through texel (x, y) of cube face `face` (GL order +X −X +Y −Y +Z −Z, the first row uploaded
 * being t = 0) of an n × n face, written to `out`.
 */
export function cubeDirection(face: number, x: number, y: number, n: number, out: number[]): void {
  const s = (2 * (x + 0.5)) / n - 1;
  const t = (2 * (y + 0.5)) / n - 1;
  let dx: number;
  let dy: number;
  let dz: number;
  switch (face) {
    case 0: [dx, dy, dz] = [1, -t, -s]; break;
    case 1: [dx, dy, dz] = [-1, -t, s]; break;
    case 2: [dx, dy, dz] = [s, 1, t]; break;
    case 3: [dx, dy, dz] = [s, -1, -t]; break;
    case 4: [dx, dy, dz] = [s, -t, 1]; break;
    default: [dx, dy, dz] = [-s, -t, -1]; break;
  }
  const l = Math.hypot(dx, dy, dz);
  out[0] = dx / l;
  out[1] = dy / l;
  out[2] = dz / l;
}

/** Levels of the prefiltered cube: ENV_SIZE down to 1. */
export function envLevels(size = ENV_SIZE): number {
  return Math.floor(Math.log2(size)) + 1;
}

/**
 * The prefiltered environment: per mip level, per face (GL order), RGBA float texels (alpha 1), level l
 * filtered for roughness l / (levels − 1) (level 0: the environment itself, a mirror).
 */
export function prefilterStudioCube(size = ENV_SIZE, samples = SAMPLES): Float32Array[][] {
  const levels = envLevels(size);
  const out: Float32Array[][] = [];
  const n = [0, 0, 0];
  const c = new Float32Array(3);
  // Hammersley points, shared by every texel.
  const u1 = new Float64Array(samples);
  const u2 = new Float64Array(samples);
  for (let i = 0; i < samples; i++) {
    u1[i] = (i + 0.5) / samples;
    let bits = i;
    let r = 0;
    for (let b = 0.5; bits > 0; b *= 0.5, bits >>= 1) if (bits & 1) r += b;
    u2[i] = r;
  }
  // Per level: the GGX half vectors in the tangent frame (x, y, z = cos θ), shared by every texel.
  const hxs = new Float64Array(samples);
  const hys = new Float64Array(samples);
  const hzs = new Float64Array(samples);
  for (let l = 0; l < levels; l++) {
    const w = Math.max(1, size >> l);
    const roughness = levels > 1 ? l / (levels - 1) : 0;
    const a = roughness * roughness;
    for (let i = 0; i < samples; i++) {
      const phi = 2 * Math.PI * u2[i]!;
      const cosT = Math.sqrt((1 - u1[i]!) / (1 + (a * a - 1) * u1[i]!));
      const sinT = Math.sqrt(1 - cosT * cosT);
      hxs[i] = sinT * Math.cos(phi);
      hys[i] = sinT * Math.sin(phi);
      hzs[i] = cosT;
    }
    const faces: Float32Array[] = [];
    for (let f = 0; f < 6; f++) {
      const data = new Float32Array(w * w * 4);
      for (let y = 0; y < w; y++) {
        for (let x = 0; x < w; x++) {
          cubeDirection(f, x, y, w, n);
          const o = (y * w + x) * 4;
          data[o + 3] = 1;
          if (l === 0) {
            studioRadiance(n[0]!, n[1]!, n[2]!, data, o);
            continue;
          }
          // Tangent frame around n.
          const up = Math.abs(n[1]!) < 0.999 ? [0, 1, 0] : [1, 0, 0];
          const tx = unit([up[1]! * n[2]! - up[2]! * n[1]!, up[2]! * n[0]! - up[0]! * n[2]!, up[0]! * n[1]! - up[1]! * n[0]!]);
          const bx = [n[1]! * tx[2] - n[2]! * tx[1], n[2]! * tx[0] - n[0]! * tx[2], n[0]! * tx[1] - n[1]! * tx[0]];
          let sr = 0;
          let sg = 0;
          let sb = 0;
          let weight = 0;
          for (let i = 0; i < samples; i++) {
            // GGX half vector (D importance sampling), then L = reflect(−V, H) with V = N.
            const hx = hxs[i]!;
            const hy = hys[i]!;
            const cosT = hzs[i]!;
            const h0 = tx[0] * hx + bx[0]! * hy + n[0]! * cosT;
            const h1 = tx[1] * hx + bx[1]! * hy + n[1]! * cosT;
            const h2 = tx[2] * hx + bx[2]! * hy + n[2]! * cosT;
            const vh = n[0]! * h0 + n[1]! * h1 + n[2]! * h2;
            const lx = 2 * vh * h0 - n[0]!;
            const ly = 2 * vh * h1 - n[1]!;
            const lz = 2 * vh * h2 - n[2]!;
            const nl = n[0]! * lx + n[1]! * ly + n[2]! * lz;
            if (nl <= 0) continue;
            studioRadiance(lx, ly, lz, c);
            sr += c[0]! * nl;
            sg += c[1]! * nl;
            sb += c[2]! * nl;
            weight += nl;
          }
          data[o] = sr / weight;
          data[o + 1] = sg / weight;
          data[o + 2] = sb / weight;
        }
      }
      faces.push(data);
    }
    out.push(faces);
  }
  return out;
}

/** The 9 real SH basis functions at unit (x, y, z) (bands 0..2), written to `out`. */
export function shBasis(x: number, y: number, z: number, out: Float64Array | number[]): void {
  out[0] = 0.282095;
  out[1] = 0.488603 * y;
  out[2] = 0.488603 * z;
  out[3] = 0.488603 * x;
  out[4] = 1.092548 * x * y;
  out[5] = 1.092548 * y * z;
  out[6] = 0.315392 * (3 * z * z - 1);
  out[7] = 1.092548 * x * z;
  out[8] = 0.546274 * (x * x - y * y);
}

/**
 * Diffuse light of the environment: 9 RGB coefficients (27 floats, coefficient-major) such that
 * Σ coef_i · Y_i(n) (shBasis) is the cosine-weighted irradiance at normal n divided by π, the radiance a
 * white Lambertian surface reflects. Projected over the texels of a size × size cube, each weighted by its
 * solid angle.
 */
export function studioIrradianceSH(size = 64): Float32Array {
  const acc = new Float64Array(27);
  const y = new Float64Array(9);
  const n = [0, 0, 0];
  const c = new Float32Array(3);
  let total = 0;
  for (let f = 0; f < 6; f++) {
    for (let j = 0; j < size; j++) {
      for (let i = 0; i < size; i++) {
        const s = (2 * (i + 0.5)) / size - 1;
        const t = (2 * (j + 0.5)) / size - 1;
        const dw = Math.pow(1 + s * s + t * t, -1.5);
        cubeDirection(f, i, j, size, n);
        studioRadiance(n[0]!, n[1]!, n[2]!, c);
        shBasis(n[0]!, n[1]!, n[2]!, y);
        for (let k = 0; k < 9; k++) for (let ch = 0; ch < 3; ch++) acc[k * 3 + ch]! += c[ch]! * y[k]! * dw;
        total += dw;
      }
    }
  }
  // Normalise the solid angles to 4π, then convolve with the clamped cosine (A0 = π, A1 = 2π/3, A2 = π/4) / π.
  const band = [1, 2 / 3, 2 / 3, 2 / 3, 1 / 4, 1 / 4, 1 / 4, 1 / 4, 1 / 4];
  const out = new Float32Array(27);
  for (let k = 0; k < 9; k++) for (let ch = 0; ch < 3; ch++) out[k * 3 + ch] = ((acc[k * 3 + ch]! * 4 * Math.PI) / total) * band[k]!;
  return out;
}

/** The default environment (prefilterStudioCube(), studioIrradianceSH()), made once per page and shared; read-only. */
let shared: { levels: Float32Array[][]; sh: Float32Array } | null = null;

/**
 * The default prefiltered cube and irradiance SH, computed on the first call and kept (about 130 KB): what the
 * pbr shading's environment uploads (gpu/env-cube.ts). Callers must not write into the arrays. Calling it early
 * (while a glTF file is being parsed in the worker, app/loader.ts) takes its tens of ms off the first frame.
 */
export function studioEnvironment(): { readonly levels: readonly Float32Array[][]; readonly sh: Float32Array } {
  return (shared ??= { levels: prefilterStudioCube(), sh: studioIrradianceSH() });
}
