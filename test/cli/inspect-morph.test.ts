import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeM3d } from '../../src/loaders/m3d/write-m3d.ts';
import { morphScene, plainScene } from '../loaders/morph-fixtures.ts';

function inspect(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'cli', 'inspect.ts'), ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('npm run inspect: morph targets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skinlab-morph-'));
  const morph = join(dir, 'dawn.m3d');
  const plain = join(dir, 'plain.m3d');
  writeFileSync(morph, writeM3d(morphScene()));
  writeFileSync(plain, writeM3d(plainScene()));

  it('lists the targets, their kinds, how many targets move each mesh and the morph tracks per clip (JSON)', () => {
    const r = inspect(morph, '--json');
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout);
    expect(j.morphTargets).toEqual(['smile', 'blink']);
    expect(j.morphKinds).toEqual(['emotion', 'modifier']);
    expect(j.meshes.map((m: { name: string; morphTargets: number }) => [m.name, m.morphTargets])).toEqual([['body', 1], ['head', 2]]);
    expect(j.clips.map((c: { name: string; morphTracks: number; duration: number }) => [c.name, c.morphTracks, c.duration])).toEqual([['talk', 2, 2], ['idle', 0, 1]]);
  });

  it('prints the count and kinds in the table', () => {
    const r = inspect(morph);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('morphs      2 targets (1 emotions, 1 modifiers): smile (emotion), blink (modifier)\n');
    expect(r.stdout).toContain('mesh        head: 8 vertices, 12 triangles, 1 subsets, skinned by 2 bones, up to 1 influences, moved by 2 morph targets\n');
    expect(r.stdout).toContain('clip        talk: 2 s, 2 tracks, 2 morph tracks\n');
  });

  it('adds no morph fields for a model without targets', () => {
    const j = JSON.parse(inspect(plain, '--json').stdout);
    expect(j.morphTargets).toEqual([]);
    expect('morphKinds' in j).toBe(false);
    expect(Object.keys(j.meshes[0])).toEqual(['name', 'vertices', 'triangles', 'subsets', 'skinned', 'bones', 'maxInfluences']);
    expect(Object.keys(j.clips[0])).toEqual(['name', 'duration', 'ticksPerSecond', 'tracks']);
    expect(inspect(plain).stdout).not.toContain('morph');
  });
});
