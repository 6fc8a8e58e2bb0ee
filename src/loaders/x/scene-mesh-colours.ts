import { quoted } from '../../model/message.ts';
import type { XContext } from './scene-read.ts';
import type { XObject } from './xnode.ts';

/**
 * A Mesh's vertex colours (X File Format Reference):
 *   MeshVertexColors { DWORD nVertexColors; array IndexedColor vertexColors[nVertexColors]; }
 *   IndexedColor { DWORD index; ColorRGBA indexColor; }      ColorRGBA { FLOAT red, green, blue, alpha; }
 * `index` names one of the Mesh's positions (before skinlab splits them by normal: every copy takes its
 * position's colour, as texture coordinates do). Direct3D's colours are display-referred (sRGB), so red, green
 * and blue are linearised (the sRGB transfer function) and alpha kept, all clamped to 0..1. A position no entry
 * names stays white; a later entry for the same position wins.
 *
 * Never throws: data that cannot be used (a count the numbers cannot hold, an index outside the positions, a
 * number that is not finite) drops the colours with one warning naming the mesh, and the mesh loads without.
 * Returns 4 floats per position (linear RGBA), or null.
 */
export function readVertexColours(ctx: XContext, obj: XObject, positions: number, mesh: string): Float32Array | null {
  const nums = obj.numbers;
  const drop = (why: string): null => {
    ctx.warnings.push(`mesh ${quoted(mesh)}: MeshVertexColors ${why}: vertex colours ignored`);
    return null;
  };
  const n = nums[0];
  if (n === undefined || !Number.isInteger(n) || n < 0) return drop('has no usable count');
  if (1 + n * 5 > nums.length) return drop(`claims ${n} colours, but only ${nums.length - 1} numbers follow (${n * 5} needed)`);
  const out = new Float32Array(positions * 4).fill(1);
  for (let i = 0; i < n; i++) {
    const o = 1 + i * 5;
    const p = nums[o]!;
    if (!Number.isInteger(p) || p < 0 || p >= positions) return drop(`entry ${i} names vertex ${p}, outside 0..${positions - 1}`);
    for (let k = 0; k < 4; k++) {
      const x = nums[o + 1 + k]!;
      if (!Number.isFinite(x)) return drop(`entry ${i} has a NaN or infinite component`);
      const c = x < 0 ? 0 : x > 1 ? 1 : x;
      out[p * 4 + k] = k < 3 ? srgbToLinear(c) : c;
    }
  }
  if (nums.length > 1 + n * 5) ctx.warnings.push(`mesh ${quoted(mesh)}: ${nums.length - 1 - n * 5} numbers after the vertex colours ignored`);
  return out;
}

/** The colours of the built vertices: vertex v takes position vertexPos[v]'s (4 floats each). */
export function perVertexColours(colours: Float32Array, vertexPos: readonly number[]): Float32Array {
  const out = new Float32Array(vertexPos.length * 4);
  for (let v = 0; v < vertexPos.length; v++) out.set(colours.subarray(vertexPos[v]! * 4, vertexPos[v]! * 4 + 4), v * 4);
  return out;
}

/** A D3DCOLOR DWORD (0xAARRGGBB, sRGB) → linear RGBA at out[o..o+4). */
export function d3dColour(argb: number, out: Float32Array, o: number): void {
  out[o] = srgbToLinear(((argb >>> 16) & 0xff) / 255);
  out[o + 1] = srgbToLinear(((argb >>> 8) & 0xff) / 255);
  out[o + 2] = srgbToLinear((argb & 0xff) / 255);
  out[o + 3] = (argb >>> 24) / 255;
}

/** The sRGB electro-optical transfer function: an encoded value in 0..1 → linear. */
export function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}
