import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { summarise } from '../../src/cli/inspect-summary.ts';
import { gltfResources, readModelInput } from '../../src/cli/model-files.ts';
import { loadModelAsync } from '../../src/loaders/load-model.ts';
import { describeGltfCorpus, GLTF_CORPUS_DIR, gltfOracle, HAVE_GLTF_CORPUS, type Box, type GltfOracleEntry } from '../loaders/gltf/gltf-corpus.ts';

/**
 * `inspect --t` on every glTF file of the shared corpus agrees with three.js's GLTFLoader (ORACLE.json): the
 * file read as the command reads it (its folder's companions through model-files.ts), posed by the command's
 * own summary code at the oracle's three times of each of its first two animations (files without one: the
 * rest pose), every vertex of every mesh — skinned, and morphed by default and animated weights first.
 * The same for the three characters of ../shared/corpus-materials (Parrot's morph animation, facecap's 52
 * targets) when that folder is there (MATERIALS_CORPUS_DIR; skipped with a message when it is not).
 *
 * Tolerance: 0.5 % of the rest box's diagonal per box face. The loader's own oracle test holds 2e-4 on the
 * same files (test/loaders/gltf/oracle.test.ts); this one guards what the command prints, where a pose that
 * forgets the morph targets is off by 2–67 % of the diagonal (SimpleMorph: max y 0.5 instead of 1.98).
 */

const TOLERANCE = 0.005;

interface Pose {
  t: number;
  bounds: Box;
}

function boxError(got: Box, want: Box): number {
  let err = 0;
  for (let k = 0; k < 3; k++) err = Math.max(err, Math.abs(got.min[k]! - want.min[k]!), Math.abs(got.max[k]! - want.max[k]!));
  return err;
}

const MATERIALS_DIR = process.env.MATERIALS_CORPUS_DIR ?? join(GLTF_CORPUS_DIR, '..', 'corpus-materials');
const HAVE_MATERIALS = existsSync(join(MATERIALS_DIR, 'ORACLE.json'));
if (!HAVE_MATERIALS) console.warn(`[skinlab tests] SKIPPING inspect --t on the materials corpus: no corpus at ${MATERIALS_DIR} (set MATERIALS_CORPUS_DIR)`);

const usable = (e: GltfOracleEntry): boolean => e.success && e.bounds !== undefined && !e.file.startsWith('malformed/');
const entries = [
  ...(HAVE_GLTF_CORPUS ? gltfOracle().filter(usable).map((e) => ({ dir: GLTF_CORPUS_DIR, entry: e })) : []),
  ...(HAVE_MATERIALS ? (JSON.parse(readFileSync(join(MATERIALS_DIR, 'ORACLE.json'), 'utf8')) as { files: GltfOracleEntry[] }).files.filter(usable).map((e) => ({ dir: MATERIALS_DIR, entry: e })) : []),
];

describeGltfCorpus('inspect --t on the glTF corpus against three.js (ORACLE.json)', () => {
  for (const { dir, entry } of entries) {
    it(entry.file, async () => {
      const path = join(dir, entry.file);
      const bytes = readModelInput(path);
      const scene = await loadModelAsync(path, bytes, gltfResources(path, bytes));
      const bounds = entry.bounds!;
      const rest = bounds.rest.all;
      const diag = Math.hypot(rest.max[0]! - rest.min[0]!, rest.max[1]! - rest.min[1]!, rest.max[2]! - rest.min[2]!) || 1;
      const failures: string[] = [];
      if (bounds.anims.length === 0) {
        const [pose] = summarise(scene, null, [0]).poses as Pose[];
        const err = boxError(pose!.bounds, rest);
        if (err > TOLERANCE * diag) failures.push(`rest: off by ${((100 * err) / diag).toFixed(2)} % of the diagonal`);
      }
      for (const anim of bounds.anims) {
        const poses = summarise(scene, String(anim.index), anim.poses.map((p) => p.t)).poses as Pose[];
        anim.poses.forEach((want, i) => {
          const err = boxError(poses[i]!.bounds, want.all);
          if (err > TOLERANCE * diag) failures.push(`${anim.name} t=${want.t}: off by ${((100 * err) / diag).toFixed(2)} % of the diagonal`);
        });
      }
      expect(failures, failures.join('; ')).toEqual([]);
    });
  }

  it('the command itself prints SimpleMorph raised by its animated weights', () => {
    const file = join(GLTF_CORPUS_DIR, 'khronos', 'SimpleMorph.gltf');
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'cli', 'inspect.ts'), file, '--t', '0', '1.48', '--json'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const poses = JSON.parse(r.stdout).poses as Pose[];
    expect(poses[0]!.bounds.max[1]).toBeCloseTo(0.5, 5);
    // At 1.48 s the weights (0.98, 0.02 of the way between keys) lift the top vertex to 1.98 (three.js reads the same).
    expect(poses[1]!.bounds.max[1]).toBeCloseTo(1.98, 4);
  });
});
