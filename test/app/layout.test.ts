import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Guards the source layout (docs/STYLE.md "One job per file"):
 * - no import loop among the `.ts` files under src/: every static `import … from`, `import type … from`,
 *   side-effect `import '…'` and `export … from` with a relative specifier is an edge, type-only ones
 *   included (a type loop still ties two files' jobs together); dynamic `import()` is not an edge.
 * - no file under src/ over MAX_LINES lines unless ALLOWED_LONG names it with the reason; an entry whose
 *   file is gone or back under the limit fails too, so the list only shrinks.
 */

const ROOT = process.cwd();
const SRC = join(ROOT, 'src');
const MAX_LINES = 400;

/** Files allowed over MAX_LINES, relative to the repository root, each with why it is not split (yet). */
const ALLOWED_LONG: Record<string, string> = {
  'src/loaders/x/read-text.ts':
    'one tokenizer and recursive-descent reader (TextReader, 384 lines) over a single byte cursor; splitting would spread one state machine across files',
  'src/loaders/m3d/write-m3d.ts':
    "one writer, 10 lines over (the extension chunks' own writers live in m3d-markers.ts and m3d-bone-names.ts); its helpers (flatten, nodeOffsets, checkMorphs) exist only for writeM3d's output and its stated requirements",
};

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...tsFiles(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out.sort();
}

/** Relative module specifiers of the static imports and re-exports in `text`. */
function staticSpecifiers(text: string, fileName = 'file.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  for (const s of source.statements) {
    const spec = (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier;
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.')) out.push(spec.text);
  }
  return out;
}

/** The `.ts` file a relative specifier names (`./a.ts`, `./a`, `./a.js`, `./dir` → `./dir/index.ts`), or null. */
function resolveTs(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec.replace(/\?.*$/, ''));
  for (const candidate of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** file → the files it imports, for every `.ts` file under `dir`; paths relative to the repository root. */
function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(dir)) {
    const targets = new Set<string>();
    for (const spec of staticSpecifiers(readFileSync(file, 'utf8'), file)) {
      const target = resolveTs(file, spec);
      if (target !== null && target.startsWith(dir)) targets.add(relative(ROOT, target));
    }
    graph.set(relative(ROOT, file), [...targets].sort());
  }
  return graph;
}

/**
 * One cycle per strongly connected component with more than one file (or a file importing itself),
 * written `a → b → … → a` (Tarjan's algorithm, then a shortest way back to the start inside the component).
 */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);

  const cycles: string[] = [];
  for (const component of components) {
    const members = new Set(component);
    const start = component.sort()[0]!;
    if (component.length === 1 && !(graph.get(start) ?? []).includes(start)) continue;
    // Breadth-first from start's successors back to start, inside the component.
    const previous = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift()!;
      const next = (graph.get(v) ?? []).filter((w) => members.has(w));
      if (next.includes(start)) {
        const path = [start];
        for (let u = v; u !== start; u = previous.get(u)!) path.splice(1, 0, u);
        cycles.push([...path, start].join(' → ') + (component.length > path.length ? ` (and ${component.length - path.length} more files in the loop)` : ''));
        break;
      }
      for (const w of next) if (!previous.has(w) && w !== start) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return cycles.sort();
}

function lineCount(file: string): number {
  const text = readFileSync(file, 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('source layout', () => {
  it('no import loop among the files under src/', () => {
    const graph = importGraph(SRC);
    expect(graph.size).toBeGreaterThan(100);
    expect(findCycles(graph), 'import loops (break each by moving what both sides share into its own file)').toEqual([]);
  });

  it(`no file under src/ over ${MAX_LINES} lines unless allowed, with its reason`, () => {
    const long = tsFiles(SRC)
      .map((f) => ({ file: relative(ROOT, f), lines: lineCount(f) }))
      .filter((f) => f.lines > MAX_LINES && !(f.file in ALLOWED_LONG))
      .map((f) => `${f.file}: ${f.lines} lines (split it by job, or add it to ALLOWED_LONG with the reason)`);
    expect(long).toEqual([]);
  });

  it('every ALLOWED_LONG entry is still a file over the limit and has a reason', () => {
    const stale = Object.entries(ALLOWED_LONG)
      .filter(([file, reason]) => !existsSync(join(ROOT, file)) || lineCount(join(ROOT, file)) <= MAX_LINES || reason.trim() === '')
      .map(([file]) => `${file}: ${existsSync(join(ROOT, file)) ? `${lineCount(join(ROOT, file))} lines` : 'gone'}; remove it from ALLOWED_LONG`);
    expect(stale).toEqual([]);
  });
});

describe('layout guard helpers', () => {
  it('staticSpecifiers reads every static relative import and re-export, type-only ones included', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      'import {',
      '  c,',
      '  type C,',
      "} from './c.ts';",
      "import './side-effect.ts';",
      "export { d } from './d.ts';",
      "export type * from './e.ts';",
      "import fs from 'node:fs';",
      "// import { x } from './comment.ts';",
      "const s = \"import { y } from './string.ts'\";",
      "const lazy = () => import('./dynamic.ts');",
    ].join('\n');
    expect(staticSpecifiers(text)).toEqual(['./a.ts', '../b.ts', './c.ts', './side-effect.ts', './d.ts', './e.ts']);
  });

  it('findCycles names a loop and a self-import; a chain is not a loop', () => {
    const graph = new Map<string, string[]>([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
      ['f.ts', ['d.ts']],
    ]);
    expect(findCycles(graph)).toEqual(['a.ts → b.ts → c.ts → a.ts', 'e.ts → e.ts']);
    expect(findCycles(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', []]]))).toEqual([]);
  });
});
