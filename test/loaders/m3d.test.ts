import { describe, expect, it } from 'vitest';
import { AnimPlayer } from '../../src/anim/player.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import { parseM3d } from '../../src/loaders/m3d/parse-m3d.ts';
import { writeM3d } from '../../src/loaders/m3d/write-m3d.ts';
import { LoadError } from '../../src/model/errors.ts';
import type { Scene, SkinnedMesh } from '../../src/model/types.ts';
import { corpusBytes, describeCorpus, oracle } from '../corpus.ts';

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

/** Fraction of triangles whose CCW geometric normal agrees with the mean of their vertex normals. */
function outwardFraction(m: SkinnedMesh, positions = m.positions, normals = m.normals): number {
  let agree = 0;
  const n = m.indices.length / 3;
  for (let t = 0; t < n; t++) {
    const [a, b, c] = [m.indices[t * 3]!, m.indices[t * 3 + 1]!, m.indices[t * 3 + 2]!];
    const e1 = [0, 1, 2].map((k) => positions[b * 3 + k]! - positions[a * 3 + k]!);
    const e2 = [0, 1, 2].map((k) => positions[c * 3 + k]! - positions[a * 3 + k]!);
    const g = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
    let d = 0;
    for (const v of [a, b, c]) for (let k = 0; k < 3; k++) d += g[k]! * normals[v * 3 + k]!;
    if (d > 0) agree++;
  }
  return agree / n;
}

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

