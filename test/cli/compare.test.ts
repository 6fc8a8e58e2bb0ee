import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { shotFileName, type Manifest, type ManifestEntry } from '../../src/app/record-plan.ts';
import { CompareInputError, compareRecordings, runCompare } from '../../src/cli/compare.ts';
import { DEFAULT_RULES } from '../../src/cli/compare-rules.ts';

const W = 40;
const H = 30;

/** A deterministic picture: gradient background, a "character" block; `patch` repaints a w×h square. */
function picture(patch?: { x: number; y: number; w: number; h: number }, width = W, height = H): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const inBody = x >= 15 && x < 25 && y >= 5 && y < 28;
      png.data[i] = inBody ? 30 : 20 + x;
      png.data[i + 1] = inBody ? 60 : 20 + y;
      png.data[i + 2] = inBody ? 200 : 40;
      png.data[i + 3] = 255;
      if (patch && x >= patch.x && x < patch.x + patch.w && y >= patch.y && y < patch.y + patch.h) {
        png.data[i] = 255;
        png.data[i + 1] = 200;
        png.data[i + 2] = 0;
      }
    }
  }
  return PNG.sync.write(png);
}

function entry(technique: string, t: number, status: 'ok' | 'skipped' = 'ok'): ManifestEntry {
  const shot = { model: 'default', clip: 'walk', t, technique, view: 'shaded', camera: 'auto', width: W, height: H };
  return { ...shot, file: shotFileName(shot), status, ...(status === 'skipped' ? { reason: 'not available in this build' } : {}) };
}

/** Writes a recording folder: manifest + a PNG for each ok entry (from `images`, else the plain picture). */
function recording(dir: string, shots: ManifestEntry[], images: Record<string, Buffer> = {}): string {
  mkdirSync(dir, { recursive: true });
  const manifest: Manifest = {
    format: 'skinlab-shots',
    version: 1,
    app: { name: 'skinlab', version: '0.0.0' },
    recorder: 'cli',
    renderer: 'test',
    model: 'default',
    size: { width: W, height: H },
    params: {},
    settings: {},
    shots,
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  for (const s of shots) if (s.status === 'ok') writeFileSync(join(dir, s.file), images[s.technique] ?? picture());
  return dir;
}

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'skinlab-compare-'));
});

const shots = (): ManifestEntry[] => [entry('vs-hlsl', 0), entry('software', 0), entry('dual-quat', 0.5)];

