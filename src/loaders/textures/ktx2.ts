import {
  KHR_DF_MODEL_ETC1S,
  KHR_DF_MODEL_UASTC,
  KHR_SUPERCOMPRESSION_BASISLZ,
  KHR_SUPERCOMPRESSION_NONE,
  KHR_SUPERCOMPRESSION_ZSTD,
  read,
  type KTX2Container,
} from 'ktx-parse';
import { forgetBasis, loadBasis, type BasisKtx2File } from './basis-module.ts';
import { checkDimensions, fullMipCount, mipSize, UnsupportedImageError, type DecodeLimits, type MipLevel } from './image.ts';

/**
 * KTX2 images with Basis Universal data (glTF's KHR_texture_basisu: ETC1S + BasisLZ, or UASTC, raw or Zstd)
 * → GPU-ready mip levels in a format the device samples, through Binomial's transcoder (basis-module.ts).
 * Pure data: no WebGL (the GPU module says what the device supports and uploads the result).
 *
 * Safety: the container is read and checked first with ktx-parse (2D only, one face and layer, Basis data,
 * the size and level count within `limits` and the full chain) before the transcoder sees the bytes, and
 * every level's output size is checked against the one its size implies before it is allocated. Bad files
 * throw an Error whose message is ready for the user ("corrupt KTX2: …", "unsupported KTX2: …").
 *
 * Orientation: KHR_texture_basisu images are stored top row first (KTX orientation "rd"), which is what the
 * page uploads without a flip.
 */

/** What the transcoder writes: the GPU format the levels are in. */
export type Ktx2Target = 'astc' | 'bc7' | 'etc2-rgba' | 'etc2-rgb' | 'bc3' | 'bc1' | 'rgba8';

/** The compressed-texture extensions the device has (WebGL names in gpu/ktx2-upload.ts). */
export interface Ktx2Support {
  readonly astc: boolean;
  readonly bc7: boolean;
  readonly etc2: boolean;
  readonly s3tc: boolean;
}

export const NO_COMPRESSION: Ktx2Support = { astc: false, bc7: false, etc2: false, s3tc: false };

export interface Ktx2Image {
  readonly target: Ktx2Target;
  readonly codec: 'etc1s' | 'uastc';
  readonly width: number;
  readonly height: number;
  readonly hasAlpha: boolean;
  /** Level 0 first; each `mipSize` of the one before; as many as the file has (1..fullMipCount). */
  readonly levels: readonly MipLevel[];
}

/** The transcoder's format names per target, and bytes per 4x4 block (0: 4 bytes per pixel). */
const FORMATS: Readonly<Record<Ktx2Target, { readonly name: string; readonly block: number }>> = {
  astc: { name: 'cTFASTC_4x4_RGBA', block: 16 },
  bc7: { name: 'cTFBC7_RGBA', block: 16 },
  'etc2-rgba': { name: 'cTFETC2_RGBA', block: 16 },
  'etc2-rgb': { name: 'cTFETC1_RGB', block: 8 },
  bc3: { name: 'cTFBC3_RGBA', block: 16 },
  bc1: { name: 'cTFBC1_RGB', block: 8 },
  rgba8: { name: 'cTFRGBA32', block: 0 },
};

/** Bytes a level of `target` takes. */
export function levelBytes(target: Ktx2Target, width: number, height: number): number {
  const block = FORMATS[target].block;
  return block === 0 ? width * height * 4 : Math.ceil(width / 4) * Math.ceil(height / 4) * block;
}

/**
 * The target for an image: the best the device samples for the codec (UASTC: ASTC, BC7, ETC2, S3TC — in
 * quality order; ETC1S: ETC2, BC7, S3TC, ASTC — the ones it transcodes to fastest first), RGBA8 when none.
 * WebGL takes BC levels whose sides are multiples of 4 (or below 4 after level 0), so other chains of `levels`
 * levels (12x12 → 6x6) skip them.
 */
export function chooseTarget(codec: 'etc1s' | 'uastc', hasAlpha: boolean, support: Ktx2Support, width: number, height: number, levels = 1): Ktx2Target {
  const blockable = (n: number, i: number): boolean => n % 4 === 0 || (i > 0 && n < 4);
  let bcOk = true;
  for (let i = 0; i < levels; i++) bcOk &&= blockable(mipSize(width, i), i) && blockable(mipSize(height, i), i);
  const etc2: Ktx2Target | null = support.etc2 ? (hasAlpha ? 'etc2-rgba' : 'etc2-rgb') : null;
  const bc7: Ktx2Target | null = support.bc7 && bcOk ? 'bc7' : null;
  const s3tc: Ktx2Target | null = support.s3tc && bcOk ? (hasAlpha ? 'bc3' : 'bc1') : null;
  const astc: Ktx2Target | null = support.astc ? 'astc' : null;
  const order = codec === 'uastc' ? [astc, bc7, etc2, s3tc] : [etc2, bc7, s3tc, astc];
  for (const t of order) if (t) return t;
  return 'rgba8';
}

