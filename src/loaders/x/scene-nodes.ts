import { mat4 } from 'gl-matrix';
import { decomposeTRS } from '../../model/build.ts';
import { LoadError } from '../../model/errors.ts';
import { mirrorMat4 } from '../../model/handedness.ts';
import { TRS_STRIDE } from '../../model/types.ts';
import { quoted } from '../../model/message.ts';
import { NumberCursor, UniqueNames, isTemplate, noteSkipped, type XContext } from './scene-read.ts';
import type { XObject } from './xnode.ts';

/**
 * The skeleton of a .x scene: one node per Frame (depth-first, parents before children), then nodes the
 * builder creates itself (a root for meshes outside any frame, static nodes for skin bones without a
 * frame). Rest locals are TRS in skinlab's right-handed space: the FrameTransformMatrix (identity when
 * absent) read as column-major, mirrored in Z, then decomposed.
 */

/** Largest node count: parents are Int16. */
export const MAX_NODES = 32767;

const IDENTITY = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

/** A Mesh and the node it hangs under (the Frame that holds it, or the created root for top-level meshes). */
export interface MeshPlacement {
  readonly mesh: XObject;
  readonly node: number;
}

export class NodeList {
  readonly names: string[] = [];
  readonly parents: number[] = [];
  /** TRS_STRIDE floats per node. */
  private rest = new Float32Array(64 * TRS_STRIDE);
  /** Frame name → first node with that name. */
  readonly byName = new Map<string, number>();
  readonly unique = new UniqueNames();
  /** Rest model matrices (node → model space), filled by computeRestModel for the nodes existing then. */
  restModel = new Float32Array(0);
  /** Number of nodes that came from Frame objects. */
  frameCount = 0;

  get count(): number {
    return this.names.length;
  }

  /** Appends a node whose rest local is the mirrored column-major matrix `local` (16 floats). */
  push(ctx: XContext, name: string, parent: number, local: Float32Array, at: XObject | null): number {
    const i = this.names.length;
    if (i >= MAX_NODES) {
      const where = at ? ` (at ${at.template} ${quoted(at.name)}, ${at.line > 0 ? `line ${at.line}` : `byte ${at.offset}`})` : '';
      throw new LoadError(`${ctx.fileName}: more than ${MAX_NODES} frames and nodes${where}; skinlab's skeleton holds at most ${MAX_NODES}`, at?.line ?? -1, at?.offset ?? -1);
    }
    if ((i + 1) * TRS_STRIDE > this.rest.length) {
      const grown = new Float32Array(this.rest.length * 2);
      grown.set(this.rest);
      this.rest = grown;
    }
    decomposeTRS(local as unknown as mat4, this.rest, i * TRS_STRIDE);
    this.names.push(name);
    this.parents.push(parent);
    if (!this.byName.has(name)) this.byName.set(name, i);
    return i;
  }

  restLocal(): Float32Array {
    return this.rest.slice(0, this.names.length * TRS_STRIDE);
  }

  /**
   * Model matrices of every node existing now, composed from the decomposed rest TRS (so they are what
   * the animation runtime computes for the rest pose, not the raw file matrices).
   */
  computeRestModel(): void {
    const n = this.names.length;
    const out = new Float32Array(n * 16);
    const local = mat4.create();
    const r = this.rest;
    for (let i = 0; i < n; i++) {
      const o = i * TRS_STRIDE;
      mat4.fromRotationTranslationScale(
        local,
        [r[o + 3]!, r[o + 4]!, r[o + 5]!, r[o + 6]!],
        [r[o]!, r[o + 1]!, r[o + 2]!],
        [r[o + 7]!, r[o + 8]!, r[o + 9]!],
      );
      const p = this.parents[i]!;
      const dst = out.subarray(i * 16, i * 16 + 16) as unknown as mat4;
      if (p < 0) mat4.copy(dst, local);
      else mat4.multiply(dst, out.subarray(p * 16, p * 16 + 16) as unknown as mat4, local);
    }
    this.restModel = out;
  }
}

/** Reads a FrameTransformMatrix (or any 16-number matrix object) into skinlab's space. */
export function readMatrixObject(ctx: XContext, obj: XObject): Float32Array {
  const m = new Float32Array(16);
  new NumberCursor(ctx, obj).read(m, 0, 16, 'the 4x4 matrix');
  mirrorMat4(m);
  return m;
}

/**
 * Adds the Frame `root` and all Frames below it (depth-first, file order) to `nodes`, and collects the
 * Meshes that hang under them. References to named top-level Meshes (`{ name }` inside a Frame) place
 * that Mesh under the frame; `referencedMeshes` records them so they are not also placed at the root.
 * Iterative, so a deeply nested file cannot exhaust the call stack.
 */
export function addFrameTree(
  ctx: XContext,
  root: XObject,
  nodes: NodeList,
  topMeshes: ReadonlyMap<string, XObject>,
  referencedMeshes: Set<XObject>,
  placements: MeshPlacement[],
): void {
  const stack: { frame: XObject; parent: number }[] = [{ frame: root, parent: -1 }];
  while (stack.length > 0) {
    const { frame, parent } = stack.pop()!;
    let matrix: Float32Array | null = null;
    for (const c of frame.children) {
      if (isTemplate(c, 'FrameTransformMatrix')) {
        if (matrix === null) matrix = readMatrixObject(ctx, c);
      }
    }
    const name = frame.name !== '' ? frame.name : nodes.unique.make('Frame');
    const node = nodes.push(ctx, name, parent, matrix ?? IDENTITY, frame);
    nodes.frameCount++;
    const childFrames: XObject[] = [];
    for (const c of frame.children) {
      if (c.kind === 'ref') {
        const mesh = topMeshes.get(c.name);
        if (mesh) {
          referencedMeshes.add(mesh);
          placements.push({ mesh, node });
        } else {
          ctx.warnings.push(`frame ${quoted(name)} refers to ${quoted(c.name)}, which is not a top-level Mesh; ignored`);
        }
      } else if (isTemplate(c, 'Frame')) childFrames.push(c);
      else if (isTemplate(c, 'Mesh')) placements.push({ mesh: c, node });
      else if (!isTemplate(c, 'FrameTransformMatrix')) noteSkipped(ctx, c);
    }
    // Pushed in reverse so children pop in file order.
    for (let k = childFrames.length - 1; k >= 0; k--) stack.push({ frame: childFrames[k]!, parent: node });
  }
}

/** Registers every Frame name first, so generated names for unnamed frames never collide with a real one. */
export function reserveFrameNames(ctx: XContext, nodes: NodeList): void {
  const stack: XObject[] = [...ctx.file.objects];
  while (stack.length > 0) {
    const o = stack.pop()!;
    if (isTemplate(o, 'Frame')) {
      if (o.name !== '') nodes.unique.add(o.name);
      for (const c of o.children) if (c.kind === 'object' && isTemplate(c, 'Frame')) stack.push(c);
    }
  }
}
