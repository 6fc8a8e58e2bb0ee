import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
