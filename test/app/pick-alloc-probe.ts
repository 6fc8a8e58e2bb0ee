/**
 * Allocation probe for the hit test (the pattern of palette-set-alloc-probe.ts), run by pick-alloc.test.ts
 * through allocationOfProbe (test/alloc-harness.ts): per call, a pointer ray, a new pose of a
 * sheet (800 triangles) on 3 bones with a morph target (morph, pose, raycast) and the bone at the hit.
 * `control` boxes one double per call (16 bytes).
 */

import { mat4 } from 'gl-matrix';
import { measureAllocation } from '../alloc-harness.ts';
import { boneAtHit, pointerRay, type TriangleHit } from '../../src/app/pick.ts';
import { PickMesh } from '../../src/app/pick-mesh.ts';
import { MAX_INFLUENCES, type SkinnedMesh } from '../../src/model/types.ts';

const CALLS = 10_000;
const n = 20;
const count = (n + 1) * (n + 1);
const positions = new Float32Array(count * 3);
const joints = new Uint16Array(count * MAX_INFLUENCES);
const weights = new Float32Array(count * MAX_INFLUENCES);
for (let j = 0; j <= n; j++) {
  for (let i = 0; i <= n; i++) {
    const v = j * (n + 1) + i;
    positions.set([i / n, j / n, Math.sin(v) * 0.1], v * 3);
    joints[v * MAX_INFLUENCES] = i < n / 2 ? 0 : 1;
    joints[v * MAX_INFLUENCES + 1] = 2;
    weights[v * MAX_INFLUENCES] = 0.75;
    weights[v * MAX_INFLUENCES + 1] = 0.25;
  }
}
const indices: number[] = [];
for (let j = 0; j < n; j++) {
  for (let i = 0; i < n; i++) {
    const a = j * (n + 1) + i;
    indices.push(a, a + 1, a + n + 2, a, a + n + 2, a + n + 1);
  }
}
const invBind = new Float32Array(48);
for (let k = 0; k < 3; k++) mat4.identity(invBind.subarray(k * 16, k * 16 + 16) as unknown as mat4);
const moved = Uint32Array.from({ length: 200 }, (_, i) => i * 2);
const mesh: SkinnedMesh = {
  name: 'sheet', vertexCount: count, positions, normals: new Float32Array(count * 3), tangents: null, uvs: null, joints, weights, maxInfluences: 2,
  indices: Uint32Array.from(indices), subsets: [], bones: Int16Array.of(0, 1, 2), invBind, skinned: true,
  morphs: [{ vertices: moved, positions: new Float32Array(600).fill(0.05), normals: new Float32Array(600) }],
};
const pick = new PickMesh(mesh);
const nodes = new Float32Array(48);
for (let k = 0; k < 3; k++) mat4.identity(nodes.subarray(k * 16, k * 16 + 16) as unknown as mat4);
const morphWeights = new Float32Array(1);
const camera = mat4.perspective(mat4.create(), 0.7, 1.3, 0.01, 100);
mat4.multiply(camera, camera, mat4.lookAt(mat4.create(), [0.5, 0.5, 3], [0.5, 0.5, 0], [0, 1, 0]));
const inverse = mat4.invert(mat4.create(), camera)!;
const ray = new Float64Array(6);
const ndc = new Float64Array(2);
const hit: TriangleHit = { triangle: -1, distance: Infinity, u: 0, v: 0 };
const scratch = new Float64Array(24);

const sink: unknown[] = [null];
function control(i: number): void {
  sink[0] = i + 0.5;
}

let found = 0;
/** One pick: a ray from a pointer that moves every call, on a sheet posed and morphed anew every call. */
const pickOnce = (i: number): void => {
  nodes[12] = (i % 7) * 0.01;
  morphWeights[0] = (i % 3) * 0.5;
  pick.morph(morphWeights);
  pick.pose(nodes, 4, false);
  ndc[0] = ((i % 11) - 5) * 0.1;
  ndc[1] = ((i % 13) - 6) * 0.1;
  pointerRay(inverse, ndc, ray);
  hit.triangle = -1;
  hit.distance = Infinity;
  if (pick.raycast(ray, hit) && boneAtHit(mesh, hit, scratch) >= 0) found++;
};
measureAllocation('control', CALLS, control);
// The first section after `control` deoptimises the harness's loop once (wrong call target, --trace-deopt)
// and measures that transition; the same body measured again is the steady state a page runs.
measureAllocation('warm', CALLS, pickOnce);
measureAllocation('pick', CALLS, pickOnce);
if (found === 0) throw new Error('pick-alloc-probe: no ray met the sheet');
