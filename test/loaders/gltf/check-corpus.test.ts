import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeDataUri, isDataUri } from '../../../src/loaders/gltf/data-uri.ts';
import { checkGltf } from '../../../src/loaders/gltf/gltf-check.ts';
import { readGltfContainer } from '../../../src/loaders/gltf/gltf-container.ts';
import { threadCpuMs } from '../../thread-cpu.ts';

/** The structural checks on the shared glTF corpus: every sound file passes, every malformed one is refused. */
const here = dirname(fileURLToPath(import.meta.url));
const ROOT = process.env.GLTF_CORPUS_DIR ?? join(here, '..', '..', '..', '..', 'shared', 'corpus-gltf');
const HAVE = existsSync(join(ROOT, 'MANIFEST.tsv'));
if (!HAVE) console.warn(`[skinlab tests] SKIPPING glTF corpus check tests: no corpus at ${ROOT} (set GLTF_CORPUS_DIR)`);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : /\.(gltf|glb)$/.test(f) ? [p] : [];
  });
}

function checkFile(path: string): string[] {
  const name = basename(path);
  const c = readGltfContainer(name, new Uint8Array(readFileSync(path)));
  const list = Array.isArray(c.json['buffers']) ? (c.json['buffers'] as { uri?: string }[]) : [];
  const buffers = list.map((b, i) => {
    if (typeof b.uri !== 'string') return i === 0 ? c.bin : null;
    if (isDataUri(b.uri)) return decodeDataUri(b.uri, 1 << 28, `${name}: /buffers/${i}`);
    const p = join(dirname(path), basename(decodeURIComponent(b.uri)));
    return existsSync(p) ? new Uint8Array(readFileSync(p)) : null;
  });
  return checkGltf(name, c.json, buffers);
}

(HAVE ? describe : describe.skip)('glTF corpus through the structural checks', () => {
  const files = HAVE ? walk(ROOT) : [];
  it('passes every sound file without warnings, quickly', () => {
    const sound = files.filter((f) => !relative(ROOT, f).startsWith('malformed'));
    expect(sound.length).toBeGreaterThanOrEqual(15);
    for (const f of sound) {
      const t0 = threadCpuMs();
      expect(checkFile(f), relative(ROOT, f)).toEqual([]);
      expect(threadCpuMs() - t0, `${relative(ROOT, f)}: CPU ms`).toBeLessThan(200);
    }
  });
  it('refuses the malformed files with the fault the validator names', () => {
    const expected: Record<string, RegExp> = {
      'malformed/assimp/IndexOutOfRange/IndexOutOfRange.gltf': /^IndexOutOfRange\.gltf: \/meshes\/0\/primitives\/0\/indices: index \d+ of accessor 0 is \d+, but POSITION has only 24 vertices$/,
      'malformed/assimp/IndexOutOfRange/AllIndicesOutOfRange.gltf': /^AllIndicesOutOfRange\.gltf: \/meshes\/0\/primitives\/0\/indices: index 0 of accessor 0 is 65535, but POSITION has only 24 vertices$/,
      'malformed/validator/node/node_loop.gltf': /^node_loop\.gltf: \/nodes\/\d: node \d is its own ancestor \(the children form a cycle\)$/,
      'malformed/validator/glb/invalid_magic.glb': /^invalid_magic\.glb: byte offset 0: not a GLB file/,
      'malformed/validator/glb/truncated_chunk_data.glb': /^truncated_chunk_data\.glb: byte offset 47: the file is truncated/,
    };
    for (const [file, re] of Object.entries(expected)) expect(() => checkFile(join(ROOT, file)), file).toThrow(re);
  });
});
