import type { Material, SceneImage } from '../../model/types.ts';
import type { GltfJson } from './gltf-container.ts';
import type { GltfDoc, GltfMaterial, GltfTexture as Texture, GltfTextureInfo as TextureInfo } from './gltf-doc.ts';
import type { UvTransform } from './gltf-mesh.ts';

/**
 * glTF materials and their images → Scene materials and Scene.images.
 *
 * - diffuse: baseColorFactor with rgb^(1/2.2), alpha as is. glTF's factor is linear, while the renderer
 *   (glsl/lit.frag) takes `diffuse.rgb × texture.rgb` as sRGB-encoded and linearises it with pow 2.2, so the
 *   stored factor is the one that comes out linear there. emissiveFactor likewise.
 * - specular: the metallic-roughness model has no specular colour; a grey 0.2 · (1 − roughness) with power
 *   2/roughness² − 2 (clamped to 1..256, the inverse of the .m3d writer's roughness) gives glossy materials a
 *   highlight and rough ones (glTF's default roughness 1) none.
 * - alphaMode OPAQUE/MASK/BLEND → 'opaque'/'mask'/'blend', alphaCutoff (MASK, default 0.5), doubleSided.
 * - Metallic-roughness (the pbr shading, glsl/include/pbr_pars.glsl): baseColor (the factor as written, linear),
 *   metallic, roughness and the metallicRoughness map (G roughness, B metallic), the normal map and its
 *   `scale`, the occlusion map (R) and its `strength`, emissiveFactor × KHR_materials_emissive_strength and the
 *   emissive map. Every map reads the base colour texture's UV set (one set per primitive is kept).
 * - Textures: diffuseMap, normalMap, metallicRoughnessMap, occlusionMap and emissiveMap name an image. An image inside the file (buffer view, data: URI) or an
 *   external file found in `resources` goes into Scene.images under a unique name (external: its URI as
 *   written; embedded: its name or `image_<i>`, with an extension from its MIME type); an external image
 *   not in `resources` is named by its URI so the page fetches it as a companion file.
 * - The base colour texture's `texCoord` and KHR_texture_transform (whose own texCoord wins) choose and
 *   transform the UV set of every primitive using the material (gltf-mesh.ts bakes it).
 * - KHR_texture_basisu (KTX2): the material names the KTX2 image, which the page transcodes (textures/ktx2.ts).
 *   Other material extensions (KHR_materials_ior, _specular, _clearcoat, _sheen, _transmission…): one warning
 *   naming them as not rendered.
 * Primitives without a material use a white, opaque, single-sided default, added on first use.
 */

export interface MaterialSet {
  readonly materials: Material[];
  readonly images: SceneImage[];
  /** Scene material index of a glTF material (null: the default material). */
  indexOf(material: GltfMaterial | null): number;
  uvSet(material: GltfMaterial | null): number;
  uvTransform(material: GltfMaterial | null): UvTransform | null;
}

const MIME_EXT: Readonly<Record<string, string>> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
  'image/ktx2': '.ktx2',
  'image/avif': '.avif',
};

const toSrgb = (c: number): number => Math.pow(Math.max(0, c), 1 / 2.2);
const clamp01 = (v: number): number => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 1);

/** Material extensions whose effect is drawn (the pbr shading); any other one gets the "not rendered" warning. */
const MATERIAL_EXTENSIONS_READ: ReadonlySet<string> = new Set(['KHR_materials_emissive_strength']);

