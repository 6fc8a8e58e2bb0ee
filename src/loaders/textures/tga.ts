import { checkDimensions, DEFAULT_LIMITS, UnsupportedImageError, type DecodeLimits, type TextureImage } from './image.ts';

/**
 * Truevision TGA reader (TGA 2.0 specification layout: 18-byte little-endian header, image ID,
 * colour map, pixel data, optional footer). Image types 1/2/3 (colour-mapped, true-colour, grey) and
 * their run-length encoded forms 9/10/11; pixel depths 8 (index or grey), 15/16 (A1R5G5B5), 24 (BGR),
 * 32 (BGRA), 16-bit grey+alpha; colour-map entries of 15, 16, 24 or 32 bits.
 *
 * Alpha is read only when the descriptor's attribute-bits field (bits 0-3) is non-zero; otherwise the
 * image is opaque (the 16th bit of 16-bit pixels and the 4th byte of 32-bit pixels are then ignored).
 *
 * Output: one RGBA8 level, top row first, left to right, whatever the file's origin (descriptor bit 5
 * set = top row stored first; bit 4 set = right-to-left). RLE packets may run across rows.
 * Every read is bounds-checked: a bad file throws an Error saying what is wrong.
 */

const FOOTER_SIGNATURE = 'TRUEVISION-XFILE.\0';

/** True when the file ends with the TGA 2.0 footer signature. */
export function hasTgaFooter(bytes: Uint8Array): boolean {
  if (bytes.length < 18 + 26) return false;
  const tail = bytes.subarray(bytes.length - 18);
  for (let i = 0; i < 18; i++) if (tail[i] !== FOOTER_SIGNATURE.charCodeAt(i)) return false;
  return true;
}

/**
 * True when the 18 header bytes hold a plausible TGA header (TGA has no magic number): a known image
 * type, a colour-map type of 0 or 1 consistent with it, a non-zero size and a known pixel depth.
 */
export function looksLikeTga(bytes: Uint8Array): boolean {
  if (bytes.length < 18) return false;
  const cmType = bytes[1]!;
  const type = bytes[2]!;
  const cmEntry = bytes[7]!;
  const depth = bytes[16]!;
  const width = bytes[12]! | (bytes[13]! << 8);
  const height = bytes[14]! | (bytes[15]! << 8);
  if (cmType > 1 || ![1, 2, 3, 9, 10, 11].includes(type)) return false;
  if ((type & 7) === 1 && (cmType !== 1 || ![8, 16].includes(depth))) return false;
  if (cmType === 1 && ![15, 16, 24, 32].includes(cmEntry)) return false;
  if ((bytes[17]! & 0xc0) !== 0) return false;
  return width > 0 && height > 0 && [8, 15, 16, 24, 32].includes(depth);
}

