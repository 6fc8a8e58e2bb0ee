/**
 * Material textures. Decoding uses the browser's image decoders (PNG, JPEG, BMP, GIF, WebP); other
 * formats are reported as unsupported and the material falls back to its colour. Uploaded with mipmaps,
 * no Y flip: D3D texture coordinates have their origin at the top-left, which is the first row uploaded.
 */

/** Fetches a companion file by the name a model wrote; null when it does not exist. */
export type CompanionSource = (name: string) => Promise<Uint8Array | null>;

const BROWSER_DECODABLE = /\.(png|jpe?g|bmp|gif|webp)$/i;

export interface DecodedTexture {
  readonly name: string;
  readonly image: ImageBitmap;
}

/** Loads and decodes one texture. Returns the image, or a warning saying why the colour is used instead. */
export async function decodeTexture(name: string, source: CompanionSource): Promise<DecodedTexture | string> {
  // Formats this build cannot decode are not even fetched.
  if (!BROWSER_DECODABLE.test(name)) {
    const dot = name.lastIndexOf('.');
    const ext = dot >= 0 ? name.slice(dot) : 'extension-less';
    return `texture '${name}': ${ext} images are not decoded by this build; using the material colour`;
  }
  const bytes = await source(name).catch(() => null);
  if (!bytes) return `texture '${name}' was not found next to the model; using the material colour`;
  try {
    const image = await createImageBitmap(new Blob([bytes as BlobPart]), { imageOrientation: 'none', premultiplyAlpha: 'none' });
    return { name, image };
  } catch {
    return `texture '${name}' could not be decoded; using the material colour`;
  }
}

export function uploadTexture(gl: WebGL2RenderingContext, image: TexImageSource): WebGLTexture {
  const tex = gl.createTexture();
  if (!tex) throw new Error('createTexture failed');
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, image);
  gl.generateMipmap(gl.TEXTURE_2D);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.REPEAT);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.REPEAT);
  gl.bindTexture(gl.TEXTURE_2D, null);
  return tex;
}

/** A 1x1 texture of one RGBA colour (the "no texture" white). */
export function solidTexture(gl: WebGL2RenderingContext, rgba: [number, number, number, number]): WebGLTexture {
  const tex = gl.createTexture();
  if (!tex) throw new Error('createTexture failed');
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(rgba));
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.bindTexture(gl.TEXTURE_2D, null);
  return tex;
}
