import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/loaders/load-model.ts';
import { parseM3d } from '../../src/loaders/m3d/parse-m3d.ts';
import { writeM3d } from '../../src/loaders/m3d/write-m3d.ts';
import { LoadError } from '../../src/model/errors.ts';
import type { Scene } from '../../src/model/types.ts';
import { corpusBytes, describeCorpus } from '../corpus.ts';
import { box, morphScene, plainScene } from './morph-fixtures.ts';

/**
 * plainScene() as writeM3d wrote it before the morph extension existed (captured from that writer):
 * a scene Luna's format holds unextended must keep these exact bytes.
 */
const PLAIN_BEFORE_EXTENSION: string = "***************m3d-File-Header***************\r\n#Materials 1\r\n#Vertices 8\r\n#Triangles 12\r\n#Bones 2\r\n#AnimationClips 1\r\n\r\n***************Materials*********************\r\nName: skin\r\nDiffuse: 0.8 0.6 0.5\r\nFresnel0: 0.04 0.04 0.04\r\nRoughness: 0.25\r\nAlphaClip: 0\r\nMaterialTypeName: Skinned\r\n\r\n***************SubsetTable*******************\r\nSubsetID: 0 VertexStart: 0 VertexCount: 8 FaceStart: 0 FaceCount: 12\r\n\r\n***************Vertices**********************\r\nPosition: -1 -1 1\r\nTangent: 1 0 0 -1\r\nNormal: -0.57735 -0.57735 0.57735\r\nTex-Coords: 0 1\r\nBlendWeights: 1 0 0 0\r\nBlendIndices: 0 0 0 0\r\n\r\nPosition: 1 -1 1\r\nTangent: 1 0 0 -1\r\nNormal: 0.57735 -0.57735 0.57735\r\nTex-Coords: 1 1\r\nBlendWeights: 1 0 0 0\r\nBlendIndices: 0 0 0 0\r\n\r\nPosition: 1 1 1\r\nTangent: 1 0 0 -1\r\nNormal: 0.57735 0.57735 0.57735\r\nTex-Coords: 1 0\r\nBlendWeights: 0.5 0.5 0 0\r\nBlendIndices: 0 1 0 0\r\n\r\nPosition: -1 1 1\r\nTangent: 1 0 0 -1\r\nNormal: -0.57735 0.57735 0.57735\r\nTex-Coords: 0 0\r\nBlendWeights: 0.5 0.5 0 0\r\nBlendIndices: 0 1 0 0\r\n\r\nPosition: -1 -1 -1\r\nTangent: 1 0 0 -1\r\nNormal: -0.57735 -0.57735 -0.57735\r\nTex-Coords: 0 1\r\nBlendWeights: 1 0 0 0\r\nBlendIndices: 0 0 0 0\r\n\r\nPosition: 1 -1 -1\r\nTangent: 1 0 0 -1\r\nNormal: 0.57735 -0.57735 -0.57735\r\nTex-Coords: 1 1\r\nBlendWeights: 1 0 0 0\r\nBlendIndices: 0 0 0 0\r\n\r\nPosition: 1 1 -1\r\nTangent: 1 0 0 -1\r\nNormal: 0.57735 0.57735 -0.57735\r\nTex-Coords: 1 0\r\nBlendWeights: 0.5 0.5 0 0\r\nBlendIndices: 0 1 0 0\r\n\r\nPosition: -1 1 -1\r\nTangent: 1 0 0 -1\r\nNormal: -0.57735 0.57735 -0.57735\r\nTex-Coords: 0 0\r\nBlendWeights: 0.5 0.5 0 0\r\nBlendIndices: 0 1 0 0\r\n\r\n***************Triangles*********************\r\n0 1 2\r\n0 2 3\r\n4 6 5\r\n4 7 6\r\n0 5 1\r\n0 4 5\r\n3 2 6\r\n3 6 7\r\n0 3 7\r\n0 7 4\r\n1 6 2\r\n1 5 6\r\n\r\n***************BoneOffsets*******************\r\nBoneOffset0 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1\r\nBoneOffset1 1 0 0 0 0 1 0 0 0 0 1 0 0 -1 0 1\r\n\r\n***************BoneHierarchy*****************\r\nParentIndexOfBone0: -1\r\nParentIndexOfBone1: 0\r\n\r\n***************AnimationClips****************\r\nAnimationClip talk\r\n{\r\n\tBone0 #Keyframes: 1\r\n\t{\r\n\t\tTime: 0 Pos: 0 0 0 Scale: 1 1 1 Quat: 0 0 0 1\r\n\t}\r\n\tBone1 #Keyframes: 2\r\n\t{\r\n\t\tTime: 0 Pos: 0 1 0 Scale: 1 1 1 Quat: 0 0 0 1\r\n\t\tTime: 1 Pos: 0 1 0 Scale: 1 1 1 Quat: -0.258819 0 0 0.9659258\r\n\t}\r\n}\r\n";

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, eps: number, what: string): void {
  expect(actual.length, what).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    // Written so NaN fails: a NaN difference is not <= eps (and NaN or ±Infinity must match exactly).
    if (!(Math.abs(actual[i]! - expected[i]!) <= eps)) expect(actual[i], `${what}[${i}]`).toBe(expected[i]);
  }
}

