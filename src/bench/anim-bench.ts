/**
 * CPU animation benchmark (issue item 1): per frame, AnimPlayer.advance + evaluate (sampleClip +
 * localToModel) + PaletteSet.write (one buildPalette per distinct skin, copied into every mesh's palette:
 * what the page's renderer does, Dawn's 4 meshes sharing one skin) — the code the page runs — against the
 * three.js peer (three-peer.ts: AnimationMixer.update + updateMatrixWorld + Skeleton.update per mesh) on
 * the same skeleton, keyframes and inverse binds, in the same process, interleaved.
 *
 * Metrics: anim_<model>_us (ours), anim_<model>_threejs_us (peer), anim_<model>_ratio_vs_threejs
 * (peer µs / ours µs), anim_<model>_palette_diff_vs_threejs (largest difference of the two palettes at a
 * few times, relative to max(1, |value|): the check that both compute the same thing).
 */

import { existsSync, readFileSync } from 'node:fs';
import { PaletteSet } from '../anim/palette-set.ts';
import { paletteSimdInUse } from '../anim/palette-simd.ts';
import { poseSimdInUse } from '../anim/pose-simd.ts';
import { AnimPlayer } from '../anim/player.ts';
import { loadModel } from '../loaders/load-model.ts';
import type { Scene } from '../model/types.ts';
import type { Metric } from './metric.ts';
import { buildThreePeer, type ThreePeer } from './three-peer.ts';
import { interleaved } from './timing.ts';

export interface AnimModel {
  /** Metric key: anim_<id>_us. */
  readonly id: string;
  /** Path to the model file (relative to the working directory or absolute). */
  readonly path: string;
}

export const ANIM_MODELS: readonly AnimModel[] = [
  { id: 'tiny', path: '../shared/corpus/tiny.x' },
  { id: 'soldier', path: '../shared/corpus/soldier.m3d' },
  { id: 'dawn', path: 'public/models/generated/dawn-low.m3d' },
];

const DT = 1 / 60;

export interface AnimCase {
  readonly scene: Scene;
  readonly player: AnimPlayer;
  /** The model's palettes, one per distinct skin. */
  readonly set: PaletteSet;
  /** One palette per mesh, 16 floats per slot. */
  readonly palettes: readonly Float32Array[];
  /** Where each mesh's palette starts in palettes[m] (0): passed to set.write. */
  readonly offsets: Int32Array;
  readonly peer: ThreePeer;
  /** One frame of ours: advance + evaluate + PaletteSet.write. */
  readonly ours: () => void;
  /** One frame of three.js. */
  readonly three: () => void;
}

export function prepareAnimCase(scene: Scene, clipIndex = 0): AnimCase {
  const player = new AnimPlayer(scene.skeleton, scene.clips);
  player.play(clipIndex);
  const meshes = scene.meshes;
  const set = new PaletteSet(meshes);
  const palettes = meshes.map((m) => new Float32Array(m.bones.length * 16));
  const offsets = new Int32Array(meshes.length);
  const peer = buildThreePeer(scene, clipIndex);
  const ours = (): void => {
    player.advance(DT);
    player.evaluate();
    set.write(player.model, palettes, offsets);
  };
  return { scene, player, set, palettes, offsets, peer, ours, three: () => peer.frame(DT) };
}

/**
 * Sets both sides to each time in `times` and returns the largest |ours − three| over every palette
 * float, divided by max(1, |three|).
 */
export function paletteDiff(c: AnimCase, times: readonly number[]): number {
  let worst = 0;
  for (const t of times) {
    c.player.setTime(t);
    c.player.evaluate();
    c.peer.setTime(t);
    c.set.write(c.player.model, c.palettes, c.offsets);
    for (let m = 0; m < c.scene.meshes.length; m++) {
      const a = c.palettes[m];
      const b = c.peer.skeletons[m].boneMatrices!;
      for (let i = 0; i < a.length; i++) {
        const d = Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(b[i]));
        if (!(d <= worst)) worst = d;
      }
    }
  }
  return worst;
}

export function checkTimes(scene: Scene, clipIndex = 0): number[] {
  const d = scene.clips[clipIndex].duration;
  return [0, 0.137 * d, 0.5 * d, 0.733 * d, 0.999 * d];
}

export interface AnimBenchOptions {
  readonly quick: boolean;
  /** Overrides the models (tests). */
  readonly models?: readonly AnimModel[];
  /** Overrides the number of timed rounds (tests). */
  readonly blocks?: number;
  readonly framesPerBlock?: number;
  readonly log?: (line: string) => void;
}

export function runAnimBench(opts: AnimBenchOptions): Metric[] {
  const log = opts.log ?? ((): void => {});
  const out: Metric[] = [];
  const blocks = opts.blocks ?? (opts.quick ? 40 : 400);
  const perBlock = opts.framesPerBlock ?? 50;
  for (const model of opts.models ?? ANIM_MODELS) {
    if (!existsSync(model.path)) throw new Error(`${model.path} is missing (the generated models: npm run gen)`);
    const scene = loadModel(model.path.split('/').pop()!, new Uint8Array(readFileSync(model.path)));
    const c = prepareAnimCase(scene);
    const diff = paletteDiff(c, checkTimes(scene));
    c.player.setTime(0);
    c.peer.setTime(0);
    // Warm-up: let both JITs settle before timing.
    for (let i = 0; i < Math.min(2000, blocks * perBlock); i++) {
      c.ours();
      c.three();
    }
    const [ours, three] = interleaved([c.ours, c.three], blocks, perBlock);
    const nodes = scene.skeleton.parents.length;
    const slots = scene.meshes.reduce((s, m) => s + m.bones.length, 0);
    const what = `${nodes} nodes, ${scene.meshes.length} mesh(es), ${slots} palette slots (${paletteSimdInUse() ? 'WebAssembly SIMD palette kernel' : 'scalar palette loop'}; ${poseSimdInUse() ? 'sampling and local-to-model in the WebAssembly pose kernel' : 'sampling and local-to-model in JavaScript'}), clip "${scene.clips[0].name}"; median of ${blocks} blocks of ${perBlock} frames at dt 1/60 s`;
    out.push(
      { name: `anim_${model.id}_us`, value: ours, unit: 'us', note: `ours: AnimPlayer advance + evaluate (sample + local-to-model) + PaletteSet.write (${c.set.skinCount} distinct skin(s) built, copied to each mesh: the page's path); ${what}` },
      { name: `anim_${model.id}_threejs_us`, value: three, unit: 'us', note: `three.js ${'0.187'}: AnimationMixer.update + updateMatrixWorld + Skeleton.update per mesh; ${what}` },
      { name: `anim_${model.id}_ratio_vs_threejs`, value: three / ours, unit: 'x', note: 'three.js µs / ours µs, same run, interleaved' },
      { name: `anim_${model.id}_palette_diff_vs_threejs`, value: diff, unit: 'rel', note: 'largest |ours − three.js| palette float / max(1, |value|) at 5 clip times (fairness check)' },
    );
    log(`anim ${model.id}: ours ${ours.toFixed(2)} µs, three.js ${three.toFixed(2)} µs, ratio ${(three / ours).toFixed(2)}x (palette ${paletteSimdInUse() ? 'SIMD' : 'scalar'}, pose ${poseSimdInUse() ? 'SIMD' : 'scalar'}), palette diff ${diff.toExponential(1)}`);
  }
  return out;
}
