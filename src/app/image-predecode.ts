import { embeddedImages, materialTextureNames } from '../gpu/textures.ts';
import { browserImageMime, decodeBitmap } from '../loaders/textures/bitmap.ts';
import { sniffImage } from '../loaders/textures/sniff.ts';
import { releaseEarlyImages, takeEarlyImage } from './early-images.ts';
import type { Scene } from '../model/types.ts';

/**
 * The parse worker's head start on a model's textures: the images the file itself carries (Scene.images, glTF)
 * that its materials name, in a format the browser decodes, are decoded to ImageBitmaps as soon as the file is
 * parsed — on the browser's own threads, while the worker prepares the Scene (model-prep.ts) — and travel to
 * the page with the Scene (transferred), which uploads them without decoding them again
 * (gpu/textures.ts prepareMaterialTextures `decoded`). Anything else (companion files, DDS, TGA, KTX2, a file the
 * browser cannot decode) is left to the page, which reads it and reports a problem as it always did.
 */

/**
 * Starts every decode before it returns (the bytes are handed to the browser then: the Scene's buffers may be
 * transferred afterwards); resolves with the bitmaps by material file name (materialTextureNames), never rejects.
 */
export function predecodeImages(scene: Scene): Promise<Map<string, ImageBitmap>> {
  const out = new Map<string, ImageBitmap>();
  if (!scene.images || scene.images.length === 0 || typeof createImageBitmap !== 'function') {
    releaseEarlyImages();
    return Promise.resolve(out);
  }
  const jobs: Promise<void>[] = [];
  const embedded = embeddedImages(scene.images);
  for (const name of materialTextureNames(scene.materials)) {
    const bytes = embedded(name);
    if (!bytes) continue;
    // The page's own rule (decodeTextureFile): the bytes' signature, else the name's extension.
    const kind = bytes.length > 0 ? sniffImage(bytes, name) : null;
    const mime = kind ? browserImageMime(kind) : null;
    if (!mime) continue;
    // Started already from the file's JSON, for the page's first model (early-images.ts).
    const decode = takeEarlyImage(bytes, mime) ?? decodeBitmap(bytes, mime);
    jobs.push(
      decode.then(
        (bitmap) => void out.set(name, bitmap),
        () => {}, // left to the page, which says why
      ),
    );
  }
  releaseEarlyImages();
  return Promise.all(jobs).then(() => out);
}

