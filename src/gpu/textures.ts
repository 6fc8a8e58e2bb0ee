import { decodeTextureFile } from '../loaders/textures/decode.ts';
import { decodeDxt, type BlockFormat } from '../loaders/textures/dxt.ts';
import { DEFAULT_LIMITS, fullMipCount, type DecodeLimits, type MipLevel, type TextureImage } from '../loaders/textures/image.ts';
import type { Ktx2Image, Ktx2Support } from '../loaders/textures/ktx2.ts';
import type { SceneImage } from '../model/types.ts';
import { ktx2Support, prepareKtx2, uploadKtx2 } from './ktx2-upload.ts';
import { allocateMipChain, beginTexture, finishTexture } from './texture-state.ts';
import { isKtx2 } from '../loaders/textures/sniff.ts';
import { decodeBitmap } from '../loaders/textures/bitmap.ts';

/**
 * Material textures: fetch (an image embedded in the model first: withEmbeddedImages), decode, upload. PNG, JPEG, BMP, GIF and WebP go through the browser's
 * decoders; DDS and TGA through src/loaders/textures. DXT data is uploaded compressed when the device
 * has WEBGL_compressed_texture_s3tc and decoded to RGBA8 on the CPU otherwise. KTX2: ktx2-upload.ts.
 *
 * Orientation: no Y flip anywhere. D3D texture coordinates put v = 0 at the top of the image and every
 * decoder delivers the top row first, so the first row uploaded is v = 0.
 *
 * Values are uploaded as stored (no colour-space conversion, no premultiplication), all RGBA8: lit.frag decodes
 * the colour maps (diffuse / base colour, emissive) from sRGB itself and reads the data maps (metallic-roughness,
 * normal, occlusion) as linear values.
 */

/** The data and emissive maps of one material (MaterialMaps), by Material field. */
export const MATERIAL_MAP_FIELDS = ['metallicRoughnessMap', 'normalMap', 'occlusionMap', 'emissiveMap'] as const;
export type MaterialMapField = (typeof MATERIAL_MAP_FIELDS)[number];

/** What the texture loader reads of a material: the diffuse map and, when named, the other maps. */
export type MaterialTextureNames = { readonly diffuseMap: string | null } & { readonly [K in MaterialMapField]?: string | null };

/**
 * A material's other maps (null: none named; the renderer then uses its neutral default). A map whose file is
 * missing or unusable gets a neutral stand-in instead of the checker (a data map showing a checker would
 * read as wild normals or metal): a flat normal, white metallic-roughness and occlusion (the factors alone),
 * black emissive (no glow).
 */
export type MaterialMaps = { [K in MaterialMapField]: WebGLTexture | null };

/** The neutral stand-in (RGBA8) of each map whose file cannot be used. */
const NEUTRAL: Readonly<Record<MaterialMapField, [number, number, number, number]>> = {
  metallicRoughnessMap: [255, 255, 255, 255],
  normalMap: [128, 128, 255, 255],
  occlusionMap: [255, 255, 255, 255],
  emissiveMap: [0, 0, 0, 255],
};

const mapName = (m: MaterialTextureNames, field: 'diffuseMap' | MaterialMapField): string | undefined => m[field]?.trim() || undefined;

/** Every file the materials name (diffuse and other maps), trimmed, each once: the keys of PreparedTextures. */
export function materialTextureNames(materials: readonly MaterialTextureNames[]): string[] {
  return [...new Set(materials.flatMap((m) => [mapName(m, 'diffuseMap'), ...MATERIAL_MAP_FIELDS.map((f) => mapName(m, f))]).filter((n): n is string => !!n))];
}

/** Fetches a companion file by the name a model wrote; null when it does not exist. */
export type CompanionSource = (name: string) => Promise<Uint8Array | null>;

/**
 * The companions of a model whose file carries images of its own (Scene.images, glTF): a name that is an
 * embedded image's `name` (exactly, or once trimmed) gets those bytes; any other name goes to `companions`.
 * `companions` itself when there are no images. The bytes are the scene's own (not copied): decoders only read them.
 */
