import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assembleWat, renderWasmTs, WASM_MODULES } from '../../scripts/wasm-modules.ts';

/**
 * The WebAssembly the page runs is what its .wat says: assembling each WASM_MODULES source with WABT now
 * gives exactly the bytes (and the whole text) of the committed generated .ts, so an edit of either alone
 * fails here until `npm run gen` is run.
 */
describe('generated WebAssembly modules', () => {
  for (const m of WASM_MODULES) {
    it(`${m.ts} is ${m.wat} assembled by WABT`, async () => {
      const bytes = await assembleWat(readFileSync(m.wat, 'utf8'), m.wat);
      const generated = (await import(/* @vite-ignore */ join(process.cwd(), m.ts))) as Record<string, Uint8Array>;
      expect(Array.from(generated[m.exportName]), 'the exported bytes').toEqual(Array.from(bytes));
      expect(readFileSync(m.ts, 'utf8'), 'the file text (npm run gen)').toBe(renderWasmTs(bytes, m));
      expect(WebAssembly.validate(bytes)).toBe(true);
    });
  }

  it('the assembler rejects a kernel with a type error, with its message', async () => {
    await expect(assembleWat('(module (func (result i32) (f32.const 1)))', 'bad.wat')).rejects.toThrow(/type mismatch/);
  });

  it('src/ holds no other WebAssembly module written as bytes (the \\0asm magic outside the generated files)', () => {
    const generated = new Set(WASM_MODULES.map((m) => m.ts));
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : /\.ts$/.test(n) ? [join(dir, n)] : []));
    const magic = /\b0x0*0\s*,\s*0x61\s*,\s*0x73\s*,\s*0x6d\b|\b0\s*,\s*97\s*,\s*115\s*,\s*109\b|\\0asm|\\x00asm/;
    const found = walk('src').filter((f) => !generated.has(f) && magic.test(readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});