describeCorpus('Luna .m3d corpus', () => {
  it('reads soldier.m3d with the counts the file declares (ORACLE m3dNative)', () => {
    const o = oracle('soldier.m3d').m3dNative!;
    const s = loadModel('soldier.m3d', corpusBytes('soldier.m3d'));
    const m = s.meshes[0]!;
    expect(s.format).toBe('m3d');
    expect(m.vertexCount).toBe(13748);
    expect(m.vertexCount).toBe(o.counted.vertices);
    expect(m.indices.length / 3).toBe(22507);
    expect(s.skeleton.parents.length).toBe(58);
    expect(m.bones.length).toBe(o.counted.boneOffsets);
    expect(m.subsets.length).toBe(5);
    expect(s.materials.map((x) => x.name)).toEqual(['soldier_head', 'soldier_jacket', 'soldier_pants', 'soldier_upBody1', 'soldier_upBody2']);
    expect(s.materials[0]!.diffuseMap).toBe('head_diff.dds');
    expect(s.clips).toHaveLength(1);
    expect(s.clips[0]!.name).toBe('Take1');
    expect(s.clips[0]!.duration).toBeCloseTo(1.25, 6);
    expect(s.clips[0]!.tracks).toHaveLength(o.clips[0]!.boneTracks);
    expect(m.skinned).toBe(true);
    expect(m.maxInfluences).toBe(4);
    // Subset table: contiguous, covering every triangle.
    expect(m.subsets.map((x) => [x.start, x.count])).toEqual([[0, 7230], [7230, 4449], [11679, 6579], [18258, 3807], [22065, 442]]);
    // Its triangles wind against its normals (checked in the raw file: 99.9 % of them); the loader turns them round.
    expect(s.warnings).toEqual(['triangles are wound against their normals (counter-clockwise front faces in D3D terms); turned round']);
  });

  it('converts D3D handedness so triangles face outwards (CCW) in bind pose and in an animated pose', () => {
    const s = loadModel('soldier.m3d', corpusBytes('soldier.m3d'));
    const m = s.meshes[0]!;
    expect(outwardFraction(m)).toBeGreaterThan(0.97);
    const player = new AnimPlayer(s.skeleton, s.clips);
    player.setTime(0.5);
    player.evaluate();
    const palette = new Float32Array(m.bones.length * 16);
    player.writePalette(m, palette, 0);
    const p = new Float32Array(m.vertexCount * 3);
    const n = new Float32Array(m.vertexCount * 3);
    skinMesh(m, palette, p, n);
    expect(outwardFraction(m, p, n)).toBeGreaterThan(0.97);
  });

  it('poses soldier.m3d: bind palette is identity, t=0.5 is a walk pose, feet near the floor, head up', () => {
    const s = loadModel('soldier.m3d', corpusBytes('soldier.m3d'));
    const m = s.meshes[0]!;
    const player = new AnimPlayer(s.skeleton, []);
    player.evaluate();
    const palette = new Float32Array(m.bones.length * 16);
    player.writePalette(m, palette, 0);
    for (let b = 0; b < m.bones.length; b++) {
      for (let k = 0; k < 16; k++) expect(palette[b * 16 + k]).toBeCloseTo(k % 5 === 0 ? 1 : 0, 3);
    }
    const walk = new AnimPlayer(s.skeleton, s.clips);
    const p = new Float32Array(m.vertexCount * 3);
    const n = new Float32Array(m.vertexCount * 3);
    const boundsAt = (t: number): number[] => {
      walk.setTime(t);
      walk.evaluate();
      walk.writePalette(m, palette, 0);
      skinMesh(m, palette, p, n);
      const mm = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
      for (let v = 0; v < p.length; v += 3) {
        for (let k = 0; k < 3; k++) {
          mm[k] = Math.min(mm[k]!, p[v + k]!);
          mm[k + 3] = Math.max(mm[k + 3]!, p[v + k]!);
        }
      }
      return mm;
    };
    const a = boundsAt(0);
    const b = boundsAt(0.5);
    // Upright, about 73 units tall, standing on y ≈ 0.
    expect(a[4]! - a[1]!).toBeGreaterThan(65);
    expect(a[1]!).toBeGreaterThan(-3);
    expect(a[1]!).toBeLessThan(3);
    // The stride changes the depth extent between the two times (the legs move).
    expect(Math.abs((a[5]! - a[2]!) - (b[5]! - b[2]!))).toBeGreaterThan(3);
  });

  for (const file of ['rock.m3d', 'stairs.m3d']) {
    it(`reads the static DX11-book file ${file}`, () => {
      const o = oracle(file).m3dNative!;
      const s = loadModel(file, corpusBytes(file));
      const m = s.meshes[0]!;
      expect(m.vertexCount).toBe(o.header.Vertices);
      expect(m.indices.length / 3).toBe(o.header.Triangles);
      expect(m.skinned).toBe(false);
      expect(s.clips).toHaveLength(0);
      expect(s.skeleton.parents.length).toBe(1);
      // The DX11 block: Diffuse, Specular and SpecPower are read; the block names no material.
      const spec = { 'rock.m3d': [[0.4, 0.4, 0.4], 16], 'stairs.m3d': [[0.7, 0.7, 0.7], 32] }[file]!;
      expect(s.materials[0]).toMatchObject({ name: 'material0', diffuse: [0.9, 0.9, 0.9, 1], specular: spec[0], specularPower: spec[1] });
      expect(s.materials[0]!.diffuseMap).toMatch(/_diffuse\.dds$/);
      // Standard D3D clockwise fronts: mirrored and reversed, they face outwards without repair.
      expect(outwardFraction(m)).toBeGreaterThan(0.9);
      expect(s.warnings).toEqual([]);
    });
  }

  it('reads CRLF line ends exactly like LF', () => {
    const lf = text(corpusBytes('rock.m3d'));
    const crlf = lf.replace(/\r?\n/g, '\r\n');
    const a = parseM3d(lf, 'rock.m3d');
    const b = parseM3d(crlf, 'rock.m3d');
    expect(Array.from(b.meshes[0]!.positions)).toEqual(Array.from(a.meshes[0]!.positions));
    expect(b.materials).toEqual(a.materials);
  });

  it('a truncated copy fails with one error naming the line', () => {
    const bytes = corpusBytes('soldier.m3d');
    for (const cut of [100, 5000, 2_000_000, 3_000_000, bytes.length - 500]) {
      const e = expectLoadError(() => loadModel('soldier.m3d', bytes.subarray(0, cut)), /^soldier\.m3d: line \d+: /);
      expect(e.line).toBeGreaterThan(0);
    }
  });

  it('writes .m3d that reads back to the same scene', () => {
    const s = loadModel('soldier.m3d', corpusBytes('soldier.m3d'));
    const back = parseM3d(writeM3d(s), 'soldier.m3d');
    expect(expectSameScene(back, s), 'keys compared').toBeGreaterThan(100);
    expect(back.warnings).toEqual([]); // written with D3D's own winding
  });
});

/** Same length, every element within `tol` (NaN or ±Infinity only where the other has exactly the same). */
function expectClose(a: ArrayLike<number> | null, b: ArrayLike<number> | null, tol: number, what: string): void {
  expect(a === null, `${what} present`).toBe(b === null);
  if (a === null || b === null) return;
  expect(a.length, `${what} length`).toBe(b.length);
  for (let i = 0; i < a.length; i++) if (!(Math.abs(a[i]! - b[i]!) <= tol)) expect(a[i], `${what}[${i}]`).toBe(b[i]);
}

