import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestText, validateManifest, type Manifest } from '../../src/app/record-plan.ts';
import { compareRecordings } from '../../src/cli/compare.ts';
import { mergeManifests, parseShard, shardRange, shardShots } from '../../src/cli/shots-shard.ts';

/** `screenshots --shard I/N` slices and joining the slices back (compare with several folders per side). */

const FIXTURES = join(__dirname, '..', 'fixtures', 'compare');

function manifest(files: string[], shard?: { index: number; total: number }): Manifest {
  return {
    format: 'skinlab-shots',
    version: 1,
    app: { name: 'skinlab', version: '0.1.0' },
    recorder: 'cli',
    renderer: 'test',
    model: 'default',
    size: { width: 8, height: 8 },
    params: {},
    settings: { grid: true },
    ...(shard ? { shard } : {}),
    shots: files.map((file, i) => ({ file, model: 'default', clip: 'walk', t: i, technique: 'vs-hlsl', view: 'shaded', camera: 'auto', width: 8, height: 8, status: 'ok' as const })),
  };
}

/** Splits a whole recording's manifest into N shard manifests, as N `--shard I/N` runs write them. */
function split(m: Manifest, total: number): Manifest[] {
  return Array.from({ length: total }, (_, i) => ({ ...m, shard: { index: i + 1, total }, shots: shardShots(m.shots, { index: i + 1, total }) }));
}

describe('shards', () => {
  it('parses I/N', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, total: 3 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, total: 1 });
    for (const bad of ['0/3', '4/3', '1/0', '1', 'a/b', '1/2/3', '-1/2']) expect(() => parseShard(bad), bad).toThrow(/expected I\/N/);
  });

  it('covers every shot of the plan exactly once, in order, in contiguous slices that differ by at most one', () => {
    for (let count = 0; count <= 40; count++) {
      for (let total = 1; total <= 9; total++) {
        const plan = Array.from({ length: count }, (_, i) => i);
        const slices = Array.from({ length: total }, (_, i) => shardShots(plan, { index: i + 1, total }));
        expect(slices.flat(), `${count} shots in ${total}`).toEqual(plan);
        const sizes = slices.map((s) => s.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }
    }
    expect(shardRange(10, { index: 1, total: 3 })).toEqual([0, 3]);
    expect(shardRange(10, { index: 3, total: 3 })).toEqual([6, 10]);
  });

  it('merges the shards in any order into the unsharded manifest, which validates', () => {
    const whole = manifest(['a.png', 'b.png', 'c.png', 'd.png', 'e.png', 'f.png', 'g.png']);
    const shards = split(whole, 3);
    expect(shards.map((s) => s.shots.length)).toEqual([2, 2, 3]);
    const merged = mergeManifests([shards[2]!, shards[0]!, shards[1]!].map((m, i) => ({ manifest: m, where: `s${i}` })));
    expect(merged).toEqual(whole);
    expect(merged.shard).toBeUndefined();
    expect(validateManifest(JSON.parse(manifestText(merged)), 'merged')).toEqual(whole);
    // Each shard's own manifest validates too, shard included.
    expect(validateManifest(JSON.parse(manifestText(shards[1]!)), 's').shard).toEqual({ index: 2, total: 3 });
  });

  it('refuses incomplete, repeated, mixed and differently recorded shards', () => {
    const whole = manifest(['a.png', 'b.png', 'c.png']);
    const [s1, s2, s3] = split(whole, 3).map((m, i) => ({ manifest: m, where: `shard${i + 1}` }));
    expect(() => mergeManifests([s1!, s3!])).toThrow(/shard 2\/3 missing/);
    expect(() => mergeManifests([s1!, s2!, s2!, s3!])).toThrow(/shard 2\/3 is also shard2/);
    expect(() => mergeManifests([s1!, { manifest: whole, where: 'whole' }])).toThrow(/whole: not a shard/);
    expect(() => mergeManifests([s1!, s2!, { ...s3!, manifest: { ...s3!.manifest, shard: { index: 3, total: 4 } } }])).toThrow(/shard 3\/4, but shard1 is one of 3/);
    expect(() => mergeManifests([s1!, s2!, { ...s3!, manifest: { ...s3!.manifest, size: { width: 9, height: 9 } } }])).toThrow(/recorded differently/);
    expect(() => validateManifest({ ...whole, shard: { index: 4, total: 3 } }, 'm.json')).toThrow(/"shard" must be/);
  });

  it('compare takes the 3 shards of a recording as one and matches the unsharded run', () => {
    // The shards a 3-machine run of the base recording writes: each folder its slice of the PNGs and masks.
    const root = mkdtempSync(join(tmpdir(), 'skinlab-shards-'));
    const whole = validateManifest(JSON.parse(readFileSync(join(FIXTURES, 'rim', 'manifest.json'), 'utf8')), 'rim');
    const dirs = split({ ...whole, shots: [...whole.shots, { ...whole.shots[0]!, t: 2, file: 'extra.png' }] }, 3).map((m, i) => {
      const dir = join(root, `rim-${i + 1}`);
      mkdirSync(join(dir, 'masks'), { recursive: true });
      writeFileSync(join(dir, 'manifest.json'), manifestText(m));
      for (const s of m.shots) {
        const from = s.file === 'extra.png' ? whole.shots[0]!.file : s.file;
        cpSync(join(FIXTURES, 'rim', from), join(dir, s.file));
        cpSync(join(FIXTURES, 'rim', 'masks', from), join(dir, 'masks', s.file));
      }
      return dir;
    });
    expect(dirs.map((d) => validateManifest(JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8')), d).shots.length)).toEqual([1, 1, 1]);
    const sharded = compareRecordings(join(FIXTURES, 'base'), dirs, join(root, 'd1'));
    const unsharded = compareRecordings(join(FIXTURES, 'base'), join(FIXTURES, 'rim'), join(root, 'd2'));
    const figures = (r: typeof sharded): unknown => r.pairs.map((p) => [p.key, p.status, p.pixels, p.coverage, p.worst, p.failedRules]);
    // The shard-only shot has no baseline: added. Everything else is what the unsharded run gives.
    expect(sharded.pairs[0]!.status).toBe('added');
    expect(figures({ ...sharded, pairs: sharded.pairs.slice(1) })).toEqual(figures(unsharded));
    expect(sharded.current.shard).toBeUndefined();
    // Shards on both sides, given in any order.
    const both = compareRecordings([dirs[2]!, dirs[0]!, dirs[1]!], dirs, join(root, 'd3'));
    expect(both.pairs.map((p) => p.status)).toEqual(['pass', 'pass', 'pass']);
    expect(() => compareRecordings(join(FIXTURES, 'base'), [dirs[0]!, dirs[2]!], join(root, 'd4'))).toThrow(/shard 2\/3 missing/);
  });
});
