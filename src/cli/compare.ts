import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { describeShot, shotKey, validateManifest, type Manifest, type ManifestEntry } from '../app/record-plan.ts';
import { COMPARE_USAGE, parseCompareArgs, UsageError, type CompareArgs } from './shots-args.ts';
import type { CompareResult, PairResult, PairStatus } from './compare-types.ts';
import { cropPng } from './compare-crop.ts';
import { DEFAULT_RULES, judgePair, type Rules } from './compare-rules.ts';
import { decodeMask, MASK_DIR } from './shots-coverage.ts';
import { mergeManifests, ShardError } from './shots-shard.ts';
import { renderReport } from './shots-report.ts';

/**
 * `npm run compare -- BASELINE_DIR NEW_DIR` (or `--baseline DIR… --new DIR…`, several folders being the
 * shards of one recording): pairs the shots of two recordings by their identity (shotKey: model, clip,
 * technique, view, camera, time), judges each pair by the rules of compare-rules.ts (share of the model's
 * pixels, worst region), writes a diff PNG and a zoomed crop of the worst region per pair and a
 * self-contained HTML report (worst first), prints a summary table that names the broken rule, and exits
 * 0 when every pair passes, 1 when one fails or is missing on either side, 2 on bad input.
 */

export class CompareInputError extends Error {
  override readonly name = 'CompareInputError';
}

/** Reads DIR/manifest.json; CompareInputError with what is wrong. */
export function readRecording(dir: string, role: string): Manifest {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CompareInputError(`${role} ${dir}: no such folder`);
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) throw new CompareInputError(`${role} ${dir}: no manifest.json (record one with npm run screenshots, or unzip a recording from the app)`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new CompareInputError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  try {
    return validateManifest(data, file);
  } catch (e) {
    throw new CompareInputError((e as Error).message);
  }
}

/** One side of a comparison: its manifest (shards joined) and the folder each shot's files are in. */
export interface Side {
  manifest: Manifest;
  /** Folder of each entry, by file name (file names are unique within a plan). */
  dirOf: Map<string, string>;
}

/** Reads one recording, or the shards of one (any order); CompareInputError with what is wrong. */
export function readSide(dirs: string | readonly string[], role: string): Side {
  const list = typeof dirs === 'string' ? [dirs] : [...dirs];
  if (list.length === 0) throw new CompareInputError(`${role}: no folder given`);
  const read = list.map((dir) => ({ dir, manifest: readRecording(dir, role), where: `${role} ${dir}` }));
  let manifest: Manifest;
  try {
    manifest = mergeManifests(read);
  } catch (e) {
    if (e instanceof ShardError) throw new CompareInputError(e.message);
    throw e;
  }
  const dirOf = new Map<string, string>();
  for (const r of read) for (const s of r.manifest.shots) if (!dirOf.has(s.file)) dirOf.set(s.file, r.dir);
  return { manifest, dirOf };
}

/** Severity for sorting: missing/added/size first, then failures by mismatch, passes by mismatch, skipped last. */
function severity(p: PairResult): number {
  if (p.status === 'missing' || p.status === 'added') return 4;
  if (p.status === 'skipped') return -1;
  return (p.status === 'fail' ? 2 : 0) + Math.min(1, p.mismatch ?? 0);
}

/**
 * Compares two recordings (each a folder or the shards of one); writes a diff PNG and, where pixels
 * differ, a crop of the worst window (`<file>.crop.png`) into `diffDir`. Pairs are returned worst first.
 * `rules`: any of DEFAULT_RULES to override.
 */
