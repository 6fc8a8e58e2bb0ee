import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDawn, type DawnDetail } from '../gen/dawn.ts';
import { generateHumanoid } from '../gen/humanoid.ts';
import { generateTwist } from '../gen/twist.ts';
import { writeM3d } from '../loaders/m3d/write-m3d.ts';

/**
 * `npm run gen`: writes the generated built-in models into public/models/generated/ as ordinary model
 * files, which the page then loads through the same loaders as any user file. Deterministic: a file is
 * rewritten only when its bytes change. Runs before `dev`, `build` and `test`.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = join(root, 'public', 'models', 'generated');
mkdirSync(outDir, { recursive: true });

function emit(name: string, make: () => string): void {
  const path = join(outDir, name);
  const t0 = performance.now();
  const text = make();
  let old = '';
  try {
    old = readFileSync(path, 'utf8');
  } catch {
    /* first run */
  }
  const ms = (performance.now() - t0).toFixed(0);
  if (old === text) {
    console.log(`${name}: up to date (${ms} ms)`);
    return;
  }
  writeFileSync(path, text);
  console.log(`${name}: written, ${(text.length / 1024).toFixed(0)} KiB in ${ms} ms`);
}

emit('walker.m3d', () => writeM3d(generateHumanoid()));
emit('twist.m3d', () => writeM3d(generateTwist()));

/**
 * Dawn's three detail levels take seconds each, so they are regenerated only when a source they are
 * made from changes: `dawn.stamp` holds a SHA-256 of those sources (every src/gen file, the .m3d
 * writer and the chunk modules it calls, the model types and this file) and the files are skipped while
 * it matches and they exist.
 * The scene's meshes (body, head, hair, wings) stay separate meshes in the file through the .m3d
 * `Meshes` extension chunk (docs/m3d-morph-extension.md), with the morph targets and expression tracks.
 */
function sourcesHash(): string {
  const hash = createHash('sha256');
  const files = [
    ...readdirSync(join(root, 'src', 'gen')).filter((f) => f.endsWith('.ts')).sort().map((f) => join(root, 'src', 'gen', f)),
    ...['write-m3d.ts', 'm3d-markers.ts', 'm3d-bone-names.ts'].map((f) => join(root, 'src', 'loaders', 'm3d', f)),
    join(root, 'src', 'model', 'types.ts'),
    join(root, 'src', 'model', 'handedness.ts'),
    fileURLToPath(import.meta.url),
  ];
  for (const f of files) {
    hash.update(f.slice(root.length));
    hash.update(readFileSync(f));
  }
  return hash.digest('hex');
}

const DAWN_FILES: readonly [DawnDetail, string][] = [['low', 'dawn-low.m3d'], ['medium', 'dawn-medium.m3d'], ['high', 'dawn-high.m3d']];
const stampPath = join(outDir, 'dawn.stamp');
const stamp = sourcesHash();
const fresh = existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp && DAWN_FILES.every(([, f]) => existsSync(join(outDir, f)));
if (fresh) console.log('dawn-*.m3d: up to date (sources unchanged)');
else {
  for (const [detail, file] of DAWN_FILES) emit(file, () => writeM3d(generateDawn({ detail })));
  writeFileSync(stampPath, stamp);
}
