/**
 * Look-at's view of a skeleton, read once at load (look-at.ts uses it): the head chain found by bone names,
 * the character's up and forward from the rest pose, and the default limits per joint role.
 *
 * Contract: pure functions of the skeleton and its rest model matrices (16 floats per node, column-major,
 * node → model); they allocate (load time only). Names are matched case-insensitively. No WebGL.
 */

import type { Skeleton } from '../model/types.ts';
import { localToModel } from './local-to-model.ts';

export type LookAtRole = 'spine' | 'neck' | 'head' | 'eye';

/** Default limits (yaw, pitch degrees) and shares by role. Several neck joints divide the neck's. */
export const LOOK_AT_DEFAULTS: Record<LookAtRole, { yaw: number; pitch: number; share: number }> = {
  spine: { yaw: 20, pitch: 12, share: 0.2 },
  neck: { yaw: 40, pitch: 30, share: 0.32 },
  head: { yaw: 50, pitch: 35, share: 0.48 },
  eye: { yaw: 30, pitch: 22, share: 0 },
};

const NAME = {
  head: /(?:^|[^a-z])head(?:[^a-z]|$)/,
  neck: /(?:^|[^a-z])neck(?:[^a-z]|$)|neck\d*$/,
  spine: /spine[_ ]?0?[23]$/,
  eye: /eye/,
  notEye: /lid|lash|brow|socket|target|look/,
  foot: /foot|ankle/,
  toe: /toe/,
};

/** Model matrices of the skeleton's rest pose. */
export function restModelOf(skeleton: Skeleton): Float32Array {
  const out = new Float32Array(skeleton.parents.length * 16);
  localToModel(skeleton.parents, skeleton.restLocal, out);
  return out;
}

export function isAncestor(parents: Int16Array, a: number, b: number): boolean {
  for (let p = parents[b]!; p >= 0; p = parents[p]!) if (p === a) return true;
  return false;
}

export function normalise(v: number[]): number[] | null {
  const l = Math.hypot(v[0]!, v[1]!, v[2]!);
  return l > 1e-9 && Number.isFinite(l) ? [v[0]! / l, v[1]! / l, v[2]! / l] : null;
}

const pos = (m: Float32Array, i: number): number[] => [m[i * 16 + 12]!, m[i * 16 + 13]!, m[i * 16 + 14]!];

/**
 * The head chain by bone names: the head (`head`, `Bip01_Head`; the first such node), the neck joints right
 * above it (`neck`, `Bip01_Neck`, `neck_02`), the upper spine joint at most two steps above those (`spine2`,
 * `spine3`, `spine_03`: optional, a weak joint) and eyes under the head (`*eye*`, not lids, lashes or
 * brows). Root → tip, eyes last. Null when no head is found.
 */
export function findHeadChain(skeleton: Skeleton): { node: number; role: LookAtRole }[] | null {
  const { names, parents } = skeleton;
  const lower = names.map((n) => n.toLowerCase());
  let head = -1;
  for (let i = 0; i < lower.length && head < 0; i++) if (NAME.head.test(lower[i]!)) head = i;
  if (head < 0) return null;
  const chain: { node: number; role: LookAtRole }[] = [{ node: head, role: 'head' }];
  let p = parents[head]!;
  for (; p >= 0 && NAME.neck.test(lower[p]!); p = parents[p]!) {
    chain.unshift({ node: p, role: 'neck' });
  }
  // The upper spine: the first ancestor above the neck, when it is named like one (at most two steps up).
  for (let k = 0; k < 2 && p >= 0; k++, p = parents[p]!) {
    if (NAME.spine.test(lower[p]!)) {
      chain.unshift({ node: p, role: 'spine' });
      break;
    }
  }
  for (let i = head + 1; i < lower.length; i++) {
    if (NAME.eye.test(lower[i]!) && !NAME.notEye.test(lower[i]!) && isAncestor(parents, head, i)) chain.push({ node: i, role: 'eye' });
  }
  return chain;
}

/** Up from the rest pose: head (or the highest named chain joint) above the feet / root; null if unknown. */
export function findUp(skeleton: Skeleton, rest: Float32Array): number[] | null {
  const lower = skeleton.names.map((n) => n.toLowerCase());
  const head = lower.findIndex((n) => NAME.head.test(n));
  if (head < 0) return null;
  const feet = lower.map((n, i) => (NAME.foot.test(n) ? i : -1)).filter((i) => i >= 0);
  let base: number[];
  if (feet.length > 0) {
    base = [0, 0, 0];
    for (const f of feet) for (let c = 0; c < 3; c++) base[c]! += rest[f * 16 + 12 + c]! / feet.length;
  } else {
    let root = head;
    while (skeleton.parents[root]! >= 0) root = skeleton.parents[root]!;
    base = pos(rest, root);
  }
  const h = pos(rest, head);
  return normalise([h[0]! - base[0]!, h[1]! - base[1]!, h[2]! - base[2]!]);
}

/** Forward from the rest pose: toes ahead of their feet, else eyes ahead of the head; ⟂ up; null if unknown. */
export function findForward(skeleton: Skeleton, rest: Float32Array, up: number[]): number[] | null {
  const { parents } = skeleton;
  const lower = skeleton.names.map((n) => n.toLowerCase());
  const sum = [0, 0, 0];
  const add = (from: number, to: number): void => {
    const a = pos(rest, from);
    const b = pos(rest, to);
    const d = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
    const u = d[0]! * up[0]! + d[1]! * up[1]! + d[2]! * up[2]!;
    for (let c = 0; c < 3; c++) sum[c]! += d[c]! - u * up[c]!;
  };
  for (let i = 0; i < lower.length; i++) {
    if (!NAME.toe.test(lower[i]!)) continue;
    for (let p = parents[i]!; p >= 0; p = parents[p]!) {
      if (NAME.foot.test(lower[p]!)) {
        add(p, i);
        break;
      }
    }
  }
  const fromFeet = normalise(sum);
  if (fromFeet) return fromFeet;
  const head = lower.findIndex((n) => NAME.head.test(n));
  if (head < 0) return null;
  for (let i = 0; i < lower.length; i++) if (NAME.eye.test(lower[i]!) && !NAME.notEye.test(lower[i]!) && isAncestor(parents, head, i)) add(head, i);
  return normalise(sum);
}
