import { formatCompare, parseCompare } from '../app/compare-state.ts';
import { defaultRequest, parseCamera, parseFrames, parseSize, parseTimes, RecordRequestError, splitList, type RecordRequest, type ShardInfo } from '../app/record-plan.ts';
import { DEFAULT_RULES } from './compare-rules.ts';
import { parseShard, ShardError } from './shots-shard.ts';

/**
 * Command lines of `screenshots` and `compare`. Pure: parsing only, no file system. Every problem is a
 * UsageError whose message is meant for the user (the CLIs print it as `error: ...` and exit 2).
 */

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const SCREENSHOTS_USAGE = `usage: npm run screenshots -- --model <id|path|url> --out DIR [options]

  --model ID|PATH|URL   built-in model id (default, tiny, ...), a local file (its folder's textures are
                        served with it) or an http(s) URL
  --out DIR             folder for the PNGs and manifest.json (created)
  --clip NAME[,NAME]    clips by name or 0-based index, or "all" (default: the model's start clip)
  --times 0,0.5,1       times in seconds
  --frames N            N evenly spaced times per clip, i*duration/N (default: 3)
  --techniques all|ID,… technique ids (default: all in this build; unknown/unsupported ones are skipped)
  --compare A,B[;C,D]   side-by-side shots instead: A on the left half, B on the right, one camera
                        (page key compare); one shot per pair, named <model>_<clip>_A-vs-B_...
  --views ID,…          debug views (default: shaded)
  --cameras C;C         camera settings: auto, a preset (front, left, ...) or yaw,pitch,distance
                        (default: auto); separate several with ";" or repeat the option
  --size WxH            image size in pixels (default: 800x600)
  --set KEY=VALUE       any page parameter for the whole run, e.g. --set influences=1 (repeatable)
  --shard I/N           record only the I-th of N contiguous slices of the plan (1-based), to split a
                        recording over machines; compare takes the N folders as one recording
  --no-masks            skip the coverage masks (DIR/masks/: each shot drawn again with the floor off,
                        for compare's coverage rule; without them compare estimates coverage)
  --dist DIR            built site to serve (default: dist; build it with npm run build)
  --chromium PATH       browser (default: $CHROMIUM_PATH or /usr/bin/chromium)
  --timeout SECONDS     limit for loading the model and for each image (default: 120)`;

export const COMPARE_USAGE = `usage: npm run compare -- BASELINE_DIR NEW_DIR [options]
       npm run compare -- --baseline DIR [--baseline DIR ...] --new DIR [--new DIR ...] [options]

  BASELINE_DIR NEW_DIR  two recordings (folders with manifest.json)
  --baseline, --new DIR one side's recording; repeat it to give the shards of one recording
                        (screenshots --shard I/N), joined in plan order
  --threshold R         coverage rule: a pair fails when more than R of the pixels the model covers in
                        either image differ (default: ${DEFAULT_RULES.threshold} = ${DEFAULT_RULES.threshold * 100} %)
  --region S            region rule window: S×S pixels, at any position (default: ${DEFAULT_RULES.region})
  --region-pixels N     region rule: a pair fails when one window holds more than N differing pixels
                        (default: ${DEFAULT_RULES.regionPixels})
  --pixel-threshold P   per-pixel colour tolerance of pixelmatch, 0..1 (default: ${DEFAULT_RULES.pixelThreshold}); pixels
                        pixelmatch takes for anti-aliasing never count
  --out FILE            HTML report (default: compare-report.html); diff PNGs and crops of the worst
                        window go to FILE's name + "-diff/"

exit status: 0 every pair passes both rules, 1 a pair breaks one or an image is missing, 2 bad input`;

export interface ScreenshotsArgs {
  model: string;
  out: string;
  request: RecordRequest;
  /** Page parameters for the whole run (--set), in order. */
  params: Record<string, string>;
  dist: string;
  chromium: string | null;
  timeoutMs: number;
  /** Record only this slice of the plan (--shard); absent or null: all of it. */
  shard?: ShardInfo | null;
  /** Record coverage masks (default true; --no-masks). */
  masks?: boolean;
}

export interface CompareArgs {
  /** Folders of the baseline: one recording, or the shards of one. */
  baseline: string[];
  /** Folders of the new recording, likewise. */
  current: string[];
  /** Coverage rule: largest share of the covered pixels that may differ. */
  threshold: number;
  pixelThreshold: number;
  /** Region rule: window side and largest count of differing pixels in one window. */
  region: number;
  regionPixels: number;
  out: string;
}

