import { zlibSync } from 'fflate';

/**
 * PNG encoder for RGBA8 pixels (PNG specification, 2nd edition: signature, IHDR, one IDAT, IEND).
 * Used by the glTF exporter to carry DDS and TGA textures, which glTF cannot hold, as PNG.
 *
 * Contract
 * - Input: `width` x `height` pixels, 4 bytes each (R, G, B, A, straight alpha), rows top first and tightly
 *   packed (the TextureImage layout of image.ts); `rgba.length` must be at least width · height · 4.
 * - Output: colour type 6 (RGBA), bit depth 8, no interlace. Each row gets the filter (0 None, 1 Sub, 2 Up,
 *   3 Average, 4 Paeth) whose output has the smallest sum of absolute signed bytes (the specification's
 *   suggested heuristic); `filter: 'none'` writes filter 0 on every row. zlib stream by fflate, CRC-32 per chunk.
 * - Pure and Node-safe; allocates the output and one filtered copy of the image.
 */

export interface PngEncodeOptions {
  /** 'adaptive' (default): per-row choice of the five filters; 'none': filter 0 everywhere. */
  readonly filter?: 'adaptive' | 'none';
  /** zlib level 0..9 (default 6). */
  readonly level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

let crcTable: Uint32Array | null = null;

/** CRC-32 (ISO 3309, polynomial 0xEDB88320) of bytes, as PNG chunks use it. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  if (crcTable === null) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** Writes row `y` filtered with `type` into out[at + 1 ..], the filter byte at out[at]; returns the cost. */
function filterRow(rgba: Uint8Array, y: number, stride: number, type: number, out: Uint8Array, at: number): number {
  const row = y * stride;
  const prev = row - stride;
  out[at] = type;
  let cost = 0;
  for (let i = 0; i < stride; i++) {
    const x = rgba[row + i]!;
    const a = i >= 4 ? rgba[row + i - 4]! : 0;
    const b = y > 0 ? rgba[prev + i]! : 0;
    const c = i >= 4 && y > 0 ? rgba[prev + i - 4]! : 0;
    let v: number;
    switch (type) {
      case 1: v = x - a; break;
      case 2: v = x - b; break;
      case 3: v = x - ((a + b) >> 1); break;
      case 4: v = x - paeth(a, b, c); break;
      default: v = x;
    }
    v &= 0xff;
    out[at + 1 + i] = v;
    cost += v < 128 ? v : 256 - v;
  }
  return cost;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** Encodes RGBA8 pixels as a PNG file. Throws an Error for a bad size or a too-short pixel array. */
export function encodePng(rgba: Uint8Array, width: number, height: number, options: PngEncodeOptions = {}): Uint8Array {
  if (!(Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1 && width < 2 ** 31 && height < 2 ** 31)) {
    throw new Error(`PNG encode: invalid size ${width}x${height}`);
  }
  const stride = width * 4;
  if (rgba.length < stride * height) {
    throw new Error(`PNG encode: ${rgba.length} bytes of pixels for ${width}x${height} RGBA (needs ${stride * height})`);
  }
  const filtered = new Uint8Array((stride + 1) * height);
  const trial = options.filter === 'none' ? null : new Uint8Array(stride + 1);
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1);
    if (trial === null) {
      filterRow(rgba, y, stride, 0, filtered, at);
      continue;
    }
    let best = filterRow(rgba, y, stride, 0, filtered, at);
    for (let type = 1; type <= 4 && best > 0; type++) {
      const cost = filterRow(rgba, y, stride, type, trial, 0);
      if (cost < best) {
        best = cost;
        filtered.set(trial, at);
      }
    }
  }
  const ihdr = new Uint8Array(13);
  const h = new DataView(ihdr.buffer);
  h.setUint32(0, width);
  h.setUint32(4, height);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: truecolour with alpha
  const parts = [
    new Uint8Array(SIGNATURE),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlibSync(filtered, { level: options.level ?? 6 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
