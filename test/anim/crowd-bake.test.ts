import { describe, expect, it } from 'vitest';
import { bakeCrowd, bakedFrame, bakeIntervals, blendBaked, instanceClipTime, keyRate } from '../../src/anim/crowd-bake.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import type { Clip, Scene } from '../../src/model/types.ts';
import { crowdPhase, crowdTime } from '../../src/render/crowd-layout.ts';
import { armSkeleton, axisAngle, channel, makeClip, makeMesh, track } from './fixtures.ts';

const identity = (): Float32Array => new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
const translateX = (x: number): Float32Array => new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, 0, 1]);

/** The elbow swinging about +Z: `keys` evenly spaced keys over `duration`, 0° → 90° → 0° (a loop). */
function swing(name: string, duration: number, keys: number): Clip {
  const times: number[] = [];
  const values: number[] = [];
  for (let k = 0; k < keys; k++) {
    const t = (k * duration) / (keys - 1);
    times.push(t);
    values.push(...axisAngle([0, 0, 1], 90 * Math.sin((Math.PI * t) / duration)));
  }
  return makeClip(name, duration, [track(1, { rotation: channel(times, values) })]);
}

function armScene(clips: Clip[]): Scene {
  const skeleton = armSkeleton();
  // Two meshes: the forearm (wrist point on the elbow) and the upper arm, each its own skin.
  const forearm = makeMesh([{ p: [2, 0, 0], influences: [[0, 1]] }, { p: [1.5, 0.2, 0], influences: [[0, 0.5], [1, 0.5]] }], [1, 0], new Float32Array([...translateX(-1), ...identity()]));
  const upper = makeMesh([{ p: [0.5, 0, 0], influences: [[0, 1]] }], [0], identity());
  return { name: 'arm', format: 'm3d', floatBits: 0, skeleton, meshes: [forearm, upper], clips, materials: [], morphTargets: [], warnings: [] };
}

describe('crowd bake', () => {
  const dense = swing('dense', 2, 121); // 60 keys/s: baked at 30/s
  const sparse = swing('sparse', 2, 5); // 2 keys/s: baked at its own rate
  const scene = armScene([dense, sparse, makeClip('still', 0, [])]);
  const bake = bakeCrowd(scene);

  it('bakes at 30 samples/s, or at the key rate of a sparser clip, one frame more than intervals', () => {
    expect(keyRate(dense)).toBeCloseTo(60, 6);
    expect(bakeIntervals(dense)).toBe(60);
    expect(bakeIntervals(sparse)).toBe(4);
    expect(bakeIntervals(scene.clips[2]!)).toBe(1);
    expect(bake.clips.map((c) => [c.first, c.frames])).toEqual([[0, 60], [61, 4], [66, 1]]);
    expect(bake.frameCount).toBe(68);
    expect(bake.slotsPerFrame).toBe(3);
    expect(bake.palettes.length).toBe(68 * 3 * 16);
  });

  it('stores at frame k the palette sampled at k · duration / F, the last at the clip end', () => {
    const player = new AnimPlayer(scene.skeleton, scene.clips);
    const expected = new Float32Array(3 * 16);
    for (let c = 0; c < 2; c++) {
      const b = bake.clips[c]!;
      player.play(c, 0);
      for (let k = 0; k <= b.frames; k++) {
        player.setTime((k * b.duration) / b.frames);
        player.evaluate();
        player.writePalette(scene.meshes[0]!, expected, 0);
        player.writePalette(scene.meshes[1]!, expected, 32);
        const block = (b.first + k) * 3 * 16;
        expect(Array.from(bake.palettes.subarray(block, block + 48))).toEqual(Array.from(expected));
      }
    }
  });

  it('blends the two frames around a time; the last interval blends into the end pose and wraps', () => {
    const b = bake.clips[0]!;
    const out = [0, 0];
    bakedFrame(0, b, out);
    expect(out).toEqual([0, 0]);
    bakedFrame(0.5, b, out);
    expect(out[0]).toBe(15);
    expect(out[1]).toBeCloseTo(0, 9);
    bakedFrame(1.99, b, out);
    expect(out[0]).toBe(59);
    expect(out[1]).toBeCloseTo(0.7, 6);
    bakedFrame(2, b, out);
    expect(out).toEqual([59, 1]);
    // The wrap: time 2.1 is time 0.1; a negative offset wraps too.
    expect(instanceClipTime(2.1, 0, 1, 2)).toBeCloseTo(0.1, 12);
    expect(instanceClipTime(0.5, -1, 1, 2)).toBeCloseTo(1.5, 12);
    expect(instanceClipTime(1, 0.5, 2, 2)).toBeCloseTo(0.5, 12);
    expect(instanceClipTime(5, 1, 1, 0)).toBe(0);
    // Frame 60 (the end pose) equals frame 0 for this looping clip, so blending towards it is blending towards the wrap.
    const first = Array.from(bake.palettes.subarray(0, 48));
    const last = Array.from(bake.palettes.subarray(60 * 48, 61 * 48));
    for (let i = 0; i < 48; i++) expect(last[i]!).toBeCloseTo(first[i]!, 6);
    const blended = new Float32Array(48);
    blendBaked(bake, 59, 1, 0, 3, blended);
    for (let i = 0; i < 48; i++) expect(blended[i]!).toBeCloseTo(last[i]!, 6);
    blendBaked(bake, 10, 0, 0, 3, blended);
    expect(Array.from(blended)).toEqual(Array.from(bake.palettes.subarray(10 * 48, 11 * 48)));
  });

  it('gives instance i the CPU crowd time: t · 1 + its phase, wrapped', () => {
    for (const i of [0, 1, 7, 123, 9999]) {
      for (const t of [0, 0.3, 1.999, 5.5]) {
        expect(instanceClipTime(t, crowdPhase(i, 2), 1, 2)).toBeCloseTo(crowdTime(i, t, 2), 9);
      }
    }
  });

  it('measures a sphere per clip that holds every skinned vertex at every baked frame and between them', () => {
    const player = new AnimPlayer(scene.skeleton, scene.clips);
    for (let c = 0; c < 2; c++) {
      const sphere = bake.spheres.subarray(c * 4, c * 4 + 4);
      expect(Number.isFinite(sphere[3])).toBe(true);
      player.play(c, 0);
      for (let t = 0; t <= 2; t += 0.01) {
        player.setTime(t);
        player.evaluate();
        for (const mesh of scene.meshes) {
          const pal = new Float32Array(mesh.bones.length * 16);
          player.writePalette(mesh, pal, 0);
          const p = new Float32Array(mesh.vertexCount * 3);
          skinMesh(mesh, pal, p, new Float32Array(mesh.vertexCount * 3));
          for (let v = 0; v < mesh.vertexCount; v++) {
            const d = Math.hypot(p[v * 3]! - sphere[0]!, p[v * 3 + 1]! - sphere[1]!, p[v * 3 + 2]! - sphere[2]!);
            expect(d).toBeLessThanOrEqual(sphere[3]!);
          }
        }
      }
    }
  });
});
