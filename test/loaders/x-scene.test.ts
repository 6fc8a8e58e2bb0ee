import { quat, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { AnimPlayer } from '../../src/anim/player.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import { xToScene } from '../../src/loaders/x/x-scene.ts';
import type { XChild, XFile, XObject, XReference } from '../../src/loaders/x/xnode.ts';
import { LoadError } from '../../src/model/errors.ts';
import { MAX_INFLUENCES, TRS_STRIDE, type Scene, type SkinnedMesh } from '../../src/model/types.ts';

// A tiny XFile builder: objects carry their numbers in template order, as read-x.ts produces them.
let line = 1;
function obj(template: string, name: string, numbers: readonly number[], children: readonly XChild[] = [], strings: readonly string[] = []): XObject {
  return { kind: 'object', template, name, numbers: Float64Array.from(numbers), strings, children, line: line++, offset: 0 };
}
const ref = (name: string): XReference => ({ kind: 'ref', name, line: line++, offset: 0 });
const xfile = (objects: readonly XObject[]): XFile => ({ format: 'x-text', version: '0303', floatBits: 32, objects, warnings: [] });
const load = (objects: readonly XObject[]): Scene => xToScene(xfile(objects), 'test.x');

/** D3D row-vector matrices as a .x file writes them (translation in the 4th row). */
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const translation = (x: number, y: number, z: number): number[] => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1];
/** Rotation by `a` about Z for row vectors: (1,0,0)·M = (cos a, sin a, 0). */
const rotationZ = (a: number): number[] => [Math.cos(a), Math.sin(a), 0, 0, -Math.sin(a), Math.cos(a), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const ftm = (m: readonly number[]): XObject => obj('FrameTransformMatrix', '', m);

/** Mesh numbers: nVertices, vertices, nFaces, faces (each with its corner count). */
function meshNumbers(vertices: readonly number[][], faces: readonly number[][]): number[] {
  return [vertices.length, ...vertices.flat(), faces.length, ...faces.flatMap((f) => [f.length, ...f])];
}
function normals(list: readonly number[][], faces: readonly number[][]): XObject {
  return obj('MeshNormals', '', meshNumbers(list, faces));
}
function skinWeights(bone: string, indices: readonly number[], weights: readonly number[], offset = IDENTITY): XObject {
  return obj('SkinWeights', '', [indices.length, ...indices, ...weights, ...offset], [], [bone]);
}
function expectLoadError(f: () => unknown, pattern: RegExp): LoadError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(LoadError);
    expect((e as Error).message).toMatch(/^test\.x: /);
    expect((e as Error).message).toMatch(pattern);
    return e as LoadError;
  }
  throw new Error('expected a LoadError');
}
/** Fraction of triangles whose CCW geometric normal agrees with their vertex normals. */
function outwardFraction(m: SkinnedMesh): number {
  let agree = 0;
  for (let t = 0; t < m.indices.length; t += 3) {
    const [a, b, c] = [m.indices[t]! * 3, m.indices[t + 1]! * 3, m.indices[t + 2]! * 3];
    const p = m.positions;
    const e1 = [p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!];
    const e2 = [p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!];
    const g = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
    let d = 0;
    for (const v of [a, b, c]) for (let k = 0; k < 3; k++) d += g[k]! * m.normals[v + k]!;
    if (d > 0) agree++;
  }
  return agree / (m.indices.length / 3);
}
function vertexAt(m: SkinnedMesh, x: number, y: number, z: number): number {
  for (let v = 0; v < m.vertexCount; v++) {
    if (Math.hypot(m.positions[v * 3]! - x, m.positions[v * 3 + 1]! - y, m.positions[v * 3 + 2]! - z) < 1e-6) return v;
  }
  throw new Error(`no vertex at ${x} ${y} ${z}`);
}
function skinnedAt(player: AnimPlayer, mesh: SkinnedMesh): Float32Array {
  player.evaluate();
  const palette = new Float32Array(mesh.bones.length * 16);
  player.writePalette(mesh, palette);
  const out = new Float32Array(mesh.vertexCount * 3);
  skinMesh(mesh, palette, out, null);
  return out;
}

