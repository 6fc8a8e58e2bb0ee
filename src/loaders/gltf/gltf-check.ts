import { checkAnimations } from './gltf-check-anim.ts';
import { checkLayout, type Layout } from './gltf-check-buffers.ts';
import { checkMaterials, checkMeshes, checkNodes, checkSkins } from './gltf-check-scene.ts';
import { CheckContext } from './gltf-check-util.ts';
import type { GltfJson } from './gltf-container.ts';

/**
 * The structural check of a glTF 2.0 document, run on every load before the SDK reads it: extensions,
 * byte layout, references, the node forest, skins, animations, and a scan of the data the loader relies on
 * (indices in range, finite floats, ascending key times). It throws one LoadError for the first fault,
 * `file: /json/pointer: what is wrong`, and returns warnings for what loads with less than the file asks.
 * It reads each accessor's bytes at most once, through typed-array views.
 */

/** Extensions the glTF reader handles fully. */
export const GLTF_EXTENSIONS_READ: readonly string[] = [
  'KHR_mesh_quantization',
  'KHR_draco_mesh_compression',
  'EXT_meshopt_compression',
  'KHR_texture_transform',
  'KHR_texture_basisu',
  'KHR_materials_emissive_strength',
];

/** Extensions that may be required although not read: the model still loads, with a warning. */
const REQUIRED_BUT_DEGRADED: Readonly<Record<string, string>> = {};

function names(ctx: CheckContext, key: string): string[] {
  const list = ctx.arr(ctx.json, key, '') ?? [];
  return list.map((v, k) => (typeof v === 'string' ? v : ctx.fail(`/${key}/${k}`, 'is not a string')));
}

function checkExtensions(ctx: CheckContext): void {
  const used = names(ctx, 'extensionsUsed');
  const required = names(ctx, 'extensionsRequired');
  for (let k = 0; k < required.length; k++) {
    const name = required[k]!;
    if (GLTF_EXTENSIONS_READ.includes(name)) continue;
    const degraded = REQUIRED_BUT_DEGRADED[name];
    if (degraded) ctx.warn(`/extensionsRequired/${k}`, `${name}: ${degraded}`);
    else ctx.fail(`/extensionsRequired/${k}`, `the file requires the extension ${name}, which skinlab does not support (it reads ${GLTF_EXTENSIONS_READ.join(', ')})`);
  }
  const ignored = [...new Set(used)].filter((n) => !GLTF_EXTENSIONS_READ.includes(n) && !required.includes(n));
  if (ignored.length > 0) ctx.warn('/extensionsUsed', `extension${ignored.length > 1 ? 's' : ''} not read, drawn without: ${ignored.join(', ')}`);
}

const NAMED = ['accessors', 'animations', 'buffers', 'bufferViews', 'cameras', 'images', 'materials', 'meshes', 'nodes', 'samplers', 'scenes', 'skins', 'textures'];

/** Every object's `name` is a string, and a mesh's `extras.targetNames` strings (the reader uses them as text). */
function checkNames(ctx: CheckContext): void {
  for (const kind of NAMED) {
    const objects = ctx.top(kind);
    for (let i = 0; i < objects.length; i++) {
      const o = objects[i]!;
      ctx.str(o, 'name', `/${kind}/${i}`);
      const extras = o['extras'];
      if (kind === 'meshes' && typeof extras === 'object' && extras !== null && !Array.isArray(extras)) {
        const names = ctx.arr(extras as Record<string, unknown>, 'targetNames', `/meshes/${i}/extras`) ?? [];
        for (let k = 0; k < names.length; k++) if (typeof names[k] !== 'string') ctx.fail(`/meshes/${i}/extras/targetNames/${k}`, 'is not a string');
      }
    }
  }
}

/**
 * `buffers[i]` holds the resolved bytes of json.buffers[i]: the GLB BIN chunk, a decoded data: URI or an
 * external file; null where an external file is missing (or, for a meshopt fallback buffer, has no data).
 */
export function checkGltf(fileName: string, json: GltfJson, buffers: readonly (Uint8Array | null)[]): string[] {
  return checkGltfLayout(fileName, json, buffers).warnings;
}

/** checkGltf, also returning the checked byte layout the reader builds its arrays from (gltf-doc-read.ts). */
export function checkGltfLayout(fileName: string, json: GltfJson, buffers: readonly (Uint8Array | null)[]): { warnings: string[]; layout: Layout } {
  const ctx = new CheckContext(fileName, json);
  checkExtensions(ctx);
  checkNames(ctx);
  const layout = checkLayout(ctx, buffers);
  checkNodes(ctx);
  checkMaterials(ctx);
  checkMeshes(ctx, layout);
  checkSkins(ctx, layout);
  checkAnimations(ctx, layout);
  return { warnings: ctx.warnings, layout };
}
