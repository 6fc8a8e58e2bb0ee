import { describe, expect, it } from 'vitest';
import { mat4 } from 'gl-matrix';
import { localToModel } from '../../src/anim/local-to-model.ts';
import { restFromInvBind, validateScene } from '../../src/model/build.ts';
import { MAX_INFLUENCES, TRS_STRIDE, type Clip, type MorphDeltas, type MorphTrack, type Scene, type SkinnedMesh, type Track } from '../../src/model/types.ts';
import { loadErrorOf, morphScene, restTRS, tinyScene, translation } from './fixtures.ts';

/**
 * validateScene's semantic checks on small hand-built scenes: what is refused (LoadError naming the part),
 * what is repaired (and the one counted warning a user sees), and that repairs keep the model's meaning.
 */

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function withMesh(scene: Scene, edit: (m: Mutable<SkinnedMesh>) => void): Scene {
  edit(scene.meshes[0] as Mutable<SkinnedMesh>);
  return scene;
}

/** Node positions in model space, by name. */
function modelPositions(scene: Scene): Record<string, number[]> {
  const { parents, restLocal, names } = scene.skeleton;
  const model = new Float32Array(parents.length * 16);
  localToModel(parents, restLocal, model);
  return Object.fromEntries(names.map((n, i) => [n, Array.from(model.subarray(i * 16 + 12, i * 16 + 15))]));
}

describe('validateScene: a valid scene', () => {
  it('passes unchanged, without warnings, and again when validated twice', () => {
    const scene = tinyScene();
    const before = JSON.stringify(scene, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v as Float32Array) : v));
    validateScene(scene);
    validateScene(scene);
    expect(scene.warnings).toEqual([]);
    expect(JSON.stringify(scene, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v as Float32Array) : v))).toBe(before);
  });
});

