import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { loadModelAsync } from '../../../src/loaders/load-model.ts';
import type { Scene } from '../../../src/model/types.ts';

/**
 * The shared glTF corpus (../shared/corpus-gltf, or GLTF_CORPUS_DIR): third-party files and three.js's
 * reading of them (ORACLE.json). Tests that need it skip, visibly, without it.
 */
const here = dirname(fileURLToPath(import.meta.url));
export const GLTF_CORPUS_DIR = process.env.GLTF_CORPUS_DIR ?? join(here, '..', '..', '..', '..', 'shared', 'corpus-gltf');
export const HAVE_GLTF_CORPUS = existsSync(join(GLTF_CORPUS_DIR, 'ORACLE.json'));
if (!HAVE_GLTF_CORPUS) console.warn(`[skinlab tests] SKIPPING glTF corpus tests: no corpus at ${GLTF_CORPUS_DIR} (set GLTF_CORPUS_DIR)`);

export const describeGltfCorpus = HAVE_GLTF_CORPUS ? describe : describe.skip;

export interface Box {
  min: number[];
  max: number[];
}
export interface GltfOracleEntry {
  file: string;
  success: boolean;
  threeCaveats: string[];
  bounds?: { rest: { all: Box }; anims: { index: number; name: string; duration: number; poses: { fraction: number; t: number; all: Box }[] }[] };
}

export function gltfOracle(): GltfOracleEntry[] {
  return (JSON.parse(readFileSync(join(GLTF_CORPUS_DIR, 'ORACLE.json'), 'utf8')) as { files: GltfOracleEntry[] }).files;
}

/** The file's bytes and every other file of its folder, keyed by name (the URIs the corpus' .gltf files use). */
export function corpusFile(file: string): { bytes: Uint8Array; resources: Map<string, Uint8Array> } {
  const path = join(GLTF_CORPUS_DIR, file);
  const dir = dirname(path);
  const resources = new Map<string, Uint8Array>();
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (p !== path && statSync(p).isFile() && !/\.(gltf|glb|json)$/.test(name)) resources.set(name, new Uint8Array(readFileSync(p)));
  }
  return { bytes: new Uint8Array(readFileSync(path)), resources };
}

export async function loadCorpus(file: string): Promise<Scene> {
  const { bytes, resources } = corpusFile(file);
  return loadModelAsync(file, bytes, resources);
}
