import { mat4, quat } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { buildDualQuatPalette, DUAL_QUAT_STRIDE, skinMeshDualQuat } from '../../src/anim/dual-quat.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import { writeIdentityPalette } from '../../src/anim/palette.ts';
import { humanoid, maxDiff, meshSize, randomPalette } from '../techniques/fixtures.ts';
import { makeMesh } from './fixtures.ts';

function identityInvBind(slots: number): Float32Array {
  const out = new Float32Array(slots * 16);
  writeIdentityPalette(out, slots);
  return out;
}

describe('buildDualQuatPalette', () => {
  it('round-trips a rigid transform and reports no scale', () => {
    const q = quat.setAxisAngle(quat.create(), [0.3, 0.9, -0.3].map((x) => x / Math.hypot(0.3, 0.9, 0.3)) as [number, number, number], 2.2);
    const m = mat4.fromRotationTranslation(mat4.create(), q, [1, -2, 3]) as Float32Array;
    const dq = new Float32Array(DUAL_QUAT_STRIDE);
    expect(buildDualQuatPalette(m, 1, dq)).toBeLessThan(1e-6);
    const sign = Math.sign(dq[3]!) === Math.sign(q[3]) ? 1 : -1;
    for (let i = 0; i < 4; i++) expect(dq[i]! * sign).toBeCloseTo(q[i]!, 6);
    // A vertex skinned by it lands where the matrix puts it.
    const mesh = makeMesh([{ p: [0.5, 1, -2], n: [0, 1, 0], influences: [[0, 1]] }], [0], identityInvBind(1));
    const a = new Float32Array(3);
    const b = new Float32Array(3);
    skinMeshDualQuat(mesh, dq, a, null);
    skinMesh(mesh, m, b, null);
    expect(maxDiff(a, b)).toBeLessThan(1e-5);
  });

  it('carries axis scale and mirroring exactly, and reports only the shear it has to drop', () => {
    const dq = new Float32Array(DUAL_QUAT_STRIDE);
    const q = quat.setAxisAngle(quat.create(), [0, 0.6, 0.8], 0.9);
    const mesh = makeMesh([{ p: [0.5, 1, -2], n: [0, 1, 0], influences: [[0, 1]] }], [0], identityInvBind(1));
    for (const s of [[1, 1.5, 1], [2, 2, 2], [1.28, 1.12, -1.47]] as const) {
      const m = mat4.fromRotationTranslationScale(mat4.create(), q, [1, -2, 3], s) as Float32Array;
      expect(buildDualQuatPalette(m, 1, dq), `scale ${s}`).toBeLessThan(1e-6);
      expect(Array.from(dq.subarray(8, 11)).map((x) => +x.toFixed(5))).toEqual([...s]);
      const a = new Float32Array(3);
      const b = new Float32Array(3);
      skinMeshDualQuat(mesh, dq, a, null);
      skinMesh(mesh, m, b, null);
      expect(maxDiff(a, b), `scale ${s}`).toBeLessThan(1e-5);
    }
    // Scale along a direction that is not a bind-space axis shears the columns: 2 along x + y.
    const shear = mat4.fromValues(1.5, 0.5, 0, 0, 0.5, 1.5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1) as Float32Array;
    expect(buildDualQuatPalette(shear, 1, dq)).toBeCloseTo(0.6, 5);
  });
});

