import { inflateSync } from 'fflate';

/**
 * Where the structure of a model file is, so mutations can hit it: truncation points, tokens, numbers,
 * and the numbers that are counts. Computed once per corpus file (linear in its size) and shared by
 * every mutant of it; the mutators only read it.
 *
 * All positions are byte offsets into `bytes`. Spans are flattened [start, end) pairs in an Int32Array:
 * span k is `spans[2k] .. spans[2k+1]`. For text (x-text, m3d) number and count spans are the digits as
 * written; for binary .x, `counts` are 4-byte little-endian DWORD fields and `floatLists` / `intLists` are
 * the data of whole FLOAT_LIST / INTEGER_LIST records (elements `floatBytes` or 4 bytes wide).
 * Compressed .x (tzip/bzip) also carries its MSZIP block offsets and the shape of the decompressed stream.
 */

export type ShapeKind = 'x-text' | 'x-binary' | 'x-tzip' | 'x-bzip' | 'm3d' | 'raw';

export interface Shape {
  readonly kind: ShapeKind;
  readonly bytes: Uint8Array;
  /** Structural truncation points, ascending. */
  readonly cuts: Int32Array;
  /** Token spans: text words, numbers, punctuation, strings, GUIDs; binary whole token records. */
  readonly tokens: Int32Array;
  /** Text: number spans. Binary: empty (see floatLists / intLists). */
  readonly numbers: Int32Array;
  /** Spans of values that are likely counts (text digits, or binary DWORD fields). */
  readonly counts: Int32Array;
  /** Binary only: FLOAT_LIST and INTEGER_LIST data spans. */
  readonly floatLists: Int32Array;
  readonly intLists: Int32Array;
  /** 4 or 8: float width of binary .x (from the header), 4 otherwise. */
  readonly floatBytes: number;
  /** Compressed only: offset of each block's 4-byte header (rawSize, packedSize), then 'CK'. */
  readonly blocks: Int32Array;
  /** Compressed only: the decompressed stream (16-byte header kept) and its shape; null if it does not expand. */
  readonly inner: Shape | null;
}

/** Growable Int32 list; `done()` returns the exact-size array. */
class Ints {
  private a = new Int32Array(256);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  span(start: number, end: number): void {
    this.push(start);
    this.push(end);
  }
  done(): Int32Array {
    return this.a.slice(0, this.n);
  }
}

const EMPTY = new Int32Array(0);

export function analyse(bytes: Uint8Array, fileName: string): Shape {
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  const format = String.fromCharCode(...bytes.subarray(8, 12));
  const floatBytes = String.fromCharCode(...bytes.subarray(12, 16)) === '0064' ? 8 : 4;
  if (magic === 'xof ' && bytes.length >= 16) {
    if (format === 'txt ') return analyseText(bytes, 'x-text', 16);
    if (format === 'bin ') return analyseBinary(bytes, floatBytes);
    if (format === 'tzip' || format === 'bzip') return analyseCompressed(bytes, format === 'tzip' ? 'x-tzip' : 'x-bzip', floatBytes);
  }
  if (/\.m3d$/i.test(fileName)) return analyseText(bytes, 'm3d', 0);
  return blank('raw', bytes, 4);
}

function blank(kind: ShapeKind, bytes: Uint8Array, floatBytes: number): Shape {
  return { kind, bytes, cuts: EMPTY, tokens: EMPTY, numbers: EMPTY, counts: EMPTY, floatLists: EMPTY, intLists: EMPTY, floatBytes, blocks: EMPTY, inner: null };
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
}

/** .x text delimiters: whitespace and `{ } ; , " < >`; m3d words end only at whitespace. */
function isXDelimiter(c: number): boolean {
  return isSpace(c) || c === 123 || c === 125 || c === 59 || c === 44 || c === 34 || c === 60 || c === 62;
}

/**
 * Text tokens from `start`. Counts: in .x, an integer that opens an object's data (first token after
 * '{', GUID skipped), follows a string (SkinWeights nWeights), or stands alone on its line before ';'
 * (how exporters write nVertices, nFaces, nKeys...); in m3d, an integer after a `#Key` or `Key:` token.
 */
function analyseText(bytes: Uint8Array, kind: 'x-text' | 'm3d', start: number): Shape {
  const x = kind === 'x-text';
  const cuts = new Ints();
  const tokens = new Ints();
  const numbers = new Ints();
  const counts = new Ints();
  const n = bytes.length;
  let p = start;
  let afterBrace = false;
  let afterString = false;
  let lineStart = true;
  let prevStart = -1;
  let prevEnd = -1;
  cuts.push(start);
  while (p < n) {
    const c = bytes[p]!;
    if (isSpace(c)) {
      if (c === 10) {
        cuts.push(p);
        cuts.push(p + 1);
        lineStart = true;
      }
      p++;
      continue;
    }
    const t0 = p;
    if (x && (c === 35 || (c === 47 && bytes[p + 1] === 47))) {
      while (p < n && bytes[p] !== 10) p++;
      continue;
    }
    if (x && (c === 123 || c === 125 || c === 59 || c === 44)) {
      p++;
      cuts.push(t0);
      cuts.push(p);
      tokens.span(t0, p);
      if (c === 123) afterBrace = true;
      else if (c !== 59 || !afterString) {
        afterBrace = false;
        afterString = false;
      }
      lineStart = false;
      continue;
    }
    if (x && c === 34) {
      p++;
      while (p < n && bytes[p] !== 34) p++;
      p = Math.min(n, p + 1);
      tokens.span(t0, p);
      afterString = true;
      afterBrace = false;
      lineStart = false;
      continue;
    }
    if (x && c === 60) {
      while (p < n && bytes[p] !== 62 && bytes[p] !== 10) p++;
      p = Math.min(n, p + 1);
      tokens.span(t0, p);
      lineStart = false;
      continue;
    }
    while (p < n && !(x ? isXDelimiter(bytes[p]!) : isSpace(bytes[p]!))) p++;
    tokens.span(t0, p);
    cuts.push(t0);
    const word = p - t0 <= 40 ? String.fromCharCode(...bytes.subarray(t0, p)) : '';
    if (NUMBER.test(word)) {
      numbers.span(t0, p);
      if (INTEGER.test(word) && isCount(bytes, kind, p, prevStart, prevEnd, afterBrace, afterString, lineStart)) counts.span(t0, p);
    }
    afterBrace = false;
    afterString = false;
    lineStart = false;
    prevStart = t0;
    prevEnd = p;
  }
  cuts.push(n);
  const s = blank(kind, bytes, 4);
  return { ...s, cuts: cuts.done(), tokens: tokens.done(), numbers: numbers.done(), counts: counts.done() };
}

