import { describe, expect, it } from 'vitest';
import { localToModel } from '../../src/anim/local-to-model.ts';
import { buildPalette } from '../../src/anim/palette.ts';
import { PaletteSet } from '../../src/anim/palette-set.ts';
import { axisAngle, makeMesh, makeSkeleton, rng } from './fixtures.ts';

const skel = makeSkeleton(
  [-1, 0, 1, 0],
  [
    { t: [0, 1, 0], r: axisAngle([0, 1, 0], 35), s: [1.5, 1.5, 1.5] },
    { t: [1, 0.2, 0], r: axisAngle([1, 0, 0], -60) },
    { t: [0.5, 0, -1], r: axisAngle([0, 0.6, 0.8], 140), s: [1, 2, 0.5] },
    { t: [-2, 0, 0.3], r: axisAngle([0, 0, 1], 10) },
  ],
);
const r = rng(5);
const invBindA = Float32Array.from({ length: 3 * 16 }, () => r() * 2 - 1);
const vertex = [{ p: [0, 0, 0] as [number, number, number], influences: [[0, 1]] as [number, number][] }];
// body and head: one skin (head holds copies of body's arrays, as a loader gives per mesh); hair: the same
// bones with another inverse bind; wings: other bones with body's inverse bind values.
const body = makeMesh(vertex, [3, 0, 2], invBindA);
const head = makeMesh(vertex, [3, 0, 2], invBindA.slice());
const hair = makeMesh(vertex, [3, 0, 2], invBindA.map((v, i) => (i === 17 ? v + 1e-3 : v)));
const wings = makeMesh(vertex, [3, 1, 2], invBindA.slice());
const meshes = [body, head, hair, wings];

function posedModel(seed: number): Float32Array {
  const g = rng(seed);
  const posed = skel.restLocal.slice();
  for (let i = 0; i < 4; i++) posed.set(axisAngle([0.6, 0, 0.8], g() * 360), i * 10 + 3);
  const model = new Float32Array(4 * 16);
  localToModel(skel.parents, posed, model);
  return model;
}

function direct(model: Float32Array, mesh: (typeof meshes)[number]): Float32Array {
  const out = new Float32Array(mesh.bones.length * 16);
  buildPalette(model, mesh.bones, mesh.invBind, out);
  return out;
}

describe('PaletteSet', () => {
  it('groups meshes by equal bones and inverse binds', () => {
    const set = new PaletteSet(meshes);
    expect(set.skinCount).toBe(3);
    expect(Array.from(set.skinOf)).toEqual([0, 0, 1, 2]);
    expect(() => set.paletteOf(2)).toThrow(/update\(model\) has not run/);
    const model = posedModel(1);
    set.update(model);
    expect(set.paletteOf(1)).toBe(set.paletteOf(0));
    expect(set.paletteOf(2)).not.toBe(set.paletteOf(0));
    // An unshared skin is built on request, equal to buildPalette.
    expect(Array.from(set.paletteOf(2))).toEqual(Array.from(direct(model, meshes[2]!)));
  });

  it('writes every mesh the palette buildPalette gives it, bit for bit, at each offset, frame after frame', () => {
    const set = new PaletteSet(meshes);
    for (const seed of [1, 2, 3]) {
      const model = posedModel(seed);
      const offsets = [0, 16, 7, 32];
      const outs = meshes.map((m, i) => new Float32Array(offsets[i] + m.bones.length * 16 + 5).fill(9));
      set.write(model, outs, offsets);
      meshes.forEach((mesh, i) => {
        const out = outs[i];
        expect(Array.from(out.subarray(offsets[i], offsets[i] + 48)), `mesh ${i} seed ${seed}`).toEqual(Array.from(direct(model, mesh)));
        expect(Array.from(out.subarray(0, offsets[i])).every((v) => v === 9)).toBe(true);
        expect(Array.from(out.subarray(offsets[i] + 48)).every((v) => v === 9)).toBe(true);
      });
      // writePalette (the pose-source form) after update() gives the same.
      const one = new Float32Array(48);
      set.update(model);
      set.writePalette(hair, one);
      expect(Array.from(one)).toEqual(Array.from(direct(model, hair)));
    }
  });

  it('computes a mesh it was not built with from the last model', () => {
    const set = new PaletteSet([body]);
    const out = new Float32Array(48);
    expect(() => set.writePalette(wings, out)).toThrow(/update/);
    const model = posedModel(9);
    set.update(model);
    set.writePalette(wings, out);
    expect(Array.from(out)).toEqual(Array.from(direct(model, wings)));
  });
});
