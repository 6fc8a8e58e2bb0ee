import { quoted } from '../../model/message.ts';
import { d3dColour, srgbToLinear } from './scene-mesh-colours.ts';
import { NumberCursor, type XContext } from './scene-read.ts';
import type { XObject } from './xnode.ts';

/**
 * Per-position vertex attributes of a .x Mesh given as raw DWORDs rather than by the Mesh* templates
 * (X File Format Reference; d3d9types.h for the codes), for scene-mesh.ts:
 *   DeclData { DWORD nElements; VertexElement Elements[n]; DWORD nDWords; DWORD data[nDWords]; }
 *     VertexElement { DWORD Type; DWORD Method; DWORD Usage; DWORD UsageIndex; }, data per position
 *   FVFData { DWORD dwFVF; DWORD nDWords; DWORD data[nDWords]; }   per position, the FVF's components
 *     after the position, in FVF order: normal, point size, diffuse, specular, texture coordinate sets
 * Colours (DeclData COLOR 0 as D3DCOLOR or floats, FVF diffuse as D3DCOLOR) become linear RGBA like
 * MeshVertexColors (scene-mesh-colours.ts), which wins when a mesh has both.
 * Output is in the file's space, per position (not per split vertex); a float DWORD holds the float's bit
 * pattern. Reads only the object it is given; problems become warnings in ctx or LoadErrors via the cursor.
 */

/** Floats per D3DDECLTYPE (0..17) measured in DWORDs. */
const DECL_DWORDS = [1, 2, 3, 4, 1, 1, 1, 2, 1, 1, 2, 1, 2, 1, 1, 1, 2, 0];
const DECL_FLOAT1 = 0;
const DECL_FLOAT4 = 3;
const DECL_D3DCOLOR = 4;
const DECL_FLOAT16_2 = 15;
const DECL_FLOAT16_4 = 16;
const USAGE_NORMAL = 3;
const USAGE_TEXCOORD = 5;
const USAGE_TANGENT = 6;
const USAGE_BINORMAL = 7;
const USAGE_COLOR = 10;
const USAGE_NAMES = ['POSITION', 'BLENDWEIGHT', 'BLENDINDICES', 'NORMAL', 'PSIZE', 'TEXCOORD', 'TANGENT', 'BINORMAL',
  'TESSFACTOR', 'POSITIONT', 'COLOR', 'FOG', 'DEPTH', 'SAMPLE'];

const bits = new DataView(new ArrayBuffer(4));

/** A DWORD holding a float's bit pattern → that float. */
function dwordFloat(d: number): number {
  bits.setUint32(0, d >>> 0, true);
  return bits.getFloat32(0, true);
}

function halfFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

/** Reads component `k` of a float-typed DeclData element whose first DWORD is `d0` in `data`. */
function declComponent(type: number, data: Float64Array, d0: number, k: number): number {
  if (type >= DECL_FLOAT1 && type <= DECL_FLOAT4) return k <= type ? dwordFloat(data[d0 + k]!) : k === 3 ? 1 : 0;
  const count = type === DECL_FLOAT16_2 ? 2 : 4;
  if (k >= count) return k === 3 ? 1 : 0;
  const word = (data[d0 + (k >> 1)]! >>> 0) >>> ((k & 1) * 16);
  return halfFloat(word & 0xffff);
}

function isFloatDecl(type: number): boolean {
  return (type >= DECL_FLOAT1 && type <= DECL_FLOAT4) || type === DECL_FLOAT16_2 || type === DECL_FLOAT16_4;
}

export interface DeclAttributes {
  normals: Float32Array | null;
  uvs: Float32Array | null;
  tangents: Float32Array | null;
  binormals: Float32Array | null;
  /** Linear RGBA, 4 floats per position. */
  colours: Float32Array | null;
}

/** An empty set of attributes. */
export function noDeclAttributes(): DeclAttributes {
  return { normals: null, uvs: null, tangents: null, binormals: null, colours: null };
}

