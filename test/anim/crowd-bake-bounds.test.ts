import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeCrowd, bakedFrame, blendBaked, crowdSlots, type CrowdBake } from '../../src/anim/crowd-bake.ts';
import { PaletteSet } from '../../src/anim/palette-set.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
import { clipSphere, slotSpheres } from '../../src/anim/slot-spheres.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import type { Scene } from '../../src/model/types.ts';
import { armSkeleton, axisAngle, channel, makeClip, makeMesh, track } from './fixtures.ts';

/**
 * The crowd bake's memory per distinct skin (meshes sharing bones and offset matrices share slots) and its
 * conservative spheres (slot-spheres.ts): every vertex drawn, whether the vertex stage blends two baked
 * frames or the cpu path poses the clip exactly, lies inside its clip's sphere.
 */

const load = (path: string): Scene => loadModel(path, new Uint8Array(readFileSync(join(__dirname, '..', '..', 'public', 'models', path))));

/**
 * The largest (distance from the clip's sphere centre − its radius) over every vertex, at `poses` times per
 * clip: the vertex stage's blend of two baked frames at weights 0 and 0.5 and the exactly sampled pose at
 * the same time. Negative: every vertex inside.
 */
function worstOutside(scene: Scene, bake: CrowdBake, poses: number): number {
  const player = new AnimPlayer(scene.skeleton, scene.clips);
  const set = new PaletteSet(scene.meshes);
  const blended = scene.meshes.map((m) => new Float32Array(Math.max(1, m.bones.length) * 16));
  const exact = scene.meshes.map((m) => new Float32Array(Math.max(1, m.bones.length) * 16));
  const p = scene.meshes.map((m) => new Float32Array(m.vertexCount * 3));
  const at = [0, 0];
  let worst = -Infinity;
  const check = (c: number, positions: Float32Array): void => {
    const s = bake.spheres.subarray(c * 4, c * 4 + 4);
    for (let v = 0; v < positions.length; v += 3) {
      const d = Math.hypot(positions[v]! - s[0]!, positions[v + 1]! - s[1]!, positions[v + 2]! - s[2]!) - s[3]!;
      if (d > worst) worst = d;
    }
  };
  bake.clips.forEach((b, c) => {
    player.play(c, 0);
    const step = Math.max(1, Math.floor(b.frames / poses));
    for (let k = 0; k < b.frames; k += step) {
      for (const w of [0, 0.5]) {
        const t = ((k + w) * b.duration) / b.frames;
        bakedFrame(t, b, at);
        player.setTime(t);
        player.evaluate();
        set.update(player.model);
        scene.meshes.forEach((m, i) => {
          blendBaked(bake, at[0]!, at[1]!, bake.meshBase[i]!, Math.max(1, m.bones.length), blended[i]!);
          skinMesh(m, blended[i]!, p[i]!, null);
          check(c, p[i]!);
          set.writePalette(m, exact[i]!, 0);
          skinMesh(m, exact[i]!, p[i]!, null);
          check(c, p[i]!);
        });
      }
    }
  });
  return worst;
}

describe('crowd bake: slots per distinct skin', () => {
  it("Dawn's four meshes share one skin: 100 slots a frame, every mesh reading them", () => {
    const scene = load('generated/dawn-low.m3d');
    expect(scene.meshes.length).toBe(4);
    const bake = bakeCrowd(scene, 30, false);
    expect(bake.slotsPerFrame).toBe(100);
    expect(Array.from(bake.meshBase)).toEqual([0, 0, 0, 0]);
    expect(bake.palettes.length).toBe(bake.frameCount * 100 * 16);
    // Each mesh's palette at its slots is what the player writes for that mesh.
    const player = new AnimPlayer(scene.skeleton, scene.clips);
    const b = bake.clips[1]!;
    player.play(1, 0);
    player.setTime((7 * b.duration) / b.frames);
    player.evaluate();
    const out = new Float32Array(100 * 16);
    const block = (b.first + 7) * 100 * 16;
    for (const mesh of scene.meshes) {
      player.writePalette(mesh, out, 0);
      expect(Array.from(bake.palettes.subarray(block, block + 1600))).toEqual(Array.from(out));
    }
  });

  it('meshes with their own bones or offsets keep their own slots; a copy of a skin shares them', () => {
    const skeleton = armSkeleton();
    const inv = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    const a = makeMesh([{ p: [2, 0, 0], influences: [[0, 1]] }], [1, 0], inv);
    const copy = makeMesh([{ p: [1, 1, 0], influences: [[1, 1]] }], [1, 0], Float32Array.from(inv));
    const other = makeMesh([{ p: [0.5, 0, 0], influences: [[0, 1]] }], [0], inv.slice(16));
    const clip = makeClip('swing', 1, [track(1, { rotation: channel([0, 1], [...axisAngle([0, 0, 1], 0), ...axisAngle([0, 0, 1], 90)]) })]);
    const scene: Scene = { name: 'arm', format: 'm3d', floatBits: 0, skeleton, meshes: [a, other, copy], clips: [clip], materials: [], morphTargets: [], warnings: [] };
    const base = new Int32Array(3);
    expect(crowdSlots(scene, base)).toBe(3);
    expect(Array.from(base)).toEqual([0, 2, 0]);
    const bake = bakeCrowd(scene);
    expect(bake.slotsPerFrame).toBe(3);
    expect(worstOutside(scene, bake, 30)).toBeLessThanOrEqual(0);
  });
});

