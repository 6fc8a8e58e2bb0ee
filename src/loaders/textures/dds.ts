import { dxtLevelBytes, type BlockFormat } from './dxt.ts';
import { checkDimensions, DEFAULT_LIMITS, UnsupportedImageError, fullMipCount, mipSize, type DecodeLimits, type MipLevel, type TextureImage } from './image.ts';

/**
 * DirectDraw Surface reader (Direct3D 9 layout: "DDS " + 124-byte DDS_HEADER with its 32-byte
 * DDS_PIXELFORMAT, then the levels of the main surface, largest first). 2D textures only.
 *
 * - DXT1/DXT3/DXT5 (and DXT2/DXT4, their premultiplied twins, read as DXT3/DXT5) stay compressed: the
 *   levels are views into `bytes`.
 * - Uncompressed RGB, luminance and alpha formats of 8, 16, 24 or 32 bits with any channel masks
 *   (565, 1555, 4444, RGB888, ARGB/ABGR/XRGB 8888, L8, A8L8, A8...), and the same formats named by a
 *   D3DFORMAT number in the FourCC field, are converted to RGBA8. Rows are tightly packed (DirectXTex's
 *   legacy pitch rule: ceil(width * bits / 8) bytes).
 * - DX10 extended headers, cube maps and volume textures throw an "unsupported" Error.
 *
 * Every size is checked against the buffer before it is read: a bad file throws an Error whose message
 * says what is wrong (never a read out of range). D3D rows are top row first, as the image model wants.
 */

const HEADER_BYTES = 128;
const DDSD_MIPMAPCOUNT = 0x20000;
const DDSD_DEPTH = 0x800000;
const DDPF_ALPHAPIXELS = 0x1;
const DDPF_ALPHA = 0x2;
const DDPF_FOURCC = 0x4;
const DDPF_RGB = 0x40;
const DDPF_YUV = 0x200;
const DDPF_LUMINANCE = 0x20000;
const DDPF_BUMPDUDV = 0x80000;
const DDSCAPS2_CUBEMAP = 0x200;
const DDSCAPS2_VOLUME = 0x200000;

/** Bit masks of an uncompressed pixel format; a zero mask means the channel is absent. */
interface Masks {
  bits: number;
  r: number;
  g: number;
  b: number;
  a: number;
  /** Grey: the r mask feeds red, green and blue. */
  luminance: boolean;
}

/** D3DFORMAT numbers some writers put in the FourCC field instead of masks. */
const D3DFMT_MASKS: Record<number, Masks> = {
  20: { bits: 24, r: 0xff0000, g: 0xff00, b: 0xff, a: 0, luminance: false }, // R8G8B8
  21: { bits: 32, r: 0xff0000, g: 0xff00, b: 0xff, a: 0xff000000, luminance: false }, // A8R8G8B8
  22: { bits: 32, r: 0xff0000, g: 0xff00, b: 0xff, a: 0, luminance: false }, // X8R8G8B8
  23: { bits: 16, r: 0xf800, g: 0x7e0, b: 0x1f, a: 0, luminance: false }, // R5G6B5
  24: { bits: 16, r: 0x7c00, g: 0x3e0, b: 0x1f, a: 0, luminance: false }, // X1R5G5B5
  25: { bits: 16, r: 0x7c00, g: 0x3e0, b: 0x1f, a: 0x8000, luminance: false }, // A1R5G5B5
  26: { bits: 16, r: 0xf00, g: 0xf0, b: 0xf, a: 0xf000, luminance: false }, // A4R4G4B4
  28: { bits: 8, r: 0, g: 0, b: 0, a: 0xff, luminance: false }, // A8
  30: { bits: 16, r: 0xf00, g: 0xf0, b: 0xf, a: 0, luminance: false }, // X4R4G4B4
  32: { bits: 32, r: 0xff, g: 0xff00, b: 0xff0000, a: 0xff000000, luminance: false }, // A8B8G8R8
  33: { bits: 32, r: 0xff, g: 0xff00, b: 0xff0000, a: 0, luminance: false }, // X8B8G8R8
  50: { bits: 8, r: 0xff, g: 0, b: 0, a: 0, luminance: true }, // L8
  51: { bits: 16, r: 0xff, g: 0, b: 0, a: 0xff00, luminance: true }, // A8L8
};

export function isDds(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x44 && bytes[1] === 0x44 && bytes[2] === 0x53 && bytes[3] === 0x20;
}

