import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/loaders/load-model.ts';
import { LoadError } from '../../src/model/errors.ts';
import type { Scene, SkinnedMesh } from '../../src/model/types.ts';
import { writeBinaryX, writeTextX, type XItem, type XSpec } from './x-writer.ts';

/*
 * A skinned cube (8 positions, one normal per face, so every position splits into 3 output vertices) with
 * targets `smile` (emotion: positions 1 and 5) and `blink` (modifier: position 2), and a rigid triangle
 * `hair` under a frame turned 90° about Z and moved 2 along X, with `smile` (position 0) and `wink`
 * (positions 1, 2). Clip `talk` turns the jaw over 1 s and drives `smile` for 2 s.
 */

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const CORNERS = [[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]];
const QUADS = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [3, 7, 6, 2], [0, 4, 7, 3], [1, 2, 6, 5]];
const FACE_NORMALS = [[0, 0, -1], [0, 0, 1], [0, -1, 0], [0, 1, 0], [-1, 0, 0], [1, 0, 0]];

interface Target {
  name: string;
  kind: number;
  positions: number[];
  dPos: number[][];
  dNrm: number[][];
}
const SMILE: Target = { name: 'smile', kind: 1, positions: [1, 5], dPos: [[0.1, 0.2, 0.3], [-0.2, 0.1, 0.4]], dNrm: [[0, 0.1, 0.2], [0.05, 0, -0.1]] };
const BLINK: Target = { name: 'blink', kind: 0, positions: [2], dPos: [[0, -0.1, 0.05]], dNrm: [[0, 0, 0]] };
const HAIR_SMILE: Target = { name: 'smile', kind: 1, positions: [0], dPos: [[1, 0, 0.5]], dNrm: [[0.3, 0, 0.2]] };
const WINK: Target = { name: 'wink', kind: 0, positions: [1, 2], dPos: [[0, 0.1, 0], [0, 0.2, 0]], dNrm: [[0, 0, 0], [0, 0, 0]] };

function targetData(t: Target): XItem[] {
  return [{ string: t.name }, { dwords: [t.kind, t.positions.length, ...t.positions] }, { floats: t.dPos.flat() }, { floats: t.dNrm.flat() }];
}
const morphTarget = (data: XItem[]): XSpec => ({ template: 'SkinlabMorphTarget', data });

interface Options {
  /** Include the morph objects (targets and track). */
  morphs?: boolean;
  /** Bake this target's deltas into the meshes' positions (and the hair's normals): the target shape as a file. */
  bake?: string;
  /** Replace the data of the cube's `smile` target / the set's track (hostile variants). */
  smileData?: XItem[];
  trackData?: XItem[];
  extraCubeChildren?: XSpec[];
  hairSmileKind?: number;
}