export function withEmbeddedImages(images: readonly SceneImage[] | undefined, companions: CompanionSource): CompanionSource {
  if (!images || images.length === 0) return companions;
  const find = embeddedImages(images);
  return (name) => Promise.resolve(find(name)).then((bytes) => bytes ?? companions(name));
}

/** withEmbeddedImages' lookup alone: the bytes of the embedded image a name stands for, or null. */
export function embeddedImages(images: readonly SceneImage[]): (name: string) => Uint8Array | null {
  const byName = new Map<string, Uint8Array>();
  for (const image of images) {
    byName.set(image.name, image.bytes);
    if (!byName.has(image.name.trim())) byName.set(image.name.trim(), image.bytes);
  }
  return (name) => byName.get(name) ?? byName.get(name.trim()) ?? null;
}

/** A file ready to upload, or the reason it cannot be used. */
type Prepared =
  | { readonly ok: true; readonly image: TextureImage }
  | { readonly ok: true; readonly bitmap: ImageBitmap }
  | { readonly ok: true; readonly basis: Ktx2Image }
  | { readonly ok: false; readonly reason: string };

/**
 * Loads the diffuse map of every material. Returns one entry per material: null for a material without
 * a map (the renderer then uses its white texture), otherwise a texture: the image, or an 8x8 checker
 * when the file is missing or cannot be decoded (a warning naming the file and the reason is appended to
 * `warnings`, once per file). Never throws for a texture problem; throws an AbortError when `signal` is
 * aborted, having created no texture.
 *
 * Ownership: materials naming the same file share its fetch, its decode and its texture (and those naming one
 * unusable file, its checker): the caller owns each distinct non-null texture and deletes it exactly once.
 *
 * The two halves are exported for callers that must wait between them (ModelGpu.create waits out a lost
 * context after decoding): prepareMaterialTextures (async, CPU only) and uploadMaterialTextures (synchronous,
 * GL only, releases what it was given).
 */
export async function loadMaterialTextures(
  gl: WebGL2RenderingContext,
  materials: readonly MaterialTextureNames[],
  companions: CompanionSource,
  warnings: string[],
  signal?: AbortSignal,
): Promise<(WebGLTexture | null)[]> {
  const prepared = await prepareMaterialTextures(gl, materials, companions);
  if (signal?.aborted) {
    releasePreparedTextures(prepared);
    throw new DOMException('loading cancelled', 'AbortError');
  }
  return uploadMaterialTextures(gl, materials, prepared, warnings);
}

/** Decoded files by name, ready to upload (ImageBitmaps held until uploadMaterialTextures or releasePreparedTextures). */
export type PreparedTextures = ReadonlyMap<string, Prepared>;

/**
 * Fetches and decodes every file the materials name (each once). CPU only: the one GL call reads
 * MAX_TEXTURE_SIZE, and a lost context's null falls back to the default limit. Never throws for a file.
 * `decoding`: files decoded already, or being decoded (by the parse worker, app/image-predecode.ts, with
 * decodeBitmap), by name (materialTextureNames): waited for, taken over (closed here when no material names
 * them), checked against this device's size limit like the page's own decodes; the page decodes the rest.
 */
export async function prepareMaterialTextures(
  gl: WebGL2RenderingContext,
  materials: readonly MaterialTextureNames[],
  companions: CompanionSource,
  decoding?: Promise<ReadonlyMap<string, ImageBitmap> | undefined>,
): Promise<PreparedTextures> {
  const maxSize = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number | null;
  const limits: DecodeLimits = { ...DEFAULT_LIMITS, maxDimension: Math.min(DEFAULT_LIMITS.maxDimension, maxSize || DEFAULT_LIMITS.maxDimension) };
  const names = materialTextureNames(materials);
  const decoded = await decoding;
  if (decoded) for (const [name, bitmap] of decoded) if (!names.includes(name)) bitmap.close();
  const prepared = new Map<string, Prepared>();
  // Asked only when a KTX2 file is met: the first extension query is a round trip that waits for the GPU process.
  let support: Ktx2Support | null = null;
  const supportOnce = (): Ktx2Support => (support ??= ktx2Support(gl));
  await Promise.all(
    names.map(async (name) => {
      const bitmap = decoded?.get(name);
      prepared.set(name, bitmap ? sizeChecked(bitmap, limits) : await prepareTexture(name, companions, limits, supportOnce));
    }),
  );
  return prepared;
}

