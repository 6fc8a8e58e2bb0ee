import { validateScene } from '../../model/build.ts';
import { LoadError } from '../../model/errors.ts';
import type { Scene, SkinnedMesh } from '../../model/types.ts';
import { MAX_MORPH_SLOTS } from '../limits.ts';
import { decodeDataUri, isDataUri } from './data-uri.ts';
import { buildClips } from './gltf-anim.ts';
import { checkGltfLayout } from './gltf-check.ts';
import { peekGltfContainer, readGltfContainer, type GltfJson } from './gltf-container.ts';
import { decodeDraco, decodeMeshoptViews } from './gltf-decode.ts';
import { loadDecoders } from './gltf-decoders.ts';
import { readDoc } from './gltf-doc-read.ts';
import { buildMaterials } from './gltf-material.ts';
import { buildMorphTable, targetCount, type MorphInstance } from './gltf-morph.ts';
import { buildSkeleton } from './gltf-nodes.ts';
import { buildMeshes } from './gltf-scene-meshes.ts';

/**
 * glTF 2.0 (.gltf with data: URIs or external files, .glb) → a validated Scene.
 *
 * Pipeline: readGltfContainer (GLB chunks, JSON) → buffers resolved (GLB BIN chunk, data: URIs decoded once,
 * external files from `resources`, keyed by the URI exactly as written) → checkGltf (structure, layout,
 * indices, finite data; throws on the first fault) → the compressed data decoded (gltf-decode.ts: meshopt
 * views, Draco primitives) → the document (gltf-doc-read.ts: objects over the checked JSON, accessor data read
 * on first use, as views over the file's bytes where they can be) → skeleton (gltf-nodes.ts), materials and images (gltf-material.ts), morph targets (gltf-morph.ts), meshes
 * (gltf-scene-meshes.ts), clips (gltf-anim.ts) → validateScene.
 * glTF's conventions are skinlab's (right-handed, +Y up, metres, CCW, column-major), so nothing is converted.
 * Every failure is a LoadError whose message starts with `fileName`. Memory is bounded by the input: every
 * array is sized from accessors the check has matched against the bytes present.
 */
export async function readGltf(fileName: string, bytes: Uint8Array, resources: ReadonlyMap<string, Uint8Array> = new Map()): Promise<Scene> {
  const container = readGltfContainer(fileName, bytes);
  const json = container.json;
  const { buffers, dataImages } = resolveBuffers(fileName, json, container.bin, resources);
  const checked = checkGltfLayout(fileName, json, buffers);
  const warnings = [...checked.warnings];
  const layout = checked.layout;

  const decoders = await loadDecoders(json, fileName);
  const meshoptViews = decodeMeshoptViews(fileName, layout, decoders);
  const draco = decodeDraco(fileName, json, layout, decoders);
  const doc = readDoc({ json, layout, meshoptViews, draco, dataImages, fileName });
  const skeleton = buildSkeleton(doc, json, fileName);
  const materials = buildMaterials(doc, json, resources, warnings);

  const instances: MorphInstance[] = [];
  for (let i = 0; i < skeleton.nodes.length; i++) {
    const node = skeleton.nodes[i]!;
    const mesh = node.getMesh();
    if (mesh && targetCount(mesh) > 0) instances.push({ node: i, nodeName: skeleton.names[i]!, mesh, nodeWeights: node.getWeights() });
  }
  const morph = buildMorphTable(instances);
  // Arrays whose values the reader vouches for (the check scanned them, or the reader did): validateScene skips them.
  const vouched = new Set<ArrayBufferView>();
  const meshes: SkinnedMesh[] = buildMeshes({ fileName, skeleton, materials, morph, warnings, checked: vouched });
  if (meshes.length === 0) throw new LoadError(`${fileName}: the default scene has no triangle mesh to show`);
  let slots = 0;
  for (const m of meshes) if (m.morphs) slots += m.morphs.length;
  if (slots > MAX_MORPH_SLOTS) {
    throw new LoadError(`${fileName}: ${meshes.length} meshes × ${morph.names.length} morph targets exceed skinlab's limit of ${MAX_MORPH_SLOTS} (mesh, target) pairs`);
  }
  const clips = buildClips(doc, skeleton, morph, fileName, warnings, vouched);

  const copyright = doc.copyright;
  const scene: Scene = {
    name: fileName,
    format: container.format,
    floatBits: 0,
    skeleton: { names: skeleton.names, parents: skeleton.parents, restLocal: skeleton.restLocal },
    meshes,
    clips,
    materials: materials.materials,
    morphTargets: morph.names,
    ...(morph.names.length > 0 ? { morphKinds: morph.names.map(() => 'modifier' as const), morphDefaults: morph.defaults } : {}),
    ...(materials.images.length > 0 ? { images: materials.images } : {}),
    ...(typeof copyright === 'string' && copyright.trim() !== '' ? { copyright: copyright.slice(0, 4096) } : {}),
    warnings,
  };
  validateScene(scene, vouched);
  return scene;
}

interface ResolvedBuffers {
  /** Bytes per json.buffers entry (null: external file missing), for checkGltf. */
  readonly buffers: (Uint8Array | null)[];
  /** Bytes per json.images entry given by a data: URI (null for the others). */
  readonly dataImages: (Uint8Array | null)[];
}

/** The buffers' bytes (GLB BIN chunk, data: URIs decoded once, external files) and the data: URI images'. */
function resolveBuffers(fileName: string, json: GltfJson, bin: Uint8Array | null, resources: ReadonlyMap<string, Uint8Array>): ResolvedBuffers {
  const limit = 0x7fffffff;
  const defs = Array.isArray(json['buffers']) ? (json['buffers'] as unknown[]) : [];
  const buffers = defs.map((d, i) => {
    const uri = typeof d === 'object' && d !== null ? (d as Record<string, unknown>)['uri'] : undefined;
    if (typeof uri !== 'string') return i === 0 ? bin : null;
    if (isDataUri(uri)) return decodeDataUri(uri, limit, `${fileName}: /buffers/${i}/uri`);
    return resources.get(uri) ?? null;
  });
  const imageDefs = Array.isArray(json['images']) ? (json['images'] as unknown[]) : [];
  const dataImages = imageDefs.map((d, i) => {
    const uri = typeof d === 'object' && d !== null ? (d as Record<string, unknown>)['uri'] : undefined;
    return typeof uri === 'string' && isDataUri(uri) ? decodeDataUri(uri, limit, `${fileName}: /images/${i}/uri`) : null;
  });
  return { buffers, dataImages };
}

/**
 * Starts loading the decoders a glTF's `extensionsUsed` names (Draco, meshopt: loadDecoders, once per worker or
 * page) without waiting for them: for a reader that has the file and still fetches the files it refers to, so the
 * decoders compile meanwhile. Whatever fails here (a malformed file, a decoder that does not start) is left for
 * readGltf to report.
 */
export function prewarmDecoders(fileName: string, bytes: Uint8Array): void {
  try {
    const { json } = peekGltfContainer(fileName, bytes);
    loadDecoders(json, fileName).catch(() => {});
  } catch {
    // readGltf reports it.
  }
}