function scene(o: Options = {}): XSpec[] {
  const morphs = o.morphs ?? true;
  const baked = (list: number[][], t: Target[], field: 'dPos' | 'dNrm'): number[][] =>
    list.map((p, i) => {
      const hit = t.find((x) => x.name === o.bake && x.positions.includes(i));
      if (!hit) return p;
      const d = hit[field][hit.positions.indexOf(i)]!;
      return p.map((x, k) => x + d[k]!);
    });
  const cubePositions = baked(CORNERS, [SMILE, BLINK], 'dPos');
  const hairPositions = baked([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [HAIR_SMILE, WINK], 'dPos');
  const hairNormals = baked([[0, 0, -1], [0, 0, -1], [0, 0, -1]], [HAIR_SMILE, WINK], 'dNrm');
  const cube: XSpec = {
    template: 'Mesh',
    name: 'cube',
    data: [{ dwords: [8] }, { floats: cubePositions.flat() }, { dwords: [6, ...QUADS.flatMap((q) => [4, ...q])] }],
    children: [
      { template: 'MeshNormals', data: [{ dwords: [6] }, { floats: FACE_NORMALS.flat() }, { dwords: [6, ...QUADS.flatMap((_, f) => [4, f, f, f, f])] }] },
      { template: 'SkinWeights', data: [{ string: 'root' }, { dwords: [8, 0, 1, 2, 3, 4, 5, 6, 7] }, { floats: [1, 1, 0.5, 0.5, 1, 1, 0.5, 0.5, ...IDENTITY] }] },
      { template: 'SkinWeights', data: [{ string: 'jaw' }, { dwords: [4, 2, 3, 6, 7] }, { floats: [0.5, 0.5, 0.5, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1] }] },
      ...(morphs ? [morphTarget(o.smileData ?? targetData(SMILE)), morphTarget(targetData(BLINK))] : []),
      ...(o.extraCubeChildren ?? []),
    ],
  };
  const hair: XSpec = {
    template: 'Mesh',
    name: 'hair',
    data: [{ dwords: [3] }, { floats: hairPositions.flat() }, { dwords: [1, 3, 0, 1, 2] }],
    children: [
      { template: 'MeshNormals', data: [{ dwords: [3] }, { floats: hairNormals.flat() }, { dwords: [1, 3, 0, 1, 2] }] },
      ...(morphs ? [morphTarget(targetData({ ...HAIR_SMILE, kind: o.hairSmileKind ?? 1 })), morphTarget(targetData(WINK))] : []),
    ],
  };
  const key = (t: number, q: number[]): XItem[] => [{ dwords: [t, 4] }, { floats: q }];
  const s = Math.sin(Math.PI / 12);
  const c = Math.cos(Math.PI / 12);
  return [
    {
      template: 'Frame',
      name: 'root',
      children: [
        { template: 'FrameTransformMatrix', data: [{ floats: IDENTITY }] },
        { template: 'Frame', name: 'jaw', children: [{ template: 'FrameTransformMatrix', data: [{ floats: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1] }] }] },
        cube,
        {
          template: 'Frame',
          name: 'hairFrame',
          children: [{ template: 'FrameTransformMatrix', data: [{ floats: [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 1] }] }, hair],
        },
      ],
    },
    { template: 'AnimTicksPerSecond', data: [{ dwords: [4800] }] },
    {
      template: 'AnimationSet',
      name: 'talk',
      children: [
        { template: 'Animation', children: [{ ref: 'jaw' }, { template: 'AnimationKey', data: [{ dwords: [0, 2] }, ...key(0, [1, 0, 0, 0]), ...key(4800, [c, s, 0, 0])] }] },
        ...(morphs ? [{ template: 'SkinlabMorphTrack', data: o.trackData ?? [{ string: 'smile' }, { dwords: [3] }, { dwords: [0, 1] }, { floats: [0] }, { dwords: [2400, 1] }, { floats: [1] }, { dwords: [9600, 1] }, { floats: [0.25] }] }] : []),
      ],
    },
  ];
}

const loadText = (o?: Options): Scene => loadModel('t.x', writeTextX(scene(o), o?.morphs !== false));
const loadBinary = (o?: Options): Scene => loadModel('b.x', writeBinaryX(scene(o), o?.morphs !== false));
const mesh = (s: Scene, name: string): SkinnedMesh => s.meshes.find((m) => m.name === name)!;

function expectLoadError(f: () => unknown, pattern: RegExp): LoadError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(LoadError);
    expect((e as Error).message).toMatch(pattern);
    return e as LoadError;
  }
  throw new Error('expected a LoadError');
}

/** 1-based line of the n-th (0-based) data object line matching `re` in the text encoding of `o`. */
function lineOf(o: Options, re: RegExp, n = 0): number {
  const lines = new TextDecoder().decode(writeTextX(scene(o))).split('\n');
  const hits = lines.map((l, i) => (re.test(l) ? i + 1 : 0)).filter((i) => i > 0);
  return hits[n]!;
}