/** Closes the ImageBitmaps of prepared files that will not be uploaded. */
export function releasePreparedTextures(prepared: PreparedTextures): void {
  for (const p of prepared.values()) if (p.ok && 'bitmap' in p) p.bitmap.close();
}

/**
 * Creates one texture per textured material from prepared files (see loadMaterialTextures for the entries,
 * checkers and warnings), then releases `prepared`. Synchronous: call it on a live context.
 */
export function uploadMaterialTextures(
  gl: WebGL2RenderingContext,
  materials: readonly MaterialTextureNames[],
  prepared: PreparedTextures,
  warnings: string[],
): (WebGLTexture | null)[] {
  return uploadMaterialSet(gl, materials, prepared, warnings).diffuse;
}

/**
 * uploadMaterialTextures plus every material's other maps (MaterialMaps: the named file's texture, or a neutral
 * stand-in with one warning per file for a missing or unusable one). Each file is uploaded once: every map and
 * material naming it gets the same texture (the values go in as stored, so one texture serves as colour and as
 * data alike), and one stand-in serves each role. Releases `prepared`. The caller owns each distinct non-null
 * texture of both lists (distinctTextures) and deletes it once.
 */
export function uploadMaterialSet(
  gl: WebGL2RenderingContext,
  materials: readonly MaterialTextureNames[],
  prepared: PreparedTextures,
  warnings: string[],
): { diffuse: (WebGLTexture | null)[]; maps: MaterialMaps[] } {
  try {
    const warn = (text: string): void => {
      if (!warnings.includes(text)) warnings.push(text);
    };
    // Asked only for a DXT image: the first extension query is a round trip that waits for the GPU process.
    let s3tcExt: WEBGL_compressed_texture_s3tc | null | undefined;
    const s3tc = (image: TextureImage): WEBGL_compressed_texture_s3tc | null =>
      image.format === 'rgba8' ? null : s3tcExt === undefined ? (s3tcExt = gl.getExtension('WEBGL_compressed_texture_s3tc')) : s3tcExt;
    for (const [name, p] of prepared) {
      if (p.ok && 'image' in p) for (const n of p.image.notes) warn(`texture '${name}': ${n}`);
    }
    // Each file is uploaded once, however many materials or maps name it (three materials sharing a 2048² atlas
    // would otherwise upload, mip and hold it three times); a file that cannot be used gets one stand-in per role.
    const uploaded = new Map<string, WebGLTexture>();
    const upload = (name: string, p: Prepared & { ok: true }): WebGLTexture => {
      let tex = uploaded.get(name);
      if (!tex) {
        tex = 'image' in p ? uploadTextureImage(gl, p.image, s3tc(p.image)) : 'basis' in p ? uploadKtx2(gl, p.basis) : uploadBitmap(gl, p.bitmap);
        uploaded.set(name, tex);
      }
      return tex;
    };
    const standIns = new Map<string, WebGLTexture | null>();
    const standIn = (key: string, make: () => WebGLTexture): WebGLTexture | null => {
      if (!standIns.has(key)) {
        let tex: WebGLTexture | null = null;
        try {
          tex = make();
        } catch {
          // A lost context: the material draws with the renderer's default instead.
        }
        standIns.set(key, tex);
      }
      return standIns.get(key)!;
    };
    const diffuse = materials.map((m) => {
      const name = mapName(m, 'diffuseMap');
      if (!name) return null;
      const p = prepared.get(name)!;
      try {
        if (p.ok) return upload(name, p);
        warn(`texture '${name}' ${p.reason}; showing a checker`);
      } catch (e) {
        warn(`texture '${name}' could not be uploaded: ${(e as Error).message}; showing a checker`);
      }
      return standIn(`checker ${name}`, () => checkerTexture(gl));
    });
    const maps = materials.map((m) => {
      const out = { metallicRoughnessMap: null, normalMap: null, occlusionMap: null, emissiveMap: null } as MaterialMaps;
      for (const field of MATERIAL_MAP_FIELDS) {
        const name = mapName(m, field);
        if (!name) continue;
        const p = prepared.get(name)!;
        try {
          if (p.ok) {
            out[field] = upload(name, p);
            continue;
          }
          warn(`texture '${name}' ${p.reason}; drawn without it`);
        } catch (e) {
          warn(`texture '${name}' could not be uploaded: ${(e as Error).message}; drawn without it`);
        }
        out[field] = standIn(field, () => solidTexture(gl, NEUTRAL[field]));
      }
      return out;
    });
    return { diffuse, maps };
  } finally {
    releasePreparedTextures(prepared);
  }
}

