import type { Accessor, Buffer, Document } from '@gltf-transform/core';
import { MAX_INFLUENCES, type MorphDeltas, type SkinnedMesh } from '../model/types.ts';

/**
 * A SkinnedMesh's vertex streams as glTF accessors, in the forms the glTF 2.0 specification and the Khronos
 * validator require: unit normals, unit tangents with w = ±1, COLOR_0 in 0..1, JOINTS_0 as UNSIGNED_BYTE (palettes of up
 * to 256 slots) or UNSIGNED_SHORT, WEIGHTS_0 as float summing to 1 in float32 with joint 0 on every zero
 * weight, and dense morph-target deltas. Every accessor lives in `buffer`. Allocates its copies.
 */

export interface VertexAccessors {
  readonly position: Accessor;
  readonly normal: Accessor;
  readonly tangent: Accessor | null;
  readonly texcoord: Accessor | null;
  /** COLOR_0: the vertex colours as linear RGBA floats (VEC4 FLOAT, clamped to 0..1), or null without. */
  readonly colour: Accessor | null;
}

function accessor(doc: Document, buffer: Buffer, name: string, type: 'VEC2' | 'VEC3' | 'VEC4' | 'SCALAR', array: Float32Array | Uint8Array | Uint16Array | Uint32Array): Accessor {
  return doc.createAccessor(name).setType(type).setArray(array).setBuffer(buffer);
}

/** Unit vectors of `stride` floats whose first 3 are a direction; a zero or non-finite one becomes +Z. */
function unitDirections(src: Float32Array, count: number, stride: 3 | 4): Float32Array {
  const out = new Float32Array(count * stride);
  for (let v = 0; v < count; v++) {
    const o = v * stride;
    const x = src[o]!, y = src[o + 1]!, z = src[o + 2]!;
    const len = Math.hypot(x, y, z);
    if (len > 0 && Number.isFinite(len)) {
      out[o] = x / len;
      out[o + 1] = y / len;
      out[o + 2] = z / len;
    } else out[o + 2] = 1;
    if (stride === 4) out[o + 3] = src[o + 3]! < 0 ? -1 : 1;
  }
  return out;
}

/** The first `count` values clamped to 0..1 (glTF's range for COLOR_0); NaN becomes 1. */
function unitRange(src: Float32Array, count: number): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const x = src[i]!;
    out[i] = x >= 0 ? (x <= 1 ? x : 1) : x < 0 ? 0 : 1;
  }
  return out;
}

export function vertexAccessors(doc: Document, buffer: Buffer, mesh: SkinnedMesh): VertexAccessors {
  const n = mesh.vertexCount;
  return {
    position: accessor(doc, buffer, `${mesh.name}_position`, 'VEC3', mesh.positions.slice(0, n * 3)),
    normal: accessor(doc, buffer, `${mesh.name}_normal`, 'VEC3', unitDirections(mesh.normals, n, 3)),
    tangent: mesh.tangents ? accessor(doc, buffer, `${mesh.name}_tangent`, 'VEC4', unitDirections(mesh.tangents, n, 4)) : null,
    texcoord: mesh.uvs ? accessor(doc, buffer, `${mesh.name}_uv`, 'VEC2', mesh.uvs.slice(0, n * 2)) : null,
    colour: mesh.colors ? accessor(doc, buffer, `${mesh.name}_colour`, 'VEC4', unitRange(mesh.colors, n * 4)) : null,
  };
}

/**
 * JOINTS_0 and WEIGHTS_0 of a skinned mesh: each vertex's non-zero weights (a joint named twice has its
 * weights merged), renormalised so that their float32 sum is 1; unused slots joint 0, weight 0.
 * A vertex with no weight takes slot 0 with weight 1 (what the software skinning does).
 */
export function skinAccessors(doc: Document, buffer: Buffer, mesh: SkinnedMesh): { joints: Accessor; weights: Accessor } {
  const n = mesh.vertexCount;
  const joints = mesh.bones.length <= 256 ? new Uint8Array(n * 4) : new Uint16Array(n * 4);
  const weights = new Float32Array(n * 4);
  const j = [0, 0, 0, 0];
  const w = [0, 0, 0, 0];
  for (let v = 0; v < n; v++) {
    let used = 0;
    let sum = 0;
    for (let k = 0; k < MAX_INFLUENCES; k++) {
      const wk = mesh.weights[v * MAX_INFLUENCES + k]!;
      if (!(wk > 0)) continue;
      const jk = mesh.joints[v * MAX_INFLUENCES + k]!;
      const same = j.slice(0, used).indexOf(jk);
      if (same >= 0) w[same]! += wk;
      else {
        j[used] = jk;
        w[used++] = wk;
      }
      sum += wk;
    }
    if (used === 0) {
      j[0] = 0;
      w[0] = 1;
      used = 1;
      sum = 1;
    }
    // Largest first, then the largest absorbs the float32 rounding of the others.
    let rest = 0;
    for (let k = 1; k < used; k++) {
      weights[v * 4 + k] = Math.fround(w[k]! / sum);
      rest += weights[v * 4 + k]!;
    }
    weights[v * 4] = Math.fround(1 - rest);
    for (let k = 0; k < used; k++) joints[v * 4 + k] = j[k]!;
  }
  return {
    joints: accessor(doc, buffer, `${mesh.name}_joints`, 'VEC4', joints),
    weights: accessor(doc, buffer, `${mesh.name}_weights`, 'VEC4', weights),
  };
}

/** Dense POSITION and NORMAL deltas of one morph target (zero where the sparse deltas do not reach). */
export function morphAccessors(doc: Document, buffer: Buffer, mesh: SkinnedMesh, deltas: MorphDeltas, name: string): { position: Accessor; normal: Accessor } {
  const position = new Float32Array(mesh.vertexCount * 3);
  const normal = new Float32Array(mesh.vertexCount * 3);
  for (let i = 0; i < deltas.vertices.length; i++) {
    const v = deltas.vertices[i]!;
    if (v >= mesh.vertexCount) continue;
    for (let c = 0; c < 3; c++) {
      position[v * 3 + c] = deltas.positions[i * 3 + c]!;
      normal[v * 3 + c] = deltas.normals[i * 3 + c]!;
    }
  }
  return {
    position: accessor(doc, buffer, `${mesh.name}_${name}_dposition`, 'VEC3', position),
    normal: accessor(doc, buffer, `${mesh.name}_${name}_dnormal`, 'VEC3', normal),
  };
}

/** Triangle indices of the triangles [start, start + count) of several runs, u16 when every index fits below 65535. */
export function indexAccessor(doc: Document, buffer: Buffer, mesh: SkinnedMesh, runs: readonly { start: number; count: number }[], name: string): Accessor {
  const total = runs.reduce((s, r) => s + r.count * 3, 0);
  const out = mesh.vertexCount <= 65535 ? new Uint16Array(total) : new Uint32Array(total);
  let o = 0;
  for (const r of runs) {
    out.set(mesh.indices.subarray(r.start * 3, (r.start + r.count) * 3), o);
    o += r.count * 3;
  }
  return accessor(doc, buffer, name, 'SCALAR', out);
}
