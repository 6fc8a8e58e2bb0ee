/**
 * Allocation probe for the `cor` technique's per-frame CPU work, run by cor-alloc.test.ts in a child process
 * through allocationOfProbe (test/alloc-harness.ts): building the cor palette from a matrix palette (100 slots,
 * past buildCorPalette's initial scratch of 64) and the dual-quaternion palette it reuses, and the CPU reference
 * skinning positions, normals and tangents. `control` boxes one double per call (16 bytes) to show the probe sees it.
 */

import { measureAllocation } from '../alloc-harness.ts';
import { buildDualQuatPalette, DUAL_QUAT_STRIDE } from '../../src/anim/dual-quat.ts';
import { buildCorPalette, COR_STRIDE, skinMeshCor, skinTangentsCor } from '../../src/deform/cor-skin.ts';
import { MAX_INFLUENCES, type SkinnedMesh } from '../../src/model/types.ts';

const SLOTS = 100;
const VERTICES = 64;
const CALLS = 20_000;

const palette = new Float32Array(SLOTS * 16);
for (let k = 0; k < SLOTS; k++) {
  const a = k * 0.1;
  // A rotation about z with an axis scale and a translation.
  palette.set([Math.cos(a) * 1.2, Math.sin(a) * 1.2, 0, 0, -Math.sin(a), Math.cos(a), 0, 0, 0, 0, 0.9, 0, k * 0.01, 1, -k * 0.02, 1], k * 16);
}
const mesh: SkinnedMesh = {
  name: 'probe',
  vertexCount: VERTICES,
  positions: Float32Array.from({ length: VERTICES * 3 }, (_, i) => i * 0.01),
  normals: new Float32Array(VERTICES * 3).fill(Math.SQRT1_2),
  tangents: null,
  uvs: null,
  joints: Uint16Array.from({ length: VERTICES * MAX_INFLUENCES }, (_, i) => (i * 7) % SLOTS),
  weights: Float32Array.from({ length: VERTICES * MAX_INFLUENCES }, (_, i) => [0.4, 0.3, 0.2, 0.1][i % 4]),
  maxInfluences: 4,
  indices: new Uint32Array(0),
  subsets: [],
  bones: Int16Array.from({ length: SLOTS }, (_, i) => i),
  invBind: new Float32Array(SLOTS * 16),
  skinned: true,
};
const centres = Float32Array.from({ length: VERTICES * 3 }, (_, i) => i * 0.01 + 0.05);
const cor = new Float32Array(SLOTS * COR_STRIDE);
const positions = new Float32Array(VERTICES * 3);
const normals = new Float32Array(VERTICES * 3);
const bindTangents = Float32Array.from({ length: VERTICES * 4 }, (_, i) => (i % 4 === 3 ? 1 : 0.5));
const tangents = new Float32Array(VERTICES * 4);

const sink: unknown[] = [null];
measureAllocation('control', CALLS, (i) => {
  sink[0] = i + 0.5;
});
measureAllocation('cor-palette', CALLS, () => {
  buildCorPalette(palette, SLOTS, cor, 0);
});
measureAllocation('cor-skin', CALLS, () => {
  skinMeshCor(mesh, centres, cor, positions, normals, 4);
  skinTangentsCor(mesh, bindTangents, cor, tangents, 4);
});
const dq = new Float32Array(SLOTS * DUAL_QUAT_STRIDE);
measureAllocation('dq-palette', CALLS, () => {
  buildDualQuatPalette(palette, SLOTS, dq, 0);
});
