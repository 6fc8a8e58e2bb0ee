/**
 * Look-at: a pose post-process that turns a head chain (optional upper spine, neck joints, head, eyes)
 * toward a point, after the animation tracks have written the frame's pose (Dawn's head and eye aiming).
 *
 * Contract
 * - Implements PosePostProcess structurally: apply(parents, locals, model) where locals hold TRS_STRIDE (10)
 *   floats per node in parent space (t 3, r 4 xyzw, s 3) and model 16 floats per node, column-major,
 *   node → model, already consistent with locals (localToModel ran). apply edits the local rotations of
 *   the chain joints and rewrites the model matrices of the chain's subtree; nothing else.
 * - Spaces: `target` is a point in model space (the space of `model`). The character's `up` and `forward`
 *   are model-space unit vectors fixed at construction; `side = up × forward`. Yaw is measured about `up`
 *   (positive turns forward toward side), pitch is the elevation above the plane ⟂ up. Angles and limits
 *   are in degrees.
 * - Each joint has a local forward (where the face looks, in the joint's own frame), derived once from the
 *   rest pose: the model-space forward carried into the joint's rest frame.
 * - Per frame, root → tip: each chain joint measures, against the pose as animated and as turned by the
 *   joints before it, the yaw and pitch from its forward to the target. The turn wanted for the whole chain
 *   (clamped to totalYaw/totalPitch, times weight) is split by `share`: after joint i the chain has turned
 *   weight · (Σ shares ≤ i / Σ shares) of it; each joint's own turn is clamped to its limits, so a joint at
 *   its limit leaves more to the next. Eyes (tips, share ignored) each take what is left of weight · the
 *   whole turn, within their own limits only (they look on past the chain's total limit). A joint's turn is pitch about the horizontal axis ⟂ its forward, then yaw about `up` (a swing;
 *   no twist), pre-multiplied into its local rotation expressed in its parent's frame (exact for parents
 *   without non-uniform scale).
 * - Targets behind: yaw is clamped, never flipped: once the target is more than `behindDegrees` off to one
 *   side the chain keeps turning toward the side it last turned to until the target comes back in front.
 * - No change at all (bitwise) when disabled, weight ≤ 0 or NaN, a target with a NaN or infinite component,
 *   the zero target (0, 0, 0: "no target"), or a joint index outside `parents`.
 * - Allocation: find / fromJoints allocate (load time); apply allocates nothing (module scratch).
 * - Name matching and rest-pose analysis live in look-at-rig.ts, the per-frame arithmetic in look-at-math.ts.
 *   No WebGL; the controller is not imported.
 */

import { TRS_STRIDE, type Skeleton } from '../model/types.ts';
import { _m, _s, axisAngleAt, axisToParent, identityAt, mulAt, quatFromRotation, refreshNode, refreshPath } from './look-at-math.ts';
import { LOOK_AT_DEFAULTS, findForward, findHeadChain, findUp, isAncestor, normalise, restModelOf, type LookAtRole } from './look-at-rig.ts';

export type { LookAtRole } from './look-at-rig.ts';

/** The controller's post-process hook (src/anim/controller), declared here structurally. */
export interface PosePostProcess {
  apply(parents: Int16Array, locals: Float32Array, model: Float32Array): void;
}

export interface LookAtJoint {
  readonly node: number;
  readonly role: LookAtRole;
  /** Most yaw (degrees) this joint adds, either way. */
  yawLimit: number;
  /** Most pitch (degrees) this joint adds, up or down. */
  pitchLimit: number;
  /** Part of the chain's turn (relative to the other chain joints' shares); unused for eyes. */
  share: number;
  /** Unit forward in the joint's own frame (from the rest pose). */
  readonly localForward: Float32Array;
}

export interface LookAtOptions {
  /** The character's forward in model space; default found from the skeleton (toes ahead of feet, else eyes ahead of head, else +Z). */
  readonly forward?: readonly [number, number, number];
  /** The character's up in model space; default head above feet (else +Y). */
  readonly up?: readonly [number, number, number];
}

const DEG = Math.PI / 180;
/** Turns below this (radians) are skipped: the joint's local is left bitwise as it was. */
const EPS = 1e-7;
/** Pitch never lifts a forward closer to straight up or down than this (degrees from the pole). */
const MAX_ELEVATION = 85;

