import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveIncludes } from '../../src/gpu/glsl-include.ts';

const dir = join(__dirname, '..', '..', 'glsl');
const lookup = (name: string): string | undefined => {
  try {
    return readFileSync(join(dir, 'include', `${name}.glsl`), 'utf8');
  } catch {
    return undefined;
  }
};

describe('GLSL #include', () => {
  it('resolves every include of every shader in glsl/', () => {
    const stages = readdirSync(dir).filter((f) => /\.(vert|frag)$/.test(f));
    expect(stages.length).toBeGreaterThanOrEqual(4);
    for (const f of stages) {
      const out = resolveIncludes(readFileSync(join(dir, f), 'utf8'), lookup, f);
      expect(out, f).not.toMatch(/^\s*#include/m);
    }
    const vert = resolveIncludes(readFileSync(join(dir, 'skinned.vert'), 'utf8'), lookup, 'skinned.vert');
    expect(vert).toContain('uniform Palette');
    expect(vert).toContain('mat4 skinMatrix()');
  });

  it('fails loudly on an include that does not exist', () => {
    expect(() => resolveIncludes('#include <nope>\nvoid main(){}', lookup, 'x.vert')).toThrow(/x\.vert: #include <nope> cannot be resolved/);
  });

  it('includes a chunk once and stops runaway recursion', () => {
    const chunks: Record<string, string> = { a: 'A\n#include <b>', b: 'B\n#include <a>' };
    const out = resolveIncludes('#include <a>\n#include <b>', (n) => chunks[n], 'main');
    expect(out.match(/^A$/gm)).toHaveLength(1);
    expect(out.match(/^B$/gm)).toHaveLength(1);
  });
});
