/**
 * The command line of `inspect`. Pure: parsing only, no file system. Every problem is a UsageError whose
 * message is meant for the user (inspect prints it as `error: ...` and exits 1).
 *
 * Options and FILE may come in any order. A token is an option when it is one of OPTIONS or starts with
 * `--` and a letter; `-0.5` is a number, not an option. `--t` takes every following token that is a time
 * (a number, or numbers joined by commas) and stops at the next option or at anything else, which is then
 * FILE: `--t 0.5 1 tiny.x --json` is times 0.5 and 1, file tiny.x. After `--` every token is FILE, for a
 * file whose name looks like a number or an option.
 */

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const INSPECT_USAGE = `usage: npm run inspect -- FILE [--clip NAME|INDEX | --tracks SPEC] [--t SECONDS ...] [--json]
       npm run inspect -- FILE.gltf|FILE.glb --validate [--json]
       npm run inspect -- FILE [--clip NAME|INDEX | --tracks SPEC] --t SECONDS --quality [--techniques a,b] [--json]

  --json             print JSON (docs/api.md#inspect) instead of a table
  --t SECONDS ...    also pose the model at these times (seconds, may be negative; "0 0.5" or "0,0.5")
                     and print each pose's bounds; the list ends at the next option or at FILE
  --clip NAME|INDEX  the clip --t samples (default: the first)
  --tracks SPEC      pose with several animation-controller tracks instead of one clip, in the page's
                     \`tracks\` syntax: CLIP[:WEIGHT[:SPEED]][@BONE][~additive][!|!low],...
                     (e.g. "Walk,Wave"); each track's time is t x its speed
  --quality          artifact figures per technique at the one pose --t gives (docs/quality.md): volume
                     ratio, area change (p50/p95/max of |log2| one-ring area ratio), deviation from
                     linear blending; each technique posed with its own CPU reference
  --techniques LIST  with --quality: technique ids, e.g. "vs-hlsl,dual-quat" (default: one per
                     reference maths: software for every linear-blend technique, then dual-quat,
                     cor, ddm)
  --validate         glTF only: run Khronos glTF-Validator and print its counts of errors, warnings,
                     infos and hints, with the first messages and their JSON pointers; exits 1 when
                     it reports errors, 0 when it reports none (warnings alone: 0), so it can gate CI`;

const USAGE_LINE = INSPECT_USAGE.split('\n')[0]!;

export interface InspectArgs {
  file: string;
  /** Clip name or 0-based index as typed; resolved against the model's clips by the caller. */
  clip: string | null;
  /** `--tracks` spec as typed (validated by the caller against the model), or null. */
  tracks: string | null;
  /** Times in seconds in the order given, duplicates kept. */
  times: number[];
  json: boolean;
  /** `--validate` given: report glTF-Validator's findings instead of loading the model (absent otherwise). */
  validate?: true;
  /** `--quality` given: print the artifact figures at the one --t pose instead of the summary (absent otherwise). */
  quality?: true;
  /** `--techniques` as listed (with --quality; absent otherwise). */
  techniques?: string[];
  /** `--help` or `-h` was given: print INSPECT_USAGE and exit 0; the other fields are then not checked. */
  help: boolean;
}

/** The options inspect knows; anything else that starts with `--` and a letter is refused. */
export const OPTIONS = ['--json', '--clip', '--tracks', '--t', '--validate', '--quality', '--techniques', '--help', '-h'] as const;

/** True for a token that is an option (known or not) rather than a value. */
export function isOption(token: string): boolean {
  return (OPTIONS as readonly string[]).includes(token) || /^--[A-Za-z]/.test(token);
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** A token that `--t` takes: made only of number characters and commas, starting like a number. */
function looksLikeTimes(token: string): boolean {
  return /^[-+]?\.?\d[\d.eE+,-]*$/.test(token);
}

function parseTimes(token: string): number[] {
  return token.split(',').map((part) => {
    if (!NUMBER.test(part)) throw new UsageError(`--t: '${part}' is not a time in seconds`);
    return Number(part);
  });
}

export function parseInspectArgs(argv: readonly string[]): InspectArgs {
  const o: InspectArgs = { file: '', clip: null, tracks: null, times: [], json: false, help: false };
  const positional = (a: string): void => {
    if (o.file === '') o.file = a;
    else throw new UsageError(`more than one FILE given ('${o.file}', '${a}')`);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      for (const rest of argv.slice(i + 1)) positional(rest);
      break;
    } else if (a === '--json') o.json = true;
    else if (a === '--validate') o.validate = true;
    else if (a === '--quality') o.quality = true;
    else if (a === '--techniques') {
      const v = argv[i + 1];
      if (v === undefined || isOption(v)) throw new UsageError('--techniques needs technique ids, e.g. vs-hlsl,dual-quat');
      o.techniques = v.split(',').map((id) => id.trim()).filter((id) => id !== '');
      i++;
    }
    else if (a === '--clip') {
      const v = argv[i + 1];
      if (v === undefined || isOption(v)) throw new UsageError('--clip needs a clip name or index');
      o.clip = v;
      i++;
    } else if (a === '--tracks') {
      const v = argv[i + 1];
      if (v === undefined || isOption(v)) throw new UsageError('--tracks needs a track list, e.g. Walk,Wave');
      o.tracks = v;
      i++;
    } else if (a === '--t') {
      const first = argv[i + 1];
      if (first === undefined || isOption(first)) throw new UsageError('--t needs at least one time in seconds');
      if (!looksLikeTimes(first)) throw new UsageError(`--t: '${first}' is not a time in seconds`);
      while (i + 1 < argv.length && !isOption(argv[i + 1]!) && looksLikeTimes(argv[i + 1]!)) o.times.push(...parseTimes(argv[++i]!));
    } else if (a === '--help' || a === '-h') return { ...o, help: true };
    else if (isOption(a)) throw new UsageError(`unknown option ${a}; ${USAGE_LINE}`);
    else positional(a);
  }
  if (o.file === '') throw new UsageError(USAGE_LINE);
  if (o.clip !== null && o.tracks !== null) throw new UsageError('--clip and --tracks do not go together (put the clip in the track list)');
  if (o.techniques && !o.quality) throw new UsageError('--techniques chooses what --quality measures: add --quality');
  if (o.quality && o.validate) throw new UsageError('--quality and --validate do not go together');
  if (o.quality && o.times.length !== 1) throw new UsageError('--quality measures one pose: give one time with --t');
  if (o.validate && (o.clip !== null || o.tracks !== null || o.times.length > 0)) throw new UsageError('--validate reports on the file alone: drop --clip, --tracks and --t');
  return o;
}
