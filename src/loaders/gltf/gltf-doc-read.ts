import { accessorArray } from './gltf-accessor-data.ts';
import type { Layout } from './gltf-check-buffers.ts';
import { isObj, type Obj } from './gltf-check-util.ts';
import type { GltfJson } from './gltf-container.ts';
import {
  GltfAccessor, GltfAnimation, GltfChannel, GltfMaterial, GltfMesh, GltfNode, GltfPrimitive, GltfSampler, GltfSkin, GltfTarget,
  GltfTexture, GltfTextureInfo, type ComponentArray, type GltfDoc, type GltfPath, type GltfTextureTransform,
} from './gltf-doc.ts';

/**
 * Checked glTF JSON + its bytes → the document the Scene builders read (gltf-doc.ts). It runs after checkGltf,
 * which guarantees what this trusts: every top-level list holds objects, every index resolves, the node forest
 * has no cycles, each accessor's bytes lie inside its view. Values the check does not constrain (material
 * factors, extras) are passed on as written, glTF's defaults where absent.
 *
 * Linear in the size of the JSON: every object is made once, references are array lookups. Accessor data is
 * read on first use (gltf-accessor-data.ts), from the file's bytes, the decoded meshopt views, or the
 * Draco-decoded arrays, which take the place of the accessors' own data.
 */

export interface DocInputs {
  readonly json: GltfJson;
  readonly layout: Layout;
  /** Decoded bytes of the meshopt-compressed bufferViews. */
  readonly meshoptViews: ReadonlyMap<number, Uint8Array>;
  /** Draco-decoded data by accessor index. */
  readonly draco: ReadonlyMap<number, ComponentArray>;
  /** The bytes of each image given by a data: URI (null for the others). */
  readonly dataImages: readonly (Uint8Array | null)[];
  readonly fileName: string;
}

const list = (json: Obj, key: string): Obj[] => (Array.isArray(json[key]) ? (json[key] as Obj[]) : []);
const text = (o: Obj): string => (typeof o['name'] === 'string' ? o['name'] : '');
const numbers = (v: unknown, fallback: readonly number[]): readonly number[] => (Array.isArray(v) ? (v as number[]) : fallback);

/** Texture sources another extension gives (the image then holds that format: KTX2, WebP, AVIF). */
const SOURCE_EXTENSIONS = ['KHR_texture_basisu', 'EXT_texture_webp', 'EXT_texture_avif'];

