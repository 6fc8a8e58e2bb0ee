import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { buildDualQuatPalette, DUAL_QUAT_STRIDE, skinTangentsDualQuat } from '../../src/anim/dual-quat.ts';
import { applyMorphs, orthonormaliseTangents } from '../../src/anim/morph.ts';
import { writeIdentityPalette } from '../../src/anim/palette.ts';
import { skinMesh, skinTangents } from '../../src/anim/software-skin.ts';
import { expectClose, makeMesh } from './fixtures.ts';
import { morphQuad } from './morph-fixtures.ts';

/**
 * The CPU side of Dawn's tangent frame (§4.3.2): the neutral tangent re-orthonormalised against the morphed
 * normal (applyMorphs / orthonormaliseTangents), then skinned as a direction (skinTangents, and the dual
 * quaternion variant): what the GPU paths are checked against (e2e/morph.spec.ts, tangentCheck).
 */

function identity(slots: number): Float32Array {
  const out = new Float32Array(slots * 16);
  writeIdentityPalette(out, slots);
  return out;
}

/** Palette of `slots` copies of m (column-major). */
function paletteOf(slots: number, ...ms: mat4[]): Float32Array {
  const out = new Float32Array(slots * 16);
  for (let k = 0; k < slots; k++) out.set(ms[Math.min(k, ms.length - 1)] as Float32Array, k * 16);
  return out;
}

const rotZ90 = mat4.fromZRotation(mat4.create(), Math.PI / 2);
const moved = mat4.translate(mat4.create(), rotZ90, [3, -2, 7]);

describe('orthonormaliseTangents', () => {
  it('projects the tangent off the normal, normalises it and keeps the bitangent sign', () => {
    const normals = Float32Array.from([0, 0, 1, 0, 0, 1, 0, 1, 0]);
    const neutral = Float32Array.from([2, 0, 2, -1, 1, 0, 0, 1, 0, 1, 0, 1]);
    const out = new Float32Array(12).fill(Number.NaN);
    orthonormaliseTangents(normals, neutral, out);
    // (2,0,2) − 2·(0,0,1) = (2,0,0) → (1,0,0); an orthonormal tangent is kept; a tangent along n is kept as it is.
    expectClose(out, [1, 0, 0, -1, 1, 0, 0, 1, 0, 1, 0, 1]);
  });

  it('applyMorphs projects against the neutral normal even when no weight moves the mesh', () => {
    const mesh = { ...morphQuad(), tangents: Float32Array.from([1, 0, 0.1, 1, 1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1]) };
    const t = new Float32Array(16);
    applyMorphs(mesh, new Float32Array(3), new Float32Array(12), new Float32Array(12), t);
    expectClose(t.subarray(0, 4), [1, 0, 0, 1]);
    expectClose(t.subarray(4), mesh.tangents.subarray(4));
  });
});

