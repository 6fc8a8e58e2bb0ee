import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportGltf } from '../../src/export/export-gltf.ts';
import { generateDawn } from '../../src/gen/dawn.ts';
import { generateHumanoid } from '../../src/gen/humanoid.ts';
import { generateTwist } from '../../src/gen/twist.ts';
import { loadModel, loadModelAsync } from '../../src/loaders/load-model.ts';
import type { Channel, Clip, Scene, Track } from '../../src/model/types.ts';
import { CORPUS_DIR, describeCorpus } from '../corpus.ts';
import { compareClip, type ChannelPath } from './clip-channels.ts';
import { writeTextX, type XItem, type XSpec } from '../loaders/x-writer.ts';
import { ScenePoser } from './pose-bounds.ts';

/**
 * The glTF export keeps every animation channel: a model exported and read back by skinlab's own glTF reader
 * has, clip by clip, the same channels (node, path) with the same key times and values within 1e-5
 * (clip-channels.ts says what the exporter may change). Real files of ../shared/corpus and the built-in
 * models, and a Twist whose clip scales bones: its vertices, posed, land where the source's do.
 */

async function exportAndRead(scene: Scene, binary = true): Promise<Scene> {
  const fileName = binary ? 'rt.glb' : 'rt.gltf';
  const { files } = await exportGltf(scene, { binary, textures: async () => null, fileName });
  return loadModelAsync(fileName, files.get(fileName)!, new Map([...files].filter(([n]) => n !== fileName)));
}

/** Compares every clip; returns the channels compared by path. */
function expectSameChannels(scene: Scene, back: Scene): Record<ChannelPath, number> {
  expect(back.clips.map((c) => c.name)).toEqual(scene.clips.map((c) => c.name));
  const total: Record<ChannelPath, number> = { translation: 0, rotation: 0, scale: 0, weights: 0 };
  for (let c = 0; c < scene.clips.length; c++) {
    const { mismatches, compared } = compareClip(scene, back, c);
    expect(mismatches, `${scene.name}, clip ${scene.clips[c]!.name}`).toEqual([]);
    for (const k of Object.keys(total) as ChannelPath[]) total[k] += compared[k];
  }
  return total;
}

const key = (t: number, ...v: number[]): [number, number[]] => [t, v];
function channel(keys: [number, number[]][]): Channel {
  return { times: Float32Array.from(keys, ([t]) => t), values: Float32Array.from(keys.flatMap(([, v]) => v)) };
}

/**
 * A small Twist (8 × 9 vertices) with one clip, `grow`: `outer` stretches along the bone to 1.8 and then
 * widens, `tip` swells, `inner` turns a little; keys end at 2 s of a 2.5 s clip.
 */
function growingTwist(): Scene {
  const twist = generateTwist({ segments: 8, rings: 9 });
  const node = (name: string): number => twist.skeleton.names.indexOf(name);
  const s = Math.SQRT1_2;
  const tracks: Track[] = [
    { node: node('inner'), translation: null, scale: null, rotation: channel([key(0, 0, 0, 0, 1), key(1, 0, Math.sin(0.2), 0, Math.cos(0.2)), key(2, 0, 0, 0, 1)]) },
    { node: node('outer'), translation: null, rotation: null, scale: channel([key(0, 1, 1, 1), key(0.5, 1.8, 1, 1), key(1.5, 1, 1.6, 0.7), key(2, 1, 1, 1)]) },
    { node: node('tip'), translation: null, rotation: channel([key(0, 0, 0, 0, 1), key(2, s, 0, 0, s)]), scale: channel([key(0, 1, 1, 1), key(1, 0.5, 2, 2), key(2, 1, 1, 1)]) },
  ];
  const grow: Clip = { name: 'grow', duration: 2.5, ticksPerSecond: 0, tracks };
  return { ...twist, name: 'twist with scale keys', clips: [grow] };
}

/** D3D row-vector translation (4th row), as a .x file writes it. */
const xTranslation = (x: number, y: number, z: number): number[] => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1];

/**
 * A .x file at 30 ticks per second: a strip of four quads along +X (x = 0..2, y = 0..1) skinned to `bone_a`
 * (at the origin) and `bone_b` (at x = 1, blended ½ ½ on its column), and set `grow` whose scale keys (type 1)
 * stretch `bone_b` to 2 × 1.5 at tick 15 and squash it at tick 45, while translation keys (type 2) lift `bone_a`.
 */