export class LookAt implements PosePostProcess {
  /** Model-space point to look at. (0, 0, 0) or any NaN: no look-at. */
  readonly target = new Float32Array(3);
  /** 0..1: how far the chain turns toward the target (1 fully, within limits). */
  weight = 1;
  enabled = true;
  /** Limits of the whole chain's turn (degrees). */
  totalYaw = 80;
  totalPitch = 50;
  /** A target more than this far off the joint's forward (degrees) is "behind": the turn keeps its side. */
  behindDegrees = 150;
  /** Chain joints root → tip, then eyes. */
  readonly joints: readonly LookAtJoint[];
  readonly up: Float32Array;
  readonly forward: Float32Array;
  readonly side: Float32Array;
  /** Per joint: its ancestors below the chain's first joint, then itself, root → tip (model refresh). */
  private readonly paths: readonly Int16Array[];
  /** Nodes of the first joint's subtree, ascending (parents first). */
  private readonly subtree: Int16Array;
  private readonly eyeStart: number;
  private readonly nodeCount: number;
  /**
   * Children of the chain's joints below the head that are not on the way to a chain joint (Biped's
   * clavicles hang from the neck, the Walker's from spine_03): they keep their model transform, so a
   * turn of the neck does not swing the arms; their locals are rewritten to match. Their matrices, and
   * those of everything below them, are left untouched (bitwise as animated).
   */
  private readonly pinned: Int16Array;
  private lastSide = 1;

  private constructor(skeleton: Skeleton, joints: LookAtJoint[], up: number[], forward: number[]) {
    this.joints = joints;
    this.up = Float32Array.from(up);
    this.forward = Float32Array.from(forward);
    this.side = Float32Array.from([
      up[1]! * forward[2]! - up[2]! * forward[1]!,
      up[2]! * forward[0]! - up[0]! * forward[2]!,
      up[0]! * forward[1]! - up[1]! * forward[0]!,
    ]);
    const parents = skeleton.parents;
    let first = joints[0]!.node;
    for (const j of joints) if (j.role !== 'eye' && isAncestor(parents, j.node, first)) first = j.node;
    this.paths = joints.map((j) => {
      const path: number[] = [j.node];
      for (let p = parents[j.node]!; p >= 0 && p !== first && j.node !== first; p = parents[p]!) path.unshift(p);
      return Int16Array.from(path);
    });
    let eyeStart = joints.findIndex((j) => j.role === 'eye');
    if (eyeStart < 0) eyeStart = joints.length;
    this.eyeStart = eyeStart;
    this.nodeCount = parents.length;
    const onPath = new Uint8Array(parents.length);
    for (const path of this.paths) for (const i of path) onPath[i] = 1;
    const turners = new Set(joints.slice(0, eyeStart - 1).map((j) => j.node));
    const pinned: number[] = [];
    for (let i = 0; i < parents.length; i++) if (turners.has(parents[i]!) && onPath[i] === 0) pinned.push(i);
    this.pinned = Int16Array.from(pinned);
    // The subtree to refresh: below `first`, not through a pinned node.
    const inside = new Uint8Array(parents.length);
    const sub: number[] = [];
    for (let i = first; i < parents.length; i++) {
      if (pinned.includes(i)) continue;
      if (i === first || (parents[i]! >= 0 && inside[parents[i]!] === 1)) {
        inside[i] = 1;
        sub.push(i);
      }
    }
    this.subtree = Int16Array.from(sub);
  }

  /**
   * Finds the head chain by bone names (look-at-rig.ts findHeadChain: head, neck joints, optional upper
   * spine, eyes); null when no head is found. `restModel`: the rest pose's model matrices (16 floats per
   * node), computed when absent.
   */
  static find(skeleton: Skeleton, restModel?: Float32Array, options: LookAtOptions = {}): LookAt | null {
    const chain = findHeadChain(skeleton);
    return chain === null ? null : LookAt.fromJoints(skeleton, chain, restModel, options);
  }