describe('.x SkinlabMorphTarget / SkinlabMorphTrack', () => {
  const text = loadText();
  const binary = loadBinary();

  it('merges the targets of all meshes by name, in order of first appearance, with their kinds', () => {
    for (const s of [text, binary]) {
      expect(s.morphTargets).toEqual(['smile', 'blink', 'wink']);
      expect(s.morphKinds).toEqual(['emotion', 'modifier', 'modifier']);
      expect(mesh(s, 'cube').morphs!.map((d) => d.vertices.length)).toEqual([6, 3, 0]);
      expect(mesh(s, 'hair').morphs!.map((d) => d.vertices.length)).toEqual([1, 0, 2]);
    }
  });

  it('reads the same deltas from the text and the binary encoding', () => {
    expect(binary.format).toBe('x-binary');
    expect(text.format).toBe('x-text');
    for (const name of ['cube', 'hair']) {
      const a = mesh(text, name).morphs!;
      const b = mesh(binary, name).morphs!;
      a.forEach((d, t) => {
        expect(Array.from(b[t]!.vertices)).toEqual(Array.from(d.vertices));
        expect(Array.from(b[t]!.positions)).toEqual(Array.from(d.positions));
        expect(Array.from(b[t]!.normals)).toEqual(Array.from(d.normals));
      });
    }
  });

  it('gives a position delta, mirrored in Z, to every vertex split from that position', () => {
    const cube = mesh(text, 'cube');
    expect(cube.vertexCount).toBe(24);
    const smile = cube.morphs![0]!;
    const expected: number[] = [];
    for (let v = 0; v < cube.vertexCount; v++) {
      const p = [cube.positions[v * 3]!, cube.positions[v * 3 + 1]!, -cube.positions[v * 3 + 2]!];
      const source = SMILE.positions.find((i) => CORNERS[i]!.every((x, k) => x === p[k]));
      if (source === undefined) continue;
      expected.push(v);
      const e = smile.vertices.indexOf(v);
      const d = SMILE.dPos[SMILE.positions.indexOf(source)]!;
      const n = SMILE.dNrm[SMILE.positions.indexOf(source)]!;
      expect(Array.from(smile.positions.subarray(e * 3, e * 3 + 3))).toEqual(Array.from(Float32Array.from([d[0]!, d[1]!, -d[2]!])));
      expect(Array.from(smile.normals.subarray(e * 3, e * 3 + 3))).toEqual(Array.from(Float32Array.from([n[0]!, n[1]!, -n[2]!])));
    }
    expect(expected).toHaveLength(6);
    expect(Array.from(smile.vertices)).toEqual(expected);
  });

  it('neutral + deltas is the target shape loaded as its own file (skinned cube, rigid turned hair)', () => {
    const target = loadText({ morphs: false, bake: 'smile' });
    for (const name of ['cube', 'hair']) {
      const neutral = mesh(text, name);
      const shaped = mesh(target, name);
      const d = neutral.morphs![0]!;
      const moved = new Map(Array.from(d.vertices, (v, i) => [v, i]));
      for (let v = 0; v < neutral.vertexCount; v++) {
        const i = moved.get(v);
        for (let k = 0; k < 3; k++) {
          const p = neutral.positions[v * 3 + k]! + (i === undefined ? 0 : d.positions[i * 3 + k]!);
          expect(p, `${name} vertex ${v} position ${k}`).toBeCloseTo(shaped.positions[v * 3 + k]!, 5);
        }
      }
      if (name === 'hair') {
        // The rigid mesh's normal delta went through its frame's normal matrix: n0 + dn is the target normal.
        const n = [0, 1, 2].map((k) => neutral.normals[k]! + d.normals[k]!);
        [0, 1, 2].forEach((k) => expect(n[k]).toBeCloseTo(shaped.normals[k]!, 5));
        // The frame turns file X into Y: the delta (1, 0, 0.5) mirrored and turned is (0, 1, -0.5).
        expect(Array.from(d.positions).map((x) => Math.round(x * 1e5) / 1e5 + 0)).toEqual([0, 1, -0.5]);
      }
    }
  });

  it('reads the morph track in seconds of the set and extends the clip to its last key', () => {
    for (const s of [text, binary]) {
      const clip = s.clips[0]!;
      expect(clip.name).toBe('talk');
      expect(clip.duration).toBeCloseTo(2, 6);
      expect(clip.tracks).toHaveLength(1);
      expect(clip.morphTracks).toHaveLength(1);
      const t = clip.morphTracks![0]!;
      expect(t.target).toBe(0);
      expect(Array.from(t.times)).toEqual([0, 0.5, 2]);
      expect(Array.from(t.values)).toEqual([0, 1, 0.25]);
    }
  });

  it('loads a file without the templates exactly as before: no targets, same geometry', () => {
    const plain = loadText({ morphs: false });
    expect(plain.morphTargets).toEqual([]);
    expect(plain.morphKinds).toBeUndefined();
    expect(plain.clips[0]!.morphTracks).toBeUndefined();
    expect(plain.clips[0]!.duration).toBeCloseTo(1, 6);
    for (const m of plain.meshes) {
      expect(m.morphs).toBeUndefined();
      const withMorphs = mesh(text, m.name);
      expect(Array.from(withMorphs.positions)).toEqual(Array.from(m.positions));
      expect(Array.from(withMorphs.normals)).toEqual(Array.from(m.normals));
      expect(Array.from(withMorphs.indices)).toEqual(Array.from(m.indices));
    }
    expect(plain.warnings).toEqual(text.warnings);
  });

  it('still skips unknown templates with one warning', () => {
    const s = loadBinary({ extraCubeChildren: [{ template: 'SkinlabSomethingElse', data: [{ dwords: [1, 2] }] }] });
    expect(s.warnings).toContain('skipped 1 object of template SkinlabSomethingElse (not used by skinlab)');
    expect(s.morphTargets).toEqual(['smile', 'blink', 'wink']);
  });

  it('warns when meshes disagree on a target kind and keeps the first', () => {
    const s = loadText({ hairSmileKind: 0 });
    expect(s.morphKinds).toEqual(['emotion', 'modifier', 'modifier']);
    expect(s.warnings).toContain("morph target 'smile' is a emotion in one mesh and a modifier in mesh 'hair'; kept emotion");
  });
});