function scaleKeysX(): Uint8Array {
  const xs = [0, 0.5, 1, 1.5, 2];
  const vertices = xs.flatMap((x) => [x, 0, 0, x, 1, 0]);
  const faces = [0, 1, 2, 3].flatMap((i) => [4, 2 * i, 2 * i + 1, 2 * i + 3, 2 * i + 2]);
  const weightsOf = (bone: 'a' | 'b'): { indices: number[]; weights: number[] } => {
    const indices: number[] = [];
    const weights: number[] = [];
    xs.forEach((x, i) => {
      const w = bone === 'b' ? (x > 1 ? 1 : x === 1 ? 0.5 : 0) : x < 1 ? 1 : x === 1 ? 0.5 : 0;
      if (w > 0) indices.push(2 * i, 2 * i + 1), weights.push(w, w);
    });
    return { indices, weights };
  };
  const skin = (bone: 'a' | 'b', offset: number[]): XSpec => {
    const { indices, weights } = weightsOf(bone);
    return { template: 'SkinWeights', data: [{ string: `bone_${bone}` }, { dwords: [indices.length, ...indices] }, { floats: [...weights, ...offset] }] };
  };
  const keys = (type: number, list: [number, number[]][]): XSpec => ({
    template: 'AnimationKey',
    data: [{ dwords: [type, list.length] }, ...list.flatMap(([tick, v]): XItem[] => [{ dwords: [tick, v.length] }, { floats: v }])],
  });
  return writeTextX([
    { template: 'Header', data: [{ dwords: [1, 0, 1] }] },
    {
      template: 'Frame',
      name: 'bone_a',
      children: [
        { template: 'FrameTransformMatrix', data: [{ floats: xTranslation(0, 0, 0) }] },
        { template: 'Frame', name: 'bone_b', children: [{ template: 'FrameTransformMatrix', data: [{ floats: xTranslation(1, 0, 0) }] }] },
      ],
    },
    {
      template: 'Mesh',
      name: 'strip',
      data: [{ dwords: [vertices.length / 3] }, { floats: vertices }, { dwords: [4, ...faces] }],
      children: [{ template: 'XSkinMeshHeader', data: [{ dwords: [2, 4, 2] }] }, skin('a', xTranslation(0, 0, 0)), skin('b', xTranslation(-1, 0, 0))],
    },
    { template: 'AnimTicksPerSecond', data: [{ dwords: [30] }] },
    {
      template: 'AnimationSet',
      name: 'grow',
      children: [
        { template: 'Animation', children: [{ ref: 'bone_b' }, keys(1, [[0, [1, 1, 1]], [15, [2, 1.5, 1]], [30, [1, 1, 1]], [45, [0.5, 0.5, 2]]])] },
        { template: 'Animation', children: [{ ref: 'bone_a' }, keys(2, [[0, [0, 0, 0]], [45, [0, 0.25, 0]]])] },
      ],
    },
  ], false);
}

const POSE_TIMES = [0, 0.3, 0.5, 0.9, 1.5, 1.9, 2.4];

function largestDifference(a: Float32Array[], b: Float32Array[]): number {
  let d = 0;
  a.forEach((p, m) => {
    for (let i = 0; i < p.length; i++) d = Math.max(d, Math.abs(p[i]! - b[m]![i]!));
  });
  return d;
}

/**
 * Poses the source and the file read back at each time and expects every vertex within 1e-5: each source mesh
 * comes back as one mesh per material (named after it), each with all of its vertices in the source's order.
 */
function expectSamePosedVertices(scene: Scene, back: Scene, times: readonly number[]): void {
  const parts = scene.meshes.map((m) => back.meshes.map((b, i) => (b.name === m.name || b.name.startsWith(`${m.name}_`) ? i : -1)).filter((i) => i >= 0));
  parts.forEach((list, m) => {
    expect(list.length, scene.meshes[m]!.name).toBeGreaterThan(0);
    for (const i of list) expect(back.meshes[i]!.vertexCount).toBe(scene.meshes[m]!.vertexCount);
  });
  const source = new ScenePoser(scene);
  const read = new ScenePoser(back);
  for (const t of times) {
    const want = source.positions(0, t);
    const got = read.positions(0, t);
    let worst = 0;
    parts.forEach((list, m) => {
      for (const i of list) worst = Math.max(worst, largestDifference([want[m]!], [got[i]!]));
    });
    expect(worst, `largest vertex difference at t = ${t} s`).toBeLessThan(1e-5);
  }
}

