import type { Manifest, ShardInfo } from '../app/record-plan.ts';

/**
 * Recordings split over machines. `screenshots --shard I/N` records the I-th of N contiguous slices of the
 * ordered plan (as Playwright's `--shard` slices its tests): shard I of a plan of n shots holds shots
 * floor((I−1)·n/N) … floor(I·n/N)−1, so the N shards cover every shot exactly once, in plan order, and
 * differ in size by at most one shot. A shard's manifest lists only its own shots and says which slice
 * it is (`shard: {index, total}`); `mergeManifests` joins the N manifests of one plan back into the
 * manifest an unsharded run writes. Pure: no file system, no browser.
 */

export class ShardError extends Error {
  override readonly name = 'ShardError';
}

/** `I/N` → {index: I, total: N}, 1 ≤ I ≤ N ≤ 10000; throws ShardError. */
export function parseShard(text: string): ShardInfo {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const total = m ? Number(m[2]) : NaN;
  if (!m || total < 1 || total > 10000 || index < 1 || index > total) {
    throw new ShardError(`shard ${JSON.stringify(text)}: expected I/N with 1 ≤ I ≤ N (e.g. 2/3: the second of three slices)`);
  }
  return { index, total };
}

/** The half-open range [start, end) of shard `index` of `total` in a plan of `count` shots. */
export function shardRange(count: number, shard: ShardInfo): [number, number] {
  return [Math.floor(((shard.index - 1) * count) / shard.total), Math.floor((shard.index * count) / shard.total)];
}

/** The shots of one shard, in plan order. */
export function shardShots<T>(shots: readonly T[], shard: ShardInfo): T[] {
  const [start, end] = shardRange(shots.length, shard);
  return shots.slice(start, end);
}

/** Fields every shard of one recording must agree on (what drew the images and how). */
function identity(m: Manifest): string {
  return JSON.stringify([m.model, m.size, m.params, m.settings, m.renderer, m.app]);
}

/**
 * Joins the manifests of the N shards of one recording (any order) into one manifest without `shard`:
 * the shots in plan order. Throws ShardError when a manifest is not a shard, the totals disagree, a shard
 * is missing or given twice, or the shards were recorded with different models, sizes, parameters,
 * settings, renderers or app versions. A single manifest is returned as it is (a lone shard stays a
 * partial recording: comparing it pairs only its own shots).
 */
export function mergeManifests(manifests: readonly { manifest: Manifest; where: string }[]): Manifest {
  if (manifests.length === 0) throw new ShardError('no recordings to merge');
  if (manifests.length === 1) return manifests[0]!.manifest;
  const notShard = manifests.find((m) => !m.manifest.shard);
  if (notShard) throw new ShardError(`${notShard.where}: not a shard (no "shard" in its manifest); several folders for one side must be the shards of one recording (screenshots --shard I/N)`);
  const total = manifests[0]!.manifest.shard!.total;
  const byIndex = new Map<number, { manifest: Manifest; where: string }>();
  for (const m of manifests) {
    const s = m.manifest.shard!;
    if (s.total !== total) throw new ShardError(`${m.where}: shard ${s.index}/${s.total}, but ${manifests[0]!.where} is one of ${total}`);
    if (byIndex.has(s.index)) throw new ShardError(`${m.where}: shard ${s.index}/${total} is also ${byIndex.get(s.index)!.where}`);
    byIndex.set(s.index, m);
  }
  const missing = [];
  for (let i = 1; i <= total; i++) if (!byIndex.has(i)) missing.push(`${i}/${total}`);
  if (missing.length > 0) throw new ShardError(`shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing (got ${[...byIndex.keys()].sort((a, b) => a - b).map((i) => `${i}/${total}`).join(', ')})`);
  const first = byIndex.get(1)!;
  for (const m of byIndex.values()) {
    if (identity(m.manifest) !== identity(first.manifest)) {
      throw new ShardError(`${m.where} was recorded differently from ${first.where} (model, size, --set parameters, settings, renderer or app version differ)`);
    }
  }
  const shots = [];
  const files = new Set<string>();
  for (let i = 1; i <= total; i++) {
    const m = byIndex.get(i)!;
    for (const s of m.manifest.shots) {
      if (files.has(s.file)) throw new ShardError(`${m.where}: ${s.file} is in another shard too`);
      files.add(s.file);
      shots.push(s);
    }
  }
  const { shard: _shard, ...rest } = first.manifest;
  return { ...rest, shots };
}