export function compareRecordings(baselineDirs: string | readonly string[], currentDirs: string | readonly string[], diffDir: string, rules: Partial<Rules> = {}): CompareResult {
  const judge: Rules = { ...DEFAULT_RULES, ...rules };
  const baseline = readSide(baselineDirs, 'baseline');
  const current = readSide(currentDirs, 'new');
  const keyed = (m: Manifest): Map<string, ManifestEntry> => {
    const map = new Map<string, ManifestEntry>();
    for (const s of m.shots) if (!map.has(shotKey(s))) map.set(shotKey(s), s);
    return map;
  };
  const a = keyed(baseline.manifest);
  const b = keyed(current.manifest);
  const keys = [...a.keys(), ...[...b.keys()].filter((k) => !a.has(k))];
  mkdirSync(diffDir, { recursive: true });
  const pairs: PairResult[] = [];
  for (const key of keys) {
    const x = a.get(key) ?? null;
    const y = b.get(key) ?? null;
    const label = describeShot((x ?? y)!);
    const xDir = x ? baseline.dirOf.get(x.file)! : null;
    const yDir = y ? current.dirOf.get(y.file)! : null;
    const pair: PairResult = {
      key,
      label,
      status: 'pass',
      mismatch: null,
      pixels: null,
      coverage: null,
      coverageSource: null,
      worst: null,
      failedRules: [],
      note: null,
      baseline: x,
      current: y,
      baselinePng: x?.status === 'ok' ? join(xDir!, x.file) : null,
      currentPng: y?.status === 'ok' ? join(yDir!, y.file) : null,
      diffPng: null,
      cropPng: null,
    };
    pairs.push(pair);
    const xOk = x?.status === 'ok';
    const yOk = y?.status === 'ok';
    if (!xOk && !yOk) {
      if (x && y) {
        pair.status = 'skipped';
        pair.note = y.reason ?? x.reason ?? null;
      } else {
        pair.status = x ? 'missing' : 'added';
        pair.note = x ? `not in the new recording (skipped in the baseline: ${x.reason ?? '?'})` : `not in the baseline (skipped in the new recording: ${y!.reason ?? '?'})`;
      }
      continue;
    }
    if (!yOk) {
      pair.status = 'missing';
      pair.note = y ? `skipped in the new recording: ${y.reason ?? '?'}` : 'not in the new recording';
      continue;
    }
    if (!xOk) {
      pair.status = 'added';
      pair.note = x ? `skipped in the baseline: ${x.reason ?? '?'}` : 'not in the baseline';
      continue;
    }
    const pa = readPng(pair.baselinePng!);
    const pb = readPng(pair.currentPng!);
    if (typeof pa === 'string' || typeof pb === 'string') {
      pair.status = typeof pa === 'string' ? 'missing' : 'added';
      pair.note = typeof pa === 'string' ? pa : (pb as string);
      if (typeof pa === 'string') pair.baselinePng = null;
      if (typeof pb === 'string') pair.currentPng = null;
      continue;
    }
    if (pa.width !== pb.width || pa.height !== pb.height) {
      pair.status = 'fail';
      pair.mismatch = 1;
      pair.failedRules = ['size'];
      pair.note = `sizes differ: ${pa.width}x${pa.height} vs ${pb.width}x${pb.height}`;
      continue;
    }
    const ma = readMask(xDir!, x!.file, pa.width, pa.height);
    const mb = readMask(yDir!, y!.file, pb.width, pb.height);
    const j = judgePair(rgba(pa), rgba(pb), ma, mb, judge);
    pair.pixels = j.pixels;
    pair.coverage = j.coverage;
    pair.coverageSource = ma && mb ? 'recorded' : 'estimated';
    pair.mismatch = j.share;
    pair.worst = j.worst;
    pair.failedRules = j.failed;
    pair.status = j.failed.length > 0 ? 'fail' : 'pass';
    const stem = x!.file.replace(/\.png$/i, '');
    const diff = new PNG({ width: pa.width, height: pa.height });
    diff.data = Buffer.from(j.diff.buffer, j.diff.byteOffset, j.diff.byteLength);
    pair.diffPng = join(diffDir, x!.file);
    writeFileSync(pair.diffPng, PNG.sync.write(diff));
    if (j.pixels > 0) {
      pair.cropPng = join(diffDir, `${stem}.crop.png`);
      writeFileSync(pair.cropPng, cropPng(rgba(pa), rgba(pb), j.diff, j.worst));
    }
  }
  pairs.sort((p, q) => severity(q) - severity(p));
  const failed = pairs.filter((p) => p.status === 'fail' || p.status === 'missing' || p.status === 'added').length;
  return { pairs, failed, baseline: baseline.manifest, current: current.manifest, rules: judge };
}

