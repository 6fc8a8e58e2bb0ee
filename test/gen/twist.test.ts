import { beforeAll, describe, expect, it } from 'vitest';
import { buildDualQuatPalette, DUAL_QUAT_STRIDE, skinMeshDualQuat } from '../../src/anim/dual-quat.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import {
  generateTwist,
  TWIST_BONES,
  TWIST_CLIP_DURATION,
  TWIST_JOINT_X,
  TWIST_LENGTH,
  TWIST_PEAK_TIME,
  TWIST_RADIUS,
} from '../../src/gen/twist.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import { writeM3d } from '../../src/loaders/m3d/write-m3d.ts';
import { MAX_INFLUENCES, type Scene, type SkinnedMesh } from '../../src/model/types.ts';

/**
 * The twist rig as the page gets it: generated, written as .m3d text and read back through loadModel.
 * Posed with the CPU jobs the techniques are tested against: linear blending (skinMesh) and dual
 * quaternions (skinMeshDualQuat).
 */

let scene: Scene;
let mesh: SkinnedMesh;
const SEGMENTS = 32;
const RINGS = 97;

beforeAll(() => {
  const text = writeM3d(generateTwist());
  scene = loadModel('twist.m3d', new TextEncoder().encode(text));
  mesh = scene.meshes[0]!;
});

/** Skinned positions of the loaded mesh at `t` seconds of clip `name`: linear blend and dual quaternion. */
function pose(name: string, t: number): { linear: Float32Array; dual: Float32Array } {
  const player = new AnimPlayer(scene.skeleton, scene.clips);
  player.play(scene.clips.findIndex((c) => c.name === name));
  player.setTime(t);
  player.evaluate();
  const slots = mesh.bones.length;
  const palette = new Float32Array(slots * 16);
  player.writePalette(mesh, palette, 0);
  const dq = new Float32Array(slots * DUAL_QUAT_STRIDE);
  expect(buildDualQuatPalette(palette, slots, dq)).toBeLessThan(1e-5);
  const linear = new Float32Array(mesh.vertexCount * 3);
  const dual = new Float32Array(mesh.vertexCount * 3);
  skinMesh(mesh, palette, linear, null);
  skinMeshDualQuat(mesh, dq, dual, null);
  return { linear, dual };
}

/** Side vertices (caps excluded) whose bind x is `x`: one ring of the cylinder. */
function ringAt(x: number): number[] {
  const out: number[] = [];
  for (let v = 0; v < mesh.vertexCount; v++) {
    const p = mesh.positions;
    if (Math.abs(p[v * 3]! - x) < 1e-4 && Math.abs(mesh.normals[v * 3]!) < 0.5) out.push(v);
  }
  return out;
}

/**
 * Cross-section of a skinned ring: its centroid, and the largest distance of a ring vertex from it,
 * optionally only counting the components along `plane` axes (0 x, 1 y, 2 z).
 */
function ringRadius(ring: number[], pos: Float32Array, plane: readonly number[] = [0, 1, 2]): number {
  const c = [0, 0, 0];
  for (const v of ring) for (let k = 0; k < 3; k++) c[k]! += pos[v * 3 + k]! / ring.length;
  let r = 0;
  for (const v of ring) r = Math.max(r, Math.hypot(...plane.map((k) => pos[v * 3 + k]! - c[k]!)));
  return r;
}

/** Signed volume enclosed by the triangles (divergence theorem); positive for outward winding. */
function volume(pos: Float32Array): number {
  let sum = 0;
  const ix = mesh.indices;
  for (let t = 0; t < ix.length; t += 3) {
    const a = ix[t]! * 3, b = ix[t + 1]! * 3, c = ix[t + 2]! * 3;
    sum +=
      pos[a]! * (pos[b + 1]! * pos[c + 2]! - pos[b + 2]! * pos[c + 1]!) -
      pos[a + 1]! * (pos[b]! * pos[c + 2]! - pos[b + 2]! * pos[c]!) +
      pos[a + 2]! * (pos[b]! * pos[c + 1]! - pos[b + 1]! * pos[c]!);
  }
  return sum / 6;
}

