import { buildDualQuatPalette, DUAL_QUAT_STRIDE, skinTangentsDualQuat } from '../anim/dual-quat.ts';
import { applyMorphs, effectiveWeights, MORPH_PATHS, MORPH_SLOTS, type MorphPath } from '../anim/morph.ts';
import type { AnimPlayer } from '../anim/player.ts';
import { skinTangents } from '../anim/software-skin.ts';
import { buildCorPalette, COR_STRIDE, skinTangentsCor } from '../deform/cor-skin.ts';
import { ddmData } from '../deform/ddm-precompute.ts';
import { skinMeshDdm } from '../deform/ddm-runtime.ts';
import type { SkinnedMesh } from '../model/types.ts';
import type { Technique } from '../techniques/technique.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { Renderer } from './renderer.ts';

/** tangentCheck(): a technique's GPU-skinned tangents (transform feedback) against the CPU reference. */
export interface TangentCheck {
  path: string;
  technique: string;
  /** Technique vertices compared (meshes with tangents, approximated vertices left out). */
  vertices: number;
  /** Meshes compared, and meshes skipped because they carry no tangents (they read DEFAULT_TANGENT). */
  meshes: number;
  meshesWithoutTangents: number;
  /** Largest angle (radians) between a GPU tangent and the CPU one. */
  maxAngle: number;
  /** Largest |gpu − cpu| over the tangent's xyz components. */
  maxComponentError: number;
  /** Technique vertices whose bitangent sign (w) differs from the reference. */
  signMismatches: number;
  /** Largest angle (radians) between the reference's skinned tangent and the neutral (unmorphed) bind tangent skinned the same way: how far morphing turned the frame. */
  maxMorphTurn: number;
}

/** The CPU reference a technique is held against: linear blending (`software`), dual quaternions, or centres of rotation. */
export type SkinReference = 'software' | 'dual-quat' | 'cor' | 'ddm';

/** The reference of technique `id`: its own CPU job for dual-quat, cor and ddm, else linear blending. */
export function skinReferenceOf(id: string): SkinReference {
  return id === 'dual-quat' || id === 'cor' || id === 'ddm' ? id : 'software';
}

/**
 * CPU reference of one mesh's skinned tangents (4 floats per mesh vertex): applyMorphs with `weights`
 * (the neutral tangent re-orthonormalised against the morphed normal, Dawn §4.3.2, as the shader does), then the
 * tangent skinned as a direction, linear blend (skinTangents), dual quaternion (skinTangentsDualQuat), the
 * centres-of-rotation blend (skinTangentsCor) or direct delta mush (skinMeshDdm's rotation). Allocates: test hook only.
 */
export function referenceTangents(mesh: SkinnedMesh, weights: Float32Array, palette: Float32Array, reference: SkinReference, influences: number): Float32Array {
  const n = mesh.vertexCount;
  const positions = new Float32Array(n * 3);
  const normals = new Float32Array(n * 3);
  const bind = new Float32Array(n * 4);
  applyMorphs(mesh, weights, positions, normals, bind);
  const out = new Float32Array(n * 4);
  if (reference === 'ddm') {
    // Direct delta mush skins the morphed mesh with its own Ω (its 8 bones per vertex; influences does not apply).
    skinMeshDdm({ ...mesh, positions, normals, tangents: bind }, ddmData(mesh), palette, new Float32Array(n * 3), null, out);
  } else if (reference === 'dual-quat') {
    const dq = new Float32Array(Math.max(1, mesh.bones.length) * DUAL_QUAT_STRIDE);
    buildDualQuatPalette(palette, mesh.bones.length, dq);
    skinTangentsDualQuat(mesh, bind, dq, out, influences);
  } else if (reference === 'cor') {
    const cor = new Float32Array(Math.max(1, mesh.bones.length) * COR_STRIDE);
    buildCorPalette(palette, mesh.bones.length, cor);
    skinTangentsCor(mesh, bind, cor, out, influences);
  } else skinTangents(mesh, bind, palette, out, influences);
  return out;
}

/** Angle (radians) between the directions a[i..i+2] and b[j..j+2], whatever their lengths; 0 when either is zero, Infinity when not finite. */
export function angle(a: Float32Array, i: number, b: Float32Array, j: number): number {
  const ax = a[i]!, ay = a[i + 1]!, az = a[i + 2]!, bx = b[j]!, by = b[j + 1]!, bz = b[j + 2]!;
  const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
  const r = Math.atan2(Math.hypot(cx, cy, cz), ax * bx + ay * by + az * bz);
  return Number.isFinite(r) ? r : Infinity;
}

/**
 * Test hook: morphs (path `path`) and skins the current pose on the GPU with `technique`, reads the tangents
 * back with transform feedback (Renderer.readbackSkin, v_tangent, model space) and compares each technique
 * vertex with the CPU reference of the mesh vertex it copies (referenceTangents with the path's own weights).
 * Vertices a technique deliberately approximates are left out. Allocates; not per frame.
 */
export function tangentCheck(
  renderer: Renderer,
  model: ModelGpu,
  player: AnimPlayer,
  technique: Technique,
  influences: number,
  palette: number,
  path: string,
): TangentCheck {
  if (!(MORPH_PATHS as readonly string[]).includes(path)) throw new Error(`tangentCheck: no morph path ${path} (one of ${MORPH_PATHS.join(', ')})`);
  const morphPath = path as MorphPath;
  player.evaluate();
  const readbacks = renderer.readbackSkin(model, player, technique, influences, palette, morphPath);
  const kind = skinReferenceOf(technique.id);
  const weights = new Float32Array(player.morphWeights.length);
  effectiveWeights(morphPath, player.morphWeights, weights, new Int32Array(MORPH_SLOTS));
  const zero = new Float32Array(weights.length);
  const out: TangentCheck = {
    path,
    technique: technique.id,
    vertices: 0,
    meshes: 0,
    meshesWithoutTangents: 0,
    maxAngle: 0,
    maxComponentError: 0,
    signMismatches: 0,
    maxMorphTurn: 0,
  };
  model.scene.meshes.forEach((mesh, i) => {
    if (!mesh.tangents) {
      out.meshesWithoutTangents++;
      return;
    }
    out.meshes++;
    const pal = new Float32Array(Math.max(1, mesh.bones.length) * 16);
    player.writePalette(mesh, pal, 0);
    const cpu = referenceTangents(mesh, weights, pal, kind, influences);
    const neutral = referenceTangents(mesh, zero, pal, kind, influences);
    for (let s = 0; s < mesh.vertexCount; s++) out.maxMorphTurn = Math.max(out.maxMorphTurn, angle(cpu, s * 4, neutral, s * 4));
    const r = readbacks[i]!;
    for (let v = 0; v < r.sourceVertex.length; v++) {
      if (r.approximated && r.approximated[v]) continue;
      const s = r.sourceVertex[v]! * 4;
      const q = v * 4;
      out.maxAngle = Math.max(out.maxAngle, angle(r.tangents, q, cpu, s));
      const e = Math.max(Math.abs(r.tangents[q]! - cpu[s]!), Math.abs(r.tangents[q + 1]! - cpu[s + 1]!), Math.abs(r.tangents[q + 2]! - cpu[s + 2]!));
      out.maxComponentError = Math.max(out.maxComponentError, Number.isFinite(e) ? e : Infinity);
      if (r.tangents[q + 3] !== cpu[s + 3]) out.signMismatches++;
      out.vertices++;
    }
  });
  return out;
}
