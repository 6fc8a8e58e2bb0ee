import { describe, expect, it } from 'vitest';
import { isOption, parseInspectArgs, UsageError, type InspectArgs } from '../../src/cli/inspect-args.ts';

/** Every ordering of `items`. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** Every subset of `items`, in their order. */
function subsets<T>(items: readonly T[]): T[][] {
  return items.reduce<T[][]>((acc, item) => acc.concat(acc.map((s) => [...s, item])), [[]]);
}

type Group = { tokens: string[]; sets: Partial<InspectArgs> };

const FILES = ['tiny.x', '3d-model.x', '/models/Tiny 1.x', 'soldier.m3d'];
const CLIPS = ['Anim-1', '0', 'Take 001'];
const TIMES: [string[], number[]][] = [
  [['0.5'], [0.5]],
  [['-0.5', '0.25'], [-0.5, 0.25]],
  [['0.5', '1'], [0.5, 1]],
  [['-0.5,0.25', '1e-1'], [-0.5, 0.25, 0.1]],
  [['-.5', '+2', '0'], [-0.5, 2, 0]],
];

/** The option groups of docs/api.md#inspect plus inspect's own --clip, each with the variants above. */
function optionGroups(variant: number): Group[] {
  const [timeTokens, times] = TIMES[variant % TIMES.length]!;
  const clip = CLIPS[variant % CLIPS.length]!;
  return [
    { tokens: ['--json'], sets: { json: true } },
    { tokens: ['--t', ...timeTokens], sets: { times } },
    { tokens: ['--clip', clip], sets: { clip } },
  ];
}

function expected(file: string, groups: readonly Group[]): InspectArgs {
  return Object.assign({ file, clip: null, tracks: null, times: [], json: false, help: false }, ...groups.map((g) => g.sets));
}

function usageError(argv: string[]): string {
  try {
    parseInspectArgs(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`parsed without an error: ${argv.join(' ')}`);
}

describe('parseInspectArgs: options and FILE in any order', () => {
  it('the reported order FILE --t 0.5 --json ends the time list at --json', () => {
    expect(parseInspectArgs(['tiny.x', '--t', '0.5', '--json'])).toEqual(expected('tiny.x', [{ tokens: [], sets: { times: [0.5], json: true } }]));
  });

  it('every subset of the options, in every order around FILE, parses to the same result', () => {
    let cases = 0;
    FILES.forEach((file, f) => {
      for (let variant = 0; variant < TIMES.length; variant++) {
        for (const chosen of subsets(optionGroups(variant + f))) {
          const want = expected(file, chosen);
          for (const order of permutations<Group>([...chosen, { tokens: [file], sets: {} }])) {
            const argv = order.flatMap((g) => g.tokens);
            expect(parseInspectArgs(argv), argv.join(' ')).toEqual(want);
            cases++;
          }
        }
      }
    });
    // 4 files x 5 variants x (1 + 3*2 + 3*6 + 24) orders
    expect(cases).toBe(4 * 5 * 49);
  });

  it('--t given twice keeps both lists in order', () => {
    expect(parseInspectArgs(['--t', '0', '--json', 'tiny.x', '--t', '-1', '2']).times).toEqual([0, -1, 2]);
  });

  it('after -- every token is FILE, so a file named like a number or an option can be given', () => {
    expect(parseInspectArgs(['--t', '0.5', '--', '12']).file).toBe('12');
    expect(parseInspectArgs(['--json', '--', '--t'])).toEqual({ file: '--t', clip: null, tracks: null, times: [], json: true, help: false });
  });

  it('--help and -h ask for the usage whatever else is there', () => {
    expect(parseInspectArgs(['--help']).help).toBe(true);
    expect(parseInspectArgs(['tiny.x', '--t', '1', '-h']).help).toBe(true);
  });
});

describe('parseInspectArgs: mistakes', () => {
  it('--t without a time, before an option or at the end', () => {
    expect(usageError(['tiny.x', '--t'])).toBe('--t needs at least one time in seconds');
    expect(usageError(['tiny.x', '--t', '--json'])).toBe('--t needs at least one time in seconds');
    expect(usageError(['--t', '--clip', '0', 'tiny.x'])).toBe('--t needs at least one time in seconds');
  });

  it('a malformed time is named', () => {
    expect(usageError(['--t', 'abc', 'tiny.x'])).toBe("--t: 'abc' is not a time in seconds");
    expect(usageError(['tiny.x', '--t', '0.5,'])).toBe("--t: '' is not a time in seconds");
    expect(usageError(['tiny.x', '--t', '0.5', '1-2'])).toBe("--t: '1-2' is not a time in seconds");
    expect(usageError(['tiny.x', '--t', 'Infinity'])).toBe("--t: 'Infinity' is not a time in seconds");
  });

  it('an unknown option after a time list is an unknown option, not a bad time', () => {
    expect(usageError(['tiny.x', '--t', '0.5', '--frobnicate'])).toMatch(/^unknown option --frobnicate; usage: /);
  });

  it('--clip without a name', () => {
    expect(usageError(['tiny.x', '--clip'])).toBe('--clip needs a clip name or index');
    expect(usageError(['--clip', '--json', 'tiny.x'])).toBe('--clip needs a clip name or index');
  });

  it('no FILE, or two', () => {
    expect(usageError([])).toMatch(/^usage: npm run inspect -- FILE/);
    expect(usageError(['--json', '--t', '0.5'])).toMatch(/^usage: npm run inspect -- FILE/);
    expect(usageError(['--t', '0.5', '1', 'a.x', 'b.x'])).toBe("more than one FILE given ('a.x', 'b.x')");
  });

  it('isOption: known options and --letter are options; negative numbers are not', () => {
    for (const o of ['--json', '--t', '--clip', '--help', '-h', '--frobnicate', '--T']) expect(isOption(o), o).toBe(true);
    for (const v of ['-0.5', '-.5', '0.5', '--5', '-', 'tiny.x', '-1e3']) expect(isOption(v), v).toBe(false);
  });
});