export function readDoc(inputs: DocInputs): GltfDoc {
  const { json, layout } = inputs;
  const used = new Set(Array.isArray(json['extensionsUsed']) ? (json['extensionsUsed'] as unknown[]) : []);

  const accessorDefs = json['accessors'] as Obj[];
  const accessors = layout.accessors.map((a, i) => {
    const draco = a.sparse === null && inputs.draco.has(i);
    return new GltfAccessor(
      i,
      a.components,
      accessorDefs[i]!['normalized'] === true,
      () => (draco ? inputs.draco.get(i)! : accessorArray(a, (v) => inputs.meshoptViews.get(v) ?? null, `${inputs.fileName}: /accessors/${i}`)),
      !draco && layout.checked[i] === 1,
    );
  });

  const textures = readTextures(inputs);
  const textureDefs = list(json, 'textures');
  const sourceOf = (t: number): number | undefined => {
    const def = textureDefs[t]!;
    const ext = isObj(def['extensions']) ? def['extensions'] : {};
    for (const name of SOURCE_EXTENSIONS) {
      const e = ext[name];
      if (used.has(name) && isObj(e) && e['source'] !== undefined) return e['source'] as number;
    }
    return typeof def['source'] === 'number' ? def['source'] : undefined;
  };
  const info = (o: Obj | undefined, key: string): GltfTextureInfo | null => {
    const def = o?.[key];
    if (!isObj(def)) return null;
    const source = sourceOf(def['index'] as number);
    const texture = source === undefined ? null : textures[source]!;
    return new GltfTextureInfo(texture, typeof def['texCoord'] === 'number' ? def['texCoord'] : 0, transformOf(def, used));
  };
  const materials = list(json, 'materials').map((m) => {
    const pbr = isObj(m['pbrMetallicRoughness']) ? m['pbrMetallicRoughness'] : {};
    const ext = isObj(m['extensions']) ? m['extensions'] : {};
    const strength = used.has('KHR_materials_emissive_strength') && isObj(ext['KHR_materials_emissive_strength'])
      ? ext['KHR_materials_emissive_strength']['emissiveStrength']
      : undefined;
    const normal = isObj(m['normalTexture']) ? m['normalTexture'] : {};
    const occlusion = isObj(m['occlusionTexture']) ? m['occlusionTexture'] : {};
    return new GltfMaterial({
      name: text(m),
      baseColorFactor: numbers(pbr['baseColorFactor'], [1, 1, 1, 1]),
      emissiveFactor: numbers(m['emissiveFactor'], [0, 0, 0]),
      emissiveStrength: strength === undefined ? 1 : (strength as number),
      metallicFactor: pbr['metallicFactor'] === undefined ? 1 : (pbr['metallicFactor'] as number),
      roughnessFactor: pbr['roughnessFactor'] === undefined ? 1 : (pbr['roughnessFactor'] as number),
      alphaMode: typeof m['alphaMode'] === 'string' ? m['alphaMode'] : 'OPAQUE',
      alphaCutoff: m['alphaCutoff'] === undefined ? 0.5 : (m['alphaCutoff'] as number),
      doubleSided: m['doubleSided'] === undefined ? false : (m['doubleSided'] as boolean),
      normalScale: normal['scale'] === undefined ? 1 : (normal['scale'] as number),
      occlusionStrength: occlusion['strength'] === undefined ? 1 : (occlusion['strength'] as number),
      baseColor: info(pbr, 'baseColorTexture'),
      metallicRoughness: info(pbr, 'metallicRoughnessTexture'),
      normal: info(m, 'normalTexture'),
      occlusion: info(m, 'occlusionTexture'),
      emissive: info(m, 'emissiveTexture'),
      extensions: Object.keys(ext).filter((k) => used.has(k)),
    });
  });

  const attributeMap = (o: Obj): Map<string, GltfAccessor> => {
    const out = new Map<string, GltfAccessor>();
    for (const k of Object.keys(o)) out.set(k, accessors[o[k] as number]!);
    return out;
  };
  const meshes = list(json, 'meshes').map((m) => {
    const prims = (m['primitives'] as Obj[]).map((p) => {
      const targets = Array.isArray(p['targets']) ? (p['targets'] as Obj[]).map((t) => new GltfTarget(attributeMap(t))) : [];
      return new GltfPrimitive(
        attributeMap(p['attributes'] as Obj),
        typeof p['indices'] === 'number' ? accessors[p['indices']]! : null,
        typeof p['mode'] === 'number' ? p['mode'] : 4,
        typeof p['material'] === 'number' ? materials[p['material']]! : null,
        targets,
      );
    });
    return new GltfMesh(text(m), prims, numbers(m['weights'], []), m['extras'] ?? {});
  });

  const nodeDefs = list(json, 'nodes');
  const nodes = nodeDefs.map(
    (n, i) =>
      new GltfNode(i, text(n), numbers(n['translation'], [0, 0, 0]), numbers(n['rotation'], [0, 0, 0, 1]), numbers(n['scale'], [1, 1, 1]), numbers(n['weights'], [])),
  );
  const skins = list(json, 'skins').map((s) => {
    const ibm = s['inverseBindMatrices'];
    return new GltfSkin(text(s), (s['joints'] as number[]).map((j) => nodes[j]!), typeof ibm === 'number' ? accessors[ibm]! : null);
  });
  nodeDefs.forEach((def, i) => {
    const node = nodes[i]!;
    if (Array.isArray(def['children'])) {
      for (const c of def['children'] as number[]) {
        node.children.push(nodes[c]!);
        nodes[c]!.parent = node;
      }
    }
    if (typeof def['mesh'] === 'number') node.mesh = meshes[def['mesh']]!;
    if (typeof def['skin'] === 'number') node.skin = skins[def['skin']]!;
  });

  const animations = list(json, 'animations').map((a) => {
    const samplers = (Array.isArray(a['samplers']) ? (a['samplers'] as Obj[]) : []).map(
      (s) => new GltfSampler(accessors[s['input'] as number]!, accessors[s['output'] as number]!, typeof s['interpolation'] === 'string' ? s['interpolation'] : 'LINEAR'),
    );
    const channels = (Array.isArray(a['channels']) ? (a['channels'] as Obj[]) : []).map((c) => {
      const target = c['target'] as Obj;
      const node = typeof target['node'] === 'number' ? nodes[target['node']]! : null;
      return new GltfChannel(node, target['path'] as GltfPath, samplers[c['sampler'] as number]!);
    });
    return new GltfAnimation(text(a), channels, a['extras'] ?? {});
  });

  const scenes = list(json, 'scenes');
  const sceneIndex = typeof json['scene'] === 'number' ? json['scene'] : 0;
  const scene = scenes[sceneIndex];
  const sceneRoots = scene ? (Array.isArray(scene['nodes']) ? (scene['nodes'] as number[]).map((n) => nodes[n]!) : []) : null;
  const asset = isObj(json['asset']) ? json['asset'] : {};
  const copyright = typeof asset['copyright'] === 'string' ? asset['copyright'] : undefined;
  return { nodes, sceneRoots, materials, textures, animations, copyright };
}