describe('validateScene: hierarchy', () => {
  it('refuses a parent index out of range, naming the node', () => {
    const scene = tinyScene();
    scene.skeleton.parents[2] = 7;
    loadErrorOf(() => validateScene(scene), /^tiny\.test: node 'hand' has parent 7, but the skeleton has 3 nodes/);
    scene.skeleton.parents[2] = -3;
    loadErrorOf(() => validateScene(scene), /node 'hand' has parent -3/);
  });

  it('refuses a node that is its own parent', () => {
    const scene = tinyScene();
    scene.skeleton.parents[1] = 1;
    loadErrorOf(() => validateScene(scene), /^tiny\.test: node 'arm' is its own parent$/);
  });

  it('refuses a cycle, naming its nodes in parent order', () => {
    const scene = tinyScene();
    scene.skeleton.parents[0] = 2; // root → hand → arm → root
    loadErrorOf(() => validateScene(scene), /has a cycle: 'root' → 'hand' → 'arm' → 'root' \(each arrow points to the parent\)/);
  });

  it('reorders parents after children, remapping skeleton, palette and tracks, with a warning', () => {
    // File order: hand, arm, root (every node before its parent).
    const scene = tinyScene();
    const mesh = scene.meshes[0] as Mutable<SkinnedMesh>;
    const sk = scene.skeleton as Mutable<Scene['skeleton']>;
    sk.names = ['hand', 'arm', 'root'];
    sk.parents = Int16Array.from([1, 2, -1]);
    sk.restLocal = restTRS([[0, 1, 0], [0, 1, 0], [0, 0, 0]]);
    mesh.bones = Int16Array.from([2, 1, 0]); // palette slots still root, arm, hand
    const clip = scene.clips[0] as Mutable<Clip>;
    (clip.tracks[0] as Mutable<Track>).node = 1; // arm
    (clip.tracks[1] as Mutable<Track>).node = 0; // hand
    validateScene(scene);
    expect(scene.skeleton.names).toEqual(['root', 'arm', 'hand']);
    expect(Array.from(scene.skeleton.parents)).toEqual([-1, 0, 1]);
    expect(modelPositions(scene)).toEqual({ root: [0, 0, 0], arm: [0, 1, 0], hand: [0, 2, 0] });
    expect(Array.from(mesh.bones)).toEqual([0, 1, 2]);
    expect(clip.tracks.map((t) => scene.skeleton.names[t.node])).toEqual(['arm', 'hand']);
    expect(clip.tracks[0]!.rotation).not.toBeNull();
    expect(scene.warnings).toEqual([
      "2 nodes came before their parents (first: 'hand' before its parent 'arm'); the skeleton was reordered so parents come first",
    ]);
  });

  it('keeps the file order where it can: only the ancestors a node needs move in front of it', () => {
    const scene = tinyScene();
    const sk = scene.skeleton as Mutable<Scene['skeleton']>;
    sk.names = ['a', 'b', 'r', 'c'];
    sk.parents = Int16Array.from([-1, 2, -1, 0]); // b's parent r comes after it
    sk.restLocal = restTRS([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]]);
    (scene.meshes[0] as Mutable<SkinnedMesh>).bones = Int16Array.from([0, 1, 3]);
    validateScene(scene);
    expect(scene.skeleton.names).toEqual(['a', 'r', 'b', 'c']);
    expect(Array.from(scene.skeleton.parents)).toEqual([-1, -1, 1, 0]);
    expect(Array.from(scene.meshes[0]!.bones)).toEqual([0, 2, 3]);
    expect(scene.warnings[0]).toMatch(/^1 node came before its parent \(first: 'b' before its parent 'r'\)/);
  });

  it('restFromInvBind (.m3d rest pose) works in any node order, so a reordered .m3d skeleton keeps its pose', () => {
    // Bone 0 is the child of bone 1; bind model: bone 1 at (0, 1, 0), bone 0 at (0, 3, 0).
    const parents = Int16Array.from([1, -1]);
    const invBind = Float32Array.from([...translation(0, -3, 0), ...translation(0, -1, 0)]);
    const rest = restFromInvBind(parents, invBind);
    const plain = (a: Float32Array): number[] => Array.from(a, (x) => x + 0);
    expect(plain(rest.subarray(0, 3))).toEqual([0, 2, 0]);
    expect(plain(rest.subarray(TRS_STRIDE, TRS_STRIDE + 3))).toEqual([0, 1, 0]);
  });

  it('an .m3d-style skeleton listed children first: rest from offsets, reordered, reproduces the bind pose', () => {
    // Bones as a file lists them: 0 = hand (parent 2), 1 = root, 2 = arm (parent 1); offsets = inverse binds.
    const scene = tinyScene();
    const parents = Int16Array.from([2, -1, 1]);
    const invBind = Float32Array.from([...translation(0, -2, 0), ...translation(0, 0, 0), ...translation(0, -1, 0)]);
    const sk = scene.skeleton as Mutable<Scene['skeleton']>;
    sk.names = ['Bone0', 'Bone1', 'Bone2'];
    sk.parents = parents;
    sk.restLocal = restFromInvBind(parents, invBind);
    const mesh = scene.meshes[0] as Mutable<SkinnedMesh>;
    mesh.bones = Int16Array.from([0, 1, 2]);
    mesh.invBind = invBind;
    validateScene(scene);
    expect(scene.skeleton.names).toEqual(['Bone1', 'Bone2', 'Bone0']);
    const model = new Float32Array(3 * 16);
    localToModel(scene.skeleton.parents, scene.skeleton.restLocal, model);
    for (let k = 0; k < 3; k++) {
      const b = mesh.bones[k]!;
      const p = mat4.multiply(mat4.create(), model.subarray(b * 16, b * 16 + 16) as unknown as mat4, mesh.invBind.subarray(k * 16, k * 16 + 16) as unknown as mat4);
      expect(Array.from(p, (x) => Math.round(x * 1e6) / 1e6 + 0)).toEqual(Array.from(mat4.create()));
    }
  });

  it('warns about a skin bone cut off from the skeleton that no clip moves', () => {
    const scene = tinyScene();
    scene.skeleton.parents[2] = -1; // 'hand' becomes a root of its own
    (scene.clips[0] as Mutable<Clip>).tracks = [scene.clips[0]!.tracks[0]!]; // and no track moves it
    validateScene(scene);
    expect(scene.warnings).toEqual([
      "mesh 'Body': 1 bone ('hand') is not connected to the skeleton under 'root' that its other bones hang under, and no clip moves it: vertices weighted to it stay in the bind pose",
    ]);
  });

  it('leaves such a bone to a loader warning that already names it, and stays quiet when a clip moves it', () => {
    const named = tinyScene();
    named.skeleton.parents[2] = -1;
    (named.clips[0] as Mutable<Clip>).tracks = [named.clips[0]!.tracks[0]!];
    (named.warnings as string[]).push("SkinWeights in mesh 'Body' names bone 'hand', which has no Frame; its vertices stay in the bind pose");
    validateScene(named);
    expect(named.warnings).toHaveLength(1);
    const animated = tinyScene();
    animated.skeleton.parents[2] = -1;
    validateScene(animated);
    expect(animated.warnings).toEqual([]);
  });
});

