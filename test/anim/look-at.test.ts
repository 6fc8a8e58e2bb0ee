import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { localToModel } from '../../src/anim/local-to-model.ts';
import { LookAt, type PosePostProcess } from '../../src/anim/look-at.ts';
import { dawnRig } from '../../src/gen/dawn-body.ts';
import { humanoidRig } from '../../src/gen/humanoid-body.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import { TRS_STRIDE, type Skeleton } from '../../src/model/types.ts';
import { NO_ALLOCATION_BYTES_PER_CALL, allocationOfProbe, describeAllocation } from '../alloc-harness.ts';
import { HAVE_CORPUS, corpusBytes, describeCorpus } from '../corpus.ts';

const DEG = 180 / Math.PI;

interface Pose {
  locals: Float32Array;
  model: Float32Array;
}

function restPose(s: Skeleton): Pose {
  const locals = s.restLocal.slice();
  const model = new Float32Array(s.parents.length * 16);
  localToModel(s.parents, locals, model);
  return { locals, model };
}

function node(s: Skeleton, name: string): number {
  const i = s.names.indexOf(name);
  if (i < 0) throw new Error(`no node ${name}`);
  return i;
}

/** A joint's look direction in model space: (yaw, pitch) in degrees in the look-at's character frame. */
function facing(look: LookAt, model: Float32Array, role: 'head' | 'eye'): { yaw: number; pitch: number } {
  const j = look.joints.find((x) => x.role === role)!;
  const o = j.node * 16;
  const f = j.localForward;
  const d = [0, 1, 2].map((r) => model[o + r]! * f[0]! + model[o + 4 + r]! * f[1]! + model[o + 8 + r]! * f[2]!);
  const dot = (a: ArrayLike<number>): number => a[0]! * d[0]! + a[1]! * d[1]! + a[2]! * d[2]!;
  return { yaw: Math.atan2(dot(look.side), dot(look.forward)) * DEG, pitch: Math.asin(dot(look.up) / Math.hypot(d[0]!, d[1]!, d[2]!)) * DEG };
}

/** Puts the target at (yaw, pitch) degrees from the head, `distance` away, in the character's frame. */
function aim(look: LookAt, model: Float32Array, yaw: number, pitch: number, distance: number): void {
  const o = look.joints.find((x) => x.role === 'head')!.node * 16;
  const y = yaw / DEG;
  const p = pitch / DEG;
  for (let c = 0; c < 3; c++) {
    const dir = Math.cos(p) * (Math.cos(y) * look.forward[c]! + Math.sin(y) * look.side[c]!) + Math.sin(p) * look.up[c]!;
    look.target[c] = model[o + 12 + c]! + distance * dir;
  }
}

/** A model-space direction's heading about `up` and elevation above the plane ⟂ up, degrees. */
function angles(look: LookAt, d: number[]): { yaw: number; pitch: number } {
  const dot = (a: ArrayLike<number>): number => a[0]! * d[0]! + a[1]! * d[1]! + a[2]! * d[2]!;
  return { yaw: Math.atan2(dot(look.side), dot(look.forward)) * DEG, pitch: Math.asin(dot(look.up) / Math.hypot(d[0]!, d[1]!, d[2]!)) * DEG };
}

function forwardOf(model: Float32Array, node: number, f: Float32Array): number[] {
  const o = node * 16;
  return [0, 1, 2].map((r) => model[o + r]! * f[0]! + model[o + 4 + r]! * f[1]! + model[o + 8 + r]! * f[2]!);
}

/**
 * Each look-at joint's own turn relative to its parent (degrees): the change of its forward's heading and
 * elevation between its animated local rotation and the one look-at wrote, both under the parent as turned.
 */
function ownTurns(s: Skeleton, look: LookAt, animated: Pose, turned: Pose): { name: string; role: string; yaw: number; pitch: number }[] {
  return look.joints.map((j) => {
    const locals = turned.locals.slice();
    const r = j.node * TRS_STRIDE + 3;
    locals.set(animated.locals.subarray(r, r + 4), r);
    const model = new Float32Array(turned.model.length);
    localToModel(s.parents, locals, model);
    const a = angles(look, forwardOf(model, j.node, j.localForward));
    const b = angles(look, forwardOf(turned.model, j.node, j.localForward));
    let yaw = b.yaw - a.yaw;
    yaw -= 360 * Math.round(yaw / 360);
    return { name: s.names[j.node]!, role: j.role, yaw, pitch: b.pitch - a.pitch };
  });
}