/** Each attribute from `first`, else from `then` (DeclData is the fuller description and wins over FVFData). */
export function preferDecl(first: DeclAttributes, then: DeclAttributes | null): DeclAttributes {
  return {
    normals: first.normals ?? then?.normals ?? null,
    uvs: first.uvs ?? then?.uvs ?? null,
    tangents: first.tangents ?? then?.tangents ?? null,
    binormals: first.binormals ?? then?.binormals ?? null,
    colours: first.colours ?? then?.colours ?? null,
  };
}

/** `positions` D3DCOLOR DWORDs (0xAARRGGBB, sRGB) at `d0`, `d0 + stride`, … → linear RGBA. */
function packedColours(data: Float64Array, d0: number, stride: number, positions: number): Float32Array {
  const out = new Float32Array(positions * 4);
  for (let v = 0; v < positions; v++) d3dColour(data[d0 + v * stride]! >>> 0, out, v * 4);
  return out;
}

export function readDeclData(ctx: XContext, obj: XObject, positions: number, meshName: string): DeclAttributes {
  const c = new NumberCursor(ctx, obj);
  const nElements = c.count('vertex elements', 4);
  const types: number[] = [];
  const usages: number[] = [];
  const usageIndices: number[] = [];
  let stride = 0;
  for (let e = 0; e < nElements; e++) {
    const type = c.index(`element ${e} type`, DECL_DWORDS.length);
    c.next(`element ${e} method`);
    const usage = c.index(`element ${e} usage`, Infinity);
    const usageIndex = c.index(`element ${e} usage index`, Infinity);
    types.push(type);
    usages.push(usage);
    usageIndices.push(usageIndex);
    stride += DECL_DWORDS[type]!;
  }
  const nDWords = c.count('data DWORDs', 1);
  const out = noDeclAttributes();
  if (stride === 0 || nDWords !== stride * positions) {
    ctx.warnings.push(`mesh ${quoted(meshName)}: DeclData holds ${nDWords} DWORDs, not ${stride} per vertex for ${positions} vertices; ignored`);
    return out;
  }
  const data = obj.numbers;
  const base = c.pos;
  let offset = 0;
  for (let e = 0; e < nElements; e++) {
    const type = types[e]!;
    const usage = usages[e]!;
    const wanted =
      usage === USAGE_NORMAL || usage === USAGE_TANGENT || usage === USAGE_BINORMAL || (usage === USAGE_TEXCOORD && usageIndices[e] === 0);
    if (usage === USAGE_COLOR && usageIndices[e] === 0) {
      if (type === DECL_D3DCOLOR) out.colours = packedColours(data, base + offset, stride, positions);
      else if (isFloatDecl(type)) {
        const dst = new Float32Array(positions * 4);
        for (let v = 0; v < positions; v++) {
          for (let k = 0; k < 4; k++) {
            const x = declComponent(type, data, base + v * stride + offset, k);
            const c = x >= 0 ? (x <= 1 ? x : 1) : 0;
            dst[v * 4 + k] = k < 3 ? srgbToLinear(c) : c;
          }
        }
        out.colours = dst;
      } else ctx.warnings.push(`mesh ${quoted(meshName)}: DeclData COLOR of vertex type ${type} is not a colour or float type; ignored`);
    } else if (wanted && !isFloatDecl(type)) {
      ctx.warnings.push(`mesh ${quoted(meshName)}: DeclData ${USAGE_NAMES[usage] ?? usage} of vertex type ${type} is not a float type; ignored`);
    } else if (wanted) {
      const width = usage === USAGE_TEXCOORD ? 2 : 3;
      const dst = new Float32Array(positions * width);
      for (let v = 0; v < positions; v++) {
        const d0 = base + v * stride + offset;
        for (let k = 0; k < width; k++) dst[v * width + k] = declComponent(type, data, d0, k);
      }
      if (usage === USAGE_NORMAL) out.normals = dst;
      else if (usage === USAGE_TEXCOORD) out.uvs = dst;
      else if (usage === USAGE_TANGENT) out.tangents = dst;
      else out.binormals = dst;
    }
    offset += DECL_DWORDS[type]!;
  }
  return out;
}

