import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { skinMesh } from '../../src/anim/software-skin.ts';
import { applyParams, defaultState } from '../../src/app/state.ts';
import { MAX_INFLUENCES } from '../../src/model/types.ts';
import { BindPose } from '../../src/render/bind-pose.ts';
import { countDifferingPixels, DIFF_COUNT_EVERY, DiffSchedule } from '../../src/render/diff-count.ts';
import { surfaceDefines } from '../../src/render/variants.ts';
import { busiestBone, fillViewAttributes, influencingBones, VIEW_DATA_FLOATS, VIEW_TEXTURE_WIDTH, viewTextureSize } from '../../src/render/view-data.ts';
import { surfaceView, VIEW_IDS } from '../../src/render/views.ts';
import { truncateInfluences } from '../../src/techniques/influences.ts';
import { partitionMesh } from '../../src/techniques/partition.ts';
import { humanoid } from '../techniques/fixtures.ts';

/** The teaching views' data, built in Node from the same code the page runs. */

describe('view ids and state keys', () => {
  it('accepts every teaching view, bone and bindPose from the URL', () => {
    for (const v of ['shaded', 'wireframe', 'skeleton', 'weights', 'influences', 'groups', 'diff', 'distortion']) expect(VIEW_IDS).toContain(v);
    const s = defaultState();
    expect(applyParams(s, { view: 'weights', bone: 'upper_arm_l', bindPose: '1' })).toEqual([]);
    expect([s.view, s.bone, s.bindPose]).toEqual(['weights', 'upper_arm_l', true]);
    expect(applyParams(s, { bindPose: '0', bone: 3 })).toEqual([]);
    expect([s.bone, s.bindPose]).toEqual(['3', false]);
    expect(applyParams(s, { view: 'sepia' })[0]).toMatch(/^view=sepia: unknown view; one of .*diff/);
  });

  it('picks lit.frag defines per colouring and leaves the shaded set untouched', () => {
    const base = { PALETTE_UBO: true, INFLUENCES: 4 };
    expect(surfaceDefines(base, 'shaded')).toBe(base);
    expect(surfaceDefines(base, 'weights')).toEqual({ ...base, VIEW_WEIGHTS: true, VIEW_TEXTURE: true });
    expect(surfaceDefines(base, 'influences')).toEqual({ ...base, VIEW_INFLUENCES: true, VIEW_TEXTURE: true });
    expect(surfaceDefines(base, 'groups')).toEqual({ ...base, VIEW_GROUPS: true });
    expect(['shaded', 'wireframe', 'skeleton', 'diff'].map((v) => surfaceView(v as never))).toEqual(['shaded', 'shaded', 'shaded', 'shaded']);
  });
});

describe('weights and influences data texture', () => {
  it('sizes the texture to hold one texel per technique vertex, rows of at most VIEW_TEXTURE_WIDTH', () => {
    expect(viewTextureSize(0, 4096)).toEqual({ width: 1, height: 1 });
    expect(viewTextureSize(5, 4096)).toEqual({ width: 5, height: 1 });
    expect(viewTextureSize(VIEW_TEXTURE_WIDTH + 1, 16384)).toEqual({ width: VIEW_TEXTURE_WIDTH, height: 2 });
    expect(viewTextureSize(10000, 1024)).toEqual({ width: 1024, height: 10 });
    for (const n of [1, 2047, 2048, 2049, 34556]) {
      const { width, height } = viewTextureSize(n, 16384);
      expect(width * height).toBeGreaterThanOrEqual(n);
      expect(width * (height - 1)).toBeLessThan(n);
    }
  });
});