describe('crowd bake: spheres from the baked palettes', () => {
  it('a slot sphere moved by any affine palette (rotation, axis scale, shear) holds the vertices it moved', () => {
    const scene: Scene = {
      name: 'box', format: 'm3d', floatBits: 0, skeleton: armSkeleton(), clips: [], materials: [], morphTargets: [], warnings: [],
      meshes: [makeMesh([[1, 2, 3], [-2, 0.5, 1], [0, -1, -4], [3, 3, 0]].map((p) => ({ p: p as [number, number, number], influences: [[0, 1]] })), [0], new Float32Array(16))],
    };
    const slots = slotSpheres(scene, [0], 1);
    expect(slots.complete).toBe(true);
    let seed = 7;
    const rand = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const palettes = new Float32Array(50 * 16);
    for (let g = 0; g < 50; g++) {
      for (let i = 0; i < 12; i++) palettes[g * 16 + (i < 3 ? i : i < 6 ? i + 1 : i < 9 ? i + 2 : i + 3)] = rand() * (i < 9 ? 2 : 10);
      palettes[g * 16 + 15] = 1;
    }
    const out = new Float32Array(4);
    const moved = new Float32Array(4 * 3);
    for (let g = 0; g < 50; g++) {
      clipSphere(palettes, 1, g, 1, slots, out, 0);
      skinMesh(scene.meshes[0]!, palettes.subarray(g * 16, g * 16 + 16), moved, null);
      for (let v = 0; v < 4; v++) {
        expect(Math.hypot(moved[v * 3]! - out[0]!, moved[v * 3 + 1]! - out[1]!, moved[v * 3 + 2]! - out[2]!)).toBeLessThanOrEqual(out[3]! * (1 + 1e-6));
      }
    }
  });

  it('a vertex naming a joint past its mesh\'s bones leaves every clip unbounded (never culled)', () => {
    const clip = makeClip('still', 1, []);
    const bad = makeMesh([{ p: [1, 0, 0], influences: [[0, 0.5], [3, 0.5]] }], [0], new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]));
    const scene: Scene = { name: 'bad', format: 'm3d', floatBits: 0, skeleton: armSkeleton(), meshes: [bad], clips: [clip], materials: [], morphTargets: [], warnings: [] };
    expect(slotSpheres(scene, [0], 1).complete).toBe(false);
    expect(bakeCrowd(scene).spheres[3]).toBe(Infinity);
  });

  for (const [name, path, poses] of [['tiny', 'tiny/tiny.x', 40], ['Dawn low', 'generated/dawn-low.m3d', 24]] as const) {
    it(`${name}: every vertex inside its clip's sphere, baked frames, their blends and the exact poses between`, () => {
      const scene = load(path);
      const bake = bakeCrowd(scene);
      for (let c = 0; c < bake.clips.length; c++) expect(Number.isFinite(bake.spheres[c * 4 + 3])).toBe(true);
      const worst = worstOutside(scene, bake, poses);
      // The radius against the model's bind-pose height: the sphere holds the figure without being far larger.
      let lo = Infinity;
      let hi = -Infinity;
      for (const m of scene.meshes) for (let v = 1; v < m.positions.length; v += 3) {
        lo = Math.min(lo, m.positions[v]!);
        hi = Math.max(hi, m.positions[v]!);
      }
      const radii = Array.from({ length: bake.clips.length }, (_, c) => (bake.spheres[c * 4 + 3]! / (hi - lo)).toFixed(3));
      console.log(`[bake bounds] ${name}: radius / bind height ${radii.join(', ')}; the vertex nearest its surface ${(-worst).toFixed(4)} inside`);
      expect(worst).toBeLessThanOrEqual(0);
      for (const r of radii) expect(Number(r)).toBeLessThan(1);
    }, 60_000);
  }
});
