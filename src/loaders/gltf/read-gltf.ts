import { WebIO, type Document } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { validateScene } from '../../model/build.ts';
import { LoadError } from '../../model/errors.ts';
import type { Scene, SkinnedMesh } from '../../model/types.ts';
import { MAX_MORPH_SLOTS } from '../limits.ts';
import { decodeDataUri, isDataUri } from './data-uri.ts';
import { buildClips } from './gltf-anim.ts';
import { checkGltf } from './gltf-check.ts';
import { readGltfContainer, type GltfJson } from './gltf-container.ts';
import { decoderDependencies } from './gltf-decoders.ts';
import { buildMaterials } from './gltf-material.ts';
import { buildMorphTable, targetCount, type MorphInstance } from './gltf-morph.ts';
import { buildSkeleton } from './gltf-nodes.ts';
import { buildMeshes } from './gltf-scene-meshes.ts';

/**
 * glTF 2.0 (.gltf with data: URIs or external files, .glb) → a validated Scene.
 *
 * Pipeline: readGltfContainer (GLB chunks, JSON) → buffers resolved (GLB BIN chunk, data: URIs decoded once,
 * external files from `resources`, keyed by the URI exactly as written) → checkGltf (structure, layout,
 * indices, finite data; throws on the first fault) → gltf-transform reads the document (extensions and the
 * Draco / meshopt decoders registered; external images missing from `resources` read as empty) → skeleton
 * (gltf-nodes.ts), materials and images (gltf-material.ts), morph targets (gltf-morph.ts), meshes
 * (gltf-scene-meshes.ts), clips (gltf-anim.ts) → validateScene.
 * glTF's conventions are skinlab's (right-handed, +Y up, metres, CCW, column-major), so nothing is converted.
 * Every failure is a LoadError whose message starts with `fileName`. Memory is bounded by the input: every
 * array is sized from accessors the check has matched against the bytes present.
 */
export async function readGltf(fileName: string, bytes: Uint8Array, resources: ReadonlyMap<string, Uint8Array> = new Map()): Promise<Scene> {
  const container = readGltfContainer(fileName, bytes);
  const json = container.json;
  const { buffers, rewritten, sdkResources } = resolveBuffers(fileName, json, container.bin, resources);
  const warnings = [...checkGltf(fileName, json, buffers)];

  const doc = await readDocument(fileName, rewritten, sdkResources);
  const skeleton = buildSkeleton(doc, json, fileName);
  const materials = buildMaterials(doc, json, resources, warnings);

  const instances: MorphInstance[] = [];
  for (let i = 0; i < skeleton.nodes.length; i++) {
    const node = skeleton.nodes[i]!;
    const mesh = node.getMesh();
    if (mesh && targetCount(mesh) > 0) instances.push({ node: i, nodeName: skeleton.names[i]!, mesh, nodeWeights: node.getWeights() });
  }
  const morph = buildMorphTable(instances);
  const meshes: SkinnedMesh[] = buildMeshes({ fileName, skeleton, materials, morph, warnings });
  if (meshes.length === 0) throw new LoadError(`${fileName}: the default scene has no triangle mesh to show`);
  let slots = 0;
  for (const m of meshes) if (m.morphs) slots += m.morphs.length;
  if (slots > MAX_MORPH_SLOTS) {
    throw new LoadError(`${fileName}: ${meshes.length} meshes × ${morph.names.length} morph targets exceed skinlab's limit of ${MAX_MORPH_SLOTS} (mesh, target) pairs`);
  }
  const clips = buildClips(doc, skeleton, morph, fileName, warnings);

  const copyright = doc.getRoot().getAsset().copyright;
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
  validateScene(scene);
  return scene;
}

interface ResolvedBuffers {
  /** Bytes per json.buffers entry (null: external file missing), for checkGltf. */
  readonly buffers: (Uint8Array | null)[];
  /** The JSON with data: URIs of buffers and images replaced by resource keys (the input is not changed). */
  readonly rewritten: GltfJson;
  readonly sdkResources: Record<string, Uint8Array>;
}

function resolveBuffers(fileName: string, json: GltfJson, bin: Uint8Array | null, resources: ReadonlyMap<string, Uint8Array>): ResolvedBuffers {
  const sdkResources: Record<string, Uint8Array> = {};
  const limit = 0x7fffffff;
  const defs = Array.isArray(json['buffers']) ? (json['buffers'] as unknown[]) : [];
  const buffers: (Uint8Array | null)[] = [];
  const newBuffers = defs.map((d, i) => {
    const def = (typeof d === 'object' && d !== null ? d : {}) as Record<string, unknown>;
    const uri = def['uri'];
    if (typeof uri !== 'string') {
      buffers.push(i === 0 ? bin : null);
      if (i === 0 && bin) sdkResources['@glb.bin'] = bin;
      return def;
    }
    if (isDataUri(uri)) {
      const data = decodeDataUri(uri, limit, `${fileName}: /buffers/${i}/uri`);
      buffers.push(data);
      const key = `__buffer_${i}.bin`;
      sdkResources[key] = data;
      return { ...def, uri: key };
    }
    const data = resources.get(uri) ?? null;
    buffers.push(data);
    if (data) sdkResources[uri] = data;
    return def;
  });
  const imageDefs = Array.isArray(json['images']) ? (json['images'] as unknown[]) : [];
  const newImages = imageDefs.map((d, i) => {
    const def = (typeof d === 'object' && d !== null ? d : {}) as Record<string, unknown>;
    const uri = def['uri'];
    if (typeof uri !== 'string') return def;
    if (isDataUri(uri)) {
      const key = `__image_${i}`;
      sdkResources[key] = decodeDataUri(uri, limit, `${fileName}: /images/${i}/uri`);
      return { ...def, uri: key };
    }
    // A missing external image reads as empty bytes: the material then names its URI as a companion file.
    sdkResources[uri] = resources.get(uri) ?? new Uint8Array(0);
    return def;
  });
  const rewritten: GltfJson = { ...json };
  if (Array.isArray(json['buffers'])) rewritten['buffers'] = newBuffers;
  if (Array.isArray(json['images'])) rewritten['images'] = newImages;
  return { buffers, rewritten, sdkResources };
}

async function readDocument(fileName: string, json: GltfJson, resources: Record<string, Uint8Array>): Promise<Document> {
  const deps = await decoderDependencies(json, fileName);
  // Only the extensions the file declares: the SDK visits every registered one while it reads.
  const used = new Set(Array.isArray(json['extensionsUsed']) ? (json['extensionsUsed'] as unknown[]) : []);
  const io = new WebIO()
    .registerExtensions(ALL_EXTENSIONS.filter((e) => used.has(e.EXTENSION_NAME)))
    .registerDependencies(deps)
    .setLogger(SILENT);
  try {
    return await io.readJSON({ json: json as never, resources: resources as never });
  } catch (e) {
    if (e instanceof LoadError) throw e;
    throw new LoadError(`${fileName}: the glTF document could not be read: ${(e as Error).message}`);
  }
}

/** gltf-transform's logger, quiet: what matters reaches the user as Scene warnings. */
const SILENT = { debug(): void {}, info(): void {}, warn(): void {}, error(): void {} } as never;

