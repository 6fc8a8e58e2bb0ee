import { browserImageMime } from './bitmap.ts';
import { readDds } from './dds.ts';
import { DEFAULT_LIMITS, UnsupportedImageError, type DecodeLimits, type TextureImage } from './image.ts';
import { sniffImage, type ImageKind } from './sniff.ts';
import { readTga } from './tga.ts';

/**
 * One texture file's bytes to something uploadable: DDS and TGA are decoded here (pure, Node-safe);
 * PNG, JPEG, BMP, GIF and WebP are left to the browser's decoders and only identified.
 */
export type DecodedFile =
  | { readonly kind: 'browser'; readonly type: ImageKind; readonly mime: string }
  | { readonly kind: 'image'; readonly type: 'dds' | 'tga'; readonly image: TextureImage };


/**
 * Decodes or identifies `bytes` (decoder chosen by content, then by `name`). Throws an Error whose
 * message is ready for the user: "corrupt DDS: truncated data ...", "unsupported DDS: cube maps ...",
 * "unrecognised image format ...".
 */
export function decodeTextureFile(bytes: Uint8Array, name: string, limits: DecodeLimits = DEFAULT_LIMITS): DecodedFile {
  if (bytes.length === 0) throw new Error('the file is empty');
  const type = sniffImage(bytes, name);
  if (type === null) throw new Error('unrecognised image format (not DDS, TGA, PNG, JPEG, BMP, GIF or WebP)');
  if (type !== 'dds' && type !== 'tga') return { kind: 'browser', type, mime: browserImageMime(type)! };
  const label = type.toUpperCase();
  try {
    const image = type === 'dds' ? readDds(bytes, limits) : readTga(bytes, limits);
    return { kind: 'image', type, image };
  } catch (e) {
    const what = e instanceof UnsupportedImageError ? 'unsupported' : 'corrupt';
    throw new Error(`${what} ${label}: ${(e as Error).message}`, { cause: e });
  }
}