/** Page parameters each shot sets itself, or the run sets: not allowed in --set. */
const RESERVED: Readonly<Record<string, string>> = {
  model: '--model',
  clip: '--clip',
  t: '--times or --frames',
  technique: '--techniques',
  compare: '--compare',
  view: '--views',
  camera: '--cameras',
  gui: 'nothing (the page runs with gui=0)',
};

/** Splits `--key value` and `--key=value`; returns [flag, value] pairs and the positional arguments. */
function tokens(argv: readonly string[], flags: ReadonlySet<string>, switches: ReadonlySet<string>): { options: [string, string][]; positional: string[] } {
  const options: [string, string][] = [];
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--') || a === '--') {
      if (a !== '--') positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const flag = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (switches.has(flag)) {
      options.push([flag, '']);
      continue;
    }
    if (!flags.has(flag)) throw new UsageError(`unknown option --${flag}`);
    let value: string;
    if (eq > 0) value = a.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) throw new UsageError(`--${flag} needs a value`);
      value = next;
      i++;
    }
    options.push([flag, value]);
  }
  return { options, positional };
}

function wrap<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RecordRequestError) throw new UsageError(e.message);
    throw e;
  }
}

/** `--help` → null (print usage); otherwise the parsed arguments or a UsageError. */
export function parseScreenshotsArgs(argv: readonly string[]): ScreenshotsArgs | null {
  const flags = new Set(['model', 'out', 'clip', 'clips', 'times', 'frames', 'techniques', 'views', 'cameras', 'size', 'set', 'dist', 'chromium', 'timeout', 'shard', 'compare']);
  const { options, positional } = tokens(argv, flags, new Set(['help', 'h', 'no-masks']));
  if (argv.includes('-h') || options.some(([f]) => f === 'help' || f === 'h')) return null;
  if (positional.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positional[0])} (options start with --)`);
  const request = defaultRequest();
  const params: Record<string, string> = {};
  const cameras: string[] = [];
  let model: string | null = null;
  let out: string | null = null;
  let dist = 'dist';
  let chromium: string | null = null;
  let timeoutMs = 120_000;
  let shard: ShardInfo | null = null;
  let masks = true;
  let sawTimes = false;
  let sawFrames = false;
  const once = new Set<string>();
  for (const [flag, value] of options) {
    if (flag !== 'set' && flag !== 'cameras') {
      const name = flag === 'clips' ? 'clip' : flag;
      if (once.has(name)) throw new UsageError(`--${flag} given twice`);
      once.add(name);
    }
    switch (flag) {
      case 'model':
        if (value.trim() === '') throw new UsageError('--model needs a built-in id, a file or a URL');
        model = value.trim();
        break;
      case 'out':
        if (value.trim() === '') throw new UsageError('--out needs a folder');
        out = value;
        break;
      case 'clip':
      case 'clips':
        request.clips = splitList(value);
        if (request.clips.length === 0) throw new UsageError(`--${flag} needs clip names, indices or "all"`);
        if (request.clips.includes('all') && request.clips.length > 1) throw new UsageError(`--${flag}: "all" cannot be combined with clip names`);
        break;
      case 'times':
        sawTimes = true;
        request.times = wrap(() => parseTimes(value));
        request.frames = null;
        break;
      case 'frames':
        sawFrames = true;
        request.frames = wrap(() => parseFrames(value));
        break;
      case 'techniques': {
        if (once.has('compare')) throw new UsageError('--compare and --techniques cannot be combined (a compare shot draws its pair)');
        const list = splitList(value);
        if (list.length === 0) throw new UsageError('--techniques needs "all" or technique ids');
        request.techniques = list.length === 1 && list[0] === 'all' ? 'all' : list;
        if (request.techniques !== 'all' && list.includes('all')) throw new UsageError('--techniques: "all" cannot be combined with ids');
        break;
      }
      case 'compare': {
        if (once.has('techniques')) throw new UsageError('--compare and --techniques cannot be combined (a compare shot draws its pair)');
        const pairs: string[] = [];
        for (const text of value.split(';')) {
          if (text.trim() === '') continue;
          const pair = parseCompare(text);
          if (pair === null || typeof pair === 'string') throw new UsageError(`--compare ${JSON.stringify(text)}: ${pair ?? 'expected A,B'}`);
          pairs.push(formatCompare(pair));
        }
        if (pairs.length === 0) throw new UsageError('--compare needs a pair of technique ids A,B');
        request.techniques = pairs;
        break;
      }
      case 'views':
        request.views = splitList(value);
        if (request.views.length === 0) throw new UsageError('--views needs view ids');
        break;
      case 'cameras':
        for (const c of value.split(';')) if (c.trim() !== '') cameras.push(wrap(() => parseCamera(c)));
        break;
      case 'size':
        request.size = wrap(() => parseSize(value));
        break;
      case 'set': {
        const eq = value.indexOf('=');
        const key = eq > 0 ? value.slice(0, eq).trim() : '';
        if (!key) throw new UsageError(`--set ${JSON.stringify(value)}: expected KEY=VALUE`);
        if (RESERVED[key]) throw new UsageError(`--set ${key}=…: use ${RESERVED[key]} instead`);
        params[key] = value.slice(eq + 1).trim();
        break;
      }
      case 'dist':
        dist = value;
        break;
      case 'chromium':
        chromium = value;
        break;
      case 'timeout': {
        const s = Number(value);
        if (!Number.isFinite(s) || s <= 0) throw new UsageError(`--timeout ${JSON.stringify(value)}: expected seconds > 0`);
        timeoutMs = s * 1000;
        break;
      }
      case 'shard':
        try {
          shard = parseShard(value);
        } catch (e) {
          if (e instanceof ShardError) throw new UsageError(`--${e.message}`);
          throw e;
        }
        break;
      case 'no-masks':
        masks = false;
        break;
    }
  }
  if (sawTimes && sawFrames) throw new UsageError('give --times or --frames, not both');
  if (cameras.length > 0) request.cameras = cameras;
  if (model === null) throw new UsageError('--model is required');
  if (out === null) throw new UsageError('--out is required');
  return { model, out, request, params, dist, chromium, timeoutMs, shard, masks };
}

/** `--help` → null (print usage); otherwise the parsed arguments or a UsageError. */
export function parseCompareArgs(argv: readonly string[]): CompareArgs | null {
  const flags = new Set(['threshold', 'pixel-threshold', 'region', 'region-pixels', 'out', 'baseline', 'new']);
  const { options, positional } = tokens(argv, flags, new Set(['help', 'h']));
  if (argv.includes('-h') || options.some(([f]) => f === 'help' || f === 'h')) return null;
  const baseline = options.filter(([f]) => f === 'baseline').map(([, v]) => v);
  const current = options.filter(([f]) => f === 'new').map(([, v]) => v);
  if (baseline.length > 0 || current.length > 0) {
    if (positional.length > 0) throw new UsageError(`give the folders as BASELINE_DIR NEW_DIR or with --baseline/--new, not both (unexpected ${JSON.stringify(positional[0])})`);
    if (baseline.length === 0) throw new UsageError('--baseline DIR is missing');
    if (current.length === 0) throw new UsageError('--new DIR is missing');
    if ([...baseline, ...current].some((d) => d.trim() === '')) throw new UsageError('--baseline and --new need a folder');
  } else if (positional.length !== 2) {
    throw new UsageError(`expected BASELINE_DIR and NEW_DIR, got ${positional.length === 0 ? 'none' : positional.map((p) => JSON.stringify(p)).join(' ')}`);
  } else {
    baseline.push(positional[0]!);
    current.push(positional[1]!);
  }
  const args: CompareArgs = { baseline, current, ...DEFAULT_RULES, out: 'compare-report.html' };
  for (const [flag, value] of options) {
    const n = Number(value);
    const number = value.trim() !== '' && Number.isFinite(n);
    switch (flag) {
      case 'threshold':
        if (!number || n < 0 || n > 1) throw new UsageError(`--threshold ${JSON.stringify(value)}: expected a share of the covered pixels from 0 to 1 (0.01 = 1 %)`);
        args.threshold = n;
        break;
      case 'pixel-threshold':
        if (!number || n < 0 || n > 1) throw new UsageError(`--pixel-threshold ${JSON.stringify(value)}: expected 0 to 1`);
        args.pixelThreshold = n;
        break;
      case 'region':
        if (!number || !Number.isInteger(n) || n < 1 || n > 4096) throw new UsageError(`--region ${JSON.stringify(value)}: expected a window side in pixels, 1 to 4096`);
        args.region = n;
        break;
      case 'region-pixels':
        if (!number || !Number.isInteger(n) || n < 0) throw new UsageError(`--region-pixels ${JSON.stringify(value)}: expected a whole number of pixels ≥ 0`);
        args.regionPixels = n;
        break;
      case 'out':
        if (value.trim() === '') throw new UsageError('--out needs a file name');
        args.out = value;
        break;
    }
  }
  return args;
}