/** The distinct textures of uploadMaterialSet's lists, each once: what their owner deletes. */
export function distinctTextures(diffuse: readonly (WebGLTexture | null)[], maps: readonly MaterialMaps[]): Set<WebGLTexture> {
  const out = new Set<WebGLTexture>();
  for (const t of diffuse) if (t) out.add(t);
  for (const m of maps) for (const field of MATERIAL_MAP_FIELDS) if (m[field]) out.add(m[field]);
  return out;
}

/** Fetches and decodes one file; every failure becomes a reason. */
async function prepareTexture(name: string, companions: CompanionSource, limits: DecodeLimits, support: () => Ktx2Support): Promise<Prepared> {
  const bytes = await companions(name).catch(() => null);
  if (!bytes) return { ok: false, reason: 'was not found next to the model' };
  if (isKtx2(bytes)) return prepareKtx2(bytes, support(), limits);
  let decoded;
  try {
    decoded = decodeTextureFile(bytes, name, limits);
  } catch (e) {
    return { ok: false, reason: `is unusable: ${(e as Error).message}` };
  }
  if (decoded.kind === 'image') return { ok: true, image: decoded.image };
  let bitmap: ImageBitmap;
  try {
    bitmap = await decodeBitmap(bytes, decoded.mime);
  } catch {
    return { ok: false, reason: `is unusable: corrupt ${decoded.type.toUpperCase()}: the browser could not decode it` };
  }
  return sizeChecked(bitmap, limits);
}

/** A decoded bitmap ready to upload, or (closed) the reason it is larger than the device takes. */
function sizeChecked(bitmap: ImageBitmap, limits: DecodeLimits): Prepared {
  if (bitmap.width > limits.maxDimension || bitmap.height > limits.maxDimension) {
    bitmap.close();
    return { ok: false, reason: `is unusable: ${bitmap.width}x${bitmap.height} is larger than this device's ${limits.maxDimension} pixel limit` };
  }
  return { ok: true, bitmap };
}

/**
 * Uploads a browser-decoded image as level 0 of immutable storage that holds its whole mip chain, then generates
 * the chain. The caller owns the texture.
 */
export function uploadBitmap(gl: WebGL2RenderingContext, image: ImageBitmap): WebGLTexture {
  const tex = beginTexture(gl);
  allocateMipChain(gl, image.width, image.height);
  gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, gl.RGBA, gl.UNSIGNED_BYTE, image);
  gl.generateMipmap(gl.TEXTURE_2D);
  return finishTexture(gl, tex);
}

