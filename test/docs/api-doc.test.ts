import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TECHNIQUE_IDS } from '../../src/techniques/technique.ts';
import { VIEW_IDS } from '../../src/render/views.ts';
import { BENCH_PARTS } from '../../src/app/bench/options.ts';
import { IMPOSTOR_MODES } from '../../src/render/frame-types.ts';
import { CROWD_LAYOUTS } from '../../src/render/crowd-layout.ts';
import { MORPH_PATHS } from '../../src/anim/morph.ts';
import { CROWD_PATHS } from '../../src/app/state.ts';

/**
 * docs/api.md is the reference of what users and scripts drive; these checks keep it equal to the code: every
 * URL key the page reads has a row in its URL table (and every row is a key the page reads), every technique
 * and view id, every npm script, every `window.skinlab` member and every `info()` and `stats()` field is named.
 */

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const doc = read('docs/api.md');

/** The text of the `## heading` section (up to the next `## `). */
function section(heading: string): string {
  const start = doc.indexOf(`\n## ${heading}\n`);
  expect(start, `docs/api.md has a "## ${heading}" section`).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

/** The text of the `### heading` subsection (up to the next heading of level 2 or 3). */
function subsection(heading: string): string {
  const start = doc.indexOf(`\n### ${heading}\n`);
  expect(start, `docs/api.md has a "### ${heading}" section`).toBeGreaterThanOrEqual(0);
  const rest = doc.slice(start + 1);
  const end = rest.search(/\n##+ /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The body of `function name(` in `source`: from its first `{` to the matching `}`. */
function functionBody(source: string, name: string): string {
  const at = source.indexOf(`function ${name}(`);
  expect(at, `${name} is defined`).toBeGreaterThanOrEqual(0);
  const open = source.indexOf('{\n', at);
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '{') depth++;
    else if (source[i] === '}' && --depth === 0) return source.slice(open, i + 1);
  }
  throw new Error(`${name}: unbalanced braces`);
}

/** URL keys the page reads: applyParams's `case '…':` labels, and `bench`, which main.ts reads itself. */
function urlKeys(): string[] {
  const body = functionBody(read('src/app/state.ts'), 'applyParams');
  const keys = [...body.matchAll(/case '([A-Za-z]+)':/g)].map((m) => m[1]!);
  if (/params\.bench\b/.test(read('src/main.ts'))) keys.push('bench');
  return keys;
}

/** The first-column keys of the URL table. */
function documentedKeys(): string[] {
  return [...section('URL parameters').matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((m) => m[1]!);
}

/** Field names declared one per line at `indent` spaces (`name:`, `name?:`, `name(`) in `text`. */
function fields(text: string, indent: number, call = false): string[] {
  const re = new RegExp(`^ {${indent}}(?:readonly )?([A-Za-z]+)\\??${call ? '\\(' : ':'}`, 'gm');
  return [...text.matchAll(re)].map((m) => m[1]!);
}

describe('docs/api.md', () => {
  it('has a URL table row for every key the page reads, and no other', () => {
    const keys = urlKeys();
    expect(keys.length).toBeGreaterThan(30);
    const rows = documentedKeys();
    expect(rows.filter((k, i) => rows.indexOf(k) !== i), 'keys documented twice').toEqual([]);
    expect(keys.filter((k) => !rows.includes(k)), 'URL keys without a row in docs/api.md').toEqual([]);
    expect(rows.filter((k) => !keys.includes(k)), 'rows for keys the page does not read').toEqual([]);
  });

  it('lists the values of the enumerated keys', () => {
    const url = section('URL parameters');
    const row = (key: string): string => url.split('\n').find((l) => l.startsWith(`| \`${key}\` |`)) ?? '';
    const cases: [string, readonly string[]][] = [
      ['bench', BENCH_PARTS],
      ['impostors', IMPOSTOR_MODES],
      ['crowdLayout', CROWD_LAYOUTS],
      ['morphs', MORPH_PATHS],
      ['crowdPath', CROWD_PATHS],
    ];
    for (const [key, values] of cases) for (const v of values) expect(row(key), `${key} row names ${v}`).toContain(`\`${v}\``);
  });

  it('names every technique id and view id in their tables', () => {
    const techniques = section('Technique ids');
    for (const id of TECHNIQUE_IDS) expect(techniques, `technique ${id}`).toMatch(new RegExp(`^\\| \`${id}\` \\|`, 'm'));
    const views = section('View ids');
    for (const id of VIEW_IDS) expect(views, `view ${id}`).toMatch(new RegExp(`^\\| \`${id}\` \\|`, 'm'));
  });

  it('names every npm script', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const commands = section('Commands');
    for (const name of scripts) {
      const named = commands.includes(`\`${name}\``) || commands.includes(name === 'test' ? '`npm test`' : `\`npm run ${name}\``);
      expect(named, `npm script ${name} is named in Commands`).toBe(true);
    }
  });

  it('names every window.skinlab member', () => {
    const main = read('src/main.ts');
    const api = main.slice(main.indexOf('skinlab: {'), main.indexOf('\n    };', main.indexOf('skinlab: {')));
    const members = [...fields(api, 6, true), ...fields(read('src/app/record-plan.ts').split('export interface RecordApi')[1]!.split('\n}')[0]!, 2, true)];
    expect(members).toContain('set');
    expect(members).toContain('recordPlan');
    const text = section('Scripting API');
    for (const m of members) expect(text, `window.skinlab.${m}`).toContain(`\`${m}(`);
  });

  it('names every info() and stats() field', () => {
    const facts = read('src/app/facts.ts');
    const info = facts.slice(facts.indexOf('  info(): Record<string, unknown> {'));
    const infoFields = [...fields(info.slice(0, info.indexOf('\n    };')), 6), 'glObjects', 'contextLosses'];
    expect(infoFields).toContain('lodLevels');
    const infoDoc = subsection('info()');
    for (const f of infoFields) expect(infoDoc, `info().${f}`).toContain(`\`${f}\``);

    const stats = read('src/app/frame-stats.ts');
    const decl = stats.slice(stats.indexOf('export interface Stats {'));
    const statsFields = fields(decl.slice(0, decl.indexOf('\n}')), 2);
    expect(statsFields).toContain('instancesPerLevel');
    const statsDoc = subsection('stats()');
    for (const f of statsFields) expect(statsDoc, `stats().${f}`).toContain(`\`${f}\``);
  });
});