/** Parses `text` expecting one LoadError whose line is where `marker` (a unique substring) stands. */
function expectErrorAt(text: string, marker: string, pattern: RegExp): LoadError {
  const lines = text.split('\r\n');
  const at = lines.findIndex((l) => l.includes(marker));
  expect(at, `marker '${marker}'`).toBeGreaterThanOrEqual(0);
  expect(lines.filter((l) => l.includes(marker)), `marker '${marker}' is unique`).toHaveLength(1);
  let error: unknown = null;
  try {
    parseM3d(text, 't.m3d');
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(LoadError);
  const e = error as LoadError;
  expect(e.message).toMatch(new RegExp(`^t\\.m3d: line ${at + 1}: `));
  expect(e.message).toMatch(pattern);
  expect(e.line).toBe(at + 1);
  return e;
}

describe('.m3d morph extension: writing', () => {
  it('writes a scene without morph targets and with one mesh exactly as before the extension', () => {
    expect(writeM3d(plainScene())).toBe(PLAIN_BEFORE_EXTENSION);
  });

  it('appends the Meshes, MorphTargets and MorphTracks chunks after the standard sections, with file vertex indices', () => {
    const text = writeM3d(morphScene());
    const headings = text.split('\r\n').filter((l) => /^\*+[A-Za-z0-9-]+\*+$/.test(l)).map((l) => l.replace(/\*/g, ''));
    expect(headings).toEqual([
      'm3d-File-Header', 'Materials', 'SubsetTable', 'Vertices', 'Triangles', 'BoneOffsets', 'BoneHierarchy', 'AnimationClips',
      'Meshes', 'MorphTargets', 'MorphTracks',
    ]);
    expect(text).toContain('#Vertices 16\r\n#Triangles 24\r\n');
    expect(text).toContain('Mesh head VertexStart: 8 VertexCount: 8 FaceStart: 12 FaceCount: 12\r\n');
    // head vertex 1 is file vertex 9; Z is mirrored back into D3D's frame.
    expect(text).toContain('MorphTarget smile Kind: emotion #Vertices: 3\r\n{\r\n\tVertex: 7 dPos: 0.25 -0.125 -0.5 dNrm: 0.01 0.02 0.03\r\n\tVertex: 9 ');
    expect(text).toContain('MorphTrack talk smile #Keyframes: 3\r\n{\r\n\tTime: 0 Weight: 0\r\n\tTime: 0.5 Weight: 1\r\n');
  });

  it('refuses morph data that breaks the model contract', () => {
    const s = morphScene();
    const head = s.meshes[1]!;
    const bad = (morphs: NonNullable<typeof head.morphs>): Scene => ({ ...s, meshes: [s.meshes[0]!, { ...head, morphs }] });
    const d = head.morphs![0]!;
    expect(() => writeM3d(bad([{ ...d, vertices: Uint32Array.from([3, 1]) }, head.morphs![1]!]))).toThrow(/not ascending/);
    expect(() => writeM3d(bad([{ ...d, vertices: Uint32Array.from([1, 8]) }, head.morphs![1]!]))).toThrow(/out of range/);
    expect(() => writeM3d(bad([head.morphs![0]!]))).toThrow(/1 morph delta sets for 2 targets/);
    expect(() => writeM3d({ ...s, morphTargets: ['smile', 'smile'] })).toThrow(/appears twice/);
    expect(() => writeM3d({ ...s, morphTargets: ['big smile', 'blink'] })).toThrow(/whitespace/);
  });

  it('gives each subset its own material entry when meshes share a material', () => {
    const s: Scene = { ...plainScene(), meshes: [box('a', [0, 0, 0], 1, [0, 1], 0), box('b', [3, 0, 0], 1, [0, 1], 0)] };
    const back = parseM3d(writeM3d(s), 't.m3d');
    expect(back.materials.map((m) => m.name)).toEqual(['skin', 'skin']);
    expect(back.meshes.map((m) => m.subsets)).toEqual([[{ material: 0, start: 0, count: 12 }], [{ material: 1, start: 0, count: 12 }]]);
  });
});

describe('.m3d morph extension: round trip', () => {
  const scene = morphScene();
  const back = loadModel('dawn.m3d', new TextEncoder().encode(writeM3d(scene)));

  it('splits the file back into the meshes it was written from', () => {
    expect(back.meshes.map((m) => [m.name, m.vertexCount, m.indices.length / 3])).toEqual([['body', 8, 12], ['head', 8, 12]]);
    scene.meshes.forEach((m, k) => {
      const b = back.meshes[k]!;
      expectClose(b.positions, m.positions, 1e-6, `${m.name} positions`);
      expectClose(b.normals, m.normals, 1e-5, `${m.name} normals`);
      expect(Array.from(b.indices), `${m.name} indices`).toEqual(Array.from(m.indices));
      expect(b.subsets).toEqual(m.subsets);
      // Palette slots become nodes: the head's slot 0 (the jaw) is node 1.
      for (let v = 0; v < 8; v++) {
        for (let i = 0; i < 4; i++) {
          const w = m.weights[v * 4 + i]!;
          if (w === 0) continue;
          expect(b.bones[b.joints[v * 4 + i]!], `${m.name} vertex ${v}`).toBe(m.bones[m.joints[v * 4 + i]!]);
          expect(b.weights[v * 4 + i]).toBeCloseTo(w, 5);
        }
      }
      expect(b.maxInfluences).toBe(m.maxInfluences);
    });
    expect(back.materials.map((m) => m.name)).toEqual(['skin', 'face']);
  });

  it('reads the same targets, kinds and sparse deltas per mesh, re-indexed to each mesh', () => {
    expect(back.morphTargets).toEqual(['smile', 'blink']);
    expect(back.morphKinds).toEqual(['emotion', 'modifier']);
    scene.meshes.forEach((m, k) => {
      const got = back.meshes[k]!.morphs!;
      expect(got).toHaveLength(2);
      m.morphs!.forEach((d, t) => {
        expect(Array.from(got[t]!.vertices), `${m.name} target ${t}`).toEqual(Array.from(d.vertices));
        expectClose(got[t]!.positions, d.positions, 1e-6, `${m.name} target ${t} dPos`);
        expectClose(got[t]!.normals, d.normals, 1e-5, `${m.name} target ${t} dNrm`);
      });
    });
  });

  it('reads the morph tracks into their clips; a clip lasts until its last morph key', () => {
    const talk = back.clips.find((c) => c.name === 'talk')!;
    expect(talk.duration).toBeCloseTo(2, 6);
    expect(talk.morphTracks!.map((t) => t.target)).toEqual([0, 1]);
    scene.clips[0]!.morphTracks!.forEach((t, i) => {
      expectClose(talk.morphTracks![i]!.times, t.times, 1e-6, 'times');
      expectClose(talk.morphTracks![i]!.values, t.values, 1e-6, 'values');
    });
    const idle = back.clips.find((c) => c.name === 'idle')!;
    expect(idle.morphTracks).toBeUndefined();
    expect(idle.duration).toBeCloseTo(1, 6);
  });

  it('writes what it read byte for byte', () => {
    expect(writeM3d(back)).toBe(writeM3d(scene));
  });

  it('leaves morphs off a mesh no target moves', () => {
    const s = morphScene();
    const only: Scene = { ...s, meshes: [{ ...s.meshes[0]!, morphs: undefined }, s.meshes[1]!] };
    const b = parseM3d(writeM3d(only), 't.m3d');
    expect(b.meshes[0]!.morphs).toBeUndefined();
    expect(b.meshes[1]!.morphs).toHaveLength(2);
  });

  it('reads morph targets on a single mesh without a Meshes chunk', () => {
    const s: Scene = {
      ...plainScene(),
      meshes: [{ ...box('body', [0, 0, 0], 1, [0, 1], 0), morphs: [{ vertices: Uint32Array.from([2, 5]), positions: new Float32Array([1, 2, 3, 4, 5, 6]), normals: new Float32Array(6) }] }],
      morphTargets: ['jaw_open'],
    };
    const text = writeM3d(s);
    expect(text).not.toContain('Meshes');
    const b = parseM3d(text, 'one.m3d');
    expect(b.meshes).toHaveLength(1);
    expect(b.meshes[0]!.name).toBe('one');
    expect(b.morphKinds).toEqual(['modifier']);
    expect(Array.from(b.meshes[0]!.morphs![0]!.vertices)).toEqual([2, 5]);
    expectClose(b.meshes[0]!.morphs![0]!.positions, [1, 2, 3, 4, 5, 6], 1e-6, 'dPos');
  });
});

describe('.m3d morph extension: hostile input', () => {
  const good = writeM3d(morphScene());
  const edit = (from: string, to: string): string => {
    expect(good.split(from), `'${from}' is unique`).toHaveLength(2);
    return good.replace(from, to);
  };

  it('refuses a target count larger than the rest of the file before allocating', () => {
    expectErrorAt(edit('#MorphTargets 2', '#MorphTargets 9999'), '#MorphTargets', /morph target count 9999 is larger than the rest of the file can hold/);
  });

  it('refuses a key count larger than the rest of the file before allocating', () => {
    expectErrorAt(edit('MorphTrack talk blink #Keyframes: 3', 'MorphTrack talk blink #Keyframes: 100000'), 'talk blink', /keyframe \(morph track 'blink', clip 'talk'\) count 100000 is larger than the rest of the file/);
  });

  it('refuses a moved-vertex count beyond the vertex count', () => {
    expectErrorAt(edit('MorphTarget blink Kind: modifier #Vertices: 1', 'MorphTarget blink Kind: modifier #Vertices: 17'), 'MorphTarget blink', /vertex count of morph target 'blink' 17 is out of range \[0, 16\]/);
  });

  it('refuses a vertex index past the end of the vertex list', () => {
    expectErrorAt(edit('\tVertex: 11 ', '\tVertex: 16 '), 'Vertex: 16', /vertex index \(morph target 'smile'\) 16 is out of range \[0, 15\]/);
  });

  it('refuses vertex indices that are not strictly ascending', () => {
    expectErrorAt(edit('\tVertex: 11 ', '\tVertex: 9 '), 'Vertex: 9 dPos: -0.4', /morph target 'smile': vertex 9 after vertex 9; indices must be strictly ascending/);
  });

  it('refuses NaN and infinite deltas and weights', () => {
    expectErrorAt(edit('dPos: 0.25 -0.125 -0.5', 'dPos: 0.25 NaN -0.5'), 'NaN', /expected position delta of vertex 7 \(morph target 'smile'\) \(a finite number\), found 'NaN'/);
    expectErrorAt(edit('Time: 0.1 Weight: 1', 'Time: 0.1 Weight: Infinity'), 'Infinity', /expected key weight .* \(a finite number\), found 'Infinity'/);
  });

  it('refuses a track for a target the file does not define, and a clip it does not have', () => {
    expectErrorAt(edit('MorphTrack talk blink', 'MorphTrack talk wink'), 'talk wink', /names morph target 'wink', which the MorphTargets chunk does not define/);
    expectErrorAt(edit('MorphTrack talk blink', 'MorphTrack walk blink'), 'walk blink', /names clip 'walk', which the file does not have/);
  });

  it('refuses duplicate target names, a second track for one target and an unknown kind', () => {
    expectErrorAt(edit('MorphTarget blink', 'MorphTarget smile'), 'MorphTarget smile Kind: modifier', /morph target 'smile' is defined twice/);
    expectErrorAt(edit('Kind: modifier', 'Kind: mood'), 'Kind: mood', /morph target 'blink' has kind 'mood'; expected 'emotion' or 'modifier'/);
    const twice = edit('MorphTrack talk blink', 'MorphTrack talk smile');
    const e = expectLoadErrorAnywhere(twice);
    expect(e.message).toMatch(/clip 'talk' has two morph tracks for 'smile'/);
    expect(e.line).toBe(twice.split('\r\n').lastIndexOf('MorphTrack talk smile #Keyframes: 3') + 1);
  });

  it('sorts key times that go backwards, with a warning', () => {
    const scene = parseM3d(edit('Time: 0.2 Weight: 0', 'Time: 0.05 Weight: 0'), 'keys.m3d');
    expect(scene.warnings.some((w) => /clip 'talk': .*out of order.*sorted/.test(w))).toBe(true);
  });

  it('refuses a Meshes chunk that does not tile the vertex and triangle lists', () => {
    expectErrorAt(edit('Mesh head VertexStart: 8', 'Mesh head VertexStart: 7'), 'Mesh head', /mesh 'head' starts at vertex 7, triangle 12; the meshes must follow each other from vertex 8, triangle 12/);
    const e = expectLoadErrorAnywhere(edit('Mesh head VertexStart: 8 VertexCount: 8', 'Mesh head VertexStart: 8 VertexCount: 7'));
    expect(e.message).toMatch(/the meshes cover 15 vertices and 24 triangles; the file has 16 and 24/);
  });

  it('refuses extension chunks out of order', () => {
    const tracks = good.indexOf('\r\n***************MorphTracks');
    const swapped = good.slice(0, good.indexOf('\r\n***************Meshes')) + good.slice(tracks) + good.slice(good.indexOf('\r\n***************Meshes'), tracks);
    const e = expectLoadErrorAnywhere(swapped);
    expect(e.message).toMatch(/names morph target 'smile', which the MorphTargets chunk does not define/);
    const twice = good + good.slice(good.indexOf('***************Meshes'), good.indexOf('\r\n***************MorphTargets'));
    expect(expectLoadErrorAnywhere(twice).message).toMatch(/the Meshes chunk is out of place/);
  });

  it('says where a truncated chunk ends', () => {
    const cut = good.slice(0, good.indexOf('\tVertex: 11 dPos: -0.4 0.5') + 25);
    const e = expectLoadErrorAnywhere(cut);
    expect(e.message).toMatch(/^t\.m3d: line \d+: unexpected end of file, expected position delta of vertex 11 .*is the file truncated/);
    expect(e.line).toBe(cut.split('\r\n').length);
    // Cut right after a target's header: its count is refused before anything is read or allocated.
    const early = good.slice(0, good.indexOf('\tVertex: 9 '));
    expect(expectLoadErrorAnywhere(early).message).toMatch(/line \d+: moved vertex \(morph target 'smile'\) count 3 is larger than the rest of the file can hold/);
  });
});

function expectLoadErrorAnywhere(text: string): LoadError {
  try {
    parseM3d(text, 't.m3d');
  } catch (e) {
    expect(e).toBeInstanceOf(LoadError);
    expect((e as LoadError).line).toBeGreaterThan(0);
    return e as LoadError;
  }
  throw new Error('expected a LoadError');
}

describeCorpus('.m3d morph extension: Luna files', () => {
  it('still reads soldier.m3d as one mesh without targets', () => {
    const s = loadModel('soldier.m3d', corpusBytes('soldier.m3d'));
    expect(s.meshes).toHaveLength(1);
    expect(s.morphTargets).toEqual([]);
    expect(s.morphKinds).toBeUndefined();
    expect(s.meshes[0]!.morphs).toBeUndefined();
    expect(s.clips[0]!.morphTracks).toBeUndefined();
  });
});
