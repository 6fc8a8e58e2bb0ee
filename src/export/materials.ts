import type { Document, Material as GltfMaterial, Texture } from '@gltf-transform/core';
import { KHRTextureBasisu } from '@gltf-transform/extensions';
import { decodeTextureFile } from '../loaders/textures/decode.ts';
import { decodeDxt } from '../loaders/textures/dxt.ts';
import { encodePng } from '../loaders/textures/png-encode.ts';
import { isKtx2, sniffImage } from '../loaders/textures/sniff.ts';
import type { Material, Scene } from '../model/types.ts';

/**
 * The Scene's materials as glTF metallic-roughness materials:
 * - baseColorFactor: the renderer treats Material.diffuse as sRGB-encoded, so rgb^2.2 is the linear factor;
 *   alpha as is. Metallic 0; roughness from the specular power (sqrt(2 / (power + 2)), 1 without one).
 * - alphaMode / alphaCutoff / doubleSided from the material where set; otherwise OPAQUE and double-sided,
 *   as the app draws .x and .m3d materials.
 * - baseColorTexture from `diffuseMap`: the bytes of the Scene's embedded image of that name, else those
 *   `textures(name)` returns. PNG, JPEG and WebP are embedded as they are; DDS (DXT blocks decoded first)
 *   and TGA are decoded and embedded as PNG; KTX2 is written as it is, through KHR_texture_basisu (required,
 *   as the file it came from had it: no PNG fallback is made). A texture that is missing or cannot be decoded leaves the
 *   material without it, with one warning per file name. Each file becomes one glTF texture, shared.
 * - A material read from glTF (Material.metallic set) keeps what it was read with: baseColor (linear, exact),
 *   metallic and roughness, and the metallicRoughness, normal (with its scale), occlusion (with its strength) and
 *   emissive maps and factor, through the same texture path. An emissive factor above 1 (read with
 *   KHR_materials_emissive_strength) is written scaled to its largest component 1, the extension not being written.
 */

export type TextureSource = (name: string) => Promise<Uint8Array | null>;

interface Embedded {
  readonly bytes: Uint8Array;
  readonly mimeType: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/ktx2';
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** The image as glTF can embed it, or an Error whose message says why it cannot. */
export function embeddableImage(bytes: Uint8Array, name: string): Embedded {
  if (isKtx2(bytes)) return { bytes, mimeType: 'image/ktx2' };
  const kind = sniffImage(bytes, name);
  if (kind === 'png') return { bytes, mimeType: 'image/png' };
  if (kind === 'jpeg') return { bytes, mimeType: 'image/jpeg' };
  if (kind === 'webp') return { bytes, mimeType: 'image/webp' };
  if (kind !== 'dds' && kind !== 'tga') {
    throw new Error(kind === null ? 'not an image format skinlab reads' : `${kind.toUpperCase()} images cannot be written into glTF (PNG, JPEG and WebP can; DDS and TGA are converted)`);
  }
  const decoded = decodeTextureFile(bytes, name);
  if (decoded.kind !== 'image') throw new Error('unexpected image kind');
  const { image } = decoded;
  const level = image.levels[0]!;
  const rgba = image.format === 'rgba8' ? level.data : decodeDxt(image.format, level.width, level.height, level.data);
  return { bytes: encodePng(rgba, level.width, level.height), mimeType: 'image/png' };
}

function linearFactor(m: Material): [number, number, number, number] {
  const [r, g, b, a] = m.diffuse;
  const lin = (c: number): number => Math.min(1, Math.max(0, c)) ** 2.2;
  return [lin(r), lin(g), lin(b), Math.min(1, Math.max(0, a))];
}

export async function buildMaterials(doc: Document, scene: Scene, textures: TextureSource, warnings: string[]): Promise<(GltfMaterial | null)[]> {
  const cache = new Map<string, Promise<Texture | null>>();
  const uris = new Set<string>();
  let basisu: KHRTextureBasisu | null = null;
  const textureFor = (name: string): Promise<Texture | null> => {
    let p = cache.get(name);
    if (!p) {
      p = (async () => {
        let bytes: Uint8Array | null = scene.images?.find((im) => im.name === name)?.bytes ?? null;
        if (!bytes) {
          try {
            bytes = await textures(name);
          } catch {
            bytes = null;
          }
        }
        if (!bytes) {
          warnings.push(`texture ${name} was not found: the materials that use it are written without it`);
          return null;
        }
        try {
          const img = embeddableImage(bytes, name);
          const stem = baseName(name).replace(/\.[^.]*$/, '') || 'texture';
          const ext = img.mimeType.slice('image/'.length).replace('jpeg', 'jpg');
          let uri = `${stem}.${ext}`;
          for (let k = 2; uris.has(uri.toLowerCase()); k++) uri = `${stem}_${k}.${ext}`;
          uris.add(uri.toLowerCase());
          if (img.mimeType === 'image/ktx2') basisu ??= doc.createExtension(KHRTextureBasisu).setRequired(true);
          return doc.createTexture(stem).setImage(img.bytes).setMimeType(img.mimeType).setURI(uri);
        } catch (e) {
          warnings.push(`texture ${name} could not be written (${(e as Error).message}): the materials that use it are written without it`);
          return null;
        }
      })();
      cache.set(name, p);
    }
    return p;
  };

  const out: (GltfMaterial | null)[] = [];
  const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));
  for (const m of scene.materials) {
    const mat = doc.createMaterial(m.name)
      .setBaseColorFactor(linearFactor(m))
      .setMetallicFactor(0)
      .setRoughnessFactor(m.specularPower > 0 ? Math.sqrt(2 / (m.specularPower + 2)) : 1)
      .setDoubleSided(m.doubleSided ?? true);
    if (m.metallic !== undefined) {
      if (m.baseColor) mat.setBaseColorFactor(m.baseColor.map(clamp01) as [number, number, number, number]);
      mat.setMetallicFactor(clamp01(m.metallic)).setRoughnessFactor(clamp01(m.roughness ?? 1));
      const mr = m.metallicRoughnessMap ? await textureFor(m.metallicRoughnessMap) : null;
      if (mr) mat.setMetallicRoughnessTexture(mr);
      const normal = m.normalMap ? await textureFor(m.normalMap) : null;
      if (normal) mat.setNormalTexture(normal).setNormalScale(m.normalScale ?? 1);
      const occlusion = m.occlusionMap ? await textureFor(m.occlusionMap) : null;
      if (occlusion) mat.setOcclusionTexture(occlusion).setOcclusionStrength(clamp01(m.occlusionStrength ?? 1));
      const e = m.emissiveFactor ?? [0, 0, 0];
      const peak = Math.max(1, e[0], e[1], e[2]);
      mat.setEmissiveFactor([clamp01(e[0] / peak), clamp01(e[1] / peak), clamp01(e[2] / peak)]);
      const emissive = m.emissiveMap ? await textureFor(m.emissiveMap) : null;
      if (emissive) mat.setEmissiveTexture(emissive);
    }
    const mode = m.alphaMode ?? 'opaque';
    mat.setAlphaMode(mode === 'mask' ? 'MASK' : mode === 'blend' ? 'BLEND' : 'OPAQUE');
    if (mode === 'mask') mat.setAlphaCutoff(m.alphaCutoff ?? 0.5);
    if (m.diffuseMap) {
      const tex = await textureFor(m.diffuseMap);
      if (tex) mat.setBaseColorTexture(tex);
    }
    out.push(mat);
  }
  return out;
}
