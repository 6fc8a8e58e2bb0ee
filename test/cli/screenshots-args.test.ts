import { describe, expect, it } from 'vitest';
import { parseCompareArgs, parseScreenshotsArgs, UsageError } from '../../src/cli/shots-args.ts';

describe('screenshots arguments', () => {
  it('has the documented defaults', () => {
    const a = parseScreenshotsArgs(['--model', 'default', '--out', 'shots'])!;
    expect(a.model).toBe('default');
    expect(a.out).toBe('shots');
    expect(a.request).toEqual({ clips: [], times: [], frames: 3, techniques: 'all', views: ['shaded'], cameras: ['auto'], size: { width: 800, height: 600 } });
    expect(a.params).toEqual({});
    expect(a.dist).toBe('dist');
    expect(a.timeoutMs).toBe(120_000);
    expect(a.shard).toBeNull();
    expect(a.masks).toBe(true);
  });

  it('reads --compare A,B[;C,D] as compare shots, and refuses it with --techniques or a bad pair', () => {
    const a = parseScreenshotsArgs(['--model', 'twist', '--out', 'o', '--compare', 'vs-hlsl,dual-quat; software,texture'])!;
    expect(a.request.techniques).toEqual(['vs-hlsl,dual-quat', 'software,texture']);
    expect(() => parseScreenshotsArgs(['--model', 'twist', '--out', 'o', '--compare', 'vs-hlsl'])).toThrow(/--compare "vs-hlsl": expected two technique ids/);
    expect(() => parseScreenshotsArgs(['--model', 'twist', '--out', 'o', '--compare', 'vs-hlsl,nope'])).toThrow(/unknown technique nope/);
    expect(() => parseScreenshotsArgs(['--model', 'twist', '--out', 'o', '--techniques', 'all', '--compare', 'vs-hlsl,dual-quat'])).toThrow(/cannot be combined/);
    expect(() => parseScreenshotsArgs(['--model', 'twist', '--out', 'o', '--compare', 'vs-hlsl,dual-quat', '--techniques', 'all'])).toThrow(/cannot be combined/);
    expect(() => parseScreenshotsArgs(['--model', 'twist', '--out', 'o', '--set', 'compare=vs-hlsl,texture'])).toThrow(UsageError);
  });

  it('reads --shard I/N and --no-masks', () => {
    const a = parseScreenshotsArgs(['--model', 'default', '--out', 'o', '--shard', '2/3', '--no-masks'])!;
    expect(a.shard).toEqual({ index: 2, total: 3 });
    expect(a.masks).toBe(false);
    expect(() => parseScreenshotsArgs(['--model', 'default', '--out', 'o', '--shard', '4/3'])).toThrow(/--shard "4\/3": expected I\/N/);
    expect(() => parseScreenshotsArgs(['--model', 'default', '--out', 'o', '--shard', '0/3'])).toThrow(UsageError);
  });

  it('reads every option, in both --key value and --key=value forms', () => {
    const a = parseScreenshotsArgs([
      '--model=models/tiny.x',
      '--clip', 'walk,2',
      '--times', '0, 0.5,1',
      '--techniques', 'vs-hlsl,dual-quat',
      '--views=shaded,wireframe',
      '--cameras', 'front;-90,5,2.4',
      '--cameras=auto',
      '--size', '320x240',
      '--set', 'influences=1',
      '--set=palette=20',
      '--out', 'o',
      '--timeout', '5',
    ])!;
    expect(a.model).toBe('models/tiny.x');
    expect(a.request).toEqual({
      clips: ['walk', '2'],
      times: [0, 0.5, 1],
      frames: null,
      techniques: ['vs-hlsl', 'dual-quat'],
      views: ['shaded', 'wireframe'],
      cameras: ['front', '-90,5,2.4', 'auto'],
      size: { width: 320, height: 240 },
    });
    expect(a.params).toEqual({ influences: '1', palette: '20' });
    expect(a.timeoutMs).toBe(5000);
  });

  it('takes --frames N instead of times', () => {
    const a = parseScreenshotsArgs(['--model', 'default', '--out', 'o', '--frames', '12'])!;
    expect(a.request.frames).toBe(12);
    expect(a.request.times).toEqual([]);
  });

  it('returns null for --help', () => {
    expect(parseScreenshotsArgs(['--help'])).toBeNull();
    expect(parseScreenshotsArgs(['-h'])).toBeNull();
  });

  it.each([
    [[], /--model is required/],
    [['--model', 'default'], /--out is required/],
    [['--model', 'default', '--out', 'o', '--times', '0', '--frames', '3'], /--times or --frames, not both/],
    [['--model', 'default', '--out', 'o', '--times', '0,-1'], /"-1" is not a time/],
    [['--model', 'default', '--out', 'o', '--frames', '2.5'], /whole number of frames/],
    [['--model', 'default', '--out', 'o', '--size', '800'], /WIDTHxHEIGHT/],
    [['--model', 'default', '--out', 'o', '--size', '0x600'], /WIDTHxHEIGHT/],
    [['--model', 'default', '--out', 'o', '--size', '9000x600'], /1 to 4096/],
    [['--model', 'default', '--out', 'o', '--set', 'influences'], /expected KEY=VALUE/],
    [['--model', 'default', '--out', 'o', '--set', 't=1'], /use --times or --frames instead/],
    [['--model', 'default', '--out', 'o', '--set', 'technique=software'], /use --techniques instead/],
    [['--model', 'default', '--out', 'o', '--cameras', 'sideways'], /camera "sideways": expected auto/],
    [['--model', 'default', '--out', 'o', '--techniques', 'all,vs-hlsl'], /"all" cannot be combined/],
    [['--model', 'default', '--out', 'o', '--clip', 'all,walk'], /"all" cannot be combined/],
    [['--model', 'default', '--out', 'o', '--size', '1x1', '--size', '2x2'], /--size given twice/],
    [['--model', 'default', '--out', 'o', '--colour', 'red'], /unknown option --colour/],
    [['--model', 'default', '--out'], /--out needs a value/],
    [['--model', 'default', '--out', 'o', 'extra'], /unexpected argument "extra"/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseScreenshotsArgs(argv)).toThrow(UsageError);
    expect(() => parseScreenshotsArgs(argv)).toThrow(message);
  });
});