function rgba(png: PNG): { data: Uint8Array; width: number; height: number } {
  return { data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength), width: png.width, height: png.height };
}

/** DIR/masks/FILE as 1/0 per pixel, or null when there is none or it does not fit the image. */
function readMask(dir: string, file: string, width: number, height: number): Uint8Array | null {
  const path = join(dir, MASK_DIR, file);
  if (!existsSync(path)) return null;
  try {
    const m = decodeMask(readFileSync(path));
    return m.width === width && m.height === height ? m.mask : null;
  } catch {
    return null;
  }
}

function readPng(file: string): PNG | string {
  if (!existsSync(file)) return `${basename(file)} is listed in the manifest but not in the folder`;
  try {
    return PNG.sync.read(readFileSync(file));
  } catch (e) {
    return `${basename(file)}: not a readable PNG (${(e as Error).message})`;
  }
}

/** The stdout table: status, rule broken, mismatch (share of covered pixels), differing pixels, worst window, shot; worst first. */
export function summaryTable(result: CompareResult): string {
  const rows = result.pairs.map((p) => [
    p.status === 'pass' ? 'pass' : p.status === 'skipped' ? 'skip' : p.status.toUpperCase(),
    p.failedRules.join(' + ') || '-',
    p.mismatch === null ? '-' : `${(p.mismatch * 100).toFixed(2)} %`,
    p.pixels === null ? '-' : String(p.pixels),
    p.worst === null ? '-' : String(p.worst.pixels),
    p.label + (p.note ? `  (${p.note})` : ''),
  ]);
  const head = ['status', 'rule', 'of model', 'pixels', 'region', 'shot'];
  const last = head.length - 1;
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((c, i) => (i === last ? c : i <= 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const counts = new Map<PairStatus, number>();
  for (const p of result.pairs) counts.set(p.status, (counts.get(p.status) ?? 0) + 1);
  const parts = (['pass', 'fail', 'missing', 'added', 'skipped'] as const).filter((s) => counts.get(s)).map((s) => `${counts.get(s)} ${s}`);
  const byRule = (rule: 'coverage' | 'region'): number => result.pairs.filter((p) => p.failedRules.includes(rule)).length;
  const r = result.rules;
  const rules = `coverage: > ${(r.threshold * 100).toFixed(2)} % of the model's pixels (${byRule('coverage')} fail); region: > ${r.regionPixels} px in ${r.region}×${r.region} (${byRule('region')} fail)`;
  const estimated = result.pairs.filter((p) => p.coverageSource === 'estimated').length;
  const note = estimated > 0 ? `\n${estimated} pair${estimated > 1 ? 's' : ''} without recorded masks: coverage estimated from the background colour (counts a visible floor)` : '';
  return [line(head), ...rows.map(line), `${result.pairs.length} pairs: ${parts.join(', ')} — ${rules}${note}`].join('\n');
}

/** Runs the command; returns the exit status. */
export function runCompare(args: CompareArgs, out: (s: string) => void = (s) => process.stdout.write(s)): number {
  const report = resolve(args.out);
  const diffDir = join(dirname(report), `${basename(report).replace(/\.html?$/i, '')}-diff`);
  const rules: Rules = { threshold: args.threshold, pixelThreshold: args.pixelThreshold, region: args.region, regionPixels: args.regionPixels };
  const result = compareRecordings(args.baseline, args.current, diffDir, rules);
  writeFileSync(report, renderReport(result, { baselineDir: args.baseline.join(' '), currentDir: args.current.join(' ') }));
  out(`${summaryTable(result)}\nreport: ${args.out}  diffs: ${diffDir}\n`);
  return result.failed > 0 ? 1 : 0;
}

function main(argv: readonly string[]): number {
  let args: CompareArgs | null;
  try {
    args = parseCompareArgs(argv);
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n${COMPARE_USAGE}\n`);
    return 2;
  }
  if (!args) {
    process.stdout.write(`${COMPARE_USAGE}\n`);
    return 0;
  }
  try {
    return runCompare(args);
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n`);
    return e instanceof CompareInputError || e instanceof UsageError ? 2 : 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2)));
