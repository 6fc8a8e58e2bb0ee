import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelTarget } from '../../src/cli/screenshots.ts';
import { modelParam } from '../../src/cli/shots-server.ts';

/** `npm run screenshots` failures that need no browser: one `error:` line, exit 2. */
describe('npm run screenshots (process)', () => {
  const run = (...args: string[]): { status: number | null; stdout: string; stderr: string } => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'cli', 'screenshots.ts'), ...args], { encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('prints usage for --help', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: npm run screenshots -- --model/);
  });

  it('says to build first when the site is missing', () => {
    const r = run('--model', 'default', '--out', join(tmpdir(), 'never'), '--dist', '/nonexistent-dist');
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('error: /nonexistent-dist/index.html is missing: build the site first with npm run build (or pass --dist DIR)');
  });

  it('rejects bad arguments with the usage', () => {
    const r = run('--model', 'default', '--out', 'x', '--frames', '0');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: frames: "0" is not a whole number of frames from 1 to 10000\nusage:/);
  });
});

describe('model targets', () => {
  it('tells built-in ids, files and URLs apart and maps them to page URLs', () => {
    expect(modelTarget('default')).toEqual({ kind: 'builtin', id: 'default' });
    expect(modelParam(modelTarget('default'))).toBe('default');
    const dir = mkdtempSync(join(tmpdir(), 'skinlab-model-'));
    writeFileSync(join(dir, 'My Model.x'), 'xof ');
    const file = modelTarget(join(dir, 'My Model.x'));
    expect(file).toEqual({ kind: 'file', path: join(dir, 'My Model.x') });
    expect(modelParam(file)).toBe('__model/My%20Model.x');
    const url = modelTarget('https://example.org/models/tiny/tiny.x');
    expect(modelParam(url)).toBe(`__remote/${encodeURIComponent('https://example.org/models/tiny/')}/tiny.x`);
    expect(() => modelTarget('no-such-model')).toThrow(/not a built-in model id, an existing file or an http\(s\) URL/);
  });
});
