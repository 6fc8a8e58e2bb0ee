/**
 * Allocation probe for the render layer's per-frame CPU helpers, run by alloc.test.ts in a child process
 * through allocationOfProbe (test/alloc-harness.ts, same pattern as test/anim/alloc-probe.ts):
 * BindPose.writePalette (the bind pose toggle's palette), DiffSchedule.due (the diff view's readback
 * decision) and countDifferingPixels. `control` boxes one double per call (16 bytes).
 */
import { measureAllocation } from '../alloc-harness.ts';
import { BindPose } from '../../src/render/bind-pose.ts';
import { countDifferingPixels, DiffSchedule } from '../../src/render/diff-count.ts';
import type { Scene, SkinnedMesh } from '../../src/model/types.ts';
import { TRS_STRIDE } from '../../src/model/types.ts';

const NODES = 40;
const CALLS = 20_000;
const parents = Int16Array.from({ length: NODES }, (_, i) => (i === 0 ? -1 : (i - 1) >> 1));
const restLocal = new Float32Array(NODES * TRS_STRIDE);
for (let i = 0; i < NODES; i++) restLocal.set([0, 1, 0, 0, 0, 0, 1, 1, 1, 1], i * TRS_STRIDE);
const invBind = new Float32Array(NODES * 16);
for (let i = 0; i < NODES; i++) invBind.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -i, 0, 1], i * 16);
const mesh = { bones: Int16Array.from({ length: NODES }, (_, i) => i), invBind } as unknown as SkinnedMesh;
const scene = { skeleton: { names: [], parents, restLocal }, meshes: [mesh] } as unknown as Scene;
const bind = new BindPose(scene);
const palette = new Float32Array(NODES * 16);
const schedule = new DiffSchedule(23);
const signature = new Float64Array(23);
const a = new Uint8Array(64 * 4);
const b = new Uint8Array(64 * 4);
let sink = 0;
const boxed: unknown[] = [null];

measureAllocation('control', CALLS, (i) => {
  boxed[0] = i + 0.5;
});
measureAllocation('bind-pose', CALLS, () => bind.writePalette(mesh, palette, 0));
measureAllocation('diff-schedule', CALLS, (i) => {
  signature[4] = i;
  if (schedule.due(signature)) sink++;
});
measureAllocation('diff-count', CALLS, () => {
  sink += countDifferingPixels(a, b, 64, 2.5);
});
console.log(`sink ${sink}`);