/** KHR_texture_transform on a texture reference (when the file uses the extension). */
function transformOf(def: Obj, used: ReadonlySet<unknown>): GltfTextureTransform | null {
  const ext = isObj(def['extensions']) ? def['extensions']['KHR_texture_transform'] : undefined;
  if (!used.has('KHR_texture_transform') || !isObj(ext)) return null;
  return {
    offset: numbers(ext['offset'], [0, 0]),
    rotation: ext['rotation'] === undefined ? 0 : (ext['rotation'] as number),
    scale: numbers(ext['scale'], [1, 1]),
    texCoord: ext['texCoord'] === undefined ? null : (ext['texCoord'] as number),
  };
}

/**
 * One texture per image: its name, MIME type (`mimeType`, else from a data: URI's media type, else from the
 * URI's extension: `image/<ext>`, jpg → image/jpeg) and, when inside the file, its bytes: a view over the file's
 * buffer (or the decoded meshopt view), not a copy. Nothing writes into image bytes; a parse worker's transfer list
 * names the file's buffer once (src/app/parse-protocol.ts transferables).
 */
function readTextures(inputs: DocInputs): GltfTexture[] {
  return list(inputs.json, 'images').map((img, i) => {
    const uri = img['uri'];
    let mime = typeof img['mimeType'] === 'string' ? img['mimeType'] : '';
    if (!mime && typeof uri === 'string') {
      if (/^data:/i.test(uri)) mime = /^data:(image\/\w+)/.exec(uri)?.[1] ?? '';
      else {
        const ext = uri.split(/[\\/]/).pop()!.split('.').pop()!;
        mime = ext === 'jpg' ? 'image/jpeg' : ext ? `image/${ext}` : '';
      }
    }
    let image: Uint8Array | null = inputs.dataImages[i] ?? null;
    const view = img['bufferView'];
    if (typeof view === 'number') {
      const bytes = inputs.layout.views[view]!.bytes ?? inputs.meshoptViews.get(view) ?? null;
      image = bytes;
    }
    return new GltfTexture(i, text(img), mime, image);
  });
}
