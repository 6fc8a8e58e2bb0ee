import { describe, expect, it } from 'vitest';
import { skinMesh } from '../../src/anim/software-skin.ts';
import { polarRotation } from '../../src/deform/ddm-polar.ts';
import { computeDdm, ddmData, DDM_OMEGA, DDM_SLOTS, DEFAULT_DDM_PARAMS } from '../../src/deform/ddm-precompute.ts';
import { skinMeshDdm } from '../../src/deform/ddm-runtime.ts';
import { threadCpuMs } from '../thread-cpu.ts';
import { identityPalette, loadPublic, maxPointError, meshSize, posePalette } from './ddm-fixtures.ts';

/**
 * Direct delta mush (src/deform/ddm-*.ts): without smoothing it is linear blend skinning; the bind pose is the
 * rest pose; the polar decomposition always returns a proper rotation; palettes with scale keep linear blending's
 * size; the default smoothing rounds the twist rig's joints;
 * Dawn high precomputes within budget.
 */

describe('ddm polar decomposition', () => {
  const rng = (() => {
    let s = 12345;
    return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  })();
  const det = (m: ArrayLike<number>): number =>
    m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) - m[3]! * (m[1]! * m[8]! - m[2]! * m[7]!) + m[6]! * (m[1]! * m[5]! - m[2]! * m[4]!);
  const orthoError = (r: Float64Array): number => {
    let e = 0;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      let d = 0;
      for (let k = 0; k < 3; k++) d += r[i * 3 + k]! * r[j * 3 + k]!;
      e = Math.max(e, Math.abs(d - (i === j ? 1 : 0)));
    }
    return e;
  };
  /** Polar factor by Newton's iteration X ← (X + X⁻ᵀ) / 2 (non-singular, det > 0). */
  const newton = (c: ArrayLike<number>): Float64Array => {
    let x = Float64Array.from(c as number[]);
    for (let it = 0; it < 60; it++) {
      const d = det(x);
      // Inverse transpose = cofactor matrix / det (column-major).
      const cof = new Float64Array(9);
      for (let col = 0; col < 3; col++) for (let row = 0; row < 3; row++) {
        const r1 = (row + 1) % 3, r2 = (row + 2) % 3, c1 = (col + 1) % 3, c2 = (col + 2) % 3;
        cof[col * 3 + row] = x[c1 * 3 + r1]! * x[c2 * 3 + r2]! - x[c2 * 3 + r1]! * x[c1 * 3 + r2]!;
      }
      x = x.map((v, k) => (v + cof[k]! / d) / 2);
    }
    return x;
  };

  it('matches the polar factor of random matrices and is always a proper rotation', () => {
    const r = new Float64Array(9);
    let worst = 0;
    for (let n = 0; n < 200; n++) {
      const c = Array.from({ length: 9 }, rng);
      const warm = Array.from({ length: 9 }, rng);
      polarRotation(c, warm, r);
      expect(orthoError(r)).toBeLessThan(1e-9);
      expect(det(r)).toBeCloseTo(1, 9);
      if (det(c) > 0.05) {
        const ref = newton(c);
        worst = Math.max(worst, ...Array.from(r, (v, k) => Math.abs(v - ref[k]!)));
      }
    }
    expect(worst).toBeLessThan(1e-4);
  });

  it('near-singular and zero matrices still give rotations (a flat patch, a line, nothing)', () => {
    const r = new Float64Array(9);
    const rot = [0, 1, 0, -1, 0, 0, 0, 0, 1]; // 90° about z, column-major
    // Rank 2 (a flat patch rotated by rot): the rotation is still determined.
    polarRotation([0, 2, 0, -1, 0, 0, 0, 0, 1e-9], [1, 0, 0, 0, 1, 0, 0, 0, 1], r);
    expect(maxPointError(Float32Array.from(r), Float32Array.from(rot))).toBeLessThan(1e-5);
    // Rank 1 and zero: a proper rotation, the warm start's where nothing else decides.
    for (const c of [[1, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0], [1e-30, 0, 0, 0, 1e-30, 0, 0, 0, -1e-30]]) {
      polarRotation(c, rot, r);
      expect(orthoError(r)).toBeLessThan(1e-9);
      expect(det(r)).toBeCloseTo(1, 9);
    }
    polarRotation([0, 0, 0, 0, 0, 0, 0, 0, 0], rot, r);
    expect(maxPointError(Float32Array.from(r), Float32Array.from(rot))).toBeLessThan(1e-6);
    // A reflection gives the nearest proper rotation, not the reflection.
    polarRotation([1, 0, 0, 0, 1, 0, 0, 0, -1], [1, 0, 0, 0, 1, 0, 0, 0, 1], r);
    expect(det(r)).toBeCloseTo(1, 9);
  });
});