/** Largest difference between the model matrices and localToModel of the locals (consistency). */
function inconsistency(s: Skeleton, pose: Pose): number {
  const check = new Float32Array(pose.model.length);
  localToModel(s.parents, pose.locals, check);
  let err = 0;
  for (let i = 0; i < check.length; i++) err = Math.max(err, Math.abs(check[i]! - pose.model[i]!));
  return err;
}

function sameBits(a: Float32Array, b: Float32Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** The behaviour every rig must show; `hand` and `foot` are node names that must not move, `size` the figure's height. */
function behaves(name: string, skeleton: () => Skeleton, hand: string, foot: string, size: number): void {
  describe(name, () => {
    it('is a PosePostProcess that leaves the pose bitwise alone at weight 0, disabled, or with a NaN or zero target', () => {
      const s = skeleton();
      const look: PosePostProcess & LookAt = LookAt.find(s)!;
      const pose = restPose(s);
      aim(look, pose.model, 40, 10, size);
      const cases: [string, () => void][] = [
        ['weight 0', () => (look.weight = 0)],
        ['NaN weight', () => (look.weight = NaN)],
        ['disabled', () => (look.enabled = false)],
        ['NaN target', () => (look.target[1] = NaN)],
        ['zero target', () => look.target.fill(0)],
      ];
      const target = look.target.slice();
      for (const [what, set] of cases) {
        look.weight = 1;
        look.enabled = true;
        look.target.set(target);
        set();
        const locals = pose.locals.slice();
        const model = pose.model.slice();
        look.apply(s.parents, locals, model);
        expect(sameBits(locals, pose.locals), what).toBe(true);
        expect(sameBits(model, pose.model), what).toBe(true);
      }
    });

    it('a target straight ahead leaves the head where it was', () => {
      const s = skeleton();
      const look = LookAt.find(s)!;
      const pose = restPose(s);
      const before = facing(look, pose.model, 'head');
      aim(look, pose.model, 0, 0, size);
      look.apply(s.parents, pose.locals, pose.model);
      const after = facing(look, pose.model, 'head');
      expect(Math.abs(after.yaw - before.yaw)).toBeLessThan(0.5);
      expect(Math.abs(after.pitch - before.pitch)).toBeLessThan(0.5);
    });

    it('turns the head toward a target to the side, within the limits, and nothing but the head chain moves', () => {
      const s = skeleton();
      const look = LookAt.find(s)!;
      for (const [yaw, pitch] of [[30, 0], [-30, 0], [0, 20], [0, -20], [45, 15]] as const) {
        const pose = restPose(s);
        const before = pose.model.slice();
        aim(look, pose.model, yaw, pitch, size);
        look.apply(s.parents, pose.locals, pose.model);
        const after = facing(look, pose.model, 'head');
        expect(after.yaw, `yaw for ${yaw}/${pitch}`).toBeCloseTo(yaw, -0.5); // within ~1.6 degrees
        expect(Math.abs(after.pitch - pitch), `pitch for ${yaw}/${pitch}`).toBeLessThan(3);
        for (const still of [hand, foot]) {
          const o = node(s, still) * 16;
          expect(sameBits(pose.model.subarray(o, o + 16), before.subarray(o, o + 16)), still).toBe(true);
        }
        expect(inconsistency(s, pose)).toBeLessThan(1e-6 * size * 100);
      }
      // Far to the side: the chain stops at its total yaw limit.
      const pose = restPose(s);
      aim(look, pose.model, 120, 0, size);
      look.apply(s.parents, pose.locals, pose.model);
      const far = facing(look, pose.model, 'head');
      expect(far.yaw).toBeLessThanOrEqual(look.totalYaw + 0.5);
      expect(far.yaw).toBeGreaterThan(look.totalYaw - 5);
    });

    it('weight 0.5 turns about half as far', () => {
      const s = skeleton();
      const look = LookAt.find(s)!;
      const full = restPose(s);
      aim(look, full.model, 40, 0, size);
      look.apply(s.parents, full.locals, full.model);
      const half = restPose(s);
      look.weight = 0.5;
      look.apply(s.parents, half.locals, half.model);
      const a = facing(look, full.model, 'head').yaw;
      const b = facing(look, half.model, 'head').yaw;
      expect(a).toBeGreaterThan(35);
      expect(b / a).toBeGreaterThan(0.45);
      expect(b / a).toBeLessThan(0.55);
    });

    it('a target behind is clamped at the limit and does not flip side as it crosses the back', () => {
      const s = skeleton();
      const look = LookAt.find(s)!;
      const sides: number[] = [];
      for (const yaw of [100, 170, 179, -179, -170, -160]) {
        const pose = restPose(s);
        aim(look, pose.model, yaw, 0, size);
        look.apply(s.parents, pose.locals, pose.model);
        const f = facing(look, pose.model, 'head');
        expect(Math.abs(f.yaw)).toBeLessThanOrEqual(look.totalYaw + 0.5);
        expect(Math.abs(f.pitch)).toBeLessThan(5);
        sides.push(Math.sign(f.yaw));
      }
      expect(sides).toEqual([1, 1, 1, 1, 1, 1]);
      // Once in front on the other side, it follows.
      const pose = restPose(s);
      aim(look, pose.model, -60, 0, size);
      look.apply(s.parents, pose.locals, pose.model);
      expect(facing(look, pose.model, 'head').yaw).toBeLessThan(-50);
    });
  });
}

describe('LookAt.find', () => {
  it('finds spine, neck and head of the Walker, forward +Z and up +Y from toes and feet', () => {
    const s = humanoidRig().skeleton;
    const look = LookAt.find(s)!;
    expect(look.joints.map((j) => `${s.names[j.node]}:${j.role}`)).toEqual(['spine_03:spine', 'neck:neck', 'head:head']);
    expect(look.up[1]).toBeGreaterThan(0.99);
    expect(look.forward[2]).toBeGreaterThan(0.99);
  });

  it("finds Dawn's two neck joints and her eyes; the eyes aim at the target fully", () => {
    const s = dawnRig().skeleton;
    const look = LookAt.find(s)!;
    expect(look.joints.map((j) => `${s.names[j.node]}:${j.role}`)).toEqual([
      'spine_03:spine', 'neck:neck', 'neck_02:neck', 'head:head', 'eye_l:eye', 'eye_r:eye',
    ]);
    const pose = restPose(s);
    aim(look, pose.model, 90, 0, 1.8);
    look.apply(s.parents, pose.locals, pose.model);
    const head = facing(look, pose.model, 'head').yaw;
    const eye = facing(look, pose.model, 'eye').yaw;
    expect(head).toBeCloseTo(look.totalYaw, 0);
    // The eyes go on past the head, by up to their own limit.
    expect(eye).toBeGreaterThan(head + 5);
    expect(eye).toBeLessThanOrEqual(90 + 0.5);
  });

  it('returns null for a skeleton without a head (numbered names, as a plain .m3d file without a BoneNames chunk gives)', () => {
    const s = humanoidRig().skeleton;
    expect(LookAt.find({ ...s, names: s.names.map((_, i) => `Bone${i}`) })).toBeNull();
  });

  it('honours an explicit forward', () => {
    const s = humanoidRig().skeleton;
    const look = LookAt.find(s, undefined, { forward: [1, 0, 0] })!;
    expect(look.forward[0]).toBeCloseTo(1, 5);
  });
});

/** Targets past the head's reach: every joint stays within its own limits and the chain turns as far as they allow. */
function limits(name: string, skeleton: () => Skeleton, size: number): void {
  const EPS = 0.05; // degrees: float32 pose arithmetic
  const REACH = 1; // degrees: a chain that stops short of what its limits allow
  /** [yaw, pitch] of the target from the head, degrees: to the side past the head's reach, behind, above, below. */
  const targets = [[90, 0], [150, 0], [180, 0], [-140, 0], [-100, 0], [0, 80], [0, -80], [120, 60], [-110, -45]] as const;

  function run(look: LookAt, s: Skeleton, yaw: number, pitch: number): { animated: Pose; turned: Pose } {
    const animated = restPose(s);
    const turned = restPose(s);
    // Far away, so that the eyes and the spine see the target in the same direction as the head.
    aim(look, turned.model, yaw, pitch, size * 100);
    look.apply(s.parents, turned.locals, turned.model);
    return { animated, turned };
  }

  function expectWithinOwnLimits(s: Skeleton, look: LookAt, animated: Pose, turned: Pose, what: string): void {
    const turns = ownTurns(s, look, animated, turned);
    turns.forEach((t, k) => {
      const j = look.joints[k]!;
      expect(Math.abs(t.yaw), `${what}: ${t.name} (${t.role}) own yaw, limit ${j.yawLimit}`).toBeLessThanOrEqual(j.yawLimit + EPS);
      expect(Math.abs(t.pitch), `${what}: ${t.name} (${t.role}) own pitch, limit ${j.pitchLimit}`).toBeLessThanOrEqual(j.pitchLimit + EPS);
    });
  }

  describe(`${name}: targets past the head's reach`, () => {
    it('keeps each joint within its own yaw and pitch limits; the head reaches the chain total, the eyes their own limit past it', () => {
      const s = skeleton();
      for (const [yaw, pitch] of targets) {
        const look = LookAt.find(s)!;
        const { animated, turned } = run(look, s, yaw, pitch);
        const what = `target ${yaw}/${pitch}`;
        expectWithinOwnLimits(s, look, animated, turned, what);
        const head = facing(look, turned.model, 'head');
        // Behind (|yaw| > behindDegrees) the chain keeps the side it starts on (+).
        const side = Math.abs(yaw) > look.behindDegrees ? 1 : Math.sign(yaw);
        const wantYaw = side * Math.min(Math.abs(yaw), look.totalYaw);
        const wantPitch = Math.sign(pitch) * Math.min(Math.abs(pitch), look.totalPitch);
        expect(Math.abs(head.yaw - wantYaw), `${what}: head yaw ${head.yaw.toFixed(2)}`).toBeLessThan(REACH);
        expect(Math.abs(head.pitch - wantPitch), `${what}: head pitch ${head.pitch.toFixed(2)}`).toBeLessThan(REACH);
        for (const j of look.joints.filter((x) => x.role === 'eye')) {
          const eye = angles(look, forwardOf(turned.model, j.node, j.localForward));
          // eye − head ≤ the eye's limit, and the eye goes on toward the target as far as that limit allows.
          expect(Math.abs(eye.yaw - head.yaw), `${what}: eye − head yaw`).toBeLessThanOrEqual(j.yawLimit + EPS);
          expect(Math.abs(eye.pitch - head.pitch), `${what}: eye − head pitch`).toBeLessThanOrEqual(j.pitchLimit + EPS);
          const eyeYaw = side * Math.min(Math.abs(yaw), Math.abs(wantYaw) + j.yawLimit);
          const eyePitch = Math.sign(pitch) * Math.min(Math.abs(pitch), Math.abs(wantPitch) + j.pitchLimit);
          expect(Math.abs(eye.yaw - eyeYaw), `${what}: eye yaw ${eye.yaw.toFixed(2)}`).toBeLessThan(REACH);
          expect(Math.abs(eye.pitch - eyePitch), `${what}: eye pitch ${eye.pitch.toFixed(2)}`).toBeLessThan(REACH);
        }
      }
    });

    it('with the chain total raised past the joints, each joint stops at its own limit and the head at their sum', () => {
      const s = skeleton();
      for (const [yaw, pitch] of [[150, 0], [-170, 0], [0, 80], [0, -80], [140, 75]] as const) {
        const look = LookAt.find(s)!;
        look.totalYaw = 180;
        look.totalPitch = 85;
        look.behindDegrees = 179;
        const { animated, turned } = run(look, s, yaw, pitch);
        const what = `target ${yaw}/${pitch}, totals 180/85`;
        expectWithinOwnLimits(s, look, animated, turned, what);
        const chain = look.joints.filter((j) => j.role !== 'eye');
        const sumYaw = chain.reduce((a, j) => a + j.yawLimit, 0);
        const sumPitch = chain.reduce((a, j) => a + j.pitchLimit, 0);
        const head = facing(look, turned.model, 'head');
        const wantYaw = Math.sign(yaw) * Math.min(Math.abs(yaw), sumYaw);
        const wantPitch = Math.sign(pitch) * Math.min(Math.abs(pitch), sumPitch);
        expect(Math.abs(head.yaw - wantYaw), `${what}: head yaw ${head.yaw.toFixed(2)} of ${wantYaw}`).toBeLessThan(REACH);
        expect(Math.abs(head.pitch - wantPitch), `${what}: head pitch ${head.pitch.toFixed(2)} of ${wantPitch}`).toBeLessThan(REACH);
        for (const j of look.joints.filter((x) => x.role === 'eye')) {
          const eye = angles(look, forwardOf(turned.model, j.node, j.localForward));
          expect(Math.abs(eye.yaw - head.yaw), `${what}: eye − head yaw`).toBeLessThanOrEqual(j.yawLimit + EPS);
          expect(Math.abs(eye.yaw - Math.sign(yaw) * Math.min(Math.abs(yaw), sumYaw + j.yawLimit)), `${what}: eye yaw ${eye.yaw.toFixed(2)}`).toBeLessThan(REACH);
        }
      }
    });
  });
}

behaves('LookAt on the Walker rig (src/gen)', () => humanoidRig().skeleton, 'hand_l', 'foot_r', 1.8);
behaves("LookAt on Dawn's rig (src/gen)", () => dawnRig().skeleton, 'hand_r', 'foot_l', 1.8);
limits('LookAt on the Walker rig (src/gen)', () => humanoidRig().skeleton, 1.8);
limits("LookAt on Dawn's rig (src/gen)", () => dawnRig().skeleton, 1.8);

let tiny: Skeleton | null = null;
const tinySkeleton = (): Skeleton => (tiny ??= loadModel('tiny_4anim.x', corpusBytes('tiny_4anim.x')).skeleton);

describeCorpus('LookAt on tiny_4anim.x (Bip01 biped, Z up)', () => {
  it('finds Bip01_Spine3, Bip01_Neck and Bip01_Head; up along the head, forward where the toes point', () => {
    const s = tinySkeleton();
    const look = LookAt.find(s)!;
    expect(look.joints.map((j) => s.names[j.node])).toEqual(['Bip01_Spine3', 'Bip01_Neck', 'Bip01_Head']);
    expect(look.up[2]).toBeLessThan(-0.99);
    expect(look.forward[1]).toBeLessThan(-0.99);
  });
});
if (HAVE_CORPUS) behaves('LookAt on tiny_4anim.x', tinySkeleton, 'Bip01_L_Hand', 'Bip01_R_Foot', 450);
if (HAVE_CORPUS) limits('LookAt on tiny_4anim.x', tinySkeleton, 450);

describe('LookAt allocation', () => {
  it('apply allocates nothing per call, measured to the byte; a 16-byte control is seen', () => {
    const sections = allocationOfProbe(fileURLToPath(new URL('./look-at-alloc-probe.ts', import.meta.url)));
    expect(sections.get('control')?.bytesPerCall, describeAllocation('control', sections.get('control'))).toBeGreaterThanOrEqual(16);
    expect(sections.get('look-at')?.bytesPerCall, describeAllocation('look-at', sections.get('look-at'))).toBeLessThan(NO_ALLOCATION_BYTES_PER_CALL);
    // A whole frame of the walking MultiAnimation Tiny through the controller, look-at as its post-process.
    const tiny = sections.get('look-at-tiny-walk');
    expect(tiny?.bytesPerCall, describeAllocation('look-at-tiny-walk', tiny)).toBeLessThan(NO_ALLOCATION_BYTES_PER_CALL);
  }, 120_000);
});
