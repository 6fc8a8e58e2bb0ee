import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportGltf } from '../../src/export/export-gltf.ts';
import { generateDawn } from '../../src/gen/dawn.ts';
import { generateHumanoid } from '../../src/gen/humanoid.ts';
import { generateTwist } from '../../src/gen/twist.ts';
import { loadModelAsync } from '../../src/loaders/load-model.ts';
import type { Channel, Clip, Scene, Track } from '../../src/model/types.ts';
import { CORPUS_DIR, describeCorpus } from '../corpus.ts';
import { compareClip, type ChannelPath } from './clip-channels.ts';
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

const POSE_TIMES = [0, 0.3, 0.5, 0.9, 1.5, 1.9, 2.4];

function largestDifference(a: Float32Array[], b: Float32Array[]): number {
  let d = 0;
  a.forEach((p, m) => {
    for (let i = 0; i < p.length; i++) d = Math.max(d, Math.abs(p[i]! - b[m]![i]!));
  });
  return d;
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

    // Each source mesh comes back as one mesh per material, each with all of its vertices in order.
    const parts = scene.meshes.map((m) => back.meshes.map((b, i) => (b.name === m.name || b.name.startsWith(`${m.name}_`) ? i : -1)).filter((i) => i >= 0));
    parts.forEach((list, m) => {
      expect(list.length, scene.meshes[m]!.name).toBeGreaterThan(0);
      for (const i of list) expect(back.meshes[i]!.vertexCount).toBe(scene.meshes[m]!.vertexCount);
    });
    const read = new ScenePoser(back);
    for (const t of POSE_TIMES) {
      const want = source.positions(0, t);
      const got = read.positions(0, t);
      let worst = 0;
      parts.forEach((list, m) => {
        for (const i of list) worst = Math.max(worst, largestDifference([want[m]!], [got[i]!]));
      });
      expect(worst, `largest vertex difference at t = ${t} s`).toBeLessThan(1e-5);
    }
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
