import { LoadError } from '../../model/errors.ts';
import { MAX_INFLUENCES } from '../../model/types.ts';
import { knownFinite, lookFloats, lookUints, readFloats } from './gltf-accessor.ts';
import { mergeInfluenceSets, oneInfluenceSet, type InfluenceSet, type Influences } from './gltf-influences.ts';
import type { GltfNode, GltfPrimitive as Primitive, GltfSkin as Skin } from './gltf-doc.ts';

/**
 * Skin data of a glTF primitive → SkinnedMesh influences and palette.
 *
 * - Influences: every JOINTS_n / WEIGHTS_n pair (4 each). A vertex with more than MAX_INFLUENCES non-zero
 *   weights keeps its 4 largest; the caller warns once with the count (`overflow`). Weights are then
 *   renormalised to sum 1 and sorted descending (src/model/influences.ts), which also repairs sums ≠ 1.
 *   Palette slot = the joint's position in `skin.joints` (glTF's own joint numbering), so one palette serves
 *   every primitive of the skin. A joint number ≥ the skin's joint count with a positive weight is a LoadError.
 * - Palette: `bones` = the skin's joints as skeleton nodes, `invBind` = inverseBindMatrices (column-major,
 *   as glTF stores them), identity when absent.
 * - Rigid: one slot (the mesh's node), identity inverse bind, weight 1.
 */

export type { Influences } from './gltf-influences.ts';

export interface Palette {
  readonly bones: Int16Array;
  readonly invBind: Float32Array;
}

/** The primitive's JOINTS_n / WEIGHTS_n sets reduced to 4 per vertex; null when it has none. */
export function readInfluences(prim: Primitive, vertexCount: number, jointCount: number, where: string): Influences | null {
  const sets: InfluenceSet[] = [];
  for (let n = 0; ; n++) {
    const ja = prim.getAttribute(`JOINTS_${n}`);
    const wa = prim.getAttribute(`WEIGHTS_${n}`);
    if (!ja || !wa) break;
    // Only read here (the Scene's joints and weights are new arrays): no copies.
    const j = lookUints(ja, `${where}: JOINTS_${n}`);
    const w = lookFloats(wa, `${where}: WEIGHTS_${n}`, 4);
    if (j.length !== vertexCount * 4 || w.length !== vertexCount * 4) {
      throw new LoadError(`${where}: JOINTS_${n}/WEIGHTS_${n} do not have 4 values for each of the ${vertexCount} vertices`);
    }
    sets.push({ j, w });
  }
  if (sets.length === 0) return null;
  return sets.length === 1 ? oneInfluenceSet(sets[0]!, vertexCount, jointCount, where) : mergeInfluenceSets(sets, vertexCount, jointCount, where);
}

/** Every vertex weight 1 on palette slot 0. */
export function rigidInfluences(vertexCount: number): Influences {
  const joints = new Uint16Array(vertexCount * MAX_INFLUENCES);
  const weights = new Float32Array(vertexCount * MAX_INFLUENCES);
  for (let v = 0; v < vertexCount; v++) weights[v * MAX_INFLUENCES] = 1;
  return { joints, weights, maxInfluences: vertexCount > 0 ? 1 : 0, overflow: 0, rescaled: 0, empty: 0, tidy: true };
}

/** The skin's palette; `indexOf` maps its joints to skeleton nodes (every joint is in the skeleton). */
/** `checked` (validateScene's) gets `invBind` when its values are known finite. */
export function skinPalette(skin: Skin, indexOf: (node: GltfNode) => number, where: string, checked: Set<ArrayBufferView>): Palette {
  const joints = skin.listJoints();
  if (joints.length === 0) throw new LoadError(`${where}: the skin has no joints`);
  if (joints.length > 0xffff) throw new LoadError(`${where}: the skin has ${joints.length} joints, more than 65535`);
  const bones = new Int16Array(joints.length);
  for (let k = 0; k < joints.length; k++) bones[k] = indexOf(joints[k]!);
  const invBind = new Float32Array(joints.length * 16);
  const ibm = skin.getInverseBindMatrices();
  if (ibm) {
    const m = readFloats(ibm, `${where}: inverseBindMatrices`, 16);
    if (m.length < invBind.length) {
      throw new LoadError(`${where}: inverseBindMatrices has ${m.length / 16} matrices for ${joints.length} joints`);
    }
    invBind.set(m.subarray(0, invBind.length));
    if (knownFinite(ibm)) checked.add(invBind);
  } else {
    checked.add(invBind);
    for (let k = 0; k < joints.length; k++) {
      const o = k * 16;
      invBind[o] = invBind[o + 5] = invBind[o + 10] = invBind[o + 15] = 1;
    }
  }
  return { bones, invBind };
}

/** One slot: `node`, identity inverse bind. */
export function rigidPalette(node: number): Palette {
  return { bones: Int16Array.of(node), invBind: new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]) };
}
