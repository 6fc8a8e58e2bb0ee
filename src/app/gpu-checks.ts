import { buildDualQuatPalette, DUAL_QUAT_STRIDE, skinMeshDualQuat } from '../anim/dual-quat.ts';
import { applyMorphs, effectiveWeights, MORPH_PATHS, MORPH_SLOTS, type MorphPath } from '../anim/morph.ts';
import { referenceSkinPositions } from '../anim/reference-skin.ts';
import { skinMesh } from '../anim/software-skin.ts';
import { corCentres } from '../deform/cor-centres.ts';
import { buildCorPalette, COR_STRIDE, skinMeshCor } from '../deform/cor-skin.ts';
import { ddmData } from '../deform/ddm-precompute.ts';
import { skinMeshDdm } from '../deform/ddm-runtime.ts';
import type { SkinnedMesh } from '../model/types.ts';
import { angle, tangentCheck as checkTangents, referenceTangents, skinReferenceOf, type SkinReference, type TangentCheck } from '../render/tangent-check.ts';
import { clampPalette, findTechnique } from '../techniques/index.ts';
import type { AppContext } from './context.ts';
import type { LoadedModel } from './loaded-model.ts';

/**
 * The correctness checks the tests drive through `window.skinlab`: a technique's (and a morph path's)
 * GPU-skinned positions, normals and tangents, read back with transform feedback, against CPU references computed
 * here from the same pose. Reads the context; owns nothing between calls. Allocates: never per frame.
 */

/** skinCheck(): the technique's GPU-skinned positions, normals and tangents (transform feedback) against the CPU reference. */
export interface SkinCheck {
  technique: string;
  /** The CPU reference used: `software` (linear blend), `dual-quat`, `cor` (deform/cor-skin.ts), `ddm` (deform/ddm-runtime.ts), or `gl-matrix` (anim/reference-skin.ts, asked for). */
  reference: string;
  vertices: number;
  /** Diameter of the model's framing sphere (model units). */
  modelSize: number;
  /** Largest |gpu − cpu| over vertices the technique draws exactly. */
  maxError: number;
  /** Vertices the technique deliberately approximates (ff-nonindexed's reduced triangles) and their largest error. */
  approximatedVertices: number;
  maxErrorApproximated: number;
  /**
   * Largest angle (radians) between a GPU normal (v_normal) and the CPU's (skinMesh's normalise(M₃ₓ₃ · n), or
   * dual-quat's or cor's rotated normal; with `gl-matrix` too: that reference skins positions only) over the vertices
   * drawn exactly. Directions only: a technique may leave its normal unnormalised.
   */
  maxNormalAngle: number;
  /**
   * How far the pose turns normals (what a normal left in the bind pose would be off by): the mesh vertices
   * whose CPU skinned normal is more than 0.05 rad (~3°) from the mesh's bind normal.
   */
  normalsTurned: number;
  /** Vertices compared for tangents: those of meshes that carry tangents (others draw DEFAULT_TANGENT), drawn exactly. */
  tangentVertices: number;
  /** Largest angle (radians) between a GPU tangent (v_tangent xyz) and the CPU's (referenceTangents: morph, re-orthonormalise, skin). */
  maxTangentAngle: number;
  /** Compared vertices whose bitangent sign (v_tangent w) differs from the reference's. */
  tangentSignMismatches: number;
}

/** morphCheck(): a morph path's GPU morphed+skinned positions (transform feedback) against the CPU. */
export interface MorphCheck {
  path: string;
  technique: string;
  vertices: number;
  /** Diameter of the model's framing sphere (model units). */
  modelSize: number;
  /** Largest |gpu − cpu| against the CPU reference with every weight applied (the `cpu` path). */
  maxError: number;
  /** Largest |gpu − cpu| against the CPU applying this path's own weights (for `slots`: the 5 bound ones). */
  maxErrorPath: number;
  /** Σ|w| the path dropped (slots beyond 5), and the slot targets. */
  dropped: number;
  slots: string[];
  /** Largest |morphed − neutral| position over the reference (how much the morph moves anything). */
  maxMorphOffset: number;
}

/** The model, technique and clamped palette a check runs with; throws with the check's name when there is none. */
function subject(ctx: AppContext, name: string, id: string): { m: LoadedModel; technique: NonNullable<ReturnType<typeof findTechnique>>; palette: number } {
  const m = ctx.current;
  const technique = findTechnique(id);
  if (!m || !technique) throw new Error(`${name}: ${m ? `no technique ${id}` : 'no model loaded'}`);
  const palette = clampPalette(m.scene, ctx.renderer.caps, ctx.state.influences, ctx.state.palette);
  return { m, technique, palette };
}