/** Which path uploadTextureImage takes for DXT data on a device with (non-null) or without the extension. */
export function dxtUploadPath(image: TextureImage, s3tc: WEBGL_compressed_texture_s3tc | null): 'compressed' | 'cpu' | 'none' {
  if (image.format === 'rgba8') return 'none';
  // WEBGL_compressed_texture_s3tc (as first published) accepts level sizes that are multiples of 4, or
  // below 4 for levels after the first; other chains (12x12 -> 6x6 -> 3x3) are decoded on the CPU.
  const blockable = (n: number, i: number): boolean => n % 4 === 0 || (i > 0 && n < 4);
  const fits = image.levels.every((l, i) => blockable(l.width, i) && blockable(l.height, i));
  return s3tc && fits ? 'compressed' : 'cpu';
}

/**
 * Uploads a decoded DDS/TGA image. The caller owns the texture.
 * - DXT with the extension: each level the file has via compressedTexImage2D (levels below 4x4 still
 *   hold one whole block); TEXTURE_MAX_LEVEL is the last level present, since compressed levels cannot
 *   be generated.
 * - DXT without it: every level decoded to RGBA8 on the CPU, then as RGBA8.
 * - RGBA8: all levels when the chain is complete, else level 0 and a generated chain.
 */
export function uploadTextureImage(gl: WebGL2RenderingContext, image: TextureImage, s3tc: WEBGL_compressed_texture_s3tc | null): WebGLTexture {
  const path = dxtUploadPath(image, s3tc);
  if (path === 'cpu') {
    const format = image.format as BlockFormat;
    const levels = image.levels.map((l) => ({ width: l.width, height: l.height, data: decodeDxt(format, l.width, l.height, l.data) }));
    return uploadRgba(gl, image.width, image.height, levels);
  }
  if (path === 'none') return uploadRgba(gl, image.width, image.height, image.levels);
  const internal = {
    dxt1: s3tc!.COMPRESSED_RGBA_S3TC_DXT1_EXT,
    dxt3: s3tc!.COMPRESSED_RGBA_S3TC_DXT3_EXT,
    dxt5: s3tc!.COMPRESSED_RGBA_S3TC_DXT5_EXT,
  }[image.format as BlockFormat];
  const tex = beginTexture(gl);
  image.levels.forEach((l, i) => gl.compressedTexImage2D(gl.TEXTURE_2D, i, internal, l.width, l.height, 0, l.data));
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, image.levels.length - 1);
  return finishTexture(gl, tex);
}

function uploadRgba(gl: WebGL2RenderingContext, width: number, height: number, levels: readonly MipLevel[]): WebGLTexture {
  const tex = beginTexture(gl);
  const complete = levels.length === fullMipCount(width, height);
  allocateMipChain(gl, width, height);
  for (const [i, l] of (complete ? levels : levels.slice(0, 1)).entries()) {
    gl.texSubImage2D(gl.TEXTURE_2D, i, 0, 0, l.width, l.height, gl.RGBA, gl.UNSIGNED_BYTE, l.data);
  }
  if (!complete) gl.generateMipmap(gl.TEXTURE_2D);
  return finishTexture(gl, tex);
}

/** Checker colours: magenta and dark grey, unlike any real material. */
const CHECKER_A = [255, 0, 255, 255];
const CHECKER_B = [48, 48, 48, 255];

/**
 * A new 8x8 magenta / dark-grey checker (one cell per texel, nearest filtering, repeating): the visible
 * stand-in for a missing or unusable texture. The caller owns it.
 */
export function checkerTexture(gl: WebGL2RenderingContext): WebGLTexture {
  const pixels = new Uint8Array(8 * 8 * 4);
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) pixels.set((x + y) & 1 ? CHECKER_B : CHECKER_A, (y * 8 + x) * 4);
  const tex = beginTexture(gl);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, 8, 8, 0, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.REPEAT);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.REPEAT);
  gl.bindTexture(gl.TEXTURE_2D, null);
  return tex;
}

/** A 1x1 texture of one RGBA colour (the "no texture" white). The caller owns it. */
export function solidTexture(gl: WebGL2RenderingContext, rgba: [number, number, number, number]): WebGLTexture {
  const tex = beginTexture(gl);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(rgba));
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.bindTexture(gl.TEXTURE_2D, null);
  return tex;
}