// A unit quad in the z = 0 plane, clockwise seen from -Z (D3D front face), normal (0, 0, -1).
const QUAD_VERTS = [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]];
const QUAD_FACE = [[0, 1, 2, 3]];
const quadMesh = (name = 'quad', extra: readonly XChild[] = []): XObject =>
  obj('Mesh', name, meshNumbers(QUAD_VERTS, QUAD_FACE), [normals([[0, 0, -1]], [[0, 0, 0, 0]]), ...extra]);

describe('xToScene geometry', () => {
  it('fan-triangulates a quad, mirrors it into our frame and keeps its front side outward', () => {
    const s = load([obj('Frame', 'root', [], [ftm(IDENTITY), quadMesh()])]);
    const m = s.meshes[0]!;
    expect(m.vertexCount).toBe(4);
    expect(m.indices.length).toBe(6);
    // Mirrored: the D3D normal (0, 0, -1) becomes (0, 0, 1), and CCW triangles agree with it.
    expect(Array.from(m.normals.subarray(0, 3))).toEqual([0, 0, 1]);
    expect(outwardFraction(m)).toBe(1);
    expect(s.warnings.join('\n')).not.toMatch(/turned round/);
    expect(s.format).toBe('x-text');
    expect(s.floatBits).toBe(32);
    expect(s.name).toBe('test.x');
  });

  it('splits a position whose face corners carry different normals', () => {
    // Two triangles folded along the edge 0-2, flat-shaded: one normal per face.
    const verts = [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 1]];
    const faces = [[0, 1, 2], [0, 2, 3]];
    const s = load([
      obj('Mesh', 'fold', meshNumbers(verts, faces), [normals([[0, 0, -1], [0.5, -0.5, -0.7]], [[0, 0, 0], [1, 1, 1]])]),
    ]);
    const m = s.meshes[0]!;
    // Positions 0 and 2 appear with both normals: 4 positions → 6 vertices.
    expect(m.vertexCount).toBe(6);
    expect(m.indices.length).toBe(6);
  });

  it('shares one vertex between corners with the same position and normal', () => {
    const s = load([quadMesh()]);
    expect(s.meshes[0]!.vertexCount).toBe(4);
  });

  it('groups triangles into material subsets and resolves material references', () => {
    const red = obj('Material', 'red', [1, 0, 0, 1, 20, 0.5, 0.5, 0.5, 0, 0, 0], [obj('TextureFilename', '', [], [], ['red.png'])]);
    const verts = [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0], [2, 0, 0]];
    const faces = [[0, 1, 2], [0, 2, 3], [3, 2, 4]];
    const inlineBlue = obj('Material', '', [0, 0, 1, 0.5, 8, 0, 0, 0, 0.1, 0.2, 0.3]);
    const list = obj('MeshMaterialList', '', [2, 3, 1, 0, 1], [ref('red'), inlineBlue]);
    const s = load([red, obj('Mesh', 'm', meshNumbers(verts, faces), [list])]);
    const m = s.meshes[0]!;
    // Faces 0 and 2 use list slot 1 (the inline blue), face 1 slot 0 (red, converted first → scene material 0).
    expect(m.subsets).toEqual([
      { material: 0, start: 0, count: 1 },
      { material: 1, start: 1, count: 2 },
    ]);
    expect(s.materials[0]).toMatchObject({ name: 'red', diffuse: [1, 0, 0, 1], specularPower: 20, diffuseMap: 'red.png' });
    expect(s.materials[1]).toMatchObject({ diffuse: [0, 0, 1, 0.5], emissive: [0.1, 0.2, 0.3], diffuseMap: null });
    // The first triangle is face 1's (red's subset comes first).
    const firstTri = Array.from(m.indices.subarray(0, 3)).map((v) => m.positions[v * 3]!);
    expect(firstTri.sort()).toEqual([0, 1, 1]); // face 1: positions 0, 2, 3 → x = 0, 1, 1
  });

  it('repeats the last material index when the list is shorter than the faces (D3DX)', () => {
    const two = obj('Material', 'a', [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
    const b = obj('Material', 'b', [0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0]);
    const verts = [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]];
    const s = load([obj('Mesh', 'm', meshNumbers(verts, [[0, 1, 2], [0, 2, 3]]), [obj('MeshMaterialList', '', [2, 1, 1], [two, b])])]);
    expect(s.meshes[0]!.subsets).toEqual([{ material: 1, start: 0, count: 2 }]);
  });

  it('does not trust a material count the list does not hold', () => {
    const s = load([obj('Mesh', 'm', meshNumbers(QUAD_VERTS, QUAD_FACE), [obj('MeshMaterialList', '', [1e9, 1, 0])])]);
    expect(s.meshes[0]!.subsets).toEqual([{ material: 0, start: 0, count: 2 }]);
    expect(s.warnings.join('\n')).toMatch(/declares 1000000000 materials but holds 0/);
  });

  it('reports unknown templates once per template name', () => {
    const s = load([obj('Foo', '', []), obj('Foo', '', []), obj('Frame', 'f', [], [obj('Foo', '', []), quadMesh()])]);
    expect(s.warnings).toContain('skipped 3 objects of template Foo (not used by skinlab)');
  });

  it('hangs top-level meshes under a created root node', () => {
    const s = load([quadMesh('a'), quadMesh('b')]);
    expect(s.skeleton.names).toEqual(['root']);
    expect(s.meshes.map((m) => m.name)).toEqual(['a', 'b']);
  });

  it('reads DeclData tangents as float bit patterns', () => {
    const f32 = new Float32Array(1);
    const u32 = new Uint32Array(f32.buffer);
    const dword = (x: number): number => ((f32[0] = x), u32[0]!);
    const tangent = [dword(1), dword(0), dword(0)];
    const decl = obj('DeclData', '', [1, 2, 0, 6, 0, 12, ...tangent, ...tangent, ...tangent, ...tangent]);
    const s = load([quadMesh('q', [decl])]);
    const t = s.meshes[0]!.tangents!;
    expect(Array.from(t.subarray(0, 3))).toEqual([1, 0, 0]);
    expect(Math.abs(t[3]!)).toBe(1);
  });
  it('reads texture coordinates and normals from FVFData, and ignores one of the wrong size with a warning', () => {
    const f32 = new Float32Array(1);
    const u32 = new Uint32Array(f32.buffer);
    const dword = (x: number): number => ((f32[0] = x), u32[0]!);
    // D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1: per vertex a normal (3 DWORDs) then u, v.
    const fvf = 0x002 | 0x010 | 0x100;
    const data = [0, 1, 2, 3].flatMap((v) => [dword(0), dword(0), dword(-1), dword(v * 0.25), dword(1 - v * 0.25)]);
    const bare = (children: XChild[]): XObject => obj('Mesh', 'q', meshNumbers(QUAD_VERTS, QUAD_FACE), children);
    const s = load([bare([obj('FVFData', '', [fvf, data.length, ...data])])]);
    const m = s.meshes[0]!;
    expect(s.warnings.join()).not.toMatch(/no normals|FVFData/);
    expect(Array.from(m.normals.subarray(0, 3))).toEqual([0, 0, 1]);
    const uv = Array.from(m.uvs!).map((x) => Math.round(x * 100) / 100);
    expect(uv.slice().sort()).toEqual([0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1]);
    // One DWORD short: not the layout its FVF code describes.
    const t = load([bare([obj('FVFData', '', [fvf, data.length - 1, ...data.slice(1)])])]);
    expect(t.warnings.join()).toMatch(/FVFData 0x112 holds 19 DWORDs, not 5 per vertex for 4 vertices; ignored/);
    expect(t.meshes[0]!.uvs).toBeNull();
  });
});

