/**
 * The image formats known by their first bytes alone (magic numbers), for sniff.ts and for the parse worker's
 * entry, which decodes a model's images before its parsers have loaded (app/early-images.ts). Imports nothing.
 * DDS, TGA and KTX2 are sniff.ts's: they are never given to the browser's decoder.
 */

/** The formats a signature names. */
export type SignatureKind = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp';

/** Whether `bytes` holds the ASCII string `ascii` at `at`. */
function bytesAt(bytes: Uint8Array, at: number, ascii: string): boolean {
  if (bytes.length < at + ascii.length) return false;
  for (let i = 0; i < ascii.length; i++) if (bytes[at + i] !== ascii.charCodeAt(i)) return false;
  return true;
}

/** The format `bytes` starts with the signature of, or null. */
export function signatureKind(bytes: Uint8Array): SignatureKind | null {
  if (bytesAt(bytes, 0, '\x89PNG\r\n\x1a\n')) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytesAt(bytes, 0, 'GIF87a') || bytesAt(bytes, 0, 'GIF89a')) return 'gif';
  if (bytesAt(bytes, 0, 'RIFF') && bytesAt(bytes, 8, 'WEBP')) return 'webp';
  // 'BM' cannot start a TGA: its second byte (colour-map type) would be 77.
  if (bytesAt(bytes, 0, 'BM')) return 'bmp';
  return null;
}
