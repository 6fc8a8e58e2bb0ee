/**
 * Allocation probe for PaletteSet (the pattern of alloc-probe.ts), run by palette-set-alloc.test.ts through
 * allocationOfProbe (test/alloc-harness.ts): per call, write() for four meshes of one skin and one of
 * another, and writePalette per mesh. `control` boxes one double per call (16 bytes).
 */

import { measureAllocation } from '../alloc-harness.ts';
import { PaletteSet } from '../../src/anim/palette-set.ts';
import type { SkinnedMesh } from '../../src/model/types.ts';

const NODES = 30;
const CALLS = 10_000;

function mesh(bones: number[], invBind: Float32Array): SkinnedMesh {
  return {
    name: 'probe', vertexCount: 0, positions: new Float32Array(0), normals: new Float32Array(0), tangents: null, uvs: null,
    joints: new Uint16Array(0), weights: new Float32Array(0), maxInfluences: 1, indices: new Uint32Array(0), subsets: [],
    bones: Int16Array.from(bones), invBind, skinned: true,
  };
}
const bones = Array.from({ length: NODES }, (_, i) => NODES - 1 - i);
const invBind = Float32Array.from({ length: NODES * 16 }, (_, i) => Math.sin(i));
const meshes = [mesh(bones, invBind), mesh(bones, invBind.slice()), mesh(bones, invBind.slice()), mesh(bones, invBind.slice()), mesh(bones.slice(1), invBind.subarray(16))];
const set = new PaletteSet(meshes);
const model = Float32Array.from({ length: NODES * 16 }, (_, i) => Math.cos(i));
const outs = meshes.map((m) => new Float32Array(m.bones.length * 16 + 16));
const offsets = Int32Array.from([0, 16, 0, 16, 0]);

const sink: unknown[] = [null];
function control(i: number): void {
  sink[0] = i + 0.5;
}

measureAllocation('control', CALLS, control);
measureAllocation('write', CALLS, () => set.write(model, outs, offsets));
measureAllocation('update+writePalette', CALLS, () => {
  set.update(model);
  for (let m = 0; m < meshes.length; m++) set.writePalette(meshes[m], outs[m], 16);
});
