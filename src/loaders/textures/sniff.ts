import { isDds } from './dds.ts';
import { signatureKind } from './signature.ts';
import { hasTgaFooter, looksLikeTga } from './tga.ts';

/**
 * Which decoder a texture file needs. Content decides first (magic numbers: real files are often
 * misnamed, e.g. a JPEG saved as .dds); the extension decides only for content without a magic number.
 * TGA has none: it is recognised by its footer, by a .tga name, or, for other names, by a plausible header.
 */
export type ImageKind = 'dds' | 'tga' | 'png' | 'jpeg' | 'bmp' | 'gif' | 'webp';

const EXTENSIONS: Record<string, ImageKind> = {
  dds: 'dds',
  tga: 'tga',
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  jpe: 'jpeg',
  bmp: 'bmp',
  dib: 'bmp',
  gif: 'gif',
  webp: 'webp',
};

/** KTX2's 12-byte identifier («KTX 20»\r\n\x1A\n). */
const KTX2_MAGIC = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Whether `bytes` is a KTX2 container (glTF's KHR_texture_basisu images). Not an ImageKind: KTX2 is
 * transcoded (textures/ktx2.ts) and written into glTF as it is, never decoded to pixels by decode.ts.
 */
export function isKtx2(bytes: Uint8Array): boolean {
  return bytes.length >= KTX2_MAGIC.length && KTX2_MAGIC.every((b, i) => bytes[i] === b);
}

/** The kind named by the file name's extension, or null. */
export function kindFromName(name: string): ImageKind | null {
  const m = /\.([a-z0-9]+)\s*$/i.exec(name);
  return m ? (EXTENSIONS[m[1]!.toLowerCase()] ?? null) : null;
}

/** The decoder for `bytes` (content first, then `name`'s extension), or null when nothing fits. */
export function sniffImage(bytes: Uint8Array, name: string): ImageKind | null {
  if (isDds(bytes)) return 'dds';
  const signed = signatureKind(bytes);
  if (signed) return signed;
  if (hasTgaFooter(bytes)) return 'tga';
  const byName = kindFromName(name);
  if (byName === 'tga') return 'tga';
  if (looksLikeTga(bytes)) return 'tga';
  return byName;
}