describe('compare', () => {
  it('passes identical recordings (exit 0) and writes a self-contained report and diff PNGs', () => {
    const a = recording(join(root, 'a'), shots());
    const b = recording(join(root, 'b'), shots());
    const out = join(root, 'report.html');
    let stdout = '';
    expect(runCompare({ baseline: [a], current: [b], ...DEFAULT_RULES, out }, (s) => (stdout += s))).toBe(0);
    expect(stdout).toMatch(/3 pairs: 3 pass/);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('all 3 pairs pass');
    // baseline, new and diff of every pair inlined; nothing loaded from elsewhere.
    expect(html.match(/src="data:image\/png;base64,/g)).toHaveLength(9);
    expect(html).not.toMatch(/src="(?!data:)/);
    expect(existsSync(join(root, 'report-diff', entry('vs-hlsl', 0).file))).toBe(true);
  });

  it('fails (exit 1) when a pair breaks a rule, names the rule, and lists it first', () => {
    const a = recording(join(root, 'a'), shots());
    // No masks and a gradient background: every pixel counts as covered (1200). 6×6 = 36 pixels = 3 % and
    // 36 in one 16×16 window; another pair differs by 1 pixel (0.08 %).
    const b = recording(join(root, 'b'), shots(), { software: picture({ x: 2, y: 2, w: 6, h: 6 }), 'dual-quat': picture({ x: 30, y: 20, w: 1, h: 1 }) });
    let stdout = '';
    expect(runCompare({ baseline: [a], current: [b], ...DEFAULT_RULES, out: join(root, 'r.html') }, (s) => (stdout += s))).toBe(1);
    const rows = stdout.split('\n');
    expect(rows[0]).toMatch(/^status\s+rule\s+of model\s+pixels\s+region\s+shot$/);
    expect(rows[1]).toMatch(/^FAIL\s+coverage \+ region\s+3\.0\d %\s+36\s+36\s+default walk t=0\.000 software shaded/);
    expect(rows[2]).toMatch(/^pass\s+-\s+0\.08 %\s+1\s+1\s+default walk t=0\.500 dual-quat/);
    expect(stdout).toMatch(/3 pairs: 2 pass, 1 fail — coverage: > 2\.00 % of the model's pixels \(1 fail\); region: > 24 px in 16×16 \(1 fail\)/);
    expect(stdout).toMatch(/3 pairs without recorded masks: coverage estimated/);
    const html = readFileSync(join(root, 'r.html'), 'utf8');
    expect(html.indexOf('software shaded')).toBeLessThan(html.indexOf('dual-quat shaded'));
    expect(html).toContain('1 of 3 pairs fail');
    expect(html).toContain('coverage rule: too many of the model&#39;s pixels differ');
    expect(html).toContain('region rule: too many differing pixels in one place');
    // The failing pair's crop of its worst window is inlined, and written beside the diffs.
    expect(html).toContain('worst window (outlined) enlarged');
    expect(existsSync(join(root, 'r-diff', entry('software', 0).file.replace(/\.png$/, '.crop.png')))).toBe(true);
    // The diff marks exactly the changed pixels.
    const diff = PNG.sync.read(readFileSync(join(root, 'r-diff', entry('software', 0).file)));
    const red = (x: number, y: number): boolean => diff.data[(y * W + x) * 4] === 255 && diff.data[(y * W + x) * 4 + 1] === 0;
    expect(red(4, 4)).toBe(true);
    expect(red(20, 20)).toBe(false);
  });

  it('applies the rules\' limits: a 1-pixel change passes by default, fails at threshold 0 or region pixels 0', () => {
    const a = recording(join(root, 'a'), [entry('vs-hlsl', 0)]);
    const b = recording(join(root, 'b'), [entry('vs-hlsl', 0)], { 'vs-hlsl': picture({ x: 1, y: 1, w: 1, h: 1 }) });
    expect(compareRecordings(a, b, join(root, 'd')).failed).toBe(0);
    expect(compareRecordings(a, b, join(root, 'd'), { threshold: 0 }).pairs[0]!.failedRules).toEqual(['coverage']);
    expect(compareRecordings(a, b, join(root, 'd'), { regionPixels: 0 }).pairs[0]!.failedRules).toEqual(['region']);
  });

  it('fails on shots missing from either side and on different sizes; skipped in both is fine', () => {
    const a = recording(join(root, 'a'), [entry('vs-hlsl', 0), entry('software', 0), entry('texture', 0, 'skipped'), entry('ff-indexed', 0), entry('accumulated', 0)]);
    const b = recording(join(root, 'b'), [entry('vs-hlsl', 0), entry('texture', 0, 'skipped'), entry('ff-indexed', 0, 'skipped'), entry('dual-quat', 0), entry('accumulated', 0)], {
      accumulated: picture(undefined, 20, 15),
    });
    const r = compareRecordings(a, b, join(root, 'd'));
    const status = Object.fromEntries(r.pairs.map((p) => [p.baseline?.technique ?? p.current!.technique, p.status]));
    expect(status).toEqual({ 'vs-hlsl': 'pass', software: 'missing', texture: 'skipped', 'ff-indexed': 'missing', 'dual-quat': 'added', accumulated: 'fail' });
    expect(r.pairs.find((p) => p.baseline?.technique === 'ff-indexed')!.note).toBe('skipped in the new recording: not available in this build');
    expect(r.pairs.find((p) => p.baseline?.technique === 'accumulated')!.note).toBe('sizes differ: 40x30 vs 20x15');
    expect(r.failed).toBe(4);
    // Worst first: missing/added, then by mismatch, skipped last.
    expect(r.pairs.map((p) => p.status)).toEqual(['missing', 'missing', 'added', 'fail', 'pass', 'skipped']);
  });

  it('matches by manifest entry, not by file name or order', () => {
    const a = recording(join(root, 'a'), [entry('vs-hlsl', 0), entry('software', 0)]);
    const renamed = [entry('software', 0), { ...entry('vs-hlsl', 0), file: 'other-name.png' }];
    const b = recording(join(root, 'b'), renamed, { software: picture({ x: 0, y: 0, w: 10, h: 10 }) });
    const r = compareRecordings(a, b, join(root, 'd'));
    expect(r.pairs.map((p) => `${p.baseline!.technique}:${p.status}`)).toEqual(['software:fail', 'vs-hlsl:pass']);
  });

  it('says what is wrong with missing folders, manifests and images', () => {
    const a = recording(join(root, 'a'), [entry('vs-hlsl', 0)]);
    expect(() => compareRecordings(join(root, 'nope'), a, join(root, 'd'))).toThrow(CompareInputError);
    expect(() => compareRecordings(join(root, 'nope'), a, join(root, 'd'))).toThrow(/baseline .*nope: no such folder/);
    mkdirSync(join(root, 'empty'));
    expect(() => compareRecordings(a, join(root, 'empty'), join(root, 'd'))).toThrow(/new .*empty: no manifest\.json/);
    writeFileSync(join(root, 'empty', 'manifest.json'), '{"format": ');
    expect(() => compareRecordings(a, join(root, 'empty'), join(root, 'd'))).toThrow(/manifest\.json: not valid JSON/);
    const b = recording(join(root, 'b'), [entry('vs-hlsl', 0)]);
    writeFileSync(join(b, entry('vs-hlsl', 0).file), 'not a png');
    const r = compareRecordings(a, b, join(root, 'd'));
    expect(r.pairs[0]!.status).toBe('added');
    expect(r.pairs[0]!.note).toMatch(/not a readable PNG/);
  });
});

describe('npm run compare (process)', () => {
  const repo = join(__dirname, '..', '..');
  const cli = join(repo, 'src', 'cli', 'compare.ts');
  // Run in the scratch folder (the default report lands there); tsx from the project.
  const tsx = pathToFileURL(join(repo, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const run = (...args: string[]): { status: number | null; stdout: string; stderr: string } => {
    const r = spawnSync(process.execPath, ['--import', tsx, cli, ...args], { encoding: 'utf8', cwd: root });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('exits 0, 1 and 2 with a table or one error line', () => {
    const a = recording(join(root, 'a'), shots());
    const b = recording(join(root, 'b'), shots());
    const c = recording(join(root, 'c'), shots(), { 'vs-hlsl': picture({ x: 0, y: 0, w: 20, h: 20 }) });
    const same = run(a, b);
    expect(same.status).toBe(0);
    expect(same.stdout).toMatch(/^status\s+rule\s+of model\s+pixels\s+region\s+shot\n/);
    expect(existsSync(join(root, 'compare-report.html'))).toBe(true);
    const changed = run(a, c, '--out', 'changed.html');
    expect(changed.status).toBe(1);
    expect(changed.stdout).toMatch(/\nFAIL\s+coverage \+ region\s+\d+\.\d{2} %\s+\d+\s+\d+\s+default walk t=0.000 vs-hlsl shaded\n/);
    const missing = run(a, join(root, 'nope'));
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n')).toEqual([`error: new ${join(root, 'nope')}: no such folder`]);
    const usage = run(a);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^error: expected BASELINE_DIR and NEW_DIR/);
  });
});
