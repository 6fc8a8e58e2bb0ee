/**
 * Bytes of a name or string to a JS string. .x files are written in the exporter's ANSI code page or,
 * by newer tools, in UTF-8: valid UTF-8 is read as UTF-8, anything else as Windows-1252 (the WHATWG
 * meaning of 'latin1'). Pure ASCII, the usual case, takes a fast path without a decoder.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

export function decodeText(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 64) {
    let s = '';
    let i = start;
    for (; i < end; i++) {
      const c = bytes[i]!;
      if (c >= 0x80) break;
      s += String.fromCharCode(c);
    }
    if (i === end) return s;
  }
  const sub = bytes.subarray(start, end);
  try {
    return utf8.decode(sub);
  } catch {
    return latin1.decode(sub);
  }
}

/** The bytes [start, end) as printable ASCII for a message, cut to `cap` characters and at a line end. */
export function excerpt(bytes: Uint8Array, start: number, end: number, cap = 40): string {
  const stop = Math.min(end, bytes.length, start + cap);
  let s = '';
  let i = start;
  for (; i < stop; i++) {
    const c = bytes[i]!;
    if (c === 10 || c === 13) break;
    s += c >= 32 && c < 127 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return i < Math.min(end, bytes.length) ? `${s}…` : s;
}