/** Signed volume enclosed by the triangles (outward wound: positive). */
function signedVolume(indices: Uint32Array, p: Float32Array): number {
  let v = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3, b = indices[t + 1]! * 3, c = indices[t + 2]! * 3;
    v += p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!) - p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!) + p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!);
  }
  return v / 6;
}

/** Smallest distance of the ring's posed vertices from their centroid (the twist rig's joint ring: its radius). */
function ringRadius(p: Float32Array, ring: readonly number[]): number {
  let cx = 0, cy = 0, cz = 0;
  for (const v of ring) { cx += p[v * 3]!; cy += p[v * 3 + 1]!; cz += p[v * 3 + 2]!; }
  cx /= ring.length; cy /= ring.length; cz /= ring.length;
  let r = Infinity;
  for (const v of ring) r = Math.min(r, Math.hypot(p[v * 3]! - cx, p[v * 3 + 1]! - cy, p[v * 3 + 2]! - cz));
  return r;
}

describe('ddm precompute and runtime', () => {
  const twist = loadPublic('models/generated/twist.m3d');
  const tiny = loadPublic('models/tiny/tiny.x');

  it('without smoothing (p = 0) DDM is linear blend skinning', () => {
    // Ω′ centred on p̄ = the vertex itself keeps only Ω33 = w: q is linear blending's point and the detail
    // term R·(s ⊙ (v − p̄)) is zero, so neither R nor the scale s (tiny's R·S palettes) enter.
    for (const [scene, clip, t] of [[twist, 0, 2], [twist, 1, 2], [tiny, 0, 0.4]] as const) {
      const mesh = scene.meshes[0]!;
      const data = computeDdm(mesh, { ...DEFAULT_DDM_PARAMS, iterations: 0 });
      expect(data.truncated).toBe(0);
      const pal = posePalette(scene, mesh, clip, t);
      const lbs = new Float32Array(mesh.vertexCount * 3);
      const ddm = new Float32Array(mesh.vertexCount * 3);
      skinMesh(mesh, pal, lbs, null);
      skinMeshDdm(mesh, data, pal, ddm, null);
      expect(maxPointError(ddm, lbs) / meshSize(mesh)).toBeLessThan(1e-5);
    }
  });

  it('palettes with scale: tiny.x at a walk pose has linear blending\'s size (its matrices are R·S, S = (1.28, 1.12, 1.47))', () => {
    const mesh = tiny.meshes[0]!;
    const pal = posePalette(tiny, mesh, 0, 0.4);
    const lbs = new Float32Array(mesh.vertexCount * 3);
    const ddm = new Float32Array(mesh.vertexCount * 3);
    skinMesh(mesh, pal, lbs, null);
    skinMeshDdm(mesh, ddmData(mesh), pal, ddm, null);
    const box = (p: Float32Array): number[] => {
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (let v = 0; v < mesh.vertexCount; v++) for (let c = 0; c < 3; c++) {
        lo[c] = Math.min(lo[c]!, p[v * 3 + c]!);
        hi[c] = Math.max(hi[c]!, p[v * 3 + c]!);
      }
      return [0, 1, 2].map((c) => hi[c]! - lo[c]!);
    };
    const bl = box(lbs), bd = box(ddm);
    console.log(`tiny walk: bounding box linear blend ${bl.map((x) => x.toFixed(1)).join(' × ')}, ddm ${bd.map((x) => x.toFixed(1)).join(' × ')}`);
    for (let c = 0; c < 3; c++) expect(Math.abs(bd[c]! / bl[c]! - 1)).toBeLessThan(0.05);
    // Unscaled, the detail around the smoothed centres shrinks by 1/1.12..1/1.47 (the box's depth was 13 % short
    // at p = 20); the smoothing itself moves the vertices a little from linear blending's.
    let sum = 0;
    for (let v = 0; v < mesh.vertexCount; v++) sum += Math.hypot(ddm[v * 3]! - lbs[v * 3]!, ddm[v * 3 + 1]! - lbs[v * 3 + 1]!, ddm[v * 3 + 2]! - lbs[v * 3 + 2]!);
    console.log(`tiny walk: mean |ddm − linear blend| ${(sum / mesh.vertexCount / meshSize(mesh)).toExponential(2)} of the size`);
    expect(sum / mesh.vertexCount / meshSize(mesh)).toBeLessThan(5e-3);
  });

  it('the bind pose is the rest pose (positions, normals, tangents)', () => {
    const walker = loadPublic('models/generated/walker.m3d');
    for (const scene of [twist, tiny, walker]) {
      const mesh = scene.meshes[0]!;
      const data = ddmData(mesh);
      const pos = new Float32Array(mesh.vertexCount * 3);
      const nrm = new Float32Array(mesh.vertexCount * 3);
      skinMeshDdm(mesh, data, identityPalette(mesh), pos, nrm);
      expect(maxPointError(pos, mesh.positions) / meshSize(mesh)).toBeLessThan(1e-5);
      expect(maxPointError(nrm, mesh.normals)).toBeLessThan(1e-4);
    }
  });

  it('keeps at most 8 bones per vertex, sorted, their shares summing to 1, and reports the truncation', () => {
    const mesh = tiny.meshes[0]!;
    const data = ddmData(mesh);
    expect(data.maxBones).toBeGreaterThan(DDM_SLOTS);
    expect(data.truncated).toBeGreaterThan(0);
    for (let v = 0; v < mesh.vertexCount; v++) {
      let sum = 0, prev = Infinity;
      for (let s = 0; s < DDM_SLOTS; s++) {
        const w = data.omega[(v * DDM_SLOTS + s) * DDM_OMEGA + 9]!;
        expect(w).toBeLessThanOrEqual(prev);
        prev = w;
        sum += w;
      }
      expect(sum).toBeCloseTo(1, 5);
    }
  });

  it('the defaults smooth the twist rig\'s twist and bend joints: a rounder neck and more volume than linear blending and the mild p = 20', () => {
    const mesh = twist.meshes[0]!;
    const ring: number[] = [];
    for (let v = 0; v < mesh.vertexCount; v++) if (Math.abs(mesh.positions[v * 3]!) < 1e-4) ring.push(v);
    expect(ring.length).toBeGreaterThan(8);
    const mild = computeDdm(mesh, { iterations: 20, lambda: 0.5, kappa: 0.25, alpha: 0.8 });
    const rest = signedVolume(mesh.indices, mesh.positions);
    const rows: string[] = [];
    for (const [clip, name] of [[0, 'twist'], [1, 'bend']] as const) {
      const pal = posePalette(twist, mesh, clip, 2);
      const lbs = new Float32Array(mesh.vertexCount * 3);
      const old = new Float32Array(mesh.vertexCount * 3);
      const ddm = new Float32Array(mesh.vertexCount * 3);
      skinMesh(mesh, pal, lbs, null);
      skinMeshDdm(mesh, mild, pal, old, null);
      skinMeshDdm(mesh, ddmData(mesh), pal, ddm, null);
      const [rl, ro, rd] = [lbs, old, ddm].map((p) => ringRadius(p, ring));
      const [vl, vo, vd] = [lbs, old, ddm].map((p) => signedVolume(mesh.indices, p) / rest);
      rows.push(`${name} t = 2: joint radius (rest 0.25) linear ${rl!.toFixed(3)}, p = 20 ${ro!.toFixed(3)}, defaults ${rd!.toFixed(3)}; volume / rest ${vl!.toFixed(3)}, ${vo!.toFixed(3)}, ${vd!.toFixed(3)}`);
      expect(rd!).toBeGreaterThan(ro! + 0.02);
      expect(ro!).toBeGreaterThan(rl!);
      expect(vd!).toBeGreaterThan(vo!);
      expect(vd!).toBeLessThan(1.01);
    }
    console.log(rows.join('\n'));
  });

  it('Dawn high precomputes within 10 s of CPU', () => {
    const dawn = loadPublic('models/generated/dawn-high.m3d');
    const t0 = threadCpuMs();
    let truncated = 0, vertices = 0;
    for (const mesh of dawn.meshes) {
      const d = computeDdm(mesh);
      truncated += d.truncated;
      vertices += mesh.vertexCount;
    }
    const ms = threadCpuMs() - t0;
    console.log(`dawn-high ddm precompute: ${vertices} vertices, ${ms.toFixed(0)} ms CPU, ${truncated} truncated`);
    expect(ms).toBeLessThan(10_000);
  });
});
