/**
 * What a file is, by its bytes (load-model.ts recognises the content before the extension, so a model renamed
 * to another extension still loads), and what unknown bytes look like, in words, for error messages (never
 * the raw bytes themselves: a binary file's start is shown as hex, a text file's as its first printable
 * characters). Pure, no allocation beyond the small strings returned.
 */

/** A model format skinlab reads, recognised by content. */
export type ModelFormat = 'glb' | 'gltf' | 'x' | 'm3d';

/** Bytes read to recognise a format. */
const HEAD = 256;

function ascii(bytes: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < Math.min(to, bytes.length); i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

/** Index of the first byte that is not ASCII white space (a UTF-8 byte-order mark skipped too). */
function firstNonSpace(bytes: Uint8Array): number {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return i;
}

/** The model format the bytes are, or null when they are none skinlab reads. */
export function sniffFormat(bytes: Uint8Array): ModelFormat | null {
  const magic = ascii(bytes, 0, 4);
  if (magic === 'glTF') return 'glb';
  if (magic === 'xof ') return 'x';
  const i = firstNonSpace(bytes);
  const head = ascii(bytes, i, i + HEAD);
  if (/^\*+m3d-File-Header/.test(head)) return 'm3d';
  if (head.startsWith('{') && /"asset"\s*:/.test(ascii(bytes, i, i + (1 << 16)))) return 'gltf';
  return null;
}

/** Known binary signatures: the bytes they start with and what they are. */
const SIGNATURES: readonly [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x44, 0x44, 0x53, 0x20], 'a DDS texture'],
  [[0xab, 0x4b, 0x54, 0x58], 'a KTX texture'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive'],
  [[0x1f, 0x8b], 'a gzip-compressed file'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x7f, 0x45, 0x4c, 0x46], 'an executable (ELF)'],
  [[0x4d, 0x5a], 'a Windows executable'],
];

/** The share of bytes in `head` that are not printable text (ASCII control bytes other than white space). */
function binaryShare(head: Uint8Array): number {
  if (head.length === 0) return 0;
  let odd = 0;
  for (const b of head) if (b === 0 || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d)) odd++;
  return odd / head.length;
}

/** The bytes are not text: a known binary signature, or control bytes in their first HEAD. */
export function looksBinary(bytes: Uint8Array): boolean {
  return SIGNATURES.some(([sig]) => sig.every((b, k) => bytes[k] === b)) || binaryShare(bytes.subarray(0, HEAD)) > 0.05;
}

/**
 * What the bytes look like, in words: a known signature ("a PNG image"), a format of 3D data skinlab does not
 * read (FBX, OBJ, COLLADA, STL, PLY, a binary 3DMO .m3d), an HTML page, text starting "…" (printable characters
 * only, at most 24), or binary data starting with bytes "xx xx xx xx" (hex).
 */
export function describeBytes(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'an empty file';
  for (const [sig, what] of SIGNATURES) if (sig.every((b, k) => bytes[k] === b)) return what;
  const head = ascii(bytes, 0, HEAD);
  if (head.startsWith('Kaydara FBX Binary')) return 'an FBX file (binary)';
  if (head.startsWith('3DMO') || head.startsWith('3dmo')) return 'a binary "Model 3D" (3DMO) file';
  if (head.startsWith('solid ') || (bytes.length >= 84 && binaryShare(bytes.subarray(0, 80)) > 0.1 && /stl|solid/i.test(ascii(bytes, 0, 80)))) return 'an STL mesh';
  if (head.startsWith('ply\n') || head.startsWith('ply\r')) return 'a PLY mesh';
  const text = head.trimStart();
  if (/^<(!doctype|html)/i.test(text)) return 'an HTML page';
  if (/^<\?xml/.test(text) && /COLLADA/.test(ascii(bytes, 0, 4096))) return 'a COLLADA (.dae) file';
  if (/^; FBX/.test(text)) return 'an FBX file (text)';
  if (/^(#[^\n]*\n\s*)*(v|vn|vt|o|g|mtllib) /m.test(text.slice(0, 200)) && /^v\s+-?\d/m.test(text)) return 'an OBJ mesh';
  if (binaryShare(bytes.subarray(0, HEAD)) > 0.05) {
    const hex = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
    return `binary data starting with bytes ${hex}`;
  }
  const printable = text.replace(/[^\x20-\x7e]+/g, ' ').trim().slice(0, 24);
  return printable ? `text starting "${printable}"` : 'text';
}