describe('generateTwist, loaded back from its .m3d text', () => {
  it('is a capped cylinder of the documented size, wound outward, in two checker subsets', () => {
    expect(scene.warnings).toEqual([]);
    expect(scene.meshes).toHaveLength(1);
    expect(mesh.skinned).toBe(true);
    expect(mesh.vertexCount).toBe(RINGS * SEGMENTS + 2 * (SEGMENTS + 1));
    expect(mesh.indices.length / 3).toBe((RINGS - 1) * SEGMENTS * 2 + 2 * SEGMENTS);
    expect(scene.materials.map((m) => m.name)).toEqual(['stripe_a', 'stripe_b']);
    for (const m of scene.materials) expect(m.diffuseMap).toBeNull();
    expect(mesh.subsets.map((s) => s.material)).toEqual([0, 1]);
    // Checker sides split evenly; the caps add SEGMENTS triangles each to subset 0.
    expect(mesh.subsets[0]!.count - 2 * SEGMENTS).toBe(mesh.subsets[1]!.count);
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let v = 0; v < mesh.vertexCount; v++) {
      for (let k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k]!, mesh.positions[v * 3 + k]!);
        hi[k] = Math.max(hi[k]!, mesh.positions[v * 3 + k]!);
      }
    }
    expect(lo[0]).toBeCloseTo(-TWIST_LENGTH / 2, 5);
    expect(hi[0]).toBeCloseTo(TWIST_LENGTH / 2, 5);
    expect(lo[1]).toBeCloseTo(0, 5);
    expect(hi[1]).toBeCloseTo(2 * TWIST_RADIUS, 5);
    // A regular 32-gon prism: positive (outward) and exact.
    const prism = (SEGMENTS / 2) * TWIST_RADIUS ** 2 * Math.sin((2 * Math.PI) / SEGMENTS) * TWIST_LENGTH;
    expect(volume(mesh.positions) / prism).toBeCloseTo(1, 4);
  });

  it('has a 4-bone chain, weights summing to 1 with at most 2 influences, ½ ½ on the twisting joint', () => {
    expect(scene.skeleton.parents.length).toBe(TWIST_BONES.length);
    expect(Array.from(scene.skeleton.parents)).toEqual([-1, 0, 1, 2]);
    expect(generateTwist().skeleton.names).toEqual([...TWIST_BONES]);
    expect(mesh.maxInfluences).toBeLessThanOrEqual(MAX_INFLUENCES);
    expect(mesh.maxInfluences).toBe(2);
    for (let v = 0; v < mesh.vertexCount; v++) {
      let sum = 0;
      let used = 0;
      for (let k = 0; k < MAX_INFLUENCES; k++) {
        const w = mesh.weights[v * MAX_INFLUENCES + k]!;
        sum += w;
        if (w > 0) used++;
        if (k > 0) expect(w).toBeLessThanOrEqual(mesh.weights[v * MAX_INFLUENCES + k - 1]!);
      }
      expect(Math.abs(sum - 1)).toBeLessThan(1e-4);
      expect(used).toBeLessThanOrEqual(2);
    }
    const joint = ringAt(TWIST_JOINT_X);
    expect(joint).toHaveLength(SEGMENTS);
    for (const v of joint) {
      expect(mesh.weights[v * 4]).toBeCloseTo(0.5, 4);
      expect(mesh.weights[v * 4 + 1]).toBeCloseTo(0.5, 4);
      expect(new Set([mesh.joints[v * 4], mesh.joints[v * 4 + 1]])).toEqual(new Set([1, 2]));
    }
  });

  it('has the looping clips twist, bend and twist-bend of 4 s', () => {
    expect(scene.clips.map((c) => c.name)).toEqual(['twist', 'bend', 'twist-bend']);
    for (const c of scene.clips) expect(c.duration).toBeCloseTo(TWIST_CLIP_DURATION, 5);
    // Looping: the pose at the end is the pose at the start (the rest pose).
    const start = pose('twist-bend', 0).linear;
    const end = pose('twist-bend', TWIST_CLIP_DURATION).linear;
    for (let i = 0; i < start.length; i++) {
      expect(Math.abs(start[i]! - end[i]!)).toBeLessThan(1e-5);
      expect(Math.abs(start[i]! - mesh.positions[i]!)).toBeLessThan(1e-5);
    }
  });

  it('twisted 180°: linear blending collapses the joint (candy wrapper), dual quaternions keep its radius', () => {
    const joint = ringAt(TWIST_JOINT_X);
    const far = ringAt(TWIST_JOINT_X + 0.75);
    const { linear, dual } = pose('twist', TWIST_PEAK_TIME);
    const rest = ringRadius(joint, mesh.positions);
    expect(rest).toBeCloseTo(TWIST_RADIUS, 4);
    const lbs = ringRadius(joint, linear);
    const dq = ringRadius(joint, dual);
    console.log(`twist 180°: joint radius rest ${rest.toFixed(4)}, linear ${lbs.toFixed(4)}, dual quaternion ${dq.toFixed(4)}`);
    expect(lbs).toBeLessThan(0.25 * rest);
    expect(Math.abs(dq / rest - 1)).toBeLessThan(0.03);
    // The far end turned as a rigid piece under both: same radius, the stripes turned half a turn.
    expect(ringRadius(far, linear)).toBeCloseTo(rest, 4);
    expect(ringRadius(far, dual)).toBeCloseTo(rest, 4);
    const top = far.find((v) => mesh.positions[v * 3 + 1]! > 2 * TWIST_RADIUS - 1e-4)!;
    expect(linear[top * 3 + 1]).toBeCloseTo(0, 4);
    // The whole cylinder: linear blending loses volume at the joint, dual quaternions keep it.
    const v0 = volume(mesh.positions);
    console.log(`twist 180°: volume rest ${v0.toFixed(4)}, linear ${volume(linear).toFixed(4)}, dual quaternion ${volume(dual).toFixed(4)}`);
    // (Measured: linear −13 %, all of it in the 0.5 m blend zone; dual quaternion −0.0 %.)
    expect(volume(linear) / v0).toBeLessThan(0.95);
    expect(Math.abs(volume(dual) / v0 - 1)).toBeLessThan(0.01);
  });

  it('bent 90°: linear blending thins the elbow to ~1/√2 in the bend plane, dual quaternions do not', () => {
    const joint = ringAt(TWIST_JOINT_X);
    const { linear, dual } = pose('bend', TWIST_PEAK_TIME);
    const inPlane = [0, 2];
    const lbs = ringRadius(joint, linear, inPlane);
    const dq = ringRadius(joint, dual, inPlane);
    console.log(`bend 90°: joint half-thickness in the bend plane, linear ${lbs.toFixed(4)}, dual quaternion ${dq.toFixed(4)}`);
    expect(lbs / TWIST_RADIUS).toBeCloseTo(Math.SQRT1_2, 2);
    expect(Math.abs(dq / TWIST_RADIUS - 1)).toBeLessThan(0.03);
    // The far half swings back level (−Z): the tip cap's centre lies behind the joint at the axis height.
    const tipCentre = mesh.vertexCount - SEGMENTS - 1;
    expect(dual[tipCentre * 3]).toBeCloseTo(TWIST_JOINT_X, 3);
    expect(dual[tipCentre * 3 + 1]).toBeCloseTo(TWIST_RADIUS, 3);
    expect(dual[tipCentre * 3 + 2]).toBeCloseTo(-TWIST_LENGTH / 2, 3);
  });
});