describe('validateScene: rest pose', () => {
  it('refuses NaN, naming the node and the channel', () => {
    const scene = tinyScene();
    scene.skeleton.restLocal[TRS_STRIDE + 8] = Infinity;
    loadErrorOf(() => validateScene(scene), /^tiny\.test: the rest pose of node 'arm' has a NaN or infinite scale$/);
  });

  it('replaces zero-length rotations with the identity and normalises the others, with one counted warning', () => {
    const scene = tinyScene();
    scene.skeleton.restLocal.set([0, 0, 0, 0], TRS_STRIDE + 3);
    scene.skeleton.restLocal.set([0, 0, 0, 0], 2 * TRS_STRIDE + 3);
    scene.skeleton.restLocal.set([0, 0, 0, 2], 3);
    validateScene(scene);
    for (let i = 0; i < 3; i++) expect(Array.from(scene.skeleton.restLocal.subarray(i * TRS_STRIDE + 3, i * TRS_STRIDE + 7))).toEqual([0, 0, 0, 1]);
    expect(scene.warnings).toEqual(["rest pose: 2 nodes had a zero-length rotation (first 'arm'): the identity used; 1 rotation was not unit length (first 'root'): normalised"]);
  });
});

describe('validateScene: vertices', () => {
  it.each([
    ['positions', 3, /^tiny\.test: mesh 'Body': vertex 1 has a NaN or infinite position \(and 1 other\)$/],
  ] as const)('refuses NaN or infinite %s, naming the first vertex and counting the others', (key, stride, pattern) => {
    const scene = tinyScene();
    const a = scene.meshes[0]![key] as Float32Array;
    a[stride + 1] = NaN;
    a[3 * stride] = -Infinity;
    loadErrorOf(() => validateScene(scene), pattern);
  });

  it.each([
    ['uvs', [0, 0], "mesh 'Body': vertex 1 has a NaN or infinite texture coordinate: (0, 0) used (and 1 other)"],
    ['tangents', [1, 0, 0, 1], "mesh 'Body': vertex 1 has a NaN or infinite tangent: the default (1, 0, 0) used (and 1 other)"],
  ] as const)('replaces NaN or infinite %s with a default, with one counted warning', (key, fill, warning) => {
    const scene = tinyScene();
    const a = scene.meshes[0]![key] as Float32Array;
    const stride = fill.length;
    a[stride + 1] = NaN;
    a[3 * stride] = -Infinity;
    validateScene(scene);
    expect(Array.from(a.subarray(stride, 2 * stride))).toEqual(fill);
    expect(Array.from(a.subarray(3 * stride, 4 * stride))).toEqual(fill);
    expect(scene.warnings).toEqual([warning]);
  });

  it('skips the value scans of arrays its caller has checked already, and only those', () => {
    // A loader that scanned positions and offset matrices itself hands them over; the other arrays are still read.
    const vouched = withMesh(tinyScene(), (m) => {
      m.positions[4] = NaN;
      m.invBind[13] = NaN;
    });
    const m = vouched.meshes[0]!;
    validateScene(vouched, new Set([m.positions, m.invBind]));
    expect(vouched.warnings).toEqual([]);
    const other = withMesh(tinyScene(), (mesh) => (mesh.positions[4] = NaN));
    loadErrorOf(() => validateScene(other, new Set([other.meshes[0]!.invBind])), /vertex 1 has a NaN or infinite position/);
  });

  it('refuses a NaN offset matrix, naming the bone', () => {
    const scene = withMesh(tinyScene(), (m) => (m.invBind[2 * 16 + 13] = NaN));
    loadErrorOf(() => validateScene(scene), /^tiny\.test: mesh 'Body': the offset matrix of bone 'hand' \(palette slot 2\) has NaN or infinite values$/);
  });

  it('recomputes NaN and zero normals from the triangles around the vertex, with one counted warning', () => {
    const scene = withMesh(tinyScene(), (m) => {
      m.normals.set([NaN, 0, 1], 3);
      m.normals.set([0, 0, 0], 6);
    });
    validateScene(scene);
    expect(Array.from(scene.meshes[0]!.normals)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
    expect(scene.warnings).toEqual(["mesh 'Body': vertex 1 has a NaN, infinite or zero normal: recomputed from its triangles (and 1 other)"]);
  });
});

describe('validateScene: weights', () => {
  const W = MAX_INFLUENCES;

  it('renormalises sums off 1, naming the first vertex and its sum, counting the others', () => {
    const scene = withMesh(tinyScene(), (m) => {
      m.weights.set([0.31, 0.31], 2 * W);
      m.weights[0] = 2;
      m.weights[W] = 0.5;
    });
    validateScene(scene);
    expect(Array.from(scene.meshes[0]!.weights.subarray(2 * W, 3 * W))).toEqual([0.5, 0.5, 0, 0]);
    expect(scene.meshes[0]!.weights[0]).toBe(1);
    expect(scene.warnings).toEqual(["mesh 'Body': vertex 0 has blend weights summing to 2: renormalised (and 2 others)"]);
  });

  it('drops negative weights and renormalises the rest', () => {
    const scene = withMesh(tinyScene(), (m) => {
      m.joints.set([1, 2, 0, 0], 2 * W);
      m.weights.set([-0.25, 0.5, 0, 0], 2 * W);
    });
    validateScene(scene);
    const m = scene.meshes[0]!;
    expect(Array.from(m.joints.subarray(2 * W, 3 * W))).toEqual([2, 0, 0, 0]);
    expect(Array.from(m.weights.subarray(2 * W, 3 * W))).toEqual([1, 0, 0, 0]);
    expect(scene.warnings).toEqual(["mesh 'Body': vertex 2 has a negative blend weight (-0.25): dropped, the others renormalised"]);
  });

  it('binds a vertex without any positive weight rigidly to its first listed bone', () => {
    const scene = withMesh(tinyScene(), (m) => {
      m.weights.set([0, 0, 0, 0], W); // vertex 1 lists 'arm' first
      m.joints.set([7, 0, 0, 0], 3 * W); // vertex 3 lists an unusable index: the palette's first bone
      m.weights.set([0, 0, 0, 0], 3 * W);
    });
    validateScene(scene);
    const m = scene.meshes[0]!;
    expect(Array.from(m.joints.subarray(W, 2 * W))).toEqual([1, 0, 0, 0]);
    expect(Array.from(m.weights.subarray(W, 2 * W))).toEqual([1, 0, 0, 0]);
    expect(Array.from(m.joints.subarray(3 * W, 4 * W))).toEqual([0, 0, 0, 0]);
    expect(Array.from(m.weights.subarray(3 * W, 4 * W))).toEqual([1, 0, 0, 0]);
    expect(scene.warnings).toEqual(["mesh 'Body': vertex 1 has no positive blend weight: bound rigidly to bone 'arm' (and 1 other, each to its first listed bone)"]);
  });

  it('refuses NaN weights and weighted bone indices outside the palette', () => {
    const nan = withMesh(tinyScene(), (m) => (m.weights[W + 1] = NaN));
    loadErrorOf(() => validateScene(nan), /^tiny\.test: mesh 'Body': vertex 1 has a NaN or infinite blend weight$/);
    const oob = withMesh(tinyScene(), (m) => (m.joints[2 * W + 1] = 3));
    loadErrorOf(() => validateScene(oob), /^tiny\.test: mesh 'Body': vertex 2 uses bone 3, but the mesh has 3$/);
  });

  it('silently sorts unsorted slots, tidies unused indices and corrects maxInfluences', () => {
    const scene = withMesh(tinyScene(), (m) => {
      m.joints.set([2, 1, 0, 9], 2 * W);
      m.weights.set([0.25, 0.75, 0, 0], 2 * W);
      m.maxInfluences = 4;
    });
    validateScene(scene);
    const m = scene.meshes[0]!;
    expect(Array.from(m.joints.subarray(2 * W, 3 * W))).toEqual([1, 2, 0, 0]);
    expect(Array.from(m.weights.subarray(2 * W, 3 * W))).toEqual([0.75, 0.25, 0, 0]);
    expect(m.maxInfluences).toBe(2);
    expect(scene.warnings).toEqual([]);
  });
});

describe('validateScene: clip keys', () => {
  function trackOf(scene: Scene, i: number): Mutable<Track> {
    return scene.clips[0]!.tracks[i] as Mutable<Track>;
  }

  it('refuses NaN or infinite key times and values, naming clip, node, channel and key', () => {
    const time = tinyScene();
    trackOf(time, 1).translation!.times[2] = NaN;
    loadErrorOf(() => validateScene(time), /^tiny\.test: clip 'Wave': node 'hand': translation key 2 has time NaN$/);
    const value = tinyScene();
    trackOf(value, 0).rotation!.values[5] = Infinity;
    loadErrorOf(() => validateScene(value), /^tiny\.test: clip 'Wave': node 'arm': rotation key 1 has a NaN or infinite value$/);
    const count = tinyScene();
    trackOf(count, 1).translation = { times: new Float32Array([0, 1]), values: new Float32Array(9) };
    loadErrorOf(() => validateScene(count), /node 'hand': translation has 2 key times but 9 values \(3 per key\)/);
  });

  it('replaces zero-length rotation keys with the identity, normalises the rest, and counts them', () => {
    const scene = tinyScene();
    trackOf(scene, 0).rotation!.values.set([0, 0, 0, 0, 0, 0, 2, 2]);
    validateScene(scene);
    const v = Array.from(scene.clips[0]!.tracks[0]!.rotation!.values);
    expect(v.slice(0, 4)).toEqual([0, 0, 0, 1]);
    expect(v[6]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(scene.warnings).toEqual([
      "clip 'Wave': 1 rotation key had zero length (first: node 'arm' key 0): the identity used; 1 rotation key was not unit length (first: node 'arm' key 1): normalised",
    ]);
  });

  it('sorts keys out of order (stable), drops repeated times keeping the later key, and warns once with a count', () => {
    const scene = tinyScene();
    const shared = new Float32Array([1, 0, 0.5, 0.5]);
    trackOf(scene, 1).translation = { times: shared, values: new Float32Array([1, 0, 0, 0, 0, 0, 2, 0, 0, 3, 0, 0]) };
    trackOf(scene, 1).scale = { times: shared, values: new Float32Array([4, 4, 4, 1, 1, 1, 2, 2, 2, 3, 3, 3]) };
    validateScene(scene);
    const t = scene.clips[0]!.tracks[1]!;
    expect(Array.from(t.translation!.times)).toEqual([0, 0.5, 1]);
    expect(Array.from(t.translation!.values)).toEqual([0, 0, 0, 3, 0, 0, 1, 0, 0]);
    expect(Array.from(t.scale!.times)).toEqual([0, 0.5, 1]);
    expect(Array.from(t.scale!.values)).toEqual([1, 1, 1, 3, 3, 3, 4, 4, 4]);
    // Per channel: one key dropped (0.5 s, the earlier), one key (1 s) no longer in its file order.
    expect(scene.warnings).toEqual(["clip 'Wave': 4 keys were out of order or at a repeated time: sorted, repeats dropped (the later kept)"]);
  });

  it('shifts a clip whose keys start before 0 (node and morph tracks together), and keeps its length', () => {
    const scene = morphScene();
    const clip = scene.clips[0] as Mutable<Clip>;
    (clip.tracks[0] as Mutable<Track>).rotation!.times.set([-0.5, 0.5]);
    clip.duration = 1;
    validateScene(scene);
    expect(Array.from(clip.tracks[0]!.rotation!.times)).toEqual([0, 1]);
    expect(Array.from(clip.tracks[1]!.translation!.times)).toEqual([0.5, 1, 1.5]);
    expect(Array.from(clip.morphTracks![0]!.times)).toEqual([0.5, 1.5]);
    expect(clip.duration).toBe(1.5);
    expect(scene.warnings).toEqual(["clip 'Wave': keys start at -0.5 s: every key shifted by 0.5 s to start at 0"]);
  });

  it('extends a duration shorter than the keys, and replaces one that is not a length', () => {
    const short = tinyScene();
    (short.clips[0] as Mutable<Clip>).duration = 0.25;
    validateScene(short);
    expect(short.clips[0]!.duration).toBe(1);
    expect(short.warnings).toEqual(["clip 'Wave': keys run to 1 s, past its duration of 0.25 s: duration extended"]);
    const nan = tinyScene();
    (nan.clips[0] as Mutable<Clip>).duration = NaN;
    validateScene(nan);
    expect(nan.clips[0]!.duration).toBe(1);
    expect(nan.warnings).toEqual(["clip 'Wave': duration NaN is not a length: set to 1 s, its last key"]);
  });

  it('keeps zero-length, keyless and single-key clips as static poses, with a warning each', () => {
    const scene = tinyScene();
    const clip = scene.clips[0] as Mutable<Clip>;
    clip.tracks = [{ node: 1, translation: null, rotation: { times: new Float32Array([0]), values: new Float32Array([0, 0, 1, 0]) }, scale: null }];
    clip.duration = 0;
    const empty: Clip = { name: 'Nothing', duration: 0, ticksPerSecond: 0, tracks: [] };
    const hold: Clip = { name: 'Hold', duration: 2, ticksPerSecond: 0, tracks: [{ node: 2, translation: { times: new Float32Array([0.5]), values: new Float32Array([0, 1, 0]) }, rotation: null, scale: null }] };
    (scene as Mutable<Scene>).clips = [clip, empty, hold];
    validateScene(scene);
    expect(scene.clips.map((c) => c.duration)).toEqual([0, 0, 2]);
    expect(scene.warnings).toEqual([
      "clip 'Wave' has zero length (every key at 0 s): it plays as a static pose",
      "clip 'Nothing' has no keys: it plays as the rest pose",
      "clip 'Hold' has a single key per channel: it plays as a static pose for 2 s",
    ]);
  });
});

describe('validateScene: morph targets', () => {
  it('accepts the morph fixture', () => {
    const scene = morphScene();
    validateScene(scene);
    expect(scene.warnings).toEqual([]);
  });

  it.each([
    ['a mesh with deltas for another number of targets', (s: Scene) => ((s.meshes[0] as Mutable<SkinnedMesh>).morphs = []), /mesh 'Body': has deltas for 0 morph targets, but the model has 1/],
    ['a moved vertex outside the mesh', (s: Scene) => (s.meshes[0]!.morphs![0]!.vertices[1] = 4), /mesh 'Body': morph target 'smile' moves vertex 4, but the mesh has 4 vertices/],
    ['moved vertices not ascending', (s: Scene) => (s.meshes[0]!.morphs![0]!.vertices[1] = 2), /morph target 'smile' lists vertex 2 after vertex 2; indices must be strictly ascending/],
    ['delta arrays of the wrong length', (s: Scene) => ((s.meshes[0]!.morphs![0] as Mutable<MorphDeltas>).normals = new Float32Array(3)), /morph target 'smile' moves 2 vertices but has 2 position and 1 normal deltas/],
    ['a NaN position delta', (s: Scene) => (s.meshes[0]!.morphs![0]!.positions[4] = NaN), /^tiny\.test: mesh 'Body': morph target 'smile' moves vertex 3 by a NaN or infinite position delta$/],
    ['an infinite normal delta', (s: Scene) => (s.meshes[0]!.morphs![0]!.normals[0] = Infinity), /morph target 'smile' moves vertex 2 by a NaN or infinite normal delta/],
    ['a morph track for a target the model lacks', (s: Scene) => ((s.clips[0]!.morphTracks![0] as Mutable<MorphTrack>).target = 1), /clip 'Wave' has a morph track for target 1, but the model has 1 morph target/],
    ['a NaN morph weight', (s: Scene) => (s.clips[0]!.morphTracks![0]!.values[1] = NaN), /^tiny\.test: clip 'Wave': morph track 'smile' key 1 has weight NaN$/],
    ['morph times and weights of different counts', (s: Scene) => ((s.clips[0]!.morphTracks![0] as Mutable<MorphTrack>).values = new Float32Array(3)), /morph track 'smile' has 2 key times but 3 weights/],
    ['morph kinds of another length', (s: Scene) => ((s as Mutable<Scene>).morphKinds = []), /1 morph target but 0 morph kinds/],
  ])('refuses %s', (_, edit, pattern) => {
    const scene = morphScene();
    edit(scene);
    loadErrorOf(() => validateScene(scene), pattern);
  });

  it('sorts morph keys like node keys', () => {
    const scene = morphScene();
    const track = scene.clips[0]!.morphTracks![0]!;
    track.times.set([1, 0]);
    track.values.set([1, 0.25]);
    validateScene(scene);
    expect(Array.from(scene.clips[0]!.morphTracks![0]!.times)).toEqual([0, 1]);
    expect(Array.from(scene.clips[0]!.morphTracks![0]!.values)).toEqual([0.25, 1]);
    expect(scene.warnings).toEqual(["clip 'Wave': 1 key was out of order or at a repeated time: sorted, repeats dropped (the later kept)"]);
  });
});

describe('validateScene: palette maths survive the repairs', () => {
  it('a reordered skeleton skins the mesh exactly like the ordered one', () => {
    const ordered = tinyScene();
    validateScene(ordered);
    const shuffled = tinyScene();
    const sk = shuffled.skeleton as Mutable<Scene['skeleton']>;
    sk.names = ['hand', 'root', 'arm'];
    sk.parents = Int16Array.from([2, -1, 1]);
    sk.restLocal = restTRS([[0, 1, 0], [0, 0, 0], [0, 1, 0]]);
    (shuffled.meshes[0] as Mutable<SkinnedMesh>).bones = Int16Array.from([1, 2, 0]);
    validateScene(shuffled);
    const palette = (s: Scene): number[] => {
      const model = new Float32Array(s.skeleton.parents.length * 16);
      localToModel(s.skeleton.parents, s.skeleton.restLocal, model);
      const m = s.meshes[0]!;
      const out: number[] = [];
      for (let k = 0; k < m.bones.length; k++) {
        const p = mat4.multiply(mat4.create(), model.subarray(m.bones[k]! * 16, m.bones[k]! * 16 + 16) as unknown as mat4, m.invBind.subarray(k * 16, k * 16 + 16) as unknown as mat4);
        out.push(...p);
      }
      return out;
    };
    expect(palette(shuffled)).toEqual(palette(ordered));
    expect(palette(ordered).slice(12, 15)).toEqual([0, 0, 0]);
  });
});
