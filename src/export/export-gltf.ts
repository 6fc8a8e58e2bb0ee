import { WebIO } from '@gltf-transform/core';
import { KHRTextureBasisu } from '@gltf-transform/extensions';
import { bytesToBase64 } from '../model/base64.ts';
import type { Scene } from '../model/types.ts';
import type { TextureSource } from './materials.ts';
import { sceneToGltf } from './scene-to-gltf.ts';

/**
 * The export entry point the CLI (`npm run convert`) and the page's Export button call.
 *
 * - binary: one `.glb` (JSON chunk + BIN chunk, images in the BIN chunk), named after `fileName`.
 * - not binary: `NAME.gltf` (JSON) and `NAME.bin` (every accessor); the images are embedded in the
 *   JSON as `data:` URIs, so the pair of files is the whole model.
 * `fileName` (default "model.glb" / "model.gltf") names the output; its extension is replaced by the
 * right one. Runs in Node and in the browser (gltf-transform's WebIO; no node: imports).
 */

export interface ExportOptions {
  readonly binary: boolean;
  /** Bytes of a texture file the model names (as written in the model), or null when there is none. */
  readonly textures: TextureSource;
  readonly fileName?: string;
}

export interface ExportResult {
  /** File name → bytes: one .glb, or a .gltf and its .bin. */
  readonly files: Map<string, Uint8Array>;
  readonly warnings: string[];
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

export async function exportGltf(scene: Scene, opts: ExportOptions): Promise<ExportResult> {
  const { doc, warnings } = await sceneToGltf(scene, opts.textures);
  const stem = baseName(opts.fileName ?? 'model').replace(/\.(glb|gltf)$/i, '') || 'model';
  // The one extension materials.ts may add (KTX2 images); an unregistered extension is silently not written.
  const io = new WebIO().registerExtensions([KHRTextureBasisu]);
  const files = new Map<string, Uint8Array>();
  if (opts.binary) {
    files.set(`${stem}.glb`, await io.writeBinary(doc));
    return { files, warnings };
  }
  doc.getRoot().listBuffers()[0]?.setURI(`${stem}.bin`);
  const { json, resources } = await io.writeJSON(doc);
  for (const image of json.images ?? []) {
    const bytes = image.uri !== undefined ? resources[image.uri] : undefined;
    if (image.uri === undefined || !bytes) continue;
    delete resources[image.uri];
    image.uri = `data:${image.mimeType ?? 'application/octet-stream'};base64,${bytesToBase64(bytes)}`;
  }
  files.set(`${stem}.gltf`, new TextEncoder().encode(JSON.stringify(json, null, 2)));
  for (const [uri, bytes] of Object.entries(resources)) files.set(uri, bytes);
  return { files, warnings };
}