describe('glTF export keeps every channel of every clip', () => {
  it('built-in models: Twist, Dawn (morph weights), Walker', async () => {
    for (const scene of [generateTwist({ segments: 8, rings: 9 }), generateDawn({ detail: 'low' }), generateHumanoid({ resolution: 24 })]) {
      const total = expectSameChannels(scene, await exportAndRead(scene));
      expect(total.rotation, scene.name).toBeGreaterThan(0);
      if (scene.name === 'dawn') expect(total.weights).toBeGreaterThan(0);
    }
  }, 30_000);

  it('a clip whose scale keys move vertices: same channels, and every posed vertex where the source puts it', async () => {
    const scene = growingTwist();
    const back = await exportAndRead(scene);
    const total = expectSameChannels(scene, back);
    expect(total).toEqual({ translation: 0, rotation: 2, scale: 2, weights: 0 });

    // The fixture means something: without its scale keys the vertices would be far from where they are.
    const unscaled: Scene = { ...scene, clips: scene.clips.map((c) => ({ ...c, tracks: c.tracks.map((t) => ({ ...t, scale: null })) })) };
    const source = new ScenePoser(scene);
    const noScale = new ScenePoser(unscaled);
    expect(largestDifference(source.positions(0, 0.5), noScale.positions(0, 0.5))).toBeGreaterThan(0.5);

    expectSamePosedVertices(scene, back, POSE_TIMES);
  });

  it("a .x file's scale keys, in ticks at 30 per second, come back as the same channels in seconds and pose the same vertices", async () => {
    const scene = loadModel('grow.x', scaleKeysX());
    const clip = scene.clips[0]!;
    expect(clip.duration).toBe(1.5);
    const scale = clip.tracks.find((t) => scene.skeleton.names[t.node] === 'bone_b')?.scale;
    expect(Array.from(scale?.times ?? [])).toEqual([0, 0.5, 1, 1.5]);
    expect(Array.from(scale?.values ?? [])).toEqual([1, 1, 1, 2, 1.5, 1, 1, 1, 1, 0.5, 0.5, 2]);
    const back = await exportAndRead(scene);
    const total = expectSameChannels(scene, back);
    expect(total.scale).toBeGreaterThanOrEqual(1);
    const unscaled: Scene = { ...scene, clips: scene.clips.map((c) => ({ ...c, tracks: c.tracks.map((t) => ({ ...t, scale: null })) })) };
    expect(largestDifference(new ScenePoser(scene).positions(0, 0.5), new ScenePoser(unscaled).positions(0, 0.5))).toBeGreaterThan(0.5);
    expectSamePosedVertices(scene, back, [0, 0.25, 0.5, 0.8, 1.2, 1.5]);
  });

  it('the comparison sees a dropped channel and a changed key, and takes a negated rotation key as the same', async () => {
    const scene = growingTwist();
    const back = await exportAndRead(scene);
    const outer = back.skeleton.names.indexOf('outer');
    const tip = back.skeleton.names.indexOf('tip');
    const edit = (f: (t: Track) => Track): Scene => ({ ...back, clips: back.clips.map((c) => ({ ...c, tracks: c.tracks.map(f) })) });
    const dropped = edit((t) => (t.node === outer ? { ...t, scale: null } : t));
    expect(compareClip(scene, dropped, 0).mismatches.join('\n')).toMatch(/outer scale: 4 keys in the source, no channel read back/);
    const moved = edit((t) => {
      if (t.node !== tip || !t.scale) return t;
      const values = t.scale.values.slice();
      values[4]! += 1e-3;
      return { ...t, scale: { ...t.scale, values } };
    });
    expect(compareClip(scene, moved, 0).mismatches.join('\n')).toMatch(/tip scale: 1 of 3 keys differ/);
    const negated = edit((t) => (t.node === tip && t.rotation ? { ...t, rotation: { ...t.rotation, values: t.rotation.values.map((v) => -v) } } : t));
    expect(compareClip(scene, negated, 0).mismatches).toEqual([]);
  });
});

describeCorpus('glTF export keeps every channel of the corpus clips', () => {
  // Matrix keys (tiny), a 4-clip file, an .m3d, a 3-clip file with a zero-length clip, a small cylinder.
  for (const file of ['tiny.x', 'tiny_4anim.x', 'soldier.m3d', 'Testwuson.X', 'anim_test.x']) {
    it(file, async () => {
      const scene = await loadModelAsync(file, new Uint8Array(readFileSync(join(CORPUS_DIR, file))));
      for (const binary of file === 'tiny.x' ? [true, false] : [true]) {
        const total = expectSameChannels(scene, await exportAndRead(scene, binary));
        // These files key every animated node's scale (matrix keys decomposed, or .m3d/.x scale keys).
        expect(total.scale, file).toBeGreaterThan(0);
        expect(total.rotation, file).toBeGreaterThan(0);
      }
    }, 30_000);
  }
});