/** Reads a TGA file into one RGBA8 level. Throws an Error naming the problem for anything malformed. */
export function readTga(bytes: Uint8Array, limits: DecodeLimits = DEFAULT_LIMITS): TextureImage {
  if (bytes.length < 18) throw new Error(`truncated header: ${bytes.length} bytes, a TGA header is 18`);
  const u16 = (at: number): number => bytes[at]! | (bytes[at + 1]! << 8);
  const idLength = bytes[0]!;
  const cmType = bytes[1]!;
  const type = bytes[2]!;
  const cmFirst = u16(3);
  const cmLength = u16(5);
  const cmEntryBits = bytes[7]!;
  const width = u16(12);
  const height = u16(14);
  const depth = bytes[16]!;
  const descriptor = bytes[17]!;
  const alphaBits = descriptor & 15;
  const rightToLeft = (descriptor & 0x10) !== 0;
  const topFirst = (descriptor & 0x20) !== 0;

  if (type === 0) throw new Error('image type 0: the file holds no image data');
  const base = type & 7;
  const rle = (type & 8) !== 0;
  if (type > 11 || base < 1 || base > 3) throw new UnsupportedImageError(`image type ${type} is not supported (1, 2, 3, 9, 10, 11)`);
  if (cmType > 1) throw new Error(`colour-map type ${cmType} is not defined`);
  checkDimensions(width, height, limits);

  const kind = base === 1 ? 'colour-mapped' : base === 2 ? 'true-colour' : 'grey';
  const depthOk = base === 1 ? depth === 8 || depth === 16 : base === 2 ? [15, 16, 24, 32].includes(depth) : depth === 8 || depth === 16;
  if (!depthOk) throw new UnsupportedImageError(`${depth}-bit ${kind} pixels are not supported`);
  const bpp = (depth + 7) >> 3;

  // The colour map, when present, follows the image ID even in images that do not index it.
  let at = 18 + idLength;
  let map: Uint8Array | null = null;
  if (cmType === 1) {
    if (![15, 16, 24, 32].includes(cmEntryBits)) throw new UnsupportedImageError(`${cmEntryBits}-bit colour-map entries are not supported`);
    const entryBytes = (cmEntryBits + 7) >> 3;
    const mapBytes = cmLength * entryBytes;
    if (at + mapBytes > bytes.length) throw new Error(`truncated colour map: needs ${mapBytes} bytes at ${at}, the file has ${bytes.length}`);
    if (base === 1) {
      map = new Uint8Array(cmLength * 4);
      for (let i = 0; i < cmLength; i++) readColour(bytes, at + i * entryBytes, cmEntryBits, alphaBits > 0, map, i * 4);
    }
    at += mapBytes;
  } else if (base === 1) {
    throw new Error('colour-mapped image without a colour map');
  }
  if (at > bytes.length) throw new Error(`truncated header: the image ID runs past the end of the file`);

  const count = width * height;
  let pixels: Uint8Array;
  if (rle) {
    // A packet is at least 1 + bpp bytes for at most 128 pixels: reject sizes the data cannot hold.
    const maxPixels = Math.floor((bytes.length - at) / (1 + bpp)) * 128;
    if (count > maxPixels) throw new Error(`truncated data: ${width}x${height} cannot be encoded in the ${bytes.length - at} bytes left`);
    pixels = new Uint8Array(count * bpp);
    let n = 0;
    while (n < count) {
      if (at >= bytes.length) throw new Error(`truncated RLE data: the file ends after ${n} of ${count} pixels`);
      const header = bytes[at++]!;
      const run = (header & 0x7f) + 1;
      if (n + run > count) throw new Error(`RLE packet at byte ${at - 1} runs ${n + run - count} pixels past the image`);
      if (header & 0x80) {
        if (at + bpp > bytes.length) throw new Error(`truncated RLE data: the file ends after ${n} of ${count} pixels`);
        for (let r = 0; r < run; r++) pixels.set(bytes.subarray(at, at + bpp), (n + r) * bpp);
        at += bpp;
      } else {
        const len = run * bpp;
        if (at + len > bytes.length) throw new Error(`truncated RLE data: the file ends after ${n} of ${count} pixels`);
        pixels.set(bytes.subarray(at, at + len), n * bpp);
        at += len;
      }
      n += run;
    }
  } else {
    const need = count * bpp;
    if (at + need > bytes.length) throw new Error(`truncated data: ${width}x${height} at ${depth} bits needs ${need} bytes, ${bytes.length - at} left`);
    pixels = bytes.subarray(at, at + need);
  }

  const out = new Uint8Array(count * 4);
  for (let y = 0; y < height; y++) {
    const outRow = topFirst ? y : height - 1 - y;
    for (let x = 0; x < width; x++) {
      const src = (y * width + x) * bpp;
      const o = (outRow * width + (rightToLeft ? width - 1 - x : x)) * 4;
      if (base === 1) {
        const index = (bpp === 1 ? pixels[src]! : pixels[src]! | (pixels[src + 1]! << 8)) - cmFirst;
        if (index < 0 || index >= cmLength) throw new Error(`colour index ${index + cmFirst} is outside the colour map (${cmFirst}..${cmFirst + cmLength - 1})`);
        out.set(map!.subarray(index * 4, index * 4 + 4), o);
      } else if (base === 3) {
        const grey = pixels[src]!;
        out[o] = out[o + 1] = out[o + 2] = grey;
        out[o + 3] = bpp === 2 && alphaBits > 0 ? pixels[src + 1]! : 255;
      } else {
        readColour(pixels, src, depth, alphaBits > 0, out, o);
      }
    }
  }
  return { format: 'rgba8', width, height, levels: [{ width, height, data: out }], notes: [] };
}

/** Converts one stored colour (15/16: A1R5G5B5 little-endian; 24: BGR; 32: BGRA) to RGBA8 at out[o]. */
function readColour(src: Uint8Array, at: number, bits: number, useAlpha: boolean, out: Uint8Array, o: number): void {
  if (bits <= 16) {
    const v = src[at]! | (src[at + 1]! << 8);
    const r = (v >> 10) & 31;
    const g = (v >> 5) & 31;
    const b = v & 31;
    out[o] = (r << 3) | (r >> 2);
    out[o + 1] = (g << 3) | (g >> 2);
    out[o + 2] = (b << 3) | (b >> 2);
    out[o + 3] = bits === 16 && useAlpha ? (v & 0x8000 ? 255 : 0) : 255;
  } else {
    out[o] = src[at + 2]!;
    out[o + 1] = src[at + 1]!;
    out[o + 2] = src[at]!;
    out[o + 3] = bits === 32 && useAlpha ? src[at + 3]! : 255;
  }
}
