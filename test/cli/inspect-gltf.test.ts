import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseInspectArgs } from '../../src/cli/inspect-args.ts';
import { ModelFolder } from '../../src/cli/model-files.ts';

/** `inspect` on glTF: loading through loadModelAsync with external files from the model's folder, and --validate. */
const SEEDS = join(__dirname, '..', 'fixtures', 'gltf-fuzz');

function inspect(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'cli', 'inspect.ts'), ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A folder holding the quantized AnimatedMorphCube .gltf (its buffer URI rewritten to `uri`) and, optionally, its .bin. */
function quantizedCopy(uri: string, withBin = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'skinlab-gltf-'));
  const json = JSON.parse(readFileSync(join(SEEDS, 'quantized', 'AnimatedMorphCube.gltf'), 'utf8'));
  json.buffers[0].uri = uri;
  writeFileSync(join(dir, 'cube.gltf'), JSON.stringify(json));
  if (withBin) copyFileSync(join(SEEDS, 'quantized', 'AnimatedMorphCube.bin'), join(dir, 'AnimatedMorphCube.bin'));
  return join(dir, 'cube.gltf');
}

describe('inspect on glTF', () => {
  it('summarises a .gltf with its skin and clip, and poses it in scene space (no floatBits)', () => {
    const r = inspect(join(SEEDS, 'SimpleSkin.gltf'), '--json', '--t', '0', '0.5');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.format).toBe('gltf');
    expect(j.floatBits).toBeUndefined();
    expect(j.meshes).toEqual([expect.objectContaining({ vertices: 24, triangles: 8, skinned: true, bones: 2, maxInfluences: 2 })]);
    expect(j.frames).toBe(3);
    expect(j.clips).toHaveLength(1);
    expect(j.clips[0].duration).toBeCloseTo(5.5, 5);
    expect(j.poses.map((p: { t: number }) => p.t)).toEqual([0, 0.5]);
    expect(j.poses[0].bounds).toEqual({ min: [-0.5, 0, 0], max: [0.5, 2, 0] });
    expect(j.poses[1].bounds).not.toEqual(j.poses[0].bounds);
  });

  it('says glb for a binary file and lists its morph targets', () => {
    const j = JSON.parse(inspect(join(SEEDS, 'AnimatedMorphCube.glb'), '--json').stdout);
    expect(j.format).toBe('glb');
    expect(j.morphTargets).toHaveLength(2);
  });

  it('reads an external .bin from the model folder by the URI base name, and never from outside it', () => {
    expect(JSON.parse(inspect(quantizedCopy('AnimatedMorphCube.bin'), '--json').stdout).morphTargets).toHaveLength(2);
    expect(inspect(quantizedCopy('sub/dir/AnimatedMorphCube.bin'), '--json').status).toBe(0);
    expect(inspect(quantizedCopy('AnimatedMorph%43ube.bin'), '--json').status).toBe(0);
    // The .bin exists only one folder up: a '../' URI must not reach it.
    const model = quantizedCopy('../AnimatedMorphCube.bin', false);
    copyFileSync(join(SEEDS, 'quantized', 'AnimatedMorphCube.bin'), join(model, '..', '..', 'AnimatedMorphCube.bin'));
    const r = inspect(model, '--json');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: .*cube\.gltf: .*\/buffers\/0.*'\.\.\/AnimatedMorphCube\.bin'.*missing/);
  });

  it('a damaged GLB prints one error line with the byte offset and exits 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skinlab-gltf-'));
    const bytes = new Uint8Array(readFileSync(join(SEEDS, 'AnimatedMorphCube.glb')));
    writeFileSync(join(dir, 'cut.glb'), bytes.subarray(0, 3000));
    const r = inspect(join(dir, 'cut.glb'));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*cut\.glb: byte offset 3000: the file is truncated: its GLB header says 6752 bytes, the file has 3000\n$/);
  });

  it('--validate prints glTF-Validator counts and messages with their pointers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skinlab-gltf-'));
    const json = JSON.parse(readFileSync(join(SEEDS, 'SimpleSkin.gltf'), 'utf8'));
    json.nodes[0].children = [0];
    writeFileSync(join(dir, 'loop.gltf'), JSON.stringify(json));
    const r = inspect(join(dir, 'loop.gltf'), '--validate', '--json');
    expect(r.stderr).toBe('');
    expect(r.status, 'errors fail the command, so it can gate a CI job').toBe(1);
    const v = JSON.parse(r.stdout);
    expect(v.errors).toBeGreaterThan(0);
    expect(v).toMatchObject({ warnings: expect.any(Number), infos: expect.any(Number), hints: expect.any(Number) });
    expect(v.messages).toContainEqual({ severity: 'error', code: 'NODE_LOOP', message: expect.any(String), where: '/nodes/0' });
    const cleanRun = inspect(quantizedCopy('AnimatedMorphCube.bin'), '--validate', '--json');
    const clean = JSON.parse(cleanRun.stdout);
    expect(clean.errors).toBe(0);
    expect(cleanRun.status).toBe(0);
    const table = inspect(join(dir, 'loop.gltf'), '--validate');
    expect(table.status).toBe(1);
    expect(table.stdout).toMatch(/loop\.gltf: glTF-Validator [\d.a-z-]+: \d+ errors, \d+ warnings, \d+ infos, \d+ hints\n {2}error {3}[A-Z_]+ at \//);
    expect(table.stdout).toContain('  error   NODE_LOOP at /nodes/0: ');
  });

  it('--validate exits 0 on warnings alone', () => {
    // The skinned node given a translation: the validator warns (NODE_SKINNED_MESH_LOCAL_TRANSFORMS), no error.
    const dir = mkdtempSync(join(tmpdir(), 'skinlab-gltf-'));
    const json = JSON.parse(readFileSync(join(SEEDS, 'SimpleSkin.gltf'), 'utf8'));
    json.nodes[0].translation = [1, 0, 0];
    writeFileSync(join(dir, 'moved.gltf'), JSON.stringify(json));
    const r = inspect(join(dir, 'moved.gltf'), '--validate', '--json');
    const v = JSON.parse(r.stdout);
    expect(v.errors).toBe(0);
    expect(v.warnings).toBeGreaterThan(0);
    expect(v.messages).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'NODE_SKINNED_MESH_LOCAL_TRANSFORMS' }));
    expect(r.status).toBe(0);
  });

  it('--validate on a file that is not glTF is one clear error line', () => {
    const r = inspect(join(__dirname, '..', '..', 'public', 'models', 'tiny', 'tiny.x'), '--validate');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*tiny\.x: --validate checks glTF files \(\.gltf, \.glb\) only, and this is not one\n$/);
  });
});

