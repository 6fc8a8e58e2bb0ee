import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportGltf } from '../../src/export/export-gltf.ts';
import { generateDawn } from '../../src/gen/dawn.ts';
import { generateTwist } from '../../src/gen/twist.ts';
import { loadModelAsync } from '../../src/loaders/load-model.ts';
import type { Scene } from '../../src/model/types.ts';
import { CORPUS_DIR, HAVE_CORPUS } from '../corpus.ts';
import { boxError, POSE_FRACTIONS, ScenePoser, texturesBeside } from './pose-bounds.ts';

/**
 * Round trip: a model converted to glTF and read back by skinlab's own glTF reader (loadModelAsync) poses
 * as the source did: same clips (names, durations, markers), and at 0, 0.37 and 0.81 of every clip the same
 * posed bounds (skinned, morphed) within 1e-4 of the diagonal. Every animated file of ../shared/corpus's
 * MANIFEST.tsv, as .glb, and a few as .gltf + .bin; the generated Twist and Dawn (morph tracks, markers added).
 * The whole sweep takes a few seconds, so it always runs.
 */

const TOLERANCE = 1e-4;
const GLTF_CORPUS = join(CORPUS_DIR, '..', 'corpus-gltf');

async function roundTrip(scene: Scene, binary: boolean, textures: (name: string) => Promise<Uint8Array | null>): Promise<{ back: Scene; worst: number }> {
  const { files } = await exportGltf(scene, { binary, textures, fileName: binary ? 'rt.glb' : 'rt.gltf' });
  const main = files.get(binary ? 'rt.glb' : 'rt.gltf')!;
  const resources = new Map([...files].filter(([name]) => name !== 'rt.gltf'));
  const back = await loadModelAsync(binary ? 'rt.glb' : 'rt.gltf', main, resources);
  expect(back.clips.map((c) => c.name)).toEqual(scene.clips.map((c) => c.name));
  const a = new ScenePoser(scene);
  const b = new ScenePoser(back);
  let worst = 0;
  const clips = Math.max(1, scene.clips.length);
  for (let c = 0; c < clips; c++) {
    const clip = scene.clips[c];
    if (clip) {
      expect(back.clips[c]!.duration).toBeCloseTo(clip.duration, 5);
      expect((back.clips[c]!.markers ?? []).map((m) => m.name)).toEqual((clip.markers ?? []).map((m) => m.name));
    }
    for (const f of clip ? POSE_FRACTIONS : [0]) {
      const t = f * (clip?.duration ?? 0);
      const err = boxError(a.bounds(c, t), b.bounds(c, t));
      if (!(err <= TOLERANCE)) throw new Error(`${scene.name}: clip ${clip?.name ?? '(rest)'} at t = ${t}: bounds differ by ${err} of the diagonal`);
      worst = Math.max(worst, err);
    }
  }
  return { back, worst };
}

function animatedCorpusFiles(): string[] {
  const rows = readFileSync(join(CORPUS_DIR, 'MANIFEST.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t'));
  const head = rows[0]!;
  const file = head.indexOf('file');
  const animated = head.indexOf('animated');
  return rows.slice(1).filter((r) => /^yes/.test(r[animated] ?? '')).map((r) => r[file]!);
}

describe('round trip through glTF and skinlab glTF reader', () => {
  it('generated Twist (with markers) and Dawn (morph tracks)', async () => {
    const twist = generateTwist();
    const marked: Scene = { ...twist, clips: twist.clips.map((c) => ({ ...c, markers: [{ time: c.duration / 3, name: 'step' }] })) };
    for (const scene of [marked, generateDawn({ detail: 'low' })]) {
      const { back, worst } = await roundTrip(scene, true, async () => null);
      expect(back.morphTargets.length).toBe(scene.morphTargets.length);
      console.log(`[export round trip] ${scene.name}: worst bounds error ${worst.toExponential(2)} of the diagonal`);
    }
  }, 60_000);

  (HAVE_CORPUS ? it : it.skip)('every animated file of the .x/.m3d corpus (MANIFEST.tsv)', async () => {
    const files = animatedCorpusFiles();
    expect(files.length).toBeGreaterThanOrEqual(5);
    const lines: string[] = [];
    for (const file of files) {
      const path = join(CORPUS_DIR, file);
      if (!existsSync(path)) {
        console.warn(`[export round trip] SKIPPING ${file}: not in ${CORPUS_DIR}`);
        continue;
      }
      const scene = await loadModelAsync(file, new Uint8Array(readFileSync(path)));
      for (const binary of file === 'tiny.x' || file === 'soldier.m3d' ? [true, false] : [true]) {
        const { worst } = await roundTrip(scene, binary, texturesBeside(path));
        lines.push(`${file} (${binary ? '.glb' : '.gltf'}): ${scene.clips.length} clips, worst ${worst.toExponential(2)}`);
      }
    }
    console.log(`[export round trip]\n${lines.join('\n')}`);
  }, 60_000);

  const gltfFiles = ['khronos/Fox.glb', 'khronos/CesiumMan.glb', 'khronos/RiggedFigure.glb', 'khronos/AnimatedMorphCube.glb'];
  (existsSync(GLTF_CORPUS) ? it : it.skip)(`glTF in, glTF out (${gltfFiles.join(', ')})`, async () => {
    for (const file of gltfFiles) {
      const path = join(GLTF_CORPUS, file);
      if (!existsSync(path)) {
        console.warn(`[export round trip] SKIPPING ${file}: not in ${GLTF_CORPUS}`);
        continue;
      }
      const scene = await loadModelAsync(file, new Uint8Array(readFileSync(path)));
      const { worst } = await roundTrip(scene, true, async () => null);
      console.log(`[export round trip] ${file}: worst bounds error ${worst.toExponential(2)} of the diagonal`);
    }
  }, 60_000);
});