describe('compare arguments', () => {
  it('has the documented defaults', () => {
    expect(parseCompareArgs(['base', 'new'])).toEqual({ baseline: ['base'], current: ['new'], threshold: 0.02, pixelThreshold: 0.1, region: 16, regionPixels: 24, out: 'compare-report.html' });
  });

  it('reads threshold, pixel threshold and report file', () => {
    expect(parseCompareArgs(['--threshold', '0', 'a', 'b', '--out=r.html', '--pixel-threshold', '0.3', '--region', '8', '--region-pixels=3'])).toEqual({
      baseline: ['a'],
      current: ['b'],
      threshold: 0,
      pixelThreshold: 0.3,
      region: 8,
      regionPixels: 3,
      out: 'r.html',
    });
  });

  it('takes several folders per side with --baseline and --new (the shards of one recording)', () => {
    const a = parseCompareArgs(['--baseline', 's1', '--baseline=s2', '--new', 'n1', '--new', 'n2', '--new', 'n3'])!;
    expect(a.baseline).toEqual(['s1', 's2']);
    expect(a.current).toEqual(['n1', 'n2', 'n3']);
  });

  it.each([
    [[], /expected BASELINE_DIR and NEW_DIR, got none/],
    [['a'], /expected BASELINE_DIR and NEW_DIR/],
    [['a', 'b', 'c'], /expected BASELINE_DIR and NEW_DIR/],
    [['a', 'b', '--threshold', 'x'], /--threshold "x"/],
    [['a', 'b', '--threshold', '2'], /from 0 to 1/],
    [['a', 'b', '--threshold'], /--threshold needs a value/],
    [['a', 'b', '--region', '0'], /--region "0": expected a window side/],
    [['a', 'b', '--region-pixels', '1.5'], /--region-pixels "1.5"/],
    [['--baseline', 'a', 'b'], /not both/],
    [['--baseline', 'a'], /--new DIR is missing/],
    [['--new', 'a'], /--baseline DIR is missing/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCompareArgs(argv)).toThrow(message);
  });
});