/** The container's facts the transcode relies on, checked. Throws the user-ready Error described above. */
export function checkKtx2(bytes: Uint8Array, limits: DecodeLimits): { codec: 'etc1s' | 'uastc'; width: number; height: number; levels: number } {
  let ktx: KTX2Container;
  try {
    ktx = read(bytes);
  } catch (e) {
    throw new Error(`corrupt KTX2: the container cannot be read (${(e as Error).message})`, { cause: e });
  }
  const unsupported = (what: string): never => {
    throw new UnsupportedImageError(`unsupported KTX2: ${what}`);
  };
  const model = ktx.dataFormatDescriptor[0]?.colorModel;
  const scheme = ktx.supercompressionScheme;
  let codec: 'etc1s' | 'uastc';
  if (ktx.vkFormat !== 0) return unsupported(`Vulkan format ${ktx.vkFormat} is not Basis Universal (only ETC1S and UASTC data are transcoded)`);
  if (model === KHR_DF_MODEL_ETC1S && scheme === KHR_SUPERCOMPRESSION_BASISLZ) codec = 'etc1s';
  else if (model === KHR_DF_MODEL_UASTC && (scheme === KHR_SUPERCOMPRESSION_NONE || scheme === KHR_SUPERCOMPRESSION_ZSTD)) codec = 'uastc';
  else return unsupported(`colour model ${model ?? 'missing'} with supercompression ${scheme} is not Basis ETC1S or UASTC`);
  if (ktx.pixelDepth > 1) unsupported('3D textures are not drawn');
  if (ktx.layerCount > 1) unsupported('texture arrays are not drawn');
  if (ktx.faceCount !== 1) unsupported('cube maps are not drawn');
  const width = ktx.pixelWidth;
  const height = ktx.pixelHeight;
  try {
    checkDimensions(width, height, limits);
  } catch (e) {
    throw new Error(`corrupt KTX2: ${(e as Error).message}`, { cause: e });
  }
  const levels = ktx.levels.length;
  if (levels < 1 || levels > fullMipCount(width, height)) {
    throw new Error(`corrupt KTX2: ${levels} mip levels for a ${width}x${height} image (1 to ${fullMipCount(width, height)})`);
  }
  if (ktx.levels.some((l) => l.levelData.byteLength === 0)) throw new Error('corrupt KTX2: a mip level has no data');
  return { codec, width, height, levels };
}

/**
 * Transcodes every level of a Basis KTX2 image to the target chooseTarget picks for `support`. Loads the
 * transcoder on first use. Throws the user-ready Error described above; the transcoder's own failures read
 * "corrupt KTX2: …" too.
 */
export async function decodeKtx2(bytes: Uint8Array, support: Ktx2Support, limits: DecodeLimits): Promise<Ktx2Image> {
  const header = checkKtx2(bytes, limits);
  const basis = await loadBasis();
  let file: BasisKtx2File | null = null;
  try {
    file = new basis.KTX2File(bytes);
    if (!file.isValid()) throw new Error('corrupt KTX2: the Basis transcoder rejects the file');
    if (file.getWidth() !== header.width || file.getHeight() !== header.height || file.getLevels() !== header.levels || file.isHDR?.()) {
      throw new Error('corrupt KTX2: the Basis transcoder reads the header differently');
    }
    const hasAlpha = file.getHasAlpha();
    const target = chooseTarget(header.codec, hasAlpha, support, header.width, header.height, header.levels);
    const format = basis.transcoder_texture_format[FORMATS[target].name]?.value;
    if (format === undefined) throw new Error(`the Basis transcoder has no ${FORMATS[target].name}`);
    if (!file.startTranscoding()) throw new Error('corrupt KTX2: the Basis transcoder cannot start on it');
    const levels: MipLevel[] = [];
    for (let i = 0; i < header.levels; i++) {
      const width = mipSize(header.width, i);
      const height = mipSize(header.height, i);
      const size = levelBytes(target, width, height);
      const reported = file.getImageTranscodedSizeInBytes(i, 0, 0, format);
      if (reported !== size) throw new Error(`corrupt KTX2: level ${i} would transcode to ${reported} bytes, not ${size}`);
      const data = new Uint8Array(size);
      if (!file.transcodeImage(data, i, 0, 0, format, 0, -1, -1)) throw new Error(`corrupt KTX2: level ${i} (${width}x${height}) could not be transcoded`);
      levels.push({ width, height, data });
    }
    return { target, codec: header.codec, width: header.width, height: header.height, hasAlpha, levels };
  } catch (e) {
    // An Emscripten abort (RuntimeError) leaves the module unusable: the next image starts a fresh one.
    if (e instanceof WebAssembly.RuntimeError || !(e instanceof Error) || !e.message.startsWith('corrupt KTX2')) {
      forgetBasis();
      throw new Error(`corrupt KTX2: the Basis transcoder failed (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
    throw e;
  } finally {
    if (file) {
      try {
        file.close();
        file.delete();
      } catch {
        // The module aborted: it is already forgotten.
      }
    }
  }
}
