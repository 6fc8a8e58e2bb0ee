import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { looksLikeGltf, peekGltfContainer } from '../loaders/gltf/gltf-container.ts';
import { externalUris } from '../loaders/gltf/gltf-uris.ts';
import { MAX_MODEL_BYTES } from '../loaders/load-model.ts';
import { UsageError } from './inspect-args.ts';

/**
 * The command-line tools' (inspect, convert) model file and the files beside it, by the page's companion rules:
 * a companion — a texture, a .gltf's buffer or image — is one file name in the model's own folder and nowhere else.
 * The name is the base name of what the model wrote (percent-decoding a URI, dropping its query and any folder
 * part, Windows or POSIX), matched case-insensitively (old models name textures with their authors' paths and
 * case), so `../../etc/passwd` reads at most `<folder>/passwd`. Node only.
 */

/** Largest model file the tools read. */
export const MAX_INPUT_BYTES = 1024 * 1024 * 1024;

/** The bytes of the model at `path`; a UsageError (one `error:` line) when it is missing or too large. */
export function readModelInput(path: string): Uint8Array {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new UsageError(`${path}: no such file`);
  }
  if (size > MAX_INPUT_BYTES) throw new UsageError(`${path}: larger than 1 GiB`);
  return new Uint8Array(readFileSync(path));
}

/** The base name a model's reference to a companion stands for ('' when nothing is left). */
export function companionBaseName(reference: string): string {
  let name = reference.startsWith('data:') ? '' : reference.split(/[?#]/)[0]!;
  try {
    name = decodeURIComponent(name);
  } catch {
    /* not percent-encoding: kept as written */
  }
  name = basename(name.replace(/\\/g, '/').replace(/^[A-Za-z]:/, '')).trim();
  return name === '.' || name === '..' ? '' : name;
}

/** Finds companion files in one folder, never outside it. */
export class ModelFolder {
  private listing: Map<string, string> | null = null;

  constructor(readonly dir: string) {}

  /** The path of the file `reference` names (see the file comment), or null: none, not a file, or over the model limit. */
  pathOf(reference: string): string | null {
    const base = companionBaseName(reference);
    if (!base) return null;
    if (this.listing === null) {
      this.listing = new Map();
      try {
        for (const f of readdirSync(this.dir)) if (!this.listing.has(f.toLowerCase())) this.listing.set(f.toLowerCase(), f);
      } catch {
        /* an unreadable folder holds nothing */
      }
    }
    // The exact spelling first, then any case.
    const hit = this.listing.has(base.toLowerCase()) && this.listing.get(base.toLowerCase());
    for (const name of [base, hit]) {
      if (!name) continue;
      const file = join(this.dir, name);
      try {
        const st = statSync(file);
        if (st.isFile() && st.size <= MAX_MODEL_BYTES) return file;
      } catch {
        /* try the next spelling */
      }
    }
    return null;
  }

  /** The bytes of the file `reference` names, or null. */
  read(reference: string): Uint8Array | null {
    const file = this.pathOf(reference);
    if (file === null) return null;
    try {
      return new Uint8Array(readFileSync(file));
    } catch {
      return null;
    }
  }
}

/** The external files a glTF names, found in `folder` and keyed by the URI as written; missing ones are left out (the loader names them). */
export function gltfResources(modelPath: string, bytes: Uint8Array, folder = new ModelFolder(dirname(modelPath))): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  if (!looksLikeGltf(modelPath, bytes)) return out;
  const { buffers, images } = externalUris(peekGltfContainer(basename(modelPath), bytes).json);
  for (const uri of [...buffers, ...images]) {
    const found = folder.read(uri);
    if (found) out.set(uri, found);
  }
  return out;
}
