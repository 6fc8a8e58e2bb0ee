/**
 * The format-neutral result of the texture decoders (DDS, TGA). Pure data: no WebGL, runs in Node.
 *
 * Orientation: rows are stored top row first, pixels left to right, which is the D3D texture-coordinate
 * convention (v = 0 at the top) and the order the GPU module uploads without a Y flip.
 */

/**
 * `rgba8`: 4 bytes per pixel (R, G, B, A), rows tightly packed.
 * `dxt1` / `dxt3` / `dxt5`: S3TC 4x4 blocks (8, 16, 16 bytes), block rows top first; a level of width w
 * and height h holds ceil(w/4) x ceil(h/4) blocks, so levels smaller than 4x4 still take one whole block.
 * `dxt1` is always read with its 1-bit alpha (3-colour mode index 3 = transparent black).
 */
export type PixelFormat = 'rgba8' | 'dxt1' | 'dxt3' | 'dxt5';

export interface MipLevel {
  readonly width: number;
  readonly height: number;
  /** Pixel or block data of this level; may be a view into the file's bytes (do not modify). */
  readonly data: Uint8Array;
}

export interface TextureImage {
  readonly format: PixelFormat;
  readonly width: number;
  readonly height: number;
  /**
   * levels[0] is the full image; level i is max(1, floor(width / 2^i)) by max(1, floor(height / 2^i)).
   * At least one level; fewer than fullMipCount(width, height) when the file's chain is partial.
   */
  readonly levels: readonly MipLevel[];
  /** Non-fatal findings worth telling the user (a truncated mip chain...). */
  readonly notes: readonly string[];
}

/** Upper bounds checked against the header before anything is allocated. */
export interface DecodeLimits {
  /** Largest width or height accepted. */
  readonly maxDimension: number;
  /** Largest width x height accepted (bounds the RGBA8 output: 4 bytes per pixel). */
  readonly maxPixels: number;
}

/** 16384 per side; 64 Mi pixels (256 MiB as RGBA8). */
export const DEFAULT_LIMITS: DecodeLimits = { maxDimension: 16384, maxPixels: 1 << 26 };

/**
 * A well-formed file in a variant the decoders do not handle (DX10 header, cube map, 48-bit TGA...),
 * as opposed to a plain Error for a malformed one.
 */
export class UnsupportedImageError extends Error {
  override readonly name = 'UnsupportedImageError';
}

/** Number of levels of a complete chain down to 1x1. */
export function fullMipCount(width: number, height: number): number {
  return Math.floor(Math.log2(Math.max(width, height, 1))) + 1;
}

/** Size of mip `level` along one axis. */
export function mipSize(size: number, level: number): number {
  return Math.max(1, Math.floor(size / 2 ** level));
}

/** Throws a descriptive Error when the dimensions are zero or over the limits. */
export function checkDimensions(width: number, height: number, limits: DecodeLimits): void {
  if (!(width >= 1 && height >= 1)) throw new Error(`invalid size ${width}x${height}`);
  if (width > limits.maxDimension || height > limits.maxDimension) {
    throw new Error(`${width}x${height} is larger than the ${limits.maxDimension} pixel limit per side`);
  }
  if (width * height > limits.maxPixels) {
    throw new Error(`${width}x${height} has more than the ${limits.maxPixels} pixel limit`);
  }
}