/** Largest coordinate difference between point v of `a` and point s of `b`; Infinity for a non-finite one. */
function pointError(a: Float32Array, v: number, b: Float32Array, s: number): number {
  const e = Math.max(Math.abs(a[v * 3]! - b[s * 3]!), Math.abs(a[v * 3 + 1]! - b[s * 3 + 1]!), Math.abs(a[v * 3 + 2]! - b[s * 3 + 2]!));
  return Number.isFinite(e) ? e : Infinity;
}

/**
 * Skins the current pose with a technique on the GPU, reads the positions back with transform feedback and
 * compares each technique vertex with the CPU reference of the mesh vertex it copies (skinMesh, or
 * skinMeshDualQuat for dual-quat, or skinMeshCor with the session's centres for cor) at the state's influence
 * count. `reference` 'gl-matrix': the CPU reference is anim/reference-skin.ts, a linear blend written apart from
 * skinMesh and the palette code.
 */
export function skinCheck(ctx: AppContext, id: string, reference: 'auto' | 'gl-matrix' = 'auto'): SkinCheck {
  if (reference !== 'auto' && reference !== 'gl-matrix') throw new Error(`skinCheck: no reference ${String(reference)} (auto or gl-matrix)`);
  const { m, technique, palette } = subject(ctx, 'skinCheck', id);
  const influences = ctx.state.influences;
  m.player.evaluate();
  const readbacks = ctx.renderer.readbackSkin(m.gpu, m.player, technique, influences, palette, ctx.state.morphs);
  const kind = skinReferenceOf(technique.id);
  const applied = pathWeights(m, ctx.state.morphs).weights;
  const out: SkinCheck = {
    technique: technique.id,
    reference: reference === 'gl-matrix' ? 'gl-matrix' : kind,
    vertices: 0,
    modelSize: m.framing.radius * 2,
    maxError: 0,
    approximatedVertices: 0,
    maxErrorApproximated: 0,
    maxNormalAngle: 0,
    normalsTurned: 0,
    tangentVertices: 0,
    maxTangentAngle: 0,
    tangentSignMismatches: 0,
  };
  m.scene.meshes.forEach((mesh, i) => {
    const normals = new Float32Array(mesh.vertexCount * 3);
    const skinned = referenceSkin(m, mesh, applied, kind, influences, normals);
    for (let s = 0; s < mesh.vertexCount; s++) if (directionError(normals, s * 3, mesh.normals, s * 3) > 0.05) out.normalsTurned++;
    const cpu = reference === 'gl-matrix' ? referenceSkinPositions(morphedMesh(mesh, applied), m.player.model, influences) : skinned;
    let tangents: Float32Array | null = null;
    if (mesh.tangents) {
      const pal = new Float32Array(Math.max(1, mesh.bones.length) * 16);
      m.player.writePalette(mesh, pal, 0);
      tangents = referenceTangents(mesh, applied, pal, kind, influences);
    }
    const r = readbacks[i]!;
    for (let v = 0; v < r.sourceVertex.length; v++) {
      const s = r.sourceVertex[v]!;
      const err = pointError(r.positions, v, cpu, s);
      if (r.approximated && r.approximated[v]) {
        out.approximatedVertices++;
        out.maxErrorApproximated = Math.max(out.maxErrorApproximated, err);
        continue;
      }
      out.maxError = Math.max(out.maxError, err);
      out.maxNormalAngle = Math.max(out.maxNormalAngle, directionError(r.normals, v * 3, normals, s * 3));
      if (tangents) {
        out.maxTangentAngle = Math.max(out.maxTangentAngle, directionError(r.tangents, v * 4, tangents, s * 4));
        if (r.tangents[v * 4 + 3] !== tangents[s * 4 + 3]) out.tangentSignMismatches++;
        out.tangentVertices++;
      }
    }
    out.vertices += r.sourceVertex.length;
  });
  return out;
}

/**
 * Morphs and skins the current pose on the GPU with morph path `path` and technique `id`, reads the
 * positions back and compares each vertex with the CPU (applyMorphs then skinMesh / dual-quat / cor) using every
 * weight (maxError) and the path's own weights (maxErrorPath). Deliberately approximated vertices are left out.
 */
