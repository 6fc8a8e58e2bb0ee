import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseInspectArgs, UsageError } from '../../src/cli/inspect-args.ts';

/** `inspect --quality` as a user runs it, on the generated twist rig (public/models/generated). */

const ROOT = join(__dirname, '..', '..');
const TWIST = join(ROOT, 'public', 'models', 'generated', 'twist.m3d');

function inspect(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'inspect.ts'), ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('inspect --quality', () => {
  it('prints per-technique figures as JSON: linear blending loses volume at the 180° twist, dual-quat keeps it', () => {
    const r = inspect(TWIST, '--clip', 'twist', '--t', '2', '--quality', '--techniques', 'vs-hlsl,dual-quat', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.clip).toBe('twist');
    expect(j.t).toBe(2);
    expect(j.modelHeight).toBe(2);
    expect(j.techniques.map((t: { technique: string }) => t.technique)).toEqual(['vs-hlsl', 'dual-quat']);
    const [linear, dual] = j.techniques;
    expect(linear.reference).toBe('linear');
    expect(linear.volume.ratio).toBeLessThan(0.9);
    expect(linear.volume.meshes).toEqual([{ mesh: expect.any(String), ratio: linear.volume.ratio, open: false, boundaryEdges: 0 }]);
    expect(Object.keys(linear.area).sort()).toEqual(['grow', 'max', 'p50', 'p95', 'shrink', 'skipped', 'vertices', 'worstVertex']);
    expect(linear.area.worstVertex.bones).toEqual(['inner', 'outer']);
    expect(dual.volume.ratio).toBeGreaterThan(0.98);
    expect(dual.deviation).toEqual({ vs: 'software', p95: expect.any(Number), max: expect.any(Number) });
    expect(dual.deviation.max).toBeGreaterThan(0.1);
  });

  it('lists one entry per reference maths by default and prints a table without --json', () => {
    const r = inspect(TWIST, '--clip', 'bend', '--t', '2', '--quality');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^pose {8}clip bend, t = 2$/m);
    expect(r.stdout).toMatch(/^software +0\.96\d\d \(-3\.\d\d %\)/m);
    expect(r.stdout).toMatch(/same maths: ff-nonindexed, ff-indexed, vs-asm, vs-hlsl, accumulated, texture, stream-out/);
    expect(r.stdout).toMatch(/^dual-quat +0\.99\d\d/m);
  });

  it('refuses a technique without a CPU reference with one error line', () => {
    const r = inspect(TWIST, '--clip', 'twist', '--t', '2', '--quality', '--techniques', 'vs-hlsl,nope');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual(['error: --techniques: no CPU reference for nope (references exist for software, ff-nonindexed, ff-indexed, vs-asm, vs-hlsl, accumulated, texture, stream-out, dual-quat, cor, ddm)']);
  });

  it('parses the flags and refuses what does not fit', () => {
    expect(parseInspectArgs(['m.x', '--quality', '--t', '2', '--techniques', 'a,b'])).toMatchObject({ quality: true, techniques: ['a', 'b'], times: [2] });
    expect(() => parseInspectArgs(['m.x', '--quality'])).toThrow(UsageError);
    expect(() => parseInspectArgs(['m.x', '--quality', '--t', '1', '2'])).toThrow(/one pose/);
    expect(() => parseInspectArgs(['m.x', '--t', '1', '--techniques', 'a'])).toThrow(/add --quality/);
    expect(parseInspectArgs(['m.x', '--t', '1'])).not.toHaveProperty('quality');
  });
});