function isCount(
  bytes: Uint8Array,
  kind: 'x-text' | 'm3d',
  end: number,
  prevStart: number,
  prevEnd: number,
  afterBrace: boolean,
  afterString: boolean,
  lineStart: boolean,
): boolean {
  if (kind === 'm3d') {
    if (prevStart < 0) return false;
    return bytes[prevStart] === 35 || bytes[prevEnd - 1] === 58;
  }
  if (afterBrace || afterString) return true;
  if (!lineStart || bytes[end] !== 59) return false;
  let q = end + 1;
  while (q < bytes.length && (bytes[q] === 59 || bytes[q] === 44 || bytes[q] === 32 || bytes[q] === 9 || bytes[q] === 13)) q++;
  return q >= bytes.length || bytes[q] === 10;
}

/** Binary .x tokens from byte 16 until the data ends or stops making sense (then the rest is one span). */
function analyseBinary(bytes: Uint8Array, floatBytes: number): Shape {
  const cuts = new Ints();
  const tokens = new Ints();
  const counts = new Ints();
  const floatLists = new Ints();
  const intLists = new Ints();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.length;
  let p = 16;
  while (p + 2 <= n) {
    const t0 = p;
    const token = view.getUint16(p, true);
    p += 2;
    let end = p;
    if (token === 1 || token === 2 || token === 6 || token === 7) {
      if (p + 4 > n) break;
      const count = view.getUint32(p, true);
      const item = token === 6 ? 4 : token === 7 ? floatBytes : 1;
      end = p + 4 + count * item;
      if (end > n) break;
      counts.span(p, p + 4);
      if (token === 6) {
        intLists.span(p + 4, end);
        if (count > 0) counts.span(p + 4, p + 8);
      } else if (token === 7) floatLists.span(p + 4, end);
    } else if (token === 3) {
      end = p + 4;
      if (end > n) break;
      counts.span(p, end);
    } else if (token === 5) end = p + 16;
    else if (token === 0 || token > 60) break;
    if (end > n) break;
    cuts.push(t0);
    tokens.span(t0, end);
    p = end;
  }
  cuts.push(p);
  if (p < n) cuts.push(n);
  const s = blank('x-binary', bytes, floatBytes);
  return { ...s, cuts: cuts.done(), tokens: tokens.done(), counts: counts.done(), floatLists: floatLists.done(), intLists: intLists.done() };
}

/** MSZIP container: block offsets, and the expanded stream analysed as text or binary. */
function analyseCompressed(bytes: Uint8Array, kind: 'x-tzip' | 'x-bzip', floatBytes: number): Shape {
  const blocks = new Ints();
  const cuts = new Ints();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Uint8Array[] = [];
  let p = 20;
  let ok = bytes.length >= 20;
  cuts.push(16);
  cuts.push(20);
  while (ok && p + 6 <= bytes.length) {
    const raw = view.getUint16(p, true);
    const packed = view.getUint16(p + 2, true);
    if (p + 4 + packed > bytes.length || packed < 2) break;
    blocks.push(p);
    cuts.push(p);
    cuts.push(p + 4);
    cuts.push(p + 6);
    try {
      const dictionary = parts.length > 0 ? lastWindow(parts) : undefined;
      const out = inflateSync(bytes.subarray(p + 6, p + 4 + packed), { out: new Uint8Array(raw), ...(dictionary ? { dictionary } : {}) });
      parts.push(out);
    } catch {
      ok = false;
    }
    p += 4 + packed;
  }
  cuts.push(p);
  let inner: Shape | null = null;
  if (ok) {
    const total = parts.reduce((a, b) => a + b.length, 0);
    const stream = new Uint8Array(16 + total);
    stream.set(bytes.subarray(0, 16));
    let o = 16;
    for (const b of parts) {
      stream.set(b, o);
      o += b.length;
    }
    inner = kind === 'x-tzip' ? analyseText(stream, 'x-text', 16) : analyseBinary(stream, floatBytes);
  }
  const s = blank(kind, bytes, floatBytes);
  return { ...s, cuts: cuts.done(), blocks: blocks.done(), inner };
}

/** The last 32 KiB of what the blocks so far expanded to (the next block's deflate dictionary). */
export function lastWindow(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  let i = parts.length;
  while (i > 0 && size < 32768) size += parts[--i]!.length;
  const joined = new Uint8Array(size);
  let o = 0;
  for (let k = i; k < parts.length; k++) {
    joined.set(parts[k]!, o);
    o += parts[k]!.length;
  }
  return joined.subarray(Math.max(0, size - 32768));
}
