import { LoadError } from '../../model/errors.ts';
import type { MorphDeltas } from '../../model/types.ts';
import { readFloats } from './gltf-accessor.ts';
import type { GltfMesh as Mesh, GltfPrimitive as Primitive } from './gltf-doc.ts';
import { UniqueNames } from './gltf-names.ts';

/**
 * glTF morph targets → the Scene's morph targets and per-mesh sparse deltas.
 *
 * - A glTF target belongs to a mesh *on a node*: `weights` animation channels and `node.weights` address a
 *   node, so each (node with a mesh that has targets, target k) is one Scene target. Name: the mesh's
 *   `extras.targetNames[k]`, else `target_<k>`; when two nodes' targets share a name it is prefixed with the
 *   mesh name (`Face_smile`), then with the node name if that still clashes, then made unique (`-2`…).
 * - Rest weight (Scene.morphDefaults): node.weights[k], else mesh.weights[k], else 0.
 * - Deltas: POSITION and NORMAL differences per vertex, kept only where either is non-zero (sparse accessors are
 *   already resolved by the document, gltf-doc.ts). TANGENT deltas are not stored: the Scene has none, and every morph
 *   path re-orthonormalises the neutral tangent against the morphed normal (src/anim/morph.ts).
 */

export interface MorphInstance {
  /** Skeleton node carrying the mesh. */
  readonly node: number;
  readonly nodeName: string;
  readonly mesh: Mesh;
  readonly nodeWeights: readonly number[];
}

export interface MorphTable {
  readonly names: string[];
  readonly defaults: number[];
  /** Skeleton node → index of its mesh's target 0 in `names` (its targets are consecutive). */
  readonly base: ReadonlyMap<number, { start: number; count: number }>;
}

export function targetCount(mesh: Mesh): number {
  let n = 0;
  for (const p of mesh.listPrimitives()) n = Math.max(n, p.listTargets().length);
  return n;
}

export function buildMorphTable(instances: readonly MorphInstance[]): MorphTable {
  const raw: { inst: MorphInstance; k: number; name: string }[] = [];
  for (const inst of instances) {
    const extras = inst.mesh.getExtras() as Record<string, unknown> | undefined;
    const given = Array.isArray(extras?.['targetNames']) ? (extras!['targetNames'] as unknown[]) : [];
    const count = targetCount(inst.mesh);
    for (let k = 0; k < count; k++) {
      const g = given[k];
      raw.push({ inst, k, name: typeof g === 'string' && g.trim() !== '' ? g.trim() : `target_${k}` });
    }
  }
  const clash = (list: string[]): Set<string> => {
    const seen = new Map<string, number>();
    for (const n of list) seen.set(n, (seen.get(n) ?? 0) + 1);
    return new Set([...seen].filter(([, c]) => c > 1).map(([n]) => n));
  };
  let names = raw.map((r) => r.name);
  const first = clash(names);
  names = raw.map((r, i) => (first.has(names[i]!) ? `${r.inst.mesh.getName() || 'mesh'}_${r.name}` : names[i]!));
  const second = clash(names);
  names = raw.map((r, i) => (second.has(names[i]!) ? `${r.inst.nodeName}_${names[i]}` : names[i]!));
  const unique = new UniqueNames();
  names = names.map((n) => unique.take(n));
  const defaults: number[] = [];
  const base = new Map<number, { start: number; count: number }>();
  for (let i = 0; i < raw.length; i++) {
    const { inst, k } = raw[i]!;
    if (k === 0) base.set(inst.node, { start: i, count: targetCount(inst.mesh) });
    const w = inst.nodeWeights.length > 0 ? inst.nodeWeights[k] : inst.mesh.getWeights()[k];
    defaults.push(typeof w === 'number' && Number.isFinite(w) ? w : 0);
  }
  return { names, defaults, base };
}

/**
 * The primitive's deltas, indexed like Scene.morphTargets (`total` entries; the node's targets at
 * [start, start + count)); null when none of its targets moves a vertex.
 */
export function primitiveDeltas(prim: Primitive, vertexCount: number, start: number, total: number, where: string): MorphDeltas[] | null {
  const targets = prim.listTargets();
  if (targets.length === 0) return null;
  const empty: MorphDeltas = { vertices: new Uint32Array(0), positions: new Float32Array(0), normals: new Float32Array(0) };
  const out: MorphDeltas[] = new Array<MorphDeltas>(total).fill(empty);
  let any = false;
  for (let k = 0; k < targets.length; k++) {
    const t = targets[k]!;
    const pa = t.getAttribute('POSITION');
    const na = t.getAttribute('NORMAL');
    const dp = pa ? readFloats(pa, `${where}: target ${k} POSITION`, 3) : null;
    const dn = na ? readFloats(na, `${where}: target ${k} NORMAL`, 3) : null;
    if ((dp && dp.length !== vertexCount * 3) || (dn && dn.length !== vertexCount * 3)) {
      throw new LoadError(`${where}: morph target ${k} does not have one delta per vertex (${vertexCount})`);
    }
    let moved = 0;
    for (let v = 0; v < vertexCount * 3; v += 3) {
      if ((dp && (dp[v] !== 0 || dp[v + 1] !== 0 || dp[v + 2] !== 0)) || (dn && (dn[v] !== 0 || dn[v + 1] !== 0 || dn[v + 2] !== 0))) moved++;
    }
    if (moved === 0) continue;
    any = true;
    const vertices = new Uint32Array(moved);
    const positions = new Float32Array(moved * 3);
    const normals = new Float32Array(moved * 3);
    let i = 0;
    for (let v = 0; v < vertexCount; v++) {
      const o = v * 3;
      const p = !!dp && (dp[o] !== 0 || dp[o + 1] !== 0 || dp[o + 2] !== 0);
      const n = !!dn && (dn[o] !== 0 || dn[o + 1] !== 0 || dn[o + 2] !== 0);
      if (!p && !n) continue;
      vertices[i] = v;
      if (dp) positions.set(dp.subarray(o, o + 3), i * 3);
      if (dn) normals.set(dn.subarray(o, o + 3), i * 3);
      i++;
    }
    out[start + k] = { vertices, positions, normals };
  }
  return any ? out : null;
}