  /**
   * A look-at over explicit joints (skeletons without usable names): chain joints root → tip, each an
   * ancestor of the next, then eyes (descendants of the last chain joint). Defaults by role.
   */
  static fromJoints(
    skeleton: Skeleton,
    spec: readonly { node: number; role: LookAtRole }[],
    restModel: Float32Array = restModelOf(skeleton),
    options: LookAtOptions = {},
  ): LookAt {
    const n = skeleton.parents.length;
    if (spec.length === 0) throw new Error('LookAt: no joints');
    for (const s of spec) if (!(s.node >= 0 && s.node < n)) throw new Error(`LookAt: joint ${s.node} is not a node (0..${n - 1})`);
    if (restModel.length < n * 16) throw new Error('LookAt: restModel holds fewer than 16 floats per node');
    const up = (options.up && normalise([...options.up])) ?? findUp(skeleton, restModel) ?? [0, 1, 0];
    let fwd = (options.forward && normalise([...options.forward])) ?? findForward(skeleton, restModel, up) ?? [0, 0, 1];
    // Forward ⟂ up (the horizontal facing).
    const d = fwd[0]! * up[0]! + fwd[1]! * up[1]! + fwd[2]! * up[2]!;
    fwd = normalise([fwd[0]! - d * up[0]!, fwd[1]! - d * up[1]!, fwd[2]! - d * up[2]!]) ?? [0, 0, 1];
    const necks = spec.filter((s) => s.role === 'neck').length;
    const joints: LookAtJoint[] = spec.map(({ node, role }) => {
      const def = LOOK_AT_DEFAULTS[role];
      const div = role === 'neck' && necks > 1 ? necks : 1;
      // Rest model rotation's transpose (scaled) carries the model forward into the joint's frame.
      const o = node * 16;
      const local = normalise([
        restModel[o]! * fwd[0]! + restModel[o + 1]! * fwd[1]! + restModel[o + 2]! * fwd[2]!,
        restModel[o + 4]! * fwd[0]! + restModel[o + 5]! * fwd[1]! + restModel[o + 6]! * fwd[2]!,
        restModel[o + 8]! * fwd[0]! + restModel[o + 9]! * fwd[1]! + restModel[o + 10]! * fwd[2]!,
      ]) ?? [0, 0, 1];
      return { node, role, yawLimit: def.yaw / div, pitchLimit: def.pitch / div, share: def.share / div, localForward: Float32Array.from(local) };
    });
    // Eyes last (stable: the chain keeps the caller's root → tip order).
    joints.sort((a, b) => (a.role === 'eye' ? 1 : 0) - (b.role === 'eye' ? 1 : 0));
    return new LookAt(skeleton, joints, up, fwd);
  }

  apply(parents: Int16Array, locals: Float32Array, model: Float32Array): void {
    if (!this.enabled) return;
    const w = this.weight > 1 ? 1 : this.weight;
    if (!(w > 0)) return;
    const tg = this.target;
    const tx = tg[0]!, ty = tg[1]!, tz = tg[2]!;
    if (!(Number.isFinite(tx) && Number.isFinite(ty) && Number.isFinite(tz))) return;
    if (tx === 0 && ty === 0 && tz === 0) return;
    const joints = this.joints;
    const n = parents.length;
    if (n !== this.nodeCount) return;
    if (locals.length < n * TRS_STRIDE || model.length < n * 16) return;

    let shareSum = 0;
    for (let j = 0; j < this.eyeStart; j++) shareSum += Math.max(0, joints[j]!.share);
    const totalYaw = this.totalYaw * DEG;
    const totalPitch = this.totalPitch * DEG;
    const behind = this.behindDegrees * DEG;
    let cumShare = 0;
    let appliedYaw = 0;
    let appliedPitch = 0;
    let reference = NaN;
    let changed = false;
    for (let j = 0; j < joints.length; j++) {
      const joint = joints[j]!;
      const eye = j >= this.eyeStart;
      if (changed) refreshPath(parents, locals, model, this.paths[j]!);
      if (!this.measure(model, joint)) continue;
      // The whole chain's wanted turn, as seen from this joint: what is left plus what was done before.
      let wantYaw = _s[12]! + appliedYaw;
      const wantPitch = _s[13]! + appliedPitch;
      if (reference !== reference) {
        // The first joint fixes the side for a target behind: keep last frame's side across the back.
        if (Math.abs(wantYaw) > behind && (wantYaw > 0 ? 1 : -1) !== this.lastSide) wantYaw += this.lastSide * 2 * Math.PI;
        reference = wantYaw;
        this.lastSide = wantYaw >= 0 ? 1 : -1;
      } else {
        wantYaw += 2 * Math.PI * Math.round((reference - wantYaw) / (2 * Math.PI));
      }
      // Eyes are not bound by the chain's total: they look on past the head, within their own limits.
      const clampedYaw = eye ? wantYaw : wantYaw > totalYaw ? totalYaw : wantYaw < -totalYaw ? -totalYaw : wantYaw;
      const clampedPitch = eye ? wantPitch : wantPitch > totalPitch ? totalPitch : wantPitch < -totalPitch ? -totalPitch : wantPitch;
      let fraction = 1;
      if (!eye) {
        cumShare += Math.max(0, joint.share);
        fraction = shareSum > 0 ? cumShare / shareSum : 1;
        if (j === this.eyeStart - 1) fraction = 1;
      }
      const yl = joint.yawLimit * DEG;
      const pl = joint.pitchLimit * DEG;
      let dy = w * fraction * clampedYaw - appliedYaw;
      let dp = w * fraction * clampedPitch - appliedPitch;
      dy = dy > yl ? yl : dy < -yl ? -yl : dy;
      dp = dp > pl ? pl : dp < -pl ? -pl : dp;
      if (!eye) {
        appliedYaw += dy;
        appliedPitch += dp;
      }
      if (!(Math.abs(dy) > EPS || Math.abs(dp) > EPS)) continue;
      _s[12] = dy;
      _s[13] = dp;
      if (this.turn(parents, locals, model, joint)) changed = true;
    }
    if (!changed) return;
    this.unpin(parents, locals, model);
    refreshPath(parents, locals, model, this.subtree);
  }

