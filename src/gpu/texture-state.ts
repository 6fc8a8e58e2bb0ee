import { fullMipCount } from '../loaders/textures/image.ts';

/**
 * The GL state every 2D texture upload here shares: the unpack state set before the data goes in, the RGBA8
 * storage of a whole mip chain, and the sampling set after it. textures.ts (images, DXT, stand-ins) and
 * ktx2-upload.ts (KTX2) both begin and finish their textures through these, so the two cannot drift apart.
 */

/**
 * A new texture object bound to TEXTURE_2D, with the unpack state every upload assumes: no Y flip, no
 * premultiplication, no colour-space conversion, rows packed on bytes. Throws when the context is lost.
 */
export function beginTexture(gl: WebGL2RenderingContext): WebGLTexture {
  const tex = gl.createTexture();
  if (!tex) throw new Error('createTexture failed (context lost?)');
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
  gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
  gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  return tex;
}

/**
 * RGBA8 storage for every level of a `width` × `height` image on the bound TEXTURE_2D, made once: the levels
 * are then written into it (texSubImage2D, generateMipmap). Level 0 defined alone (texImage2D) and a chain
 * generated after it makes the GL allocate the image twice, the second time with room for the chain, and copy
 * level 0 across: on a software GPU that doubles the GPU process's work for an upload (a 1024² image: 40–60
 * against 20–30 ms, docs/performance.md).
 */
export function allocateMipChain(gl: WebGL2RenderingContext, width: number, height: number): void {
  gl.texStorage2D(gl.TEXTURE_2D, fullMipCount(width, height), gl.RGBA8, width, height);
}

/** Trilinear, repeating sampling on the bound `tex`; unbinds TEXTURE_2D and returns `tex`. */
export function finishTexture(gl: WebGL2RenderingContext, tex: WebGLTexture): WebGLTexture {
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.REPEAT);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.REPEAT);
  gl.bindTexture(gl.TEXTURE_2D, null);
  return tex;
}
