import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { describeShot, shotKey, validateManifest, type Manifest, type ManifestEntry } from '../app/record-plan.ts';
import { COMPARE_USAGE, parseCompareArgs, UsageError, type CompareArgs } from './shots-args.ts';
import type { CompareResult, PairResult, PairStatus } from './compare-types.ts';
import { renderReport } from './shots-report.ts';

/**
 * `npm run compare -- BASELINE_DIR NEW_DIR`: pairs the shots of two recordings by their identity
 * (shotKey: model, clip, technique, view, camera, time), diffs each pair with pixelmatch, writes a diff
 * PNG per pair and a self-contained HTML report (worst first), prints a summary table, and exits 0 when
 * every pair is within the threshold, 1 when one is over it or missing on either side, 2 on bad input.
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

/** Severity for sorting: missing/added/size first, then by mismatch, skipped last. */
function severity(p: PairResult): number {
  if (p.status === 'missing' || p.status === 'added') return 3;
  if (p.status === 'skipped') return -1;
  return p.mismatch ?? 0;
}

/** Compares two recordings; writes diff PNGs into `diffDir`. Pairs are returned worst first. */
export function compareRecordings(baselineDir: string, currentDir: string, diffDir: string, threshold: number, pixelThreshold = 0.1): CompareResult {
  const baseline = readRecording(baselineDir, 'baseline');
  const current = readRecording(currentDir, 'new');
  const keyed = (m: Manifest): Map<string, ManifestEntry> => {
    const map = new Map<string, ManifestEntry>();
    for (const s of m.shots) if (!map.has(shotKey(s))) map.set(shotKey(s), s);
    return map;
  };
  const a = keyed(baseline);
  const b = keyed(current);
  const keys = [...a.keys(), ...[...b.keys()].filter((k) => !a.has(k))];
  mkdirSync(diffDir, { recursive: true });
  const pairs: PairResult[] = [];
  for (const key of keys) {
    const x = a.get(key) ?? null;
    const y = b.get(key) ?? null;
    const label = describeShot((x ?? y)!);
    const pair: PairResult = {
      key,
      label,
      status: 'pass',
      mismatch: null,
      pixels: null,
      note: null,
      baseline: x,
      current: y,
      baselinePng: x?.status === 'ok' ? join(baselineDir, x.file) : null,
      currentPng: y?.status === 'ok' ? join(currentDir, y.file) : null,
      diffPng: null,
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
      pair.note = `sizes differ: ${pa.width}x${pa.height} vs ${pb.width}x${pb.height}`;
      continue;
    }
    const diff = new PNG({ width: pa.width, height: pa.height });
    const n = pixelmatch(pa.data, pb.data, diff.data, pa.width, pa.height, { threshold: pixelThreshold });
    pair.pixels = n;
    pair.mismatch = n / (pa.width * pa.height);
    pair.status = pair.mismatch > threshold ? 'fail' : 'pass';
    pair.diffPng = join(diffDir, x!.file);
    writeFileSync(pair.diffPng, PNG.sync.write(diff));
  }
  pairs.sort((p, q) => severity(q) - severity(p));
  const failed = pairs.filter((p) => p.status === 'fail' || p.status === 'missing' || p.status === 'added').length;
  return { pairs, failed, baseline, current };
}

function readPng(file: string): PNG | string {
  if (!existsSync(file)) return `${basename(file)} is listed in the manifest but not in the folder`;
  try {
    return PNG.sync.read(readFileSync(file));
  } catch (e) {
    return `${basename(file)}: not a readable PNG (${(e as Error).message})`;
  }
}

/** The stdout table: status, mismatch %, differing pixels, shot; worst first. */
export function summaryTable(result: CompareResult, threshold: number): string {
  const rows = result.pairs.map((p) => [
    p.status === 'pass' ? 'pass' : p.status === 'skipped' ? 'skip' : p.status.toUpperCase(),
    p.mismatch === null ? '-' : `${(p.mismatch * 100).toFixed(3)} %`,
    p.pixels === null ? '-' : String(p.pixels),
    p.label + (p.note ? `  (${p.note})` : ''),
  ]);
  const head = ['status', 'mismatch', 'pixels', 'shot'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((c, i) => (i === 3 ? c : i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const counts = new Map<PairStatus, number>();
  for (const p of result.pairs) counts.set(p.status, (counts.get(p.status) ?? 0) + 1);
  const parts = (['pass', 'fail', 'missing', 'added', 'skipped'] as const).filter((s) => counts.get(s)).map((s) => `${counts.get(s)} ${s}`);
  const tail = `${result.pairs.length} pairs: ${parts.join(', ')} (threshold ${(threshold * 100).toFixed(3)} % of pixels)`;
  return [line(head), ...rows.map(line), tail].join('\n');
}

/** Runs the command; returns the exit status. */
export function runCompare(args: CompareArgs, out: (s: string) => void = (s) => process.stdout.write(s)): number {
  const report = resolve(args.out);
  const diffDir = join(dirname(report), `${basename(report).replace(/\.html?$/i, '')}-diff`);
  const result = compareRecordings(args.baseline, args.current, diffDir, args.threshold, args.pixelThreshold);
  writeFileSync(report, renderReport(result, { baselineDir: args.baseline, currentDir: args.current, threshold: args.threshold, pixelThreshold: args.pixelThreshold }));
  out(`${summaryTable(result, args.threshold)}\nreport: ${args.out}  diffs: ${diffDir}\n`);
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