describe('.x morph templates: hostile input', () => {
  const smileLine = (o: Options): number => lineOf(o, /^\s*SkinlabMorphTarget \{/);
  const bad = (t: Partial<Target>): Options => ({ smileData: targetData({ ...SMILE, ...t }) });

  const cases: [string, Options, RegExp][] = [
    ['a vertex index past the mesh', bad({ positions: [1, 8] }), /morph target 'smile': vertex index 8 \(entry 1\) is out of range; the mesh has 8 vertices/],
    ['vertex indices not ascending', bad({ positions: [5, 1] }), /morph target 'smile': vertex index 1 \(entry 1\) after 5; indices must be strictly ascending/],
    ['an unknown kind', bad({ kind: 2 }), /the kind of morph target 'smile' \(0 modifier, 1 emotion\) is 2, outside 0\.\.1/],
    ['a count larger than the data', { smileData: [{ string: 'smile' }, { dwords: [1, 1000, 1, 5] }, { floats: [0, 0, 0] }] }, /claims 1000 moved vertices of morph target 'smile', but only \d+ numbers follow/],
    ['truncated deltas', { smileData: [{ string: 'smile' }, { dwords: [1, 2, 1, 5] }, { floats: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] }] }, /claims 2 moved vertices of morph target 'smile', but only 12 numbers follow \(at least 14 needed\)/],
    ['a NaN delta', bad({ dPos: [[0.1, NaN, 0.3], [0, 0, 0]] }), /morph target 'smile': position delta of vertex 1 is NaN, not a finite number/],
    ['no name', { smileData: [{ dwords: [1, 0] }] }, /SkinlabMorphTarget: has no target name string/],
  ];
  for (const [what, o, pattern] of cases) {
    it(`refuses ${what} with the object's line (text) or byte (binary)`, () => {
      const e = expectLoadError(() => loadText(o), pattern);
      expect(e.message).toMatch(new RegExp(`^t\\.x: line ${smileLine(o)}: SkinlabMorphTarget: `));
      expect(e.line).toBe(smileLine(o));
      const b = expectLoadError(() => loadBinary(o), pattern);
      expect(b.message).toMatch(/^b\.x: byte \d+: SkinlabMorphTarget: /);
      expect(b.offset).toBeGreaterThan(16);
    });
  }

  it('refuses two targets of one name in one mesh', () => {
    const o: Options = { extraCubeChildren: [morphTarget(targetData(SMILE))] };
    const e = expectLoadError(() => loadText(o), /mesh 'cube' has two morph targets named 'smile'/);
    expect(e.line).toBe(lineOf(o, /^\s*SkinlabMorphTarget \{/, 2));
  });

  const trackLine = (o: Options): number => lineOf(o, /^\s*SkinlabMorphTrack \{/);
  const trackCases: [string, XItem[], RegExp][] = [
    ['a track for a target no mesh defines', [{ string: 'grin' }, { dwords: [1, 0, 1] }, { floats: [1] }], /names morph target 'grin', which no mesh of the file defines \('smile', 'blink', 'wink'\)/],
    ['a key count larger than the data', [{ string: 'smile' }, { dwords: [50, 0, 1] }, { floats: [1] }], /claims 50 keys of morph track 'smile', but only 3 numbers follow/],
    ['a key with two values', [{ string: 'smile' }, { dwords: [1, 0, 2] }, { floats: [1, 2] }], /morph track 'smile': key 0 has 2 values; a weight is 1/],
    ['key times going backwards', [{ string: 'smile' }, { dwords: [2, 100, 1] }, { floats: [1] }, { dwords: [50, 1] }, { floats: [0] }], /morph track 'smile': key times go backwards \(50 after 100\)/],
    ['a NaN weight', [{ string: 'smile' }, { dwords: [1, 0, 1] }, { floats: [NaN] }], /morph track 'smile': key 0 has weight NaN, not a finite number/],
  ];
  for (const [what, data, pattern] of trackCases) {
    it(`refuses ${what}`, () => {
      const o: Options = { trackData: data };
      const e = expectLoadError(() => loadText(o), pattern);
      expect(e.message).toMatch(new RegExp(`^t\\.x: line ${trackLine(o)}: SkinlabMorphTrack: `));
      expectLoadError(() => loadBinary(o), pattern);
    });
  }
});