/**
 * Everything the .m3d format carries, compared: per mesh the geometry, every vertex attribute, the skin and
 * the subsets; the skeleton; the materials; per clip every track's key times and values. Returns the number
 * of keys compared, so a caller can check the clips were really compared.
 */
function expectSameScene(a: Scene, b: Scene): number {
  expect(a.meshes.length, 'meshes').toBe(b.meshes.length);
  a.meshes.forEach((ma, k) => {
    const mb = b.meshes[k]!;
    const m = `mesh ${k}`;
    expect([ma.name, ma.vertexCount, ma.skinned, ma.maxInfluences], m).toEqual([mb.name, mb.vertexCount, mb.skinned, mb.maxInfluences]);
    expect(Array.from(ma.indices), `${m} indices`).toEqual(Array.from(mb.indices));
    expect(ma.subsets, `${m} subsets`).toEqual(mb.subsets);
    expectClose(ma.positions, mb.positions, 1e-4, `${m} positions`);
    // The writer keeps unit vectors, texture coordinates and weights to 5 decimals (write-m3d.ts `u`);
    // weights are then renormalised on reading.
    expectClose(ma.normals, mb.normals, 5e-5, `${m} normals`);
    expectClose(ma.uvs, mb.uvs, 5e-5, `${m} uvs`);
    expectClose(ma.tangents, mb.tangents, 5e-5, `${m} tangents`);
    expect(Array.from(ma.joints), `${m} joints`).toEqual(Array.from(mb.joints));
    expectClose(ma.weights, mb.weights, 5e-5, `${m} weights`);
    expect(Array.from(ma.bones), `${m} bones`).toEqual(Array.from(mb.bones));
    expectClose(ma.invBind, mb.invBind, 1e-4, `${m} invBind`);
  });
  expect(a.skeleton.names, 'skeleton names').toEqual(b.skeleton.names);
  expect(Array.from(a.skeleton.parents), 'skeleton parents').toEqual(Array.from(b.skeleton.parents));
  expectClose(a.skeleton.restLocal, b.skeleton.restLocal, 1e-4, 'skeleton restLocal');
  expect(a.materials, 'materials').toEqual(b.materials);
  expect(a.clips.map((c) => [c.name, c.tracks.length]), 'clips').toEqual(b.clips.map((c) => [c.name, c.tracks.length]));
  let keys = 0;
  a.clips.forEach((ca, i) => {
    const cb = b.clips[i]!;
    expectClose([ca.duration], [cb.duration], 1e-6, `clip '${ca.name}' duration`);
    ca.tracks.forEach((ta, j) => {
      const tb = cb.tracks[j]!;
      const t = `clip '${ca.name}' track ${j}`;
      expect(ta.node, `${t} node`).toBe(tb.node);
      for (const [channel, stride] of [['translation', 3], ['rotation', 4], ['scale', 3]] as const) {
        const x = ta[channel];
        const y = tb[channel];
        const c = `${t} ${channel}`;
        expect(x === null, `${c} present`).toBe(y === null);
        if (x === null || y === null) continue;
        if (x.times.length !== y.times.length) {
          // The writer keeps one key of a channel that never changes: then every key of the other is that key.
          const [one, many] = x.times.length === 1 ? [x, y] : [y, x];
          expect(one.times.length, `${c}: ${x.times.length} keys against ${y.times.length}, and neither is a constant written as one key`).toBe(1);
          for (let k = 0; k < many.times.length; k++) expectClose(many.values.subarray(k * stride, k * stride + stride), one.values, 1e-5, `${c} key ${k}`);
          keys += 1;
          continue;
        }
        expectClose(x.times, y.times, 1e-6, `${c} times`);
        expectClose(x.values, y.values, 1e-5, `${c} values`);
        keys += x.times.length;
      }
    });
  });
  return keys;
}

