import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No code built from strings in what the page ships: the page's Content-Security-Policy (index.html) has
 * no 'unsafe-eval', so eval, new Function, and string timers would fail there at run time. Checked in the
 * sources, in the runtime dependencies the bundle takes code from (package.json `dependencies`), and in a
 * built site when there is one (e2e/security.spec.ts checks the build under test, with Vite's own runtime).
 */

const ROOT = process.cwd();

/** eval(…), new Function(…) / Function(…), setTimeout/setInterval with a string, import of a data: or blob: URL. */
const PATTERNS: [string, RegExp][] = [
  ['eval', /(?<![\w$.])eval\s*\(/],
  ['new Function', /\bnew\s+Function\s*\(/],
  ['Function(…)', /(?<![\w$.])Function\s*\(\s*["'`]/],
  ['string timer', /\bset(?:Timeout|Interval)\s*\(\s*["'`]/],
  ['import of data:/blob:', /\bimport\s*\(\s*["'`](?:data|blob):/],
];

function files(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path, ext));
    else if (ext.test(name)) out.push(path);
  }
  return out;
}

/** Each match as "file: pattern: …context…". */
function findings(paths: string[]): string[] {
  const out: string[] = [];
  for (const path of paths) {
    const text = readFileSync(path, 'utf8');
    for (const [what, re] of PATTERNS) {
      const g = new RegExp(re.source, 'g');
      for (const m of text.matchAll(g)) {
        out.push(`${relative(ROOT, path)}: ${what}: …${text.slice(Math.max(0, m.index - 40), m.index + 40).replace(/\s+/g, ' ')}…`);
      }
    }
  }
  return out;
}

describe('no eval', () => {
  it('the patterns catch what they are for (and not lookalikes)', () => {
    const hit = (s: string): boolean => PATTERNS.some(([, re]) => re.test(s));
    expect(hit('eval("1")')).toBe(true);
    expect(hit('x = new Function("a", "return a")')).toBe(true);
    expect(hit("Function('return this')()")).toBe(true);
    expect(hit("setTimeout('go()', 5)")).toBe(true);
    expect(hit('import("data:text/javascript,1")')).toBe(true);
    expect(hit('player.evaluate()')).toBe(false);
    expect(hit('m.evaluate(t)')).toBe(false);
    expect(hit('setTimeout(() => go(), 5)')).toBe(false);
    expect(hit('typeof x === "function"')).toBe(false);
  });

  it('src/ builds no code from strings', () => {
    expect(findings(files(join(ROOT, 'src'), /\.ts$/))).toEqual([]);
  });

  const deps = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
  it(`the runtime dependencies (${deps.join(', ')}) build no code from strings`, () => {
    expect(deps.length).toBeGreaterThan(0);
    const scripts = deps.flatMap((d) => files(join(ROOT, 'node_modules', d), /\.(m|c)?js$/));
    expect(scripts.length).toBeGreaterThan(0);
    expect(findings(scripts)).toEqual([]);
  });

  // dist/, and the folder a parallel run built into (playwright.config.ts SKINLAB_DIST).
  for (const dist of [...new Set(['dist', process.env.SKINLAB_DIST ?? 'dist'])]) {
    const assets = join(ROOT, dist, 'assets');
    const built = existsSync(join(ROOT, dist, 'index.html')) && existsSync(assets);
    it.skipIf(!built)(`the built page's scripts (${dist}/assets${built ? '' : ': not built, skipped'}) build no code from strings`, () => {
      const scripts = files(assets, /\.js$/);
      expect(scripts.length).toBeGreaterThan(0);
      expect(findings(scripts)).toEqual([]);
    });
  }
});
