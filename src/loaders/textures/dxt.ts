import type { PixelFormat } from './image.ts';

/**
 * CPU decoding of S3TC (DXT1, DXT3, DXT5) blocks to RGBA8, for devices without
 * WEBGL_compressed_texture_s3tc. Block layout and palette rules follow the Direct3D 9 documentation
 * ("Compressed Texture Resources"): little-endian RGB565 endpoints, 2-bit indices with pixel (x, y) at
 * bits 2(4y + x); DXT1 uses the 3-colour + transparent-black mode when colour0 <= colour1; DXT3 and
 * DXT5 colour blocks always use the 4-colour mode. Interpolated values round to nearest.
 */

export type BlockFormat = Exclude<PixelFormat, 'rgba8'>;

export function blockBytes(format: BlockFormat): number {
  return format === 'dxt1' ? 8 : 16;
}

/** Bytes of one level of width x height: whole 4x4 blocks, at least one. */
export function dxtLevelBytes(format: BlockFormat, width: number, height: number): number {
  return Math.max(1, Math.ceil(width / 4)) * Math.max(1, Math.ceil(height / 4)) * blockBytes(format);
}

// Scratch palette: 4 colours x RGBA, and 8 alpha values.
const palette = new Uint8Array(16);
const alphas = new Uint8Array(8);

/** Expands RGB565 into palette entry `slot` (bit replication: 31 -> 255, 63 -> 255). */
function unpack565(c: number, slot: number): void {
  const r = (c >> 11) & 31;
  const g = (c >> 5) & 63;
  const b = c & 31;
  palette[slot * 4] = (r << 3) | (r >> 2);
  palette[slot * 4 + 1] = (g << 2) | (g >> 4);
  palette[slot * 4 + 2] = (b << 3) | (b >> 2);
  palette[slot * 4 + 3] = 255;
}

/** Fills `palette` from the colour block at `at`. */
function colourPalette(src: Uint8Array, at: number, allowTransparent: boolean): void {
  const c0 = src[at]! | (src[at + 1]! << 8);
  const c1 = src[at + 2]! | (src[at + 3]! << 8);
  unpack565(c0, 0);
  unpack565(c1, 1);
  if (c0 > c1 || !allowTransparent) {
    for (let k = 0; k < 3; k++) {
      const a = palette[k]!;
      const b = palette[4 + k]!;
      palette[8 + k] = ((2 * a + b + 1) / 3) | 0;
      palette[12 + k] = ((a + 2 * b + 1) / 3) | 0;
    }
    palette[11] = 255;
    palette[15] = 255;
  } else {
    for (let k = 0; k < 3; k++) palette[8 + k] = (palette[k]! + palette[4 + k]! + 1) >> 1;
    palette[11] = 255;
    palette[12] = palette[13] = palette[14] = palette[15] = 0;
  }
}

/** Fills `alphas` from the DXT5 alpha block at `at` (8- or 6-value mode by a0 > a1). */
function alphaPalette(src: Uint8Array, at: number): void {
  const a0 = src[at]!;
  const a1 = src[at + 1]!;
  alphas[0] = a0;
  alphas[1] = a1;
  if (a0 > a1) {
    for (let i = 1; i < 7; i++) alphas[i + 1] = (((7 - i) * a0 + i * a1 + 3) / 7) | 0;
  } else {
    for (let i = 1; i < 5; i++) alphas[i + 1] = (((5 - i) * a0 + i * a1 + 2) / 5) | 0;
    alphas[6] = 0;
    alphas[7] = 255;
  }
}

/**
 * Decodes one level of `width` x `height` pixels from `src` (at least dxtLevelBytes bytes, else throws)
 * into a new tightly packed RGBA8 array, top row first. Pixels of edge blocks beyond the size are dropped.
 */
export function decodeDxt(format: BlockFormat, width: number, height: number, src: Uint8Array): Uint8Array {
  const need = dxtLevelBytes(format, width, height);
  if (src.length < need) throw new Error(`${format.toUpperCase()} level ${width}x${height} needs ${need} bytes, has ${src.length}`);
  const out = new Uint8Array(width * height * 4);
  const bw = Math.max(1, Math.ceil(width / 4));
  const bh = Math.max(1, Math.ceil(height / 4));
  const stride = blockBytes(format);
  const colourAt = format === 'dxt1' ? 0 : 8;
  let at = 0;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++, at += stride) {
      colourPalette(src, at + colourAt, format === 'dxt1');
      if (format === 'dxt5') alphaPalette(src, at);
      const c = at + colourAt;
      const indices = (src[c + 4]! | (src[c + 5]! << 8) | (src[c + 6]! << 16) | (src[c + 7]! << 24)) >>> 0;
      // DXT5: 48 bits of 3-bit alpha indices, read as two 24-bit halves (pixels 0-7 and 8-15).
      const alphaLo = src[at + 2]! | (src[at + 3]! << 8) | (src[at + 4]! << 16);
      const alphaHi = src[at + 5]! | (src[at + 6]! << 8) | (src[at + 7]! << 16);
      for (let py = 0; py < 4; py++) {
        const y = by * 4 + py;
        if (y >= height) break;
        for (let px = 0; px < 4; px++) {
          const x = bx * 4 + px;
          if (x >= width) break;
          const i = py * 4 + px;
          const p = ((indices >>> (2 * i)) & 3) * 4;
          const o = (y * width + x) * 4;
          out[o] = palette[p]!;
          out[o + 1] = palette[p + 1]!;
          out[o + 2] = palette[p + 2]!;
          if (format === 'dxt1') {
            out[o + 3] = palette[p + 3]!;
          } else if (format === 'dxt3') {
            const nibble = (src[at + (i >> 1)]! >> ((i & 1) * 4)) & 15;
            out[o + 3] = nibble * 17;
          } else {
            const ai = i < 8 ? (alphaLo >> (3 * i)) & 7 : (alphaHi >> (3 * (i - 8))) & 7;
            out[o + 3] = alphas[ai]!;
          }
        }
      }
    }
  }
  return out;
}