describe('xToScene frames and animation', () => {
  it('reads a rotation key as the conjugate of the stored w, x, y, z', () => {
    const a = 0.7;
    // Stored (w, x, y, z) = (cos a/2, 0, 0, -sin a/2): its conjugate is the frame's rotation by a about Z.
    const key = obj('AnimationKey', '', [0, 1, 0, 4, Math.cos(a / 2), 0, 0, -Math.sin(a / 2)]);
    const s = load([
      obj('Frame', 'spin', [], [ftm(rotationZ(a)), quadMesh()]),
      obj('AnimationSet', 'turn', [], [obj('Animation', '', [], [ref('spin'), key])]),
    ]);
    const r = s.clips[0]!.tracks[0]!.rotation!.values;
    const rest = s.skeleton.restLocal.subarray(3, 7);
    expect(Math.abs(quat.dot(r as unknown as quat, rest as unknown as quat))).toBeCloseTo(1, 6);
    // (1, 0, 0)·M = (cos a, sin a, 0) in D3D; mirrored Z leaves it as is.
    const p = vec3.transformQuat(vec3.create(), [1, 0, 0], r as unknown as quat);
    expect(p[0]).toBeCloseTo(Math.cos(a), 6);
    expect(p[1]).toBeCloseTo(Math.sin(a), 6);
  });

  it('decomposes matrix keys and mirrors their translation', () => {
    const key = obj('AnimationKey', '', [4, 2, 0, 16, ...translation(1, 2, 3), 4800, 16, ...translation(4, 5, 6)]);
    const s = load([obj('Frame', 'f', [], [quadMesh()]), obj('AnimationSet', '', [], [obj('Animation', '', [], [key, ref('f')])])]);
    const c = s.clips[0]!;
    expect(c.name).toBe('Anim-1');
    const t = c.tracks[0]!.translation!;
    expect(Array.from(t.times)).toEqual([0, 1]);
    expect(Array.from(t.values)).toEqual([1, 2, -3, 4, 5, -6]);
    expect(c.tracks[0]!.rotation!.values.length).toBe(8);
    expect(Array.from(c.tracks[0]!.scale!.values)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('converts ticks to seconds with AnimTicksPerSecond, and with 4800 without it', () => {
    const anim = (): XObject => obj('Animation', '', [], [ref('f'), obj('AnimationKey', '', [2, 2, 0, 3, 0, 0, 0, 60, 3, 1, 0, 0])]);
    const withRate = load([obj('AnimTicksPerSecond', '', [30]), obj('Frame', 'f', [], [quadMesh()]), obj('AnimationSet', 'a', [], [anim()])]);
    expect(withRate.clips[0]!.duration).toBe(2);
    expect(withRate.clips[0]!.ticksPerSecond).toBe(30);
    const without = load([obj('Frame', 'f', [], [quadMesh()]), obj('AnimationSet', 'a', [], [anim()])]);
    expect(without.clips[0]!.duration).toBeCloseTo(60 / 4800, 9);
    expect(without.clips[0]!.ticksPerSecond).toBe(4800);
  });

  it('gives each set the latest AnimTicksPerSecond before it', () => {
    const anim = (): XObject => obj('Animation', '', [], [ref('f'), obj('AnimationKey', '', [2, 1, 120, 3, 0, 0, 0])]);
    const s = load([
      obj('Frame', 'f', [], [quadMesh()]),
      obj('AnimTicksPerSecond', '', [60]),
      obj('AnimationSet', 'a', [], [anim()]),
      obj('AnimTicksPerSecond', '', [120]),
      obj('AnimationSet', 'b', [], [anim()]),
    ]);
    expect(s.clips.map((c) => c.duration)).toEqual([2, 1]);
  });

  it('sorts keys and drops repeated times with a warning', () => {
    const key = obj('AnimationKey', '', [2, 3, 10, 3, 1, 0, 0, 0, 3, 0, 0, 0, 10, 3, 2, 0, 0]);
    const s = load([obj('AnimTicksPerSecond', '', [10]), obj('Frame', 'f', [], [quadMesh()]), obj('AnimationSet', 'a', [], [obj('Animation', '', [], [ref('f'), key])])]);
    const t = s.clips[0]!.tracks[0]!.translation!;
    expect(Array.from(t.times)).toEqual([0, 1]);
    expect(t.values[3]).toBe(2);
    expect(s.warnings.join('\n')).toMatch(/out of order or at a repeated time/);
  });

  it('skips a track for a missing frame with a warning', () => {
    const s = load([
      obj('Frame', 'f', [], [quadMesh()]),
      obj('AnimationSet', 'a', [], [obj('Animation', '', [], [ref('nobody'), obj('AnimationKey', '', [2, 1, 0, 3, 0, 0, 0])])]),
    ]);
    expect(s.clips[0]!.tracks.length).toBe(0);
    expect(s.warnings.join('\n')).toMatch(/'nobody'/);
  });

  it('moves a rigid mesh with its animated frame', () => {
    const key = obj('AnimationKey', '', [2, 2, 0, 3, 1, 0, 2, 4800, 3, 1, 5, 2]);
    const s = load([
      obj('Frame', 'body', [], [
        ftm(IDENTITY),
        obj('Frame', 'arm', [], [ftm(translation(1, 0, 2)), quadMesh('hand')]),
      ]),
      obj('AnimationSet', 'wave', [], [obj('Animation', '', [], [ref('arm'), key])]),
    ]);
    const m = s.meshes[0]!;
    expect(m.skinned).toBe(false);
    expect(s.skeleton.names[m.bones[0]!]).toBe('arm');
    // Stored in model space: the quad's corner (0, 0, 0) sits at the frame's origin, mirrored (1, 0, -2).
    const v = vertexAt(m, 1, 0, -2);
    const player = new AnimPlayer(s.skeleton, s.clips);
    player.setTime(0);
    let out = skinnedAt(player, m);
    expect(Array.from(out.subarray(v * 3, v * 3 + 3))).toEqual([1, 0, -2]);
    player.setTime(1);
    out = skinnedAt(player, m);
    expect(out[v * 3]).toBeCloseTo(1, 6);
    expect(out[v * 3 + 1]).toBeCloseTo(5, 6);
    expect(out[v * 3 + 2]).toBeCloseTo(-2, 6);
  });

  it('gives unnamed frames unique generated names', () => {
    const s = load([obj('Frame', '', [], [obj('Frame', 'Frame', []), obj('Frame', '', []), quadMesh()])]);
    expect(new Set(s.skeleton.names).size).toBe(3);
    expect(s.skeleton.names[1]).toBe('Frame');
  });
});

describe('xToScene skinning', () => {
  const skinnedQuad = (skins: readonly XObject[]): XObject[] => [
    obj('Frame', 'root', [], [ftm(IDENTITY), obj('Frame', 'b0', []), obj('Frame', 'b1', []), obj('Frame', 'b2', []), obj('Frame', 'b3', []), obj('Frame', 'b4', []), obj('Frame', 'b5', []), quadMesh('skin', skins)]),
  ];

  it('keeps the 4 largest of more than 4 influences, renormalised, and says how many vertices', () => {
    const w = [0.3, 0.25, 0.2, 0.15, 0.06, 0.04];
    const skins = w.map((x, k) => skinWeights(`b${k}`, [0, 1, 2, 3], [x, x, x, x]));
    const s = load(skinnedQuad(skins));
    const m = s.meshes[0]!;
    expect(m.maxInfluences).toBe(4);
    expect(Array.from(m.weights.subarray(0, 4)).map((x) => +x.toFixed(5))).toEqual([0.3, 0.25, 0.2, 0.15].map((x) => +(x / 0.9).toFixed(5)));
    expect(Array.from(m.joints.subarray(0, 4))).toEqual([0, 1, 2, 3]);
    expect(s.warnings.join('\n')).toMatch(/4 vertices had more than 4 bone influences/);
    expect(s.warnings.join('\n')).not.toMatch(/not summing to 1/);
  });

  it('rejects an out-of-range skin vertex index, naming the bone and the index', () => {
    const e = expectLoadError(() => load(skinnedQuad([skinWeights('b1', [0, 7], [0.5, 0.5])])), /bone 'b1'.*vertex index 7/);
    expect(e.line).toBeGreaterThan(0);
  });

  it('refuses a count larger than the data before allocating', () => {
    const numbers = [1e9, ...new Array<number>(29).fill(0)];
    expectLoadError(() => load([obj('Mesh', 'huge', numbers)]), /claims 1000000000 vertices/);
    expectLoadError(() => load([obj('Mesh', 'm', [3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 5e8, 3, 0, 1, 2])]), /claims 500000000 faces/);
  });

  it('refuses a face corner beyond the vertex count', () => {
    expectLoadError(() => load([obj('Mesh', 'm', meshNumbers(QUAD_VERTS, [[0, 1, 9]]))]), /corner 2 is 9, outside 0\.\.3/);
  });

  it('fails clearly on a file without a mesh', () => {
    expectLoadError(() => load([obj('Header', '', [1, 0, 1])]), /no Mesh.*Header/);
  });

  it('creates a static node for a bone without a frame and keeps its vertices in the bind pose', () => {
    const offset = translation(-3, 0, 0);
    const s = load(skinnedQuad([skinWeights('ghost', [0, 1, 2, 3], [1, 1, 1, 1], offset)]));
    const ghost = s.skeleton.names.indexOf('ghost');
    expect(ghost).toBeGreaterThan(0);
    expect(s.skeleton.parents[ghost]).toBe(-1);
    expect(s.warnings.join('\n')).toMatch(/'ghost', which has no Frame/);
    const m = s.meshes[0]!;
    const out = skinnedAt(new AnimPlayer(s.skeleton, s.clips), m);
    for (let i = 0; i < out.length; i++) expect(out[i]).toBeCloseTo(m.positions[i]!, 6);
    // Rest of the static node is the inverse offset, mirrored: translation (3, 0, 0).
    const t = s.skeleton.restLocal.subarray(ghost * TRS_STRIDE, ghost * TRS_STRIDE + 3);
    expect([t[0], t[1], t[2]].map((x) => x! + 0)).toEqual([3, 0, 0]);
  });

  it('keeps vertices without any weight where the file puts them, with a count', () => {
    const s = load(skinnedQuad([skinWeights('b0', [0, 1], [1, 1], translation(0, -1, 0))]));
    const m = s.meshes[0]!;
    expect(s.warnings.join('\n')).toMatch(/2 vertices have no skin weight/);
    for (let v = 0; v < m.vertexCount; v++) expect(m.weights[v * MAX_INFLUENCES]).toBe(1);
    const out = skinnedAt(new AnimPlayer(s.skeleton, s.clips), m);
    for (let v = 0; v < m.vertexCount; v++) {
      const moved = m.bones[m.joints[v * MAX_INFLUENCES]!] === s.skeleton.names.indexOf('b0');
      // b0's offset moves its vertices down by 1 at rest; the unweighted ones stay.
      expect(out[v * 3 + 1]).toBeCloseTo(m.positions[v * 3 + 1]! - (moved ? 1 : 0), 6);
    }
  });

  it('does not apply the mesh frame to a skinned mesh', () => {
    const s = load([
      obj('Frame', 'holder', [], [ftm(translation(10, 0, 0)), quadMesh('skin', [skinWeights('bone', [0, 1, 2, 3], [1, 1, 1, 1])])]),
      obj('Frame', 'bone', [], [ftm(IDENTITY)]),
    ]);
    const m = s.meshes[0]!;
    expect(m.skinned).toBe(true);
    expect(Math.max(...Array.from(m.positions).filter((_, i) => i % 3 === 0))).toBe(1);
    const out = skinnedAt(new AnimPlayer(s.skeleton, s.clips), m);
    expect(Math.max(...Array.from(out).filter((_, i) => i % 3 === 0))).toBeCloseTo(1, 6);
  });
});
