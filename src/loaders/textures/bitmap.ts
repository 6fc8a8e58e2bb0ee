import type { ImageKind } from './sniff.ts';

/**
 * The browser's decode of an image file (PNG, JPEG, BMP, GIF, WebP) as skinlab uploads it: no orientation
 * applied, no premultiplication, no colour-space conversion (gpu/textures.ts: values as stored). One place for
 * both of its callers, the page's texture loader and the parse worker's head start on a model's images
 * (app/image-predecode.ts), so the two give the same pixels. Rejects when the browser cannot decode the file.
 */
export function decodeBitmap(bytes: Uint8Array, mime: string): Promise<ImageBitmap> {
  return createImageBitmap(new Blob([bytes as BlobPart], { type: mime }), {
    imageOrientation: 'none',
    premultiplyAlpha: 'none',
    colorSpaceConversion: 'none',
  });
}

const MIME: Partial<Record<ImageKind, string>> = { png: 'image/png', jpeg: 'image/jpeg', bmp: 'image/bmp', gif: 'image/gif', webp: 'image/webp' };

/** The MIME type decodeBitmap is given for a file of `kind`, or null for the kinds the browser does not decode (DDS, TGA). */
export function browserImageMime(kind: ImageKind): string | null {
  return MIME[kind] ?? null;
}
