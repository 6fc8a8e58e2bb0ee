import { writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { exportGltf } from '../export/export-gltf.ts';
import { loadModelAsync } from '../loaders/load-model.ts';
import { LoadError } from '../model/errors.ts';
import { CONVERT_USAGE, parseConvertArgs } from './convert-args.ts';
import { UsageError } from './inspect-args.ts';
import { gltfResources, ModelFolder, readModelInput } from './model-files.ts';

/**
 * `npm run convert -- IN OUT.glb|OUT.gltf`: loads any model the app reads with the page's loaders and
 * writes it as glTF 2.0 through src/export (docs/api.md#convert). Companion files (textures, a .gltf's
 * buffers and images) are read only from IN's folder, by the page's rules (model-files.ts).
 * Prints what it wrote: files and sizes, meshes, clips, warnings. Failure: exit 1 with one `error:` line
 * on stderr, never a stack trace.
 */

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
    const bytes = readModelInput(args.input);
    const folder = new ModelFolder(dirname(resolve(args.input)));
    const scene = await loadModelAsync(args.input, bytes, gltfResources(args.input, bytes, folder));
    const { files, warnings } = await exportGltf(scene, {
      binary: args.binary,
      fileName: basename(args.output),
      textures: async (name) => (scene.images?.some((im) => im.name === name) ? null : folder.read(name)),
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