describe('skinMeshDualQuat', () => {
  it('equals linear blending when every bone moves rigidly together (random rigid pose of the whole body)', () => {
    const mesh = humanoid().meshes[0]!;
    const q = quat.setAxisAngle(quat.create(), [0, 0.6, 0.8], 1.3);
    const m = mat4.fromRotationTranslation(mat4.create(), q, [0.4, -1, 2]) as Float32Array;
    const palette = new Float32Array(mesh.bones.length * 16);
    for (let k = 0; k < mesh.bones.length; k++) palette.set(m, k * 16);
    const dq = new Float32Array(mesh.bones.length * DUAL_QUAT_STRIDE);
    buildDualQuatPalette(palette, mesh.bones.length, dq);
    const linear = new Float32Array(mesh.vertexCount * 3);
    const dual = new Float32Array(mesh.vertexCount * 3);
    skinMesh(mesh, palette, linear, null);
    skinMeshDualQuat(mesh, dq, dual, null);
    expect(maxDiff(linear, dual)).toBeLessThan(1e-5 * meshSize(mesh));
  });

  it('equals linear blending when every palette matrix carries the same bind-space scale (tiny.x)', () => {
    const scene = humanoid();
    const mesh = scene.meshes[0]!;
    const palette = randomPalette(scene, mesh, 1);
    const s = mat4.fromScaling(mat4.create(), [1.28, 1.12, 1.47]);
    for (let k = 0; k < mesh.bones.length; k++) {
      const m = palette.subarray(k * 16, k * 16 + 16) as unknown as mat4;
      mat4.multiply(m, m, s);
    }
    const dq = new Float32Array(mesh.bones.length * DUAL_QUAT_STRIDE);
    expect(buildDualQuatPalette(palette, mesh.bones.length, dq)).toBeLessThan(1e-5);
    const rigidDq = new Float32Array(mesh.vertexCount * 3);
    const scaled = new Float32Array(mesh.vertexCount * 3);
    skinMeshDualQuat(mesh, dq, scaled, null, 1);
    const linear = new Float32Array(mesh.vertexCount * 3);
    skinMesh(mesh, palette, linear, null, 1);
    expect(maxDiff(linear, scaled)).toBeLessThan(1e-5 * meshSize(mesh));
    // Dropping the scale (a palette of identity scale) would move the vertices far.
    for (let k = 0; k < mesh.bones.length; k++) dq.fill(1, k * DUAL_QUAT_STRIDE + 8, k * DUAL_QUAT_STRIDE + 11);
    skinMeshDualQuat(mesh, dq, rigidDq, null, 1);
    expect(maxDiff(linear, rigidDq)).toBeGreaterThan(0.05 * meshSize(mesh));
  });

  it('equals linear blending for rigid (1-influence) skinning of a random pose', () => {
    const scene = humanoid();
    const mesh = scene.meshes[0]!;
    const palette = randomPalette(scene, mesh, 4);
    const dq = new Float32Array(mesh.bones.length * DUAL_QUAT_STRIDE);
    buildDualQuatPalette(palette, mesh.bones.length, dq);
    const linear = new Float32Array(mesh.vertexCount * 3);
    const dual = new Float32Array(mesh.vertexCount * 3);
    skinMesh(mesh, palette, linear, null, 1);
    skinMeshDualQuat(mesh, dq, dual, null, 1);
    expect(maxDiff(linear, dual)).toBeLessThan(1e-5 * meshSize(mesh));
  });

  it('keeps the volume of a twisted joint where linear blending collapses (candy wrapper)', () => {
    // A ring of radius 1 around the x axis at the joint, half on bone 0 (still), half on bone 1 (twisted 180°).
    const ring = 16;
    const vertices = Array.from({ length: ring }, (_, i) => {
      const a = (i / ring) * Math.PI * 2;
      return { p: [0, Math.cos(a), Math.sin(a)] as [number, number, number], n: [0, Math.cos(a), Math.sin(a)] as [number, number, number], influences: [[0, 0.5], [1, 0.5]] as [number, number][] };
    });
    const mesh = makeMesh(vertices, [0, 1], identityInvBind(2));
    const palette = new Float32Array(32);
    writeIdentityPalette(palette, 2);
    palette.set(mat4.fromXRotation(mat4.create(), Math.PI * 0.999) as Float32Array, 16);
    const dq = new Float32Array(2 * DUAL_QUAT_STRIDE);
    buildDualQuatPalette(palette, 2, dq);
    const linear = new Float32Array(ring * 3);
    const dual = new Float32Array(ring * 3);
    skinMesh(mesh, palette, linear, null);
    skinMeshDualQuat(mesh, dq, dual, null);
    for (let i = 0; i < ring; i++) {
      expect(Math.hypot(linear[i * 3 + 1]!, linear[i * 3 + 2]!)).toBeLessThan(0.01);
      expect(Math.hypot(dual[i * 3 + 1]!, dual[i * 3 + 2]!)).toBeCloseTo(1, 5);
    }
  });
});
