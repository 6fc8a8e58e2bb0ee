import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { manifestText, validateManifest, type RecordRequest } from '../src/app/record-plan.ts';
import { compareRecordings } from '../src/cli/compare.ts';
import { recordOnPage, type PageRecording } from '../src/cli/screenshots.ts';
import { MASK_DIR } from '../src/cli/shots-coverage.ts';
import { mergeManifests } from '../src/cli/shots-shard.ts';
import { openApp, watchConsole } from './helpers.ts';

/**
 * `screenshots --shard I/N` on the real page: three shards of a small plan hold exactly the shots, PNG
 * bytes and coverage masks of the unsharded run, and compare takes the three folders as that recording.
 */

const REQUEST: RecordRequest = {
  clips: [],
  times: [0, 0.5, 1],
  frames: null,
  techniques: ['vs-hlsl'],
  views: ['shaded'],
  cameras: ['auto'],
  size: { width: 160, height: 120 },
};

function write(dir: string, r: PageRecording): string {
  mkdirSync(join(dir, MASK_DIR), { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), manifestText(r.manifest));
  for (const [name, png] of r.files) writeFileSync(join(dir, name), png);
  for (const [name, png] of r.masks) writeFileSync(join(dir, MASK_DIR, name), png);
  return dir;
}

test('three shards record the unsharded plan exactly once, and compare joins them', async ({ page }) => {
  const con = watchConsole(page);
  await openApp(page, '?gui=0');
  const whole = await recordOnPage(page, REQUEST, {}, 'default', undefined, 60_000, { masks: true });
  expect(whole.manifest.shots).toHaveLength(3);
  expect(whole.masks.size).toBe(3);
  const shards: PageRecording[] = [];
  // Masks in one shard only, to keep the test short: they come from the same captures as the whole run's.
  for (let index = 1; index <= 3; index++) shards.push(await recordOnPage(page, REQUEST, {}, 'default', undefined, 60_000, { masks: index === 2, shard: { index, total: 3 } }));
  expect(shards.map((s) => s.manifest.shots.length)).toEqual([1, 1, 1]);
  expect(shards.map((s) => s.masks.size)).toEqual([0, 1, 0]);
  expect(shards.map((s) => s.manifest.shard)).toEqual([1, 2, 3].map((index) => ({ index, total: 3 })));

  const merged = mergeManifests(shards.map((s, i) => ({ manifest: s.manifest, where: `shard ${i + 1}` })));
  expect(validateManifest(JSON.parse(manifestText(merged)), 'merged')).toEqual(whole.manifest);
  for (const s of shards) {
    for (const [name, png] of s.files) expect(Buffer.compare(Buffer.from(png), Buffer.from(whole.files.get(name)!)), name).toBe(0);
    for (const [name, png] of s.masks) expect(Buffer.compare(Buffer.from(png), Buffer.from(whole.masks.get(name)!)), `mask ${name}`).toBe(0);
  }

  const out = test.info().outputPath();
  const base = write(join(out, 'whole'), whole);
  const dirs = shards.map((s, i) => write(join(out, `shard-${i + 1}`), s));
  const r = compareRecordings(base, [dirs[1]!, dirs[2]!, dirs[0]!], join(out, 'diff'));
  expect(r.pairs.map((p) => [p.status, p.pixels])).toEqual(Array(3).fill(['pass', 0]));
  expect(r.pairs.map((p) => p.coverageSource).sort()).toEqual(['estimated', 'estimated', 'recorded']);
  expect(con.errors).toEqual([]);
});
