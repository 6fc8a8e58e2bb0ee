import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, corpusBytes, describeCorpus } from '../corpus.ts';

/** Runs `inspect` the way `npm run inspect -- ARGS` does, in a child Node process. */
function inspect(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'cli', 'inspect.ts'), ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describeCorpus('npm run inspect', () => {
  it('prints the soldier summary as JSON, with CPU-skinned bounds', () => {
    const r = inspect(join(CORPUS_DIR, 'soldier.m3d'), '--json', '--t', '0', '0.5');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.format).toBe('m3d');
    expect(j.meshes).toEqual([{ name: 'soldier', vertices: 13748, triangles: 22507, subsets: 5, skinned: true, bones: 58, maxInfluences: 4 }]);
    expect(j.frames).toBe(58);
    expect(j.bones).toBe(58);
    expect(j.clips).toEqual([{ name: 'Take1', duration: 1.25, ticksPerSecond: 0, tracks: 58 }]);
    expect(j.poses).toHaveLength(2);
    expect(j.poses[1].t).toBe(0.5);
    expect(j.poses[0].bounds.max[1] - j.poses[0].bounds.min[1]).toBeGreaterThan(65);
    expect(j.poses[0].bounds).not.toEqual(j.poses[1].bounds);
  });

  it('a truncated copy prints one error line with the line number and exits 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skinlab-'));
    const file = join(dir, 'soldier-cut.m3d');
    writeFileSync(file, corpusBytes('soldier.m3d').subarray(0, 1_500_000));
    const r = inspect(file, '--json');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: .*soldier-cut\.m3d: line \d+: /);
  });
});

describe('npm run inspect: options after FILE', () => {
  const tiny = join(__dirname, '..', '..', 'public', 'models', 'tiny', 'tiny.x');

  it('FILE --t 0.5 --json prints JSON with the pose at 0.5 s, the same as with the options first', () => {
    const r = inspect(tiny, '--t', '0.5', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.format).toBe('x-text');
    expect(j.clip).toBe('Anim-1');
    expect(j.poses).toHaveLength(1);
    expect(j.poses[0].t).toBe(0.5);
    const { min, max } = j.poses[0].bounds as { min: number[]; max: number[] };
    expect(min).toHaveLength(3);
    expect(max).toHaveLength(3);
    for (let k = 0; k < 3; k++) expect(max[k]! - min[k]!).toBeGreaterThan(1);
    expect(inspect('--json', '--t', '0.5', tiny).stdout).toBe(r.stdout);
  });
});

describe('npm run inspect (usage)', () => {
  it('names a missing file and a bad option without a stack trace', () => {
    const missing = inspect('/nonexistent/model.m3d');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^error: \/nonexistent\/model\.m3d: no such file\n$/);
    const bad = inspect('x.m3d', '--frobnicate');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^error: unknown option --frobnicate/);
    expect(bad.stderr.split('\n')).toHaveLength(2);
  });

  it('--help prints the usage with every option on stdout and exits 0', () => {
    const r = inspect('--help');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    for (const o of ['FILE', '--json', '--t', '--clip']) expect(r.stdout).toContain(o);
  });
});