export function buildMaterials(doc: GltfDoc, json: GltfJson, resources: ReadonlyMap<string, Uint8Array>, warnings: string[]): MaterialSet {
  const jsonImages = Array.isArray(json['images']) ? (json['images'] as unknown[]) : [];
  const images: SceneImage[] = [];
  const imageNames = new Map<Texture, string>();
  const usedNames = new Set<string>();
  // Per base name, the suffix to try next: names are only ever added, so the smaller ones stay taken.
  const nextSuffix = new Map<string, number>();
  for (const img of jsonImages) {
    const uri = (img as Record<string, unknown> | null)?.['uri'];
    if (typeof uri === 'string' && !/^data:/i.test(uri)) usedNames.add(uri);
  }

  const imageName = (tex: Texture | null): string | null => {
    if (!tex) return null;
    const known = imageNames.get(tex);
    if (known !== undefined) return known;
    const i = tex.index;
    const def = jsonImages[i] as Record<string, unknown> | undefined;
    const uri = def?.['uri'];
    const mime = tex.getMimeType() || (typeof def?.['mimeType'] === 'string' ? (def['mimeType'] as string) : '');
    let name: string;
    if (typeof uri === 'string' && !/^data:/i.test(uri)) {
      name = uri;
      const bytes = resources.get(uri);
      if (bytes && bytes.length > 0) images.push({ name, mimeType: mime, bytes });
    } else {
      const ext = MIME_EXT[mime] ?? '';
      let base = (tex.getName() || `image_${i}`).replace(/[\\/]/g, '_');
      if (ext && !base.toLowerCase().endsWith(ext)) base += ext;
      name = base;
      for (let k = nextSuffix.get(base) ?? 2; usedNames.has(name); k++) {
        name = base.replace(/(\.[^.]*)?$/, `-${k}$1`);
        nextSuffix.set(base, k + 1);
      }
      usedNames.add(name);
      const bytes = tex.getImage();
      if (bytes && bytes.length > 0) images.push({ name, mimeType: mime, bytes });
    }
    imageNames.set(tex, name);
    return name;
  };

  const index = new Map<GltfMaterial, number>();
  const materials: Material[] = [];
  const otherExtensions = new Set<string>();
  doc.materials.forEach((material, i) => {
    index.set(material, i);
    const m = material.def;
    for (const e of m.extensions) if (!MATERIAL_EXTENSIONS_READ.has(e)) otherExtensions.add(e);
    const f = m.baseColorFactor as [number, number, number, number];
    const strength = m.emissiveStrength;
    const e = m.emissiveFactor.map((c) => c * strength) as [number, number, number];
    const r = Math.min(1, Math.max(0.02, m.roughnessFactor));
    const mode = m.alphaMode;
    const alphaMode = mode === 'MASK' ? 'mask' : mode === 'BLEND' ? 'blend' : 'opaque';
    const spec = 0.2 * (1 - r);
    materials.push({
      name: m.name || `material_${i}`,
      diffuse: [toSrgb(f[0]), toSrgb(f[1]), toSrgb(f[2]), f[3]],
      specular: [spec, spec, spec],
      specularPower: Math.min(256, Math.max(1, 2 / (r * r) - 2)),
      emissive: [toSrgb(e[0]), toSrgb(e[1]), toSrgb(e[2])],
      diffuseMap: imageName(m.baseColor?.texture ?? null),
      normalMap: imageName(m.normal?.texture ?? null),
      alphaMode,
      ...(alphaMode === 'mask' ? { alphaCutoff: m.alphaCutoff } : {}),
      doubleSided: m.doubleSided,
      baseColor: [f[0], f[1], f[2], f[3]],
      metallic: clamp01(m.metallicFactor),
      roughness: clamp01(m.roughnessFactor),
      metallicRoughnessMap: imageName(m.metallicRoughness?.texture ?? null),
      normalScale: m.normalScale,
      occlusionMap: imageName(m.occlusion?.texture ?? null),
      occlusionStrength: clamp01(m.occlusionStrength),
      emissiveFactor: e,
      emissiveMap: imageName(m.emissive?.texture ?? null),
    });
  });
  // checkGltf already names the extensions it does not read (from extensionsUsed): say nothing twice.
  const said = warnings.join('\n');
  for (const name of otherExtensions) if (said.includes(name)) otherExtensions.delete(name);
  if (otherExtensions.size > 0) {
    warnings.push(`material extensions not rendered (metallic-roughness, normal, occlusion, emissive and alpha only): ${[...otherExtensions].sort().join(', ')}`);
  }

  let defaultIndex = -1;
  const transformOf = (info: TextureInfo | null): { texCoord: number | null; t: UvTransform } | null => {
    const ext = info?.getTransform();
    if (!ext) return null;
    const o = ext.offset;
    const s = ext.scale;
    return { texCoord: ext.texCoord, t: { offset: [o[0] ?? 0, o[1] ?? 0], rotation: ext.rotation, scale: [s[0] ?? 1, s[1] ?? 1] } };
  };
  return {
    materials,
    images,
    indexOf(material) {
      const i = material ? index.get(material) : undefined;
      if (i !== undefined) return i;
      if (defaultIndex < 0) {
        defaultIndex = materials.length;
        materials.push({
          name: 'default',
          diffuse: [1, 1, 1, 1],
          specular: [0, 0, 0],
          specularPower: 1,
          emissive: [0, 0, 0],
          diffuseMap: null,
          normalMap: null,
          alphaMode: 'opaque',
          doubleSided: false,
          // glTF's default material: fully metallic and rough, white.
          baseColor: [1, 1, 1, 1],
          metallic: 1,
          roughness: 1,
          metallicRoughnessMap: null,
          normalScale: 1,
          occlusionMap: null,
          occlusionStrength: 1,
          emissiveFactor: [0, 0, 0],
          emissiveMap: null,
        });
      }
      return defaultIndex;
    },
    uvSet(material) {
      const info = material?.def.baseColor;
      if (!info?.texture) return 0;
      const tt = transformOf(info);
      return tt?.texCoord ?? info.getTexCoord();
    },
    uvTransform(material) {
      const info = material?.def.baseColor;
      if (!info?.texture) return null;
      return transformOf(info)?.t ?? null;
    },
  };
}
