import type { SkinnedMesh } from '../model/types.ts';
import type { DeformKind } from '../deform/kinds.ts';

/**
 * The messages between the page (src/app/deform-gate.ts) and src/app/deform-worker.ts, which runs a technique's
 * load-time precompute (cor's centres of rotation, ddm's Ω matrices) off the page's thread. No DOM and no WebGL
 * here, so the unit tests run it in Node.
 */

/** Page → worker: precompute `kind` for these meshes (slimMesh copies: only what the precomputes read). */
export interface DeformRequest {
  readonly kind: DeformKind;
  readonly meshes: readonly SkinnedMesh[];
}

/** Worker → page. `ready` once when the module has run; `progress` as it goes (0..1 over all meshes). */
export type DeformReply =
  | { readonly type: 'ready' }
  | { readonly type: 'progress'; readonly fraction: number }
  | { readonly type: 'done'; readonly data: readonly unknown[]; readonly ms: number }
  | { readonly type: 'error'; readonly message: string };

/**
 * The part of a mesh a precompute reads (positions, normals, topology, skin), without what it never reads (UVs,
 * tangents, vertex colours, morph deltas: Dawn's are most of its bytes), so posting it to the worker copies little.
 */
export function slimMesh(mesh: SkinnedMesh): SkinnedMesh {
  const { morphs: _morphs, ...rest } = mesh;
  return { ...rest, uvs: null, tangents: null, colors: null };
}
