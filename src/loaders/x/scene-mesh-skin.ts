import { mat4 } from 'gl-matrix';
import { mirrorMat4 } from '../../model/handedness.ts';
import { MAX_INFLUENCES } from '../../model/types.ts';
import { quoted } from '../../model/message.ts';
import type { NodeList } from './scene-nodes.ts';
import { NumberCursor, describeObject, objectError, type XContext } from './scene-read.ts';
import type { XObject } from './xnode.ts';

/**
 * Palette slots and per-position influences of one .x Mesh, for scene-mesh.ts:
 *   SkinWeights { STRING transformNodeName; DWORD nWeights; DWORD vertexIndices[n]; FLOAT weights[n];
 *                 Matrix4x4 matrixOffset; }
 * Each SkinWeights is one slot: its bone's node with invBind = its mirrored matrixOffset (D3DX: bone
 * matrix = offset × the bone frame's combined matrix). A bone with no Frame gets a static root node
 * (recorded in MissingBones, shared across the file's meshes). A rigid slot binds a node with invBind = the
 * inverse of its rest model matrix. May add nodes to `nodes`; touches no vertex data.
 */

/** Bones named by SkinWeights that have no Frame, shared across the file's meshes. */
export type MissingBones = Map<string, number>;

/** What readSkinWeights needs of the mesh being built (scene-mesh.ts MeshBuildInput provides it). */
export interface SkinInput {
  readonly ctx: XContext;
  readonly nodes: NodeList;
  readonly missingBones: MissingBones;
  /** The mesh's name, for messages. */
  readonly name: string;
}

/** Per-position influences while SkinWeights are read: the MAX_INFLUENCES largest kept. */
export class InfluenceTable {
  readonly joints: Uint16Array;
  readonly weights: Float32Array;
  readonly total: Uint32Array;
  /** Sum of all weights given to each position, kept or not. */
  readonly sums: Float64Array;

  constructor(positions: number) {
    this.joints = new Uint16Array(positions * MAX_INFLUENCES);
    this.weights = new Float32Array(positions * MAX_INFLUENCES);
    this.total = new Uint32Array(positions);
    this.sums = new Float64Array(positions);
  }

  add(p: number, slot: number, w: number): void {
    const o = p * MAX_INFLUENCES;
    const t = this.total[p]!;
    this.sums[p] = this.sums[p]! + w;
    this.total[p] = t + 1;
    if (t < MAX_INFLUENCES) {
      this.joints[o + t] = slot;
      this.weights[o + t] = w;
      return;
    }
    let min = 0;
    for (let k = 1; k < MAX_INFLUENCES; k++) if (this.weights[o + k]! < this.weights[o + min]!) min = k;
    if (w > this.weights[o + min]!) {
      this.joints[o + min] = slot;
      this.weights[o + min] = w;
    }
  }
}

/** Appends a palette slot bound to `node` with invBind = inverse of its rest model matrix; returns the slot. */
export function addRigidSlot(nodes: NodeList, node: number, bones: number[], invBind: number[]): number {
  const inv = mat4.create();
  if (!mat4.invert(inv, nodes.restModel.subarray(node * 16, node * 16 + 16) as unknown as mat4)) mat4.identity(inv);
  bones.push(node);
  for (let k = 0; k < 16; k++) invBind.push(inv[k]!);
  return bones.length - 1;
}

/** One SkinWeights → one palette slot (its bone's node, invBind = mirrored matrixOffset) and its influences. */
export function readSkinWeights(
  input: SkinInput,
  obj: XObject,
  nPos: number,
  table: InfluenceTable,
  bones: number[],
  invBind: number[],
): void {
  const { ctx, nodes, missingBones, name: meshName } = input;
  const bone = obj.strings[0];
  if (bone === undefined) throw objectError(ctx, obj, 'has no transformNodeName string');
  const c = new NumberCursor(ctx, obj);
  const n = c.count(`weights of bone ${quoted(bone)}`, 2);
  if (2 * n + 16 > c.left) c.fail(`bone ${quoted(bone)}: ${n} weights and a 4x4 offset need ${2 * n + 16} numbers, but ${c.left} follow`);
  const first = c.pos;
  for (let i = 0; i < n; i++) {
    const p = obj.numbers[first + i]!;
    if (!Number.isInteger(p) || p < 0 || p >= nPos) {
      c.fail(`bone ${quoted(bone)}: vertex index ${p} (weight ${i}) is out of range; mesh ${quoted(meshName)} has ${nPos} vertices`);
    }
  }
  const offset = new Float32Array(16);
  for (let k = 0; k < 16; k++) offset[k] = obj.numbers[first + 2 * n + k]!;
  mirrorMat4(offset);
  if (bones.length >= 65535) c.fail(`more than 65535 SkinWeights in one mesh`);

  let node = nodes.byName.get(bone);
  if (node === undefined) node = missingBones.get(bone);
  if (node === undefined) {
    // A bone without a Frame: a static root node whose rest is the inverse of the offset, so the palette
    // matrix stays the identity and its vertices stay in the bind pose.
    const rest = mat4.create();
    if (!mat4.invert(rest, offset as unknown as mat4)) mat4.identity(rest);
    node = nodes.push(ctx, nodes.unique.make(bone), -1, rest as Float32Array, obj);
    missingBones.set(bone, node);
    ctx.warnings.push(`${describeObject(obj)} in mesh ${quoted(meshName)} names bone ${quoted(bone)}, which has no Frame; its vertices stay in the bind pose`);
  }
  const slot = bones.length;
  bones.push(node);
  for (let k = 0; k < 16; k++) invBind.push(offset[k]!);
  for (let i = 0; i < n; i++) {
    const w = obj.numbers[first + n + i]!;
    if (w > 0 && Number.isFinite(w)) table.add(obj.numbers[first + i]!, slot, w);
  }
}