describe('inspect --validate arguments and resource paths', () => {
  it('parses --validate and refuses it with posing options', () => {
    expect(parseInspectArgs(['a.glb', '--validate', '--json'])).toMatchObject({ file: 'a.glb', validate: true, json: true });
    expect(parseInspectArgs(['a.glb']).validate).toBeUndefined();
    expect(() => parseInspectArgs(['a.glb', '--validate', '--t', '1'])).toThrow(/--validate reports on the file alone/);
  });
  it('resolves URIs by base name inside the model folder only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skinlab-gltf-'));
    mkdirSync(join(dir, 'm'));
    writeFileSync(join(dir, 'm', 'a b.bin'), 'x');
    writeFileSync(join(dir, 'outside.bin'), 'x');
    writeFileSync(join(dir, 'm', 'Skin.PNG'), 'x');
    const folder = new ModelFolder(join(dir, 'm'));
    expect(folder.pathOf('a%20b.bin')).toBe(join(dir, 'm', 'a b.bin'));
    expect(folder.pathOf('deep/er/a b.bin')).toBe(join(dir, 'm', 'a b.bin'));
    expect(folder.pathOf('C:\\maps\\skin.png')).toBe(join(dir, 'm', 'Skin.PNG'));
    expect(folder.pathOf('../outside.bin')).toBeNull();
    expect(folder.pathOf('..')).toBeNull();
    expect(folder.pathOf('..\\outside.bin')).toBeNull();
    expect(folder.pathOf('data:application/octet-stream;base64,AAAA')).toBeNull();
  });
});