describe('weights and influences attribute', () => {
  const scene = humanoid();
  const mesh = scene.meshes[0]!;
  const iota = Uint32Array.from({ length: mesh.vertexCount }, (_, i) => i);

  it('holds the kept influence count and the truncated, renormalised weight of the bone', () => {
    for (let influences = 1; influences <= MAX_INFLUENCES; influences++) {
      const ref = truncateInfluences(mesh, influences);
      const out = new Float32Array(mesh.vertexCount * VIEW_DATA_FLOATS);
      const total = new Float64Array(mesh.vertexCount);
      let wrongCounts = 0;
      let maxError = 0;
      for (let slot = 0; slot < mesh.bones.length; slot++) {
        fillViewAttributes(mesh, iota, slot, influences, out);
        for (let v = 0; v < mesh.vertexCount; v++) {
          if (out[v * 2 + 1] !== ref.counts[v]) wrongCounts++;
          let w = 0;
          for (let k = 0; k < ref.counts[v]!; k++) if (ref.joints[v * 4 + k] === slot) w += ref.weights[v * 4 + k]!;
          maxError = Math.max(maxError, Math.abs(out[v * 2]! - w));
          total[v]! += out[v * 2]!;
        }
      }
      expect(wrongCounts).toBe(0);
      expect(maxError).toBeLessThan(1e-6);
      expect(new Set(ref.counts).size, 'the fixture has vertices with different counts').toBeGreaterThan(influences > 1 ? 1 : 0);
      // Each vertex's weights over every bone sum to 1; with 1 influence every weight is 0 or 1.
      let sumError = 0;
      for (let v = 0; v < mesh.vertexCount; v++) sumError = Math.max(sumError, Math.abs(total[v]! - 1));
      expect(sumError).toBeLessThan(1e-5);
      if (influences === 1) {
        fillViewAttributes(mesh, iota, mesh.joints[0]!, 1, out);
        expect(out.filter((x, i) => i % 2 === 0 && x !== 0 && x !== 1).length).toBe(0);
      }
    }
  });

  it('follows a partition\'s copies through sourceVertex, and is 0 for a bone outside the mesh', () => {
    const part = partitionMesh(mesh, 4, 12);
    const out = new Float32Array(part.vertexCount * 2);
    const direct = new Float32Array(mesh.vertexCount * 2);
    fillViewAttributes(mesh, part.sourceVertex, 1, 4, out);
    fillViewAttributes(mesh, iota, 1, 4, direct);
    for (let v = 0; v < part.vertexCount; v++) {
      const s = part.sourceVertex[v]!;
      expect([out[v * 2], out[v * 2 + 1]]).toEqual([direct[s * 2], direct[s * 2 + 1]]);
    }
    fillViewAttributes(mesh, iota, -1, 4, direct);
    for (let v = 0; v < mesh.vertexCount; v++) expect(direct[v * 2]).toBe(0);
  });

  it('lists the influencing bones in skeleton order and defaults to the one weighting the most vertices', () => {
    const bones = influencingBones(scene.meshes);
    expect(bones).toEqual([...new Set(mesh.bones)].sort((a, b) => a - b));
    const best = busiestBone(scene.meshes, scene.skeleton.parents.length);
    const counts = new Map<number, number>();
    for (let v = 0; v < mesh.vertexCount; v++) {
      for (let k = 0; k < 4 && mesh.weights[v * 4 + k]! > 0; k++) {
        const node = mesh.bones[mesh.joints[v * 4 + k]!]!;
        counts.set(node, (counts.get(node) ?? 0) + 1);
      }
    }
    const most = Math.max(...counts.values());
    expect(counts.get(best)).toBe(most);
  });
});

describe('bind pose', () => {
  const scene = humanoid();
  const mesh = scene.meshes[0]!;
  const bind = new BindPose(scene);

  it('writes an identity palette, so every technique draws the stored vertices', () => {
    const palette = new Float32Array(mesh.bones.length * 16).fill(7);
    bind.writePalette(mesh, palette, 0);
    for (let k = 0; k < mesh.bones.length; k++) expect(Array.from(palette.subarray(k * 16, k * 16 + 16))).toEqual(Array.from(mat4.create()));
    const positions = new Float32Array(mesh.vertexCount * 3);
    skinMesh(mesh, palette, positions, null, 4);
    for (let i = 0; i < positions.length; i++) expect(positions[i]).toBeCloseTo(mesh.positions[i]!, 5);
  });

  it('places each bone node at inverse(invBind) for the skeleton overlay', () => {
    for (let k = 0; k < mesh.bones.length; k++) {
      const node = mesh.bones[k]!;
      const product = mat4.multiply(mat4.create(), bind.model.subarray(node * 16, node * 16 + 16) as mat4, mesh.invBind.subarray(k * 16, k * 16 + 16) as mat4);
      const id = mat4.create();
      for (let i = 0; i < 16; i++) expect(product[i]).toBeCloseTo(id[i]!, 4);
    }
  });
});

describe('diff view counting', () => {
  it('counts pixels whose largest channel difference exceeds the threshold', () => {
    const a = Uint8Array.from([10, 10, 10, 255, 100, 100, 100, 255, 0, 0, 0, 255]);
    const b = Uint8Array.from([11, 12, 10, 0, 100, 100, 140, 255, 0, 9, 0, 255]);
    expect(countDifferingPixels(a, b, 3, 2.5)).toBe(2);
    expect(countDifferingPixels(a, a, 3, 0)).toBe(0);
  });

  it('counts once a changed picture is stable, and at most every DIFF_COUNT_EVERY frames while it moves', () => {
    const sched = new DiffSchedule(2);
    const sig = new Float64Array(2);
    expect(sched.due(sig)).toBe(true);
    expect(sched.due(sig)).toBe(false);
    sig[0] = 1;
    expect(sched.due(sig)).toBe(false);
    expect(sched.due(sig)).toBe(true);
    let counts = 0;
    for (let f = 0; f < DIFF_COUNT_EVERY * 3; f++) {
      sig[1] = f + 1;
      if (sched.due(sig)) counts++;
    }
    expect(counts).toBe(3);
  });
});