export function morphCheck(ctx: AppContext, path: string, id: string): MorphCheck {
  const { m, technique, palette } = subject(ctx, 'morphCheck', id);
  if (!(MORPH_PATHS as readonly string[]).includes(path)) throw new Error(`morphCheck: no morph path ${path} (one of ${MORPH_PATHS.join(', ')})`);
  const morphPath = path as MorphPath;
  const influences = ctx.state.influences;
  m.player.evaluate();
  const readbacks = ctx.renderer.readbackSkin(m.gpu, m.player, technique, influences, palette, morphPath);
  const kind = skinReferenceOf(technique.id);
  const all = pathWeights(m, 'cpu').weights;
  const own = pathWeights(m, morphPath);
  const zero = new Float32Array(all.length);
  const out: MorphCheck = {
    path,
    technique: technique.id,
    vertices: 0,
    modelSize: m.framing.radius * 2,
    maxError: 0,
    maxErrorPath: 0,
    dropped: morphPath === 'slots' ? own.dropped : 0,
    slots: morphPath === 'slots' ? [...own.slots].filter((t) => t >= 0).map((t) => m.scene.morphTargets[t]!) : [],
    maxMorphOffset: 0,
  };
  m.scene.meshes.forEach((mesh, i) => {
    const full = referenceSkin(m, mesh, all, kind, influences);
    const mine = referenceSkin(m, mesh, own.weights, kind, influences);
    const neutral = referenceSkin(m, mesh, zero, kind, influences);
    for (let s = 0; s < mesh.vertexCount; s++) out.maxMorphOffset = Math.max(out.maxMorphOffset, pointError(full, s, neutral, s));
    const r = readbacks[i]!;
    for (let v = 0; v < r.sourceVertex.length; v++) {
      if (r.approximated && r.approximated[v]) continue;
      const s = r.sourceVertex[v]!;
      out.maxError = Math.max(out.maxError, pointError(r.positions, v, full, s));
      out.maxErrorPath = Math.max(out.maxErrorPath, pointError(r.positions, v, mine, s));
    }
    out.vertices += r.sourceVertex.length;
  });
  return out;
}

/** A morph path's transform-feedback tangents against the CPU morph (re-orthonormalised) + skin (render/tangent-check.ts). */
export function tangentCheck(ctx: AppContext, path: string, id: string): TangentCheck {
  const { m, technique, palette } = subject(ctx, 'tangentCheck', id);
  return checkTangents(ctx.renderer, m.gpu, m.player, technique, ctx.state.influences, palette, path);
}

/** angle() of two directions, but π when only one of them has no length (a zero GPU normal against a real one is wrong). */
function directionError(a: Float32Array, i: number, b: Float32Array, j: number): number {
  const zeroA = a[i] === 0 && a[i + 1] === 0 && a[i + 2] === 0;
  const zeroB = b[j] === 0 && b[j + 1] === 0 && b[j + 2] === 0;
  if (zeroA || zeroB) return zeroA === zeroB ? 0 : Math.PI;
  return angle(a, i, b, j);
}

/** The weights a path applies to the model now (copies; allocates). */
function pathWeights(m: LoadedModel, path: MorphPath): { weights: Float32Array; dropped: number; slots: Int32Array } {
  const weights = new Float32Array(m.player.morphWeights.length);
  const slots = new Int32Array(MORPH_SLOTS);
  const dropped = effectiveWeights(path, m.player.morphWeights, weights, slots);
  return { weights, dropped, slots };
}

/**
 * CPU reference of one mesh: morph by `weights`, then skinMesh (or dual-quaternion skinning, centres of
 * rotation: the neutral mesh's centres, which morphing does not move, or direct delta mush: the neutral mesh's Ω) with the current pose. Returns the
 * positions; writes the unit normals into `outNormals` (3 floats per mesh vertex) when given.
 */
function referenceSkin(m: LoadedModel, mesh: SkinnedMesh, weights: Float32Array, kind: SkinReference, influences: number, outNormals: Float32Array | null = null): Float32Array {
  const source = morphedMesh(mesh, weights);
  const pal = new Float32Array(Math.max(1, mesh.bones.length) * 16);
  m.player.writePalette(mesh, pal, 0);
  const cpu = new Float32Array(mesh.vertexCount * 3);
  if (kind === 'ddm') skinMeshDdm(source, ddmData(mesh), pal, cpu, outNormals);
  else if (kind === 'dual-quat') {
    const dq = new Float32Array(Math.max(1, mesh.bones.length) * DUAL_QUAT_STRIDE);
    buildDualQuatPalette(pal, mesh.bones.length, dq);
    skinMeshDualQuat(source, dq, cpu, outNormals, influences);
  } else if (kind === 'cor') {
    const cor = new Float32Array(Math.max(1, mesh.bones.length) * COR_STRIDE);
    buildCorPalette(pal, mesh.bones.length, cor);
    skinMeshCor(source, corCentres(mesh), cor, cpu, outNormals, influences);
  } else skinMesh(source, pal, cpu, outNormals, influences);
  return cpu;
}

/** A mesh with its bind-space positions and normals morphed by `weights` (the mesh itself when nothing moves it). */
function morphedMesh(mesh: SkinnedMesh, weights: Float32Array): SkinnedMesh {
  if (!mesh.morphs || weights.every((w) => w === 0)) return mesh;
  const positions = new Float32Array(mesh.vertexCount * 3);
  const normals = new Float32Array(mesh.vertexCount * 3);
  applyMorphs(mesh, weights, positions, normals);
  return { ...mesh, positions, normals };
}
