import { allocateMipChain, beginTexture, finishTexture } from './texture-state.ts';
import { fullMipCount, type DecodeLimits } from '../loaders/textures/image.ts';
import type { Ktx2Image, Ktx2Support, Ktx2Target } from '../loaders/textures/ktx2.ts';

/**
 * The GL half of KTX2 textures (loaders/textures/ktx2.ts transcodes): which compressed formats this context
 * samples, and the upload of a transcoded image.
 *
 * Values are uploaded as stored (UNORM formats, no sRGB decode), like every other texture here: lit.frag
 * treats colours as sRGB-encoded. No Y flip (KTX2 in glTF is stored top row first).
 */

/** The extensions ktx2.ts chooses between, enabled on `gl` as a side effect (WebGL enables on request). */
export function ktx2Support(gl: WebGL2RenderingContext): Ktx2Support {
  return {
    astc: gl.getExtension('WEBGL_compressed_texture_astc') !== null,
    bc7: gl.getExtension('EXT_texture_compression_bptc') !== null,
    etc2: gl.getExtension('WEBGL_compressed_texture_etc') !== null,
    s3tc: gl.getExtension('WEBGL_compressed_texture_s3tc') !== null,
  };
}

/** GL internal format and the extension that provides it, per compressed target. */
const INTERNAL: Readonly<Record<Exclude<Ktx2Target, 'rgba8'>, readonly [number, string]>> = {
  astc: [0x93b0, 'WEBGL_compressed_texture_astc'], // COMPRESSED_RGBA_ASTC_4x4_KHR
  bc7: [0x8e8c, 'EXT_texture_compression_bptc'], // COMPRESSED_RGBA_BPTC_UNORM_EXT
  'etc2-rgba': [0x9278, 'WEBGL_compressed_texture_etc'], // COMPRESSED_RGBA8_ETC2_EAC
  'etc2-rgb': [0x9274, 'WEBGL_compressed_texture_etc'], // COMPRESSED_RGB8_ETC2 (ETC1 data is valid ETC2)
  bc3: [0x83f3, 'WEBGL_compressed_texture_s3tc'], // COMPRESSED_RGBA_S3TC_DXT5_EXT
  bc1: [0x83f0, 'WEBGL_compressed_texture_s3tc'], // COMPRESSED_RGB_S3TC_DXT1_EXT
};

/**
 * A new texture holding `image`: every level the file has, compressed or RGBA8; a partial chain is capped with
 * TEXTURE_MAX_LEVEL (RGBA8: the rest generated). Trilinear, repeating. The caller owns the texture. Throws
 * when the context lacks the target's extension (a context restored since ktx2Support asked).
 */
export function uploadKtx2(gl: WebGL2RenderingContext, image: Ktx2Image): WebGLTexture {
  const compressed = image.target === 'rgba8' ? null : INTERNAL[image.target];
  if (compressed && !gl.getExtension(compressed[1])) throw new Error(`${compressed[1]} is not available on this context`);
  const tex = beginTexture(gl);
  const full = fullMipCount(image.width, image.height);
  // RGBA8: storage for the whole chain made once, the file's levels written into it (allocateMipChain says why).
  if (!compressed) allocateMipChain(gl, image.width, image.height);
  image.levels.forEach((l, i) => {
    if (compressed) gl.compressedTexImage2D(gl.TEXTURE_2D, i, compressed[0], l.width, l.height, 0, l.data);
    else gl.texSubImage2D(gl.TEXTURE_2D, i, 0, 0, l.width, l.height, gl.RGBA, gl.UNSIGNED_BYTE, l.data);
  });
  if (image.levels.length < full) {
    if (compressed) gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, image.levels.length - 1);
    else gl.generateMipmap(gl.TEXTURE_2D);
  }
  return finishTexture(gl, tex);
}

/**
 * Transcodes a KTX2 file for textures.ts's prepare step (the decoder and the Basis transcoder are loaded on
 * first use): the image, or the reason it cannot be used (a sentence ending for "texture 'x' …").
 */
export async function prepareKtx2(bytes: Uint8Array, support: Ktx2Support, limits: DecodeLimits): Promise<{ readonly ok: true; readonly basis: Ktx2Image } | { readonly ok: false; readonly reason: string }> {
  try {
    const { decodeKtx2 } = await import('../loaders/textures/ktx2.ts');
    return { ok: true, basis: await decodeKtx2(bytes, support, limits) };
  } catch (e) {
    return { ok: false, reason: `is unusable: ${(e as Error).message}` };
  }
}