/** A small valid skinned file: 3 vertices, 1 triangle, 2 bones, 1 clip. */
const TINY = `***************m3d-File-Header***************
#Materials 1
#Vertices 3
#Triangles 1
#Bones 2
#AnimationClips 1

***************Materials*********************
Name: mat
Diffuse: 1 0.5 0.25
Fresnel0: 0.05 0.05 0.05
Roughness: 0.5
AlphaClip: 0
MaterialTypeName: Skinned
DiffuseMap: skin.png
NormalMap: skin_n.png

***************SubsetTable*******************
SubsetID: 0 VertexStart: 0 VertexCount: 3 FaceStart: 0 FaceCount: 1

***************Vertices**********************
Position: 0 0 0
Tangent: 1 0 0 1
Normal: 0 0 -1
Tex-Coords: 0 0
BlendWeights: 1 0 0 0
BlendIndices: 0 0 0 0

Position: 0 1 0
Tangent: 1 0 0 1
Normal: 0 0 -1
Tex-Coords: 0 1
BlendWeights: 0.25 0.25 0 0
BlendIndices: 0 1 0 0

Position: 1 0 0
Tangent: 1 0 0 1
Normal: 0 0 -1
Tex-Coords: 1 0
BlendWeights: 0 1 0 0
BlendIndices: 0 1 0 0

***************Triangles*********************
0 1 2

***************BoneOffsets*******************
BoneOffset0 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1
BoneOffset1 1 0 0 0 0 1 0 0 0 0 1 0 0 -1 0 1

***************BoneHierarchy*****************
ParentIndexOfBone0: -1
ParentIndexOfBone1: 0

***************AnimationClips****************
AnimationClip bend
{
	Bone0 #Keyframes: 2
	{
		Time: 0 Pos: 0 0 0 Scale: 1 1 1 Quat: 0 0 0 1
		Time: 1 Pos: 0 0 0 Scale: 1 1 1 Quat: 0 0 0 1
	}
	Bone1 #Keyframes: 2
	{
		Time: 0 Pos: 0 1 0 Scale: 1 1 1 Quat: 0 0 0 1
		Time: 2 Pos: 0 1 0 Scale: 1 1 1 Quat: 0 0 0.7071068 0.7071068
	}
}
`;