/** Reads a DDS file. Throws an Error naming the problem for anything malformed or unsupported. */
export function readDds(bytes: Uint8Array, limits: DecodeLimits = DEFAULT_LIMITS): TextureImage {
  if (!isDds(bytes)) throw new Error("not a DDS file (no 'DDS ' magic)");
  if (bytes.length < HEADER_BYTES) throw new Error(`truncated header: ${bytes.length} bytes, a DDS header is ${HEADER_BYTES}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number): number => view.getUint32(at, true);
  const headerSize = u32(4);
  const flags = u32(8);
  const height = u32(12);
  const width = u32(16);
  const depth = u32(24);
  const declaredMips = u32(28);
  const pfSize = u32(76);
  const pfFlags = u32(80);
  const fourCCValue = u32(84);
  const fourCC = String.fromCharCode(bytes[84]!, bytes[85]!, bytes[86]!, bytes[87]!);
  const caps2 = u32(112);
  if (headerSize !== 124) throw new Error(`header size field is ${headerSize}, expected 124`);
  if (pfSize !== 32) throw new Error(`pixel format size field is ${pfSize}, expected 32`);
  if (pfFlags & DDPF_FOURCC && fourCC === 'DX10') throw new UnsupportedImageError('DX10 extended header (DXGI formats) is not supported');
  if (caps2 & DDSCAPS2_CUBEMAP) throw new UnsupportedImageError('cube maps are not supported (2D textures only)');
  if (caps2 & DDSCAPS2_VOLUME || (flags & DDSD_DEPTH && depth > 1)) throw new UnsupportedImageError('volume textures are not supported (2D textures only)');
  checkDimensions(width, height, limits);

  // Mip count: DDSD_MIPMAPCOUNT says the field is valid; some writers fill it without the flag.
  const chain = fullMipCount(width, height);
  const declared = flags & DDSD_MIPMAPCOUNT || declaredMips > 1 ? Math.max(1, declaredMips) : 1;
  if (declared > chain) throw new Error(`mip count ${declaredMips} is more than the ${chain} levels of a ${width}x${height} texture`);

  let compressed: BlockFormat | null = null;
  let masks: Masks | null = null;
  if (pfFlags & DDPF_FOURCC) {
    if (fourCC === 'DXT1') compressed = 'dxt1';
    else if (fourCC === 'DXT2' || fourCC === 'DXT3') compressed = 'dxt3';
    else if (fourCC === 'DXT4' || fourCC === 'DXT5') compressed = 'dxt5';
    else masks = D3DFMT_MASKS[fourCCValue] ?? null;
    if (!compressed && !masks) throw new UnsupportedImageError(`pixel format ${describeFourCC(fourCCValue)} is not supported`);
  } else if (pfFlags & (DDPF_YUV | DDPF_BUMPDUDV)) {
    throw new UnsupportedImageError(`${pfFlags & DDPF_YUV ? 'YUV' : 'bump-map (DuDv)'} pixel formats are not supported`);
  } else if (pfFlags & (DDPF_RGB | DDPF_LUMINANCE | DDPF_ALPHA)) {
    const hasAlpha = (pfFlags & (DDPF_ALPHAPIXELS | DDPF_ALPHA)) !== 0;
    masks = {
      bits: u32(88),
      r: pfFlags & DDPF_ALPHA && !(pfFlags & (DDPF_RGB | DDPF_LUMINANCE)) ? 0 : u32(92),
      g: pfFlags & DDPF_RGB ? u32(96) : 0,
      b: pfFlags & DDPF_RGB ? u32(100) : 0,
      a: hasAlpha ? u32(104) : 0,
      luminance: (pfFlags & DDPF_LUMINANCE) !== 0,
    };
    if (![8, 16, 24, 32].includes(masks.bits)) throw new UnsupportedImageError(`${masks.bits}-bit uncompressed pixels are not supported (8, 16, 24 or 32)`);
  } else {
    throw new Error(`pixel format flags 0x${pfFlags.toString(16)} name no known format`);
  }

  const levelBytes = (w: number, h: number): number =>
    compressed ? dxtLevelBytes(compressed, w, h) : Math.ceil((w * masks!.bits) / 8) * h;
  const notes: string[] = [];
  const levels: MipLevel[] = [];
  let at = HEADER_BYTES;
  for (let i = 0; i < declared; i++) {
    const w = mipSize(width, i);
    const h = mipSize(height, i);
    const size = levelBytes(w, h);
    if (at + size > bytes.length) {
      if (i === 0) {
        throw new Error(`truncated data: ${width}x${height} ${compressed ? compressed.toUpperCase() : `${masks!.bits}-bit`} needs ${size} bytes after the header, the file has ${bytes.length - HEADER_BYTES}`);
      }
      notes.push(`the file ends after ${i} of ${declared} mip levels; using those`);
      break;
    }
    const data = bytes.subarray(at, at + size);
    levels.push({ width: w, height: h, data: compressed ? data : toRgba8(data, w, h, masks!) });
    at += size;
  }
  return { format: compressed ?? 'rgba8', width, height, levels, notes };
}

function describeFourCC(v: number): string {
  const s = String.fromCharCode(v & 255, (v >>> 8) & 255, (v >>> 16) & 255, v >>> 24);
  return /^[\x20-\x7e]{4}$/.test(s) ? `'${s}'` : `D3DFORMAT ${v}`;
}

/**
 * Extracts the channel under `mask` from a pixel, scaled to 0..255 (any mask position and width; a
 * mask of more than 8 bits is scaled down). A zero mask yields `absent`: D3D9 reads missing colour
 * channels as 0 (A8 is black) and missing alpha as 255.
 */
function channel(mask: number, absent: number): (pixel: number) => number {
  if (mask === 0) return () => absent;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  const max = mask >>> shift;
  return (pixel) => Math.round((((pixel & mask) >>> shift) * 255) / max);
}

function toRgba8(src: Uint8Array, width: number, height: number, m: Masks): Uint8Array {
  const bpp = m.bits / 8;
  const out = new Uint8Array(width * height * 4);
  const r = channel(m.r, 0);
  const g = m.luminance ? r : channel(m.g, 0);
  const b = m.luminance ? r : channel(m.b, 0);
  const a = channel(m.a, 255);
  for (let p = 0, o = 0, n = width * height * bpp; p < n; p += bpp, o += 4) {
    let v = src[p]!;
    if (bpp > 1) v |= src[p + 1]! << 8;
    if (bpp > 2) v |= src[p + 2]! << 16;
    if (bpp > 3) v |= src[p + 3]! << 24;
    out[o] = r(v);
    out[o + 1] = g(v);
    out[o + 2] = b(v);
    out[o + 3] = a(v);
  }
  return out;
}