  /** Pinned nodes' locals ← inverse(parent's new model) · their (untouched) model (rotation and translation; scale kept). */
  private unpin(parents: Int16Array, locals: Float32Array, model: Float32Array): void {
    const pinned = this.pinned;
    for (let k = 0; k < pinned.length; k++) {
      const node = pinned[k]!;
      const b = node * 16;
      const a = parents[node]! * 16;
      // Inverse of the parent's 3x3 (adjugate / determinant, as gl-matrix mat3.invert; mCR = column C, row R).
      const m00 = model[a]!, m01 = model[a + 1]!, m02 = model[a + 2]!;
      const m10 = model[a + 4]!, m11 = model[a + 5]!, m12 = model[a + 6]!;
      const m20 = model[a + 8]!, m21 = model[a + 9]!, m22 = model[a + 10]!;
      const c00 = m11 * m22 - m12 * m21, c01 = m02 * m21 - m01 * m22, c02 = m01 * m12 - m02 * m11;
      const c10 = m12 * m20 - m10 * m22, c11 = m00 * m22 - m02 * m20, c12 = m02 * m10 - m00 * m12;
      const c20 = m10 * m21 - m11 * m20, c21 = m01 * m20 - m00 * m21, c22 = m00 * m11 - m01 * m10;
      const det = m00 * c00 + m01 * c10 + m02 * c20;
      if (!(Math.abs(det) > 1e-30)) continue;
      const id = 1 / det;
      // inverse column C = (cC0, cC1, cC2) · id.
      const l = node * TRS_STRIDE;
      const px = model[b + 12]! - model[a + 12]!, py = model[b + 13]! - model[a + 13]!, pz = model[b + 14]! - model[a + 14]!;
      locals[l] = (c00 * px + c10 * py + c20 * pz) * id;
      locals[l + 1] = (c01 * px + c11 * py + c21 * pz) * id;
      locals[l + 2] = (c02 * px + c12 * py + c22 * pz) * id;
      // Local 3x3 = inv · own model 3x3, columns divided by the local scale.
      for (let col = 0; col < 3; col++) {
        const x = model[b + col * 4]!, y = model[b + col * 4 + 1]!, z = model[b + col * 4 + 2]!;
        const sc = locals[l + 7 + col]!;
        const inv = sc !== 0 ? id / sc : 0;
        _m[col * 4] = (c00 * x + c10 * y + c20 * z) * inv;
        _m[col * 4 + 1] = (c01 * x + c11 * y + c21 * z) * inv;
        _m[col * 4 + 2] = (c02 * x + c12 * y + c22 * z) * inv;
      }
      quatFromRotation(locals, l + 3);
    }
  }