describe('skinTangents', () => {
  const mesh = makeMesh(
    [
      { p: [1, 2, 3], n: [0, 0, 1], influences: [[0, 1]] },
      { p: [-1, 0.5, 0], n: [0, 0, 1], influences: [[1, 0.75], [0, 0.25]] },
      { p: [4, -4, 2], n: [0, 1, 0], influences: [[1, 0.4], [0, 0.3], [2, 0.2], [3, 0.1]] },
      { p: [0, 0, 0], n: [0, 0, 1], influences: [] },
    ],
    [0, 1, 2, 3],
    identity(4),
  );
  const tangents = Float32Array.from([1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, 1, 0, -1]);

  it('returns the input under an identity palette', () => {
    const out = new Float32Array(16).fill(Number.NaN);
    skinTangents(mesh, tangents, identity(4), out);
    expectClose(out, tangents);
  });

  it('rotates the tangent as a direction: no translation, sign kept', () => {
    const out = new Float32Array(16);
    skinTangents(mesh, tangents, paletteOf(4, moved), out);
    expectClose(out, [0, 1, 0, 1, 0, 1, 0, -1, 0, 1, 0, 1, -1, 0, 0, -1], 1e-6);
  });

  it('blends the renormalised first `influences` matrices and normalises the result', () => {
    // Slot 0 identity, slot 1 rotated 90° about z: vertex 1 (0.25 · x + 0.75 · y) normalised.
    const palette = paletteOf(4, mat4.create(), rotZ90);
    const out = new Float32Array(16);
    skinTangents(mesh, tangents, palette, out);
    const l = Math.hypot(0.25, 0.75);
    expectClose(out.subarray(4, 8), [0.25 / l, 0.75 / l, 0, -1], 1e-6);
    // With 1 influence vertex 1 follows slot 1 alone; a vertex without weights is rigid on joints[0].
    skinTangents(mesh, tangents, palette, out, 1);
    expectClose(out.subarray(4, 8), [0, 1, 0, -1], 1e-6);
    expectClose(out.subarray(12, 16), [0, 1, 0, -1], 1e-6);
    for (let v = 0; v < 4; v++) expect(Math.hypot(out[v * 4]!, out[v * 4 + 1]!, out[v * 4 + 2]!)).toBeCloseTo(1, 6);
  });

  it('stays orthogonal to the skinned normal under a rigid bone after a morph turned the normal (Dawn §4.3.2)', () => {
    const quad = morphQuad();
    const w = Float32Array.from([0, 0.5, 0]);
    const p = new Float32Array(12);
    const n = new Float32Array(12);
    const t = new Float32Array(16);
    applyMorphs(quad, w, p, n, t);
    const palette = paletteOf(1, moved);
    const sn = new Float32Array(12);
    const st = new Float32Array(16);
    skinMesh({ ...quad, positions: p, normals: n }, palette, new Float32Array(12), sn);
    skinTangents(quad, t, palette, st);
    // Vertex 2: n = (√½, 0, √½) → t = (√½, 0, −√½), sign −1; rotated 90° about z.
    expectClose(st.subarray(8, 12), [0, Math.SQRT1_2, -Math.SQRT1_2, -1], 1e-6);
    for (let v = 0; v < 4; v++) expect(sn[v * 3]! * st[v * 4]! + sn[v * 3 + 1]! * st[v * 4 + 1]! + sn[v * 3 + 2]! * st[v * 4 + 2]!).toBeCloseTo(0, 6);
  });
});

describe('skinTangentsDualQuat', () => {
  it('matches linear blend skinning for a single rigid influence and ignores translation', () => {
    const mesh = makeMesh(
      [
        { p: [1, 2, 3], n: [0, 0, 1], influences: [[0, 1]] },
        { p: [0, 1, 0], n: [1, 0, 0], influences: [[1, 1]] },
      ],
      [0, 1],
      identity(2),
    );
    const tangents = Float32Array.from([0.6, 0.8, 0, 1, 0, 0.6, 0.8, -1]);
    const other = mat4.fromRotation(mat4.create(), 0.7, [0.3, -0.5, 0.81]);
    mat4.translate(other, other, [1, 2, 3]);
    const palette = paletteOf(2, moved, other);
    const dq = new Float32Array(2 * DUAL_QUAT_STRIDE);
    buildDualQuatPalette(palette, 2, dq);
    const lbs = new Float32Array(8);
    const dual = new Float32Array(8);
    skinTangents(mesh, tangents, palette, lbs);
    skinTangentsDualQuat(mesh, tangents, dq, dual);
    expectClose(dual, lbs, 1e-6);
  });

  it('blends rotations, not matrices: a 50/50 blend of ±90° keeps a unit tangent between them', () => {
    const mesh = makeMesh([{ p: [0, 0, 0], n: [0, 0, 1], influences: [[0, 0.5], [1, 0.5]] }], [0, 1], identity(2));
    const palette = paletteOf(2, rotZ90, mat4.fromZRotation(mat4.create(), -Math.PI / 2));
    const dq = new Float32Array(2 * DUAL_QUAT_STRIDE);
    buildDualQuatPalette(palette, 2, dq);
    const out = new Float32Array(4);
    skinTangentsDualQuat(mesh, Float32Array.from([1, 0, 0, 1]), dq, out);
    expectClose(out, [1, 0, 0, 1], 1e-6);
  });
});
