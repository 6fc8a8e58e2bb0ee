import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, normalize, resolve, sep } from 'node:path';
import { exportGltf } from '../export/export-gltf.ts';
import { loadModelAsync } from '../loaders/load-model.ts';
import { LoadError } from '../model/errors.ts';
import type { Scene } from '../model/types.ts';
import { CONVERT_USAGE, parseConvertArgs } from './convert-args.ts';
import { UsageError } from './inspect-args.ts';

/**
 * `npm run convert -- IN OUT.glb|OUT.gltf`: loads any model the app reads with the page's loaders and
 * writes it as glTF 2.0 through src/export (CONTRACT section 1). Companion files (textures, a .gltf's
 * buffers and images) are read only from IN's folder: a texture by its base name, matched
 * case-insensitively (old models name textures with their authors' paths and case); a .gltf resource by
 * its relative URI when that stays inside the folder, else by base name as a texture.
 * Prints what it wrote: files and sizes, meshes, clips, warnings. Failure: exit 1 with one `error:` line
 * on stderr, never a stack trace.
 */

/** Finds companion files in one folder, never outside it. */
class Folder {
  private listing: Map<string, string> | null = null;
  constructor(readonly dir: string) {}

  /** Bytes of the file whose base name matches `name`'s case-insensitively, or null. */
  byBaseName(name: string): Uint8Array | null {
    if (this.listing === null) {
      this.listing = new Map();
      try {
        for (const f of readdirSync(this.dir)) if (!this.listing.has(f.toLowerCase())) this.listing.set(f.toLowerCase(), f);
      } catch {
        /* unreadable folder: nothing found */
      }
    }
    const base = name.split(/[\\/]/).pop()?.trim() ?? '';
    const hit = base ? this.listing.get(base.toLowerCase()) : undefined;
    if (!hit) return null;
    try {
      return new Uint8Array(readFileSync(join(this.dir, hit)));
    } catch {
      return null;
    }
  }

  /** A relative URI inside the folder (decoded), else the base-name match. */
  byUri(uri: string): Uint8Array | null {
    let path = uri;
    try {
      path = decodeURIComponent(uri);
    } catch {
      /* keep it as written */
    }
    const full = resolve(this.dir, normalize(path));
    if (full.startsWith(resolve(this.dir) + sep)) {
      try {
        return new Uint8Array(readFileSync(full));
      } catch {
        /* fall through to the base name */
      }
    }
    return this.byBaseName(path);
  }
}

/** The external URIs (buffers, images) a .gltf JSON names; empty for anything else. */
function gltfUris(bytes: Uint8Array): string[] {
  try {
    const json = JSON.parse(new TextDecoder().decode(bytes)) as { buffers?: { uri?: string }[]; images?: { uri?: string }[] };
    return [...(json.buffers ?? []), ...(json.images ?? [])].map((x) => x.uri).filter((u): u is string => typeof u === 'string' && !u.startsWith('data:'));
  } catch {
    return [];
  }
}

async function load(file: string, bytes: Uint8Array, folder: Folder): Promise<Scene> {
  const resources = new Map<string, Uint8Array>();
  if (/\.gltf$/i.test(file)) {
    for (const uri of gltfUris(bytes)) {
      const found = folder.byUri(uri);
      if (found) resources.set(uri, found);
    }
  }
  return loadModelAsync(file, bytes, resources);
}

function size(n: number): string {
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(2)} MiB`;
}

async function main(): Promise<number> {
  try {
    const args = parseConvertArgs(process.argv.slice(2));
    if (args.help) {
      process.stdout.write(`${CONVERT_USAGE}\n`);
      return 0;
    }
    let inSize: number;
    try {
      inSize = statSync(args.input).size;
    } catch {
      throw new UsageError(`${args.input}: no such file`);
    }
    if (inSize > 1024 * 1024 * 1024) throw new UsageError(`${args.input}: larger than 1 GiB`);
    const folder = new Folder(dirname(resolve(args.input)));
    const scene = await load(args.input, new Uint8Array(readFileSync(args.input)), folder);
    const { files, warnings } = await exportGltf(scene, {
      binary: args.binary,
      fileName: basename(args.output),
      textures: async (name) => (scene.images?.some((im) => im.name === name) ? null : folder.byBaseName(name)),
    });
    const outDir = dirname(args.output);
    for (const [name, bytes] of files) {
      const path = join(outDir, name);
      try {
        writeFileSync(path, bytes);
      } catch (e) {
        throw new UsageError(`${path}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
      process.stdout.write(`wrote       ${path} (${size(bytes.length)})\n`);
    }
    const lines: string[] = [];
    for (const m of scene.meshes) {
      const morphs = (m.morphs ?? []).filter((d) => d.vertices.length > 0).length;
      lines.push(`mesh        ${m.name}: ${m.vertexCount} vertices, ${m.indices.length / 3} triangles, ${m.skinned ? `skinned by ${m.bones.length} bones` : 'rigid'}${morphs ? `, ${morphs} morph targets` : ''}`);
    }
    for (const c of scene.clips) lines.push(`clip        ${c.name}: ${Math.round(c.duration * 1e4) / 1e4} s, ${c.tracks.length} tracks${c.morphTracks?.length ? `, ${c.morphTracks.length} morph tracks` : ''}${c.markers?.length ? `, ${c.markers.length} markers` : ''}`);
    for (const w of scene.warnings) lines.push(`warning     ${w}`);
    for (const w of warnings) lines.push(`warning     ${w}`);
    process.stdout.write(`${lines.join('\n')}${lines.length ? '\n' : ''}`);
    return 0;
  } catch (e) {
    const msg = e instanceof LoadError || e instanceof UsageError ? e.message : `internal error: ${(e as Error)?.message ?? String(e)}`;
    process.stderr.write(`error: ${msg.replace(/\n/g, ' ')}\n`);
    return 1;
  }
}

process.exitCode = await main();