// D3DFVF bits (d3d9types.h).
const FVF_POSITION_MASK = 0x400e;
const FVF_NORMAL = 0x10;
const FVF_PSIZE = 0x20;
const FVF_DIFFUSE = 0x40;
const FVF_SPECULAR = 0x80;
const FVF_TEXCOUNT_SHIFT = 8;
/** D3DFVF_TEXCOORDSIZEn code (2 bits per set from bit 16) → floats: 0 → 2, 1 → 3, 2 → 4, 3 → 1. */
const FVF_TEXCOORD_FLOATS = [2, 3, 4, 1];

/**
 * Normals, the diffuse colour and the first texture coordinate set from an FVFData block. Its data holds, per position, the
 * components the FVF code names after the position ("the mesh data minus the position data"); blend
 * weights of an XYZBn position are accepted either way, since exporters differ on whether they belong to
 * the position. A block whose size fits neither layout is ignored with a warning.
 */
export function readFVFData(ctx: XContext, obj: XObject, positions: number, meshName: string): DeclAttributes {
  const c = new NumberCursor(ctx, obj);
  const fvf = c.index('FVF code', 2 ** 32) >>> 0;
  const nDWords = c.count('data DWORDs', 1);
  const out = noDeclAttributes();
  const position = fvf & FVF_POSITION_MASK;
  // XYZB1..XYZB5 are 0x6, 0x8, 0xa, 0xc, 0xe: 1..5 extra DWORDs after x, y, z.
  const blendDWords = position >= 0x6 && position <= 0xe ? (position - 0x4) >> 1 : 0;
  let tail = 0;
  const normalAt = fvf & FVF_NORMAL ? tail : -1;
  if (normalAt >= 0) tail += 3;
  if (fvf & FVF_PSIZE) tail += 1;
  const diffuseAt = fvf & FVF_DIFFUSE ? tail : -1;
  if (diffuseAt >= 0) tail += 1;
  if (fvf & FVF_SPECULAR) tail += 1;
  const texSets = (fvf >>> FVF_TEXCOUNT_SHIFT) & 0xf;
  const uvAt = texSets > 0 ? tail : -1;
  const uvFloats = FVF_TEXCOORD_FLOATS[(fvf >>> 16) & 3]!;
  for (let t = 0; t < texSets; t++) tail += FVF_TEXCOORD_FLOATS[(fvf >>> (16 + 2 * t)) & 3]!;
  let skip = -1;
  if (tail > 0 && nDWords === tail * positions) skip = 0;
  else if (blendDWords > 0 && nDWords === (tail + blendDWords) * positions) skip = blendDWords;
  if (skip < 0) {
    ctx.warnings.push(`mesh ${quoted(meshName)}: FVFData 0x${fvf.toString(16)} holds ${nDWords} DWORDs, not ${tail} per vertex for ${positions} vertices; ignored`);
    return out;
  }
  const stride = tail + skip;
  const data = obj.numbers;
  const base = c.pos;
  if (normalAt >= 0) {
    const normals = new Float32Array(positions * 3);
    for (let v = 0; v < positions; v++) {
      for (let k = 0; k < 3; k++) normals[v * 3 + k] = dwordFloat(data[base + v * stride + skip + normalAt + k]!);
    }
    out.normals = normals;
  }
  if (uvAt >= 0) {
    const uvs = new Float32Array(positions * 2);
    for (let v = 0; v < positions; v++) {
      const d0 = base + v * stride + skip + uvAt;
      uvs[v * 2] = dwordFloat(data[d0]!);
      uvs[v * 2 + 1] = uvFloats > 1 ? dwordFloat(data[d0 + 1]!) : 0;
    }
    out.uvs = uvs;
  }
  if (diffuseAt >= 0) out.colours = packedColours(data, base + skip + diffuseAt, stride, positions);
  return out;
}