  /** Yaw and pitch (radians) from the joint's current forward to the target → _s[12], _s[13]; false if undefined. */
  private measure(model: Float32Array, joint: LookAtJoint): boolean {
    const o = joint.node * 16;
    const f = joint.localForward;
    const up = this.up, fw = this.forward, sd = this.side, tg = this.target;
    const dx = model[o]! * f[0]! + model[o + 4]! * f[1]! + model[o + 8]! * f[2]!;
    const dy = model[o + 1]! * f[0]! + model[o + 5]! * f[1]! + model[o + 9]! * f[2]!;
    const dz = model[o + 2]! * f[0]! + model[o + 6]! * f[1]! + model[o + 10]! * f[2]!;
    const vx = tg[0]! - model[o + 12]!, vy = tg[1]! - model[o + 13]!, vz = tg[2]! - model[o + 14]!;
    const dF = dx * fw[0]! + dy * fw[1]! + dz * fw[2]!;
    const dS = dx * sd[0]! + dy * sd[1]! + dz * sd[2]!;
    const dU = dx * up[0]! + dy * up[1]! + dz * up[2]!;
    const vF = vx * fw[0]! + vy * fw[1]! + vz * fw[2]!;
    const vS = vx * sd[0]! + vy * sd[1]! + vz * sd[2]!;
    const vU = vx * up[0]! + vy * up[1]! + vz * up[2]!;
    const dh = Math.sqrt(dF * dF + dS * dS);
    const vh = Math.sqrt(vF * vF + vS * vS);
    if (!(dh > 1e-6 * (dh + Math.abs(dU))) || !(vh + Math.abs(vU) > 1e-9)) return false;
    let yaw = Math.atan2(vS, vF) - Math.atan2(dS, dF);
    if (yaw > Math.PI) yaw -= 2 * Math.PI;
    else if (yaw < -Math.PI) yaw += 2 * Math.PI;
    const current = Math.atan2(dU, dh);
    let wanted = Math.atan2(vU, vh);
    const lim = MAX_ELEVATION * DEG;
    wanted = wanted > lim ? lim : wanted < -lim ? -lim : wanted;
    _s[12] = yaw;
    _s[13] = wanted - current;
    return true;
  }

  /**
   * Turns the joint by pitch _s[13] then yaw _s[12] (radians, model space) by pre-multiplying its local
   * rotation, and refreshes its model matrix. False when the pitch axis is undefined and yaw is zero.
   */
  private turn(parents: Int16Array, locals: Float32Array, model: Float32Array, joint: LookAtJoint): boolean {
    const node = joint.node;
    const o = node * 16;
    const f = joint.localForward;
    const up = this.up;
    const yaw = _s[12]!;
    const pitch = _s[13]!;
    const dx = model[o]! * f[0]! + model[o + 4]! * f[1]! + model[o + 8]! * f[2]!;
    const dy = model[o + 1]! * f[0]! + model[o + 5]! * f[1]! + model[o + 9]! * f[2]!;
    const dz = model[o + 2]! * f[0]! + model[o + 6]! * f[1]! + model[o + 10]! * f[2]!;
    const p = parents[node]!;
    // q = yaw(up) · pitch(d × up), each axis taken into the parent's frame.
    identityAt(8);
    if (Math.abs(pitch) > EPS) {
      _s[0] = dy * up[2]! - dz * up[1]!;
      _s[1] = dz * up[0]! - dx * up[2]!;
      _s[2] = dx * up[1]! - dy * up[0]!;
      _s[3] = pitch;
      if (axisToParent(model, p)) {
        axisAngleAt(4);
        mulAt(8, 4);
      }
    }
    if (Math.abs(yaw) > EPS) {
      _s[0] = up[0]!;
      _s[1] = up[1]!;
      _s[2] = up[2]!;
      _s[3] = yaw;
      if (axisToParent(model, p)) {
        axisAngleAt(4);
        // 8 = yaw · pitch: move pitch to 4..7 first.
        const px = _s[8]!, py = _s[9]!, pz = _s[10]!, pw = _s[11]!;
        _s[8] = _s[4]!;
        _s[9] = _s[5]!;
        _s[10] = _s[6]!;
        _s[11] = _s[7]!;
        _s[4] = px;
        _s[5] = py;
        _s[6] = pz;
        _s[7] = pw;
        mulAt(8, 4);
      }
    }
    if (_s[11]! === 1) return false;
    // local rotation ← q · local.
    const l = node * TRS_STRIDE + 3;
    _s[4] = locals[l]!;
    _s[5] = locals[l + 1]!;
    _s[6] = locals[l + 2]!;
    _s[7] = locals[l + 3]!;
    mulAt(8, 4);
    const len = Math.sqrt(_s[8]! * _s[8]! + _s[9]! * _s[9]! + _s[10]! * _s[10]! + _s[11]! * _s[11]!);
    if (!(len > 0)) return false;
    locals[l] = _s[8]! / len;
    locals[l + 1] = _s[9]! / len;
    locals[l + 2] = _s[10]! / len;
    locals[l + 3] = _s[11]! / len;
    refreshNode(parents, locals, model, node);
    return true;
  }
}