describe('Luna .m3d loader (hand-written files)', () => {
  it('reads a minimal skinned file, mirrors Z and normalises weights', () => {
    const s = parseM3d(TINY, 'tiny.m3d');
    const m = s.meshes[0]!;
    expect(m.vertexCount).toBe(3);
    expect(Array.from(m.normals.subarray(0, 3))).toEqual([0, 0, 1]); // D3D -Z faces the viewer; ours +Z
    expect(Array.from(m.invBind.subarray(28, 32), (x) => x + 0)).toEqual([0, -1, 0, 1]);
    // A clockwise D3D triangle becomes counter-clockwise: indices 0 2 1.
    expect(Array.from(m.indices)).toEqual([0, 2, 1]);
    // Vertex 1 had weights 0.25/0.25: rescaled to 0.5/0.5 with a warning.
    expect(Array.from(m.weights.subarray(4, 8))).toEqual([0.5, 0.5, 0, 0]);
    expect(s.warnings.join()).toMatch(/1 vertex had blend weights not summing to 1/);
    // Vertex 2: weight 1 on bone 1 sorted first.
    expect(m.joints[8]).toBe(1);
    expect(m.weights[8]).toBe(1);
    expect(s.clips[0]!.duration).toBe(2);
    expect(s.materials[0]!.diffuse).toEqual([1, 0.5, 0.25, 1]);
    expect(s.materials[0]!.diffuseMap).toBe('skin.png');
    // Rest pose from the offsets: bone 1 sits at y = 1 under bone 0.
    expect(Array.from(s.skeleton.restLocal.subarray(10, 13), (x) => x + 0)).toEqual([0, 1, 0]);
  });

  it('rejects the Model 3D formats that share the extension', () => {
    expectLoadError(() => loadModel('cube.m3d', new TextEncoder().encode('3DMO\x10\x00\x00\x00binary')), /not a Luna \.m3d/);
    expectLoadError(() => loadModel('cube.m3d', new TextEncoder().encode('3dmo\x10\x00\x00\x00binary')), /not a Luna \.m3d/);
    expectLoadError(() => loadModel('cube.m3d', new TextEncoder().encode('3dmodel 1.0\ncube\n')), /not a Luna \.m3d/);
  });

  it('rejects empty input and unsupported types clearly', () => {
    expectLoadError(() => loadModel('e.m3d', new Uint8Array(0)), /empty/);
    expectLoadError(() => loadModel('notes.txt', new TextEncoder().encode('hello')), /unsupported file type \.txt/);
  });

  it('refuses counts larger than the file before allocating', () => {
    const huge = TINY.replace('#Vertices 3', '#Vertices 60000000');
    expectLoadError(() => parseM3d(huge, 'huge.m3d'), /line \d+: vertex count 60000000 is larger than the rest of the file/);
    const keys = TINY.replace('Bone1 #Keyframes: 2', 'Bone1 #Keyframes: 9000000');
    expectLoadError(() => parseM3d(keys, 'keys.m3d'), /keyframe .* count 9000000 is larger/);
  });

  it('names the line and what was expected', () => {
    expectLoadError(() => parseM3d(TINY.replace('Position: 0 1 0', 'Position: 0 one 0'), 'bad.m3d'), /^bad\.m3d: line 29: expected vertex 1 position \(a finite number\), found 'one'/);
    expectLoadError(() => parseM3d(TINY.replace('BlendIndices: 0 1 0 0\n\nPosition: 1', 'BlendIndices: 0 7 0 0\n\nPosition: 1'), 'bad.m3d'), /line \d+: vertex 1 blend index 7 is out of range \[0, 1\]/);
    expectLoadError(() => parseM3d(TINY.replace('0 1 2\n', '0 1 3\n'), 'bad.m3d'), /triangle 0 index 3 is out of range/);
    expectLoadError(() => parseM3d(TINY.replace('ParentIndexOfBone1: 0', 'ParentIndexOfBone1: 1'), 'bad.m3d'), /line \d+: bone 1 is its own parent/);
    expectLoadError(() => parseM3d(TINY.replace('***************Triangles*********************', '***Faces***'), 'bad.m3d'), /expected the Triangles section header, found '\*\*\*Faces\*\*\*'/);
  });

  it('repairs what it can and says so: parents after children, a zero rotation, keys out of order', () => {
    const reordered = parseM3d(TINY.replace('ParentIndexOfBone0: -1\nParentIndexOfBone1: 0', 'ParentIndexOfBone0: 1\nParentIndexOfBone1: -1'), 'r.m3d');
    expect(reordered.skeleton.names).toEqual(['Bone1', 'Bone0']);
    expect(Array.from(reordered.skeleton.parents)).toEqual([-1, 0]);
    expect(reordered.warnings).toContain("1 node came before its parent (first: 'Bone0' before its parent 'Bone1'); the skeleton was reordered so parents come first");
    const zero = parseM3d(TINY.replace('Quat: 0 0 0 1\n\t\tTime: 1', 'Quat: 0 0 0 0\n\t\tTime: 1'), 'z.m3d');
    expect(zero.warnings).toContain("clip 'bend': 1 rotation key had zero length (first: node 'Bone0' key 0): the identity used");
    const unsorted = parseM3d(TINY.replace('Time: 2 Pos', 'Time: -1 Pos'), 'u.m3d');
    expect(unsorted.warnings).toContain("clip 'bend': 3 keys were out of order or at a repeated time: sorted, repeats dropped (the later kept)");
  });

  it('writes and reads back a hand-written file', () => {
    const s = parseM3d(TINY, 'tiny.m3d');
    // Bone1's 2 keys in each of its 3 channels (the rotation turns 90°), Bone0's constant channels once each.
    expect(expectSameScene(parseM3d(writeM3d(s), 'tiny.m3d'), s), 'keys compared').toBe(9);
  });
});

describe('the generated walker as a .m3d file', () => {
  it('round-trips through the writer and the loader with the same poses', async () => {
    const { generateHumanoid } = await import('../../src/gen/humanoid.ts');
    const scene = generateHumanoid();
    const back = parseM3d(writeM3d(scene), 'walker.m3d');
    expect(back.warnings).toEqual([]);
    expect(back.meshes[0]!.vertexCount).toBe(scene.meshes[0]!.vertexCount);
    expect(back.clips.map((c) => c.name)).toEqual(scene.clips.map((c) => c.name));
    back.clips.forEach((c, i) => expect(c.duration).toBeCloseTo(scene.clips[i]!.duration, 5));
    const a = new AnimPlayer(scene.skeleton, scene.clips);
    const b = new AnimPlayer(back.skeleton, back.clips);
    const pa = new Float32Array(scene.meshes[0]!.bones.length * 16);
    const pb = new Float32Array(pa.length);
    for (const [clip, t] of [[1, 0.4], [2, 1.3], [0, 2.5]] as const) {
      a.play(clip);
      b.play(clip);
      a.setTime(t);
      b.setTime(t);
      a.evaluate();
      b.evaluate();
      a.writePalette(scene.meshes[0]!, pa, 0);
      b.writePalette(back.meshes[0]!, pb, 0);
      for (let i = 0; i < pa.length; i++) expect(Math.abs(pa[i]! - pb[i]!)).toBeLessThan(2e-4);
    }
  });
});
