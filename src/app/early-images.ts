import { browserImageMime, decodeBitmap } from '../loaders/textures/bitmap.ts';
import { signatureKind } from '../loaders/textures/signature.ts';

/**
 * The first model's images decoded while the parse worker's parsers are still loading (the worker's entry reads
 * them: early-gltf.ts), so they are ready about when the parse is, not a decode's time after it. The parse's
 * own head start on the images (image-predecode.ts) takes such a decode for the bytes it would have decoded —
 * the same bytes, compared whole, and the same MIME type — instead of starting another; the same decodeBitmap
 * makes both, so the pixels are the same. Whatever is not taken is let go (releaseEarlyImages).
 * Imports only the decode itself: this module is part of the worker's entry chunk.
 */

interface EarlyImage {
  readonly bytes: Uint8Array;
  readonly mime: string;
  readonly bitmap: Promise<ImageBitmap>;
}

/** The most decodes started ahead (a character has a few textures; the parse decodes any others). */
export const MAX_EARLY_IMAGES = 16;

const started: EarlyImage[] = [];
/** Set by releaseEarlyImages: a decode asked for later would never be taken. */
let released = false;

/** How many decodes were started ahead (at most MAX_EARLY_IMAGES): for tests. */
export function earlyImageCount(): number {
  return started.length;
}

/**
 * Starts decoding `bytes` when their signature names a format the browser decodes (PNG, JPEG, GIF, WebP, BMP):
 * nothing otherwise, once MAX_EARLY_IMAGES are started, or after releaseEarlyImages. The bytes are kept (not copied) until taken or let go.
 */
export function decodeEarly(bytes: Uint8Array): void {
  if (released || started.length >= MAX_EARLY_IMAGES || typeof createImageBitmap !== 'function') return;
  const kind = signatureKind(bytes);
  const mime = kind ? browserImageMime(kind) : null;
  if (!mime) return;
  const bitmap = decodeBitmap(bytes, mime);
  bitmap.catch(() => {}); // the taker sees the failure, and decodes nothing else for it: the page then says why
  started.push({ bytes, mime, bitmap });
}

/** The decode started ahead for exactly `bytes` as `mime`, once; null when there is none. */
export function takeEarlyImage(bytes: Uint8Array, mime: string): Promise<ImageBitmap> | null {
  for (let i = 0; i < started.length; i++) {
    const e = started[i]!;
    if (e.mime === mime && sameBytes(e.bytes, bytes)) {
      started.splice(i, 1);
      return e.bitmap;
    }
  }
  return null;
}

/** Lets go of every decode not taken (each bitmap is closed once decoded), and starts none from now on. */
export function releaseEarlyImages(): void {
  released = true;
  for (const e of started.splice(0)) void e.bitmap.then((b) => b.close(), () => {});
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
