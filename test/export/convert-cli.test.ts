import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConvertArgs } from '../../src/cli/convert-args.ts';
import { UsageError } from '../../src/cli/inspect-args.ts';
import { CORPUS_DIR, describeCorpus } from '../corpus.ts';
import { validateBytes } from './validator.ts';

/** `npm run convert -- IN OUT.glb|OUT.gltf`: its command line, and the command run on corpus files. */

function convert(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'cli', 'convert.ts'), ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('convert command line', () => {
  it('takes IN and OUT; the output extension picks .glb or .gltf', () => {
    expect(parseConvertArgs(['a.x', 'b.glb'])).toMatchObject({ input: 'a.x', output: 'b.glb', binary: true });
    expect(parseConvertArgs(['a.x', 'B.GLTF'])).toMatchObject({ binary: false });
    expect(parseConvertArgs(['--', '-odd.x', 'b.glb'])).toMatchObject({ input: '-odd.x' });
    expect(parseConvertArgs(['--help']).help).toBe(true);
  });

  it('refuses a missing operand, a third one, an unknown option and another output type', () => {
    expect(() => parseConvertArgs(['a.x'])).toThrow(UsageError);
    expect(() => parseConvertArgs(['a.x', 'b.glb', 'c.glb'])).toThrow(/usage/);
    expect(() => parseConvertArgs(['--fast', 'a.x', 'b.glb'])).toThrow(/unknown option --fast/);
    expect(() => parseConvertArgs(['a.x', 'b.obj'])).toThrow(/must end with .glb or .gltf/);
  });
});

describeCorpus('convert on corpus files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skinlab-convert-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a valid .glb with the texture found by base name in any case, and says what it wrote', async () => {
    // The zombie names its texture C_/work/mymodels/zombie/Zombie.jpg; the file beside it is ZOMBIE.JPG.
    const out = join(dir, 'zombie.glb');
    const r = convert(join(CORPUS_DIR, 'dbpro_zombie.x'), out);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^wrote +.*zombie\.glb \(\d+(\.\d+)? KiB\)$/m);
    expect(r.stdout).toMatch(/^mesh +.*skinned by 14 bones/m);
    expect(r.stdout).toMatch(/^clip +/m);
    expect(r.stdout).not.toMatch(/warning/);
    const report = await validateBytes(new Uint8Array(readFileSync(out)));
    expect(report.issues.numErrors).toBe(0);
  }, 30_000);

  it('never looks outside IN\'s folder, and fails with one error: line', () => {
    const lone = mkdtempSync(join(dir, 'lone-'));
    copyFileSync(join(CORPUS_DIR, 'tiny.x'), join(lone, 'tiny.x'));
    const r = convert(join(lone, 'tiny.x'), join(dir, 'tiny.gltf'));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^wrote +.*tiny\.gltf/m);
    expect(r.stdout).toMatch(/^wrote +.*tiny\.bin/m);
    expect(r.stdout).toMatch(/^warning +texture Tiny_skin\.dds was not found/m);
    const bad = convert(join(CORPUS_DIR, 'empty.x'), join(dir, 'empty.glb'));
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: .*empty\.x: the file is empty$/)]);
  }, 30_000);
});
