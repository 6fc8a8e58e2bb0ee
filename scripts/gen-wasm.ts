/**
 * Part of `npm run gen`: assembles every WASM_MODULES .wat (scripts/wasm-modules.ts) into its generated
 * .ts. A file is rewritten only when its text changes; a .wat that does not assemble fails the run with
 * WABT's message (exit status 1).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleWat, renderWasmTs, WASM_MODULES } from './wasm-modules.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

for (const m of WASM_MODULES) {
  const bytes = await assembleWat(readFileSync(join(root, m.wat), 'utf8'), m.wat);
  const text = renderWasmTs(bytes, m);
  const path = join(root, m.ts);
  let old = '';
  try {
    old = readFileSync(path, 'utf8');
  } catch {
    /* first run */
  }
  if (old === text) console.log(`${m.ts}: up to date (${bytes.length} bytes)`);
  else {
    writeFileSync(path, text);
    console.log(`${m.ts}: written from ${m.wat} (${bytes.length} bytes)`);
  }
}
