/**
 * glTF loading benchmark: loadModelAsync(bytes) → validated Scene, against three.js's GLTFLoader.parse on the
 * same bytes in the same run, interleaved (the order alternates between rounds).
 *
 * What each side does (also in the metric notes):
 * - ours: GLB/JSON container checks, the structural checks (every accessor, view and buffer range, index
 *   values, NaN scan), the glTF SDK's document, then the Scene (typed arrays, parents before children,
 *   influences sorted and cut to 4, STEP/CUBICSPLINE keys made linear) and its validation.
 * - three: GLTFLoader.parse into a three.js scene graph (BufferGeometry over the same bytes, SkinnedMesh,
 *   Skeleton, AnimationClips). Neither side decodes image pixels: ours keeps the image bytes for the page's
 *   decoder; three gets a plugin that answers every texture with an empty Texture (Node has no image
 *   decoder, and in a browser three decodes images asynchronously after parse anyway).
 *
 * Metrics: load_<file>_ms, load_<file>_threejs_ms, load_<file>_ratio_vs_threejs (three ms / ours ms).
 */

import { existsSync, readFileSync } from 'node:fs';
import { Texture } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { loadModelAsync } from '../loaders/load-model.ts';
import type { Metric } from './metric.ts';
import { median } from './timing.ts';

export interface GltfLoadFile {
  readonly id: string;
  readonly path: string;
}

export const GLTF_LOAD_FILES: readonly GltfLoadFile[] = [
  { id: 'fox_glb', path: '../shared/corpus-gltf/khronos/Fox.glb' },
  { id: 'cesiumman_glb', path: '../shared/corpus-gltf/khronos/CesiumMan.glb' },
  { id: 'robotexpressive_glb', path: '../shared/corpus-gltf/threejs/RobotExpressive.glb' },
];

/** A GLTFLoader that parses everything but image pixels (see the file comment). */
function threeLoader(): GLTFLoader {
  const loader = new GLTFLoader();
  loader.register(() => ({ name: 'skinlab_bench_no_images', loadTexture: () => Promise.resolve(new Texture()) }));
  return loader;
}

/** Runs each async step once per round, alternating the order; returns the median µs per step. */
async function interleavedAsync(steps: readonly (() => Promise<unknown>)[], rounds: number): Promise<number[]> {
  const samples: number[][] = steps.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < steps.length; j++) {
      const k = r % 2 === 0 ? j : steps.length - 1 - j;
      const t0 = performance.now();
      await steps[k]!();
      samples[k]!.push((performance.now() - t0) * 1000);
    }
  }
  return samples.map(median);
}

export interface GltfLoadBenchOptions {
  readonly quick: boolean;
  readonly files?: readonly GltfLoadFile[];
  readonly log?: (line: string) => void;
}

export async function runGltfLoadBench(opts: GltfLoadBenchOptions): Promise<Metric[]> {
  const log = opts.log ?? ((): void => {});
  const out: Metric[] = [];
  const loader = threeLoader();
  for (const f of opts.files ?? GLTF_LOAD_FILES) {
    if (!existsSync(f.path)) {
      log(`load ${f.id}: skipped, ${f.path} is absent`);
      continue;
    }
    const name = f.path.split('/').pop()!;
    const file = readFileSync(f.path);
    const bytes = new Uint8Array(file);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const ours = (): Promise<unknown> => loadModelAsync(name, bytes);
    const peer = (): Promise<unknown> => loader.parseAsync(buffer, '');
    const warm = opts.quick ? 2 : 5;
    for (let i = 0; i < warm; i++) {
      await ours();
      await peer();
    }
    const rounds = opts.quick ? 5 : 25;
    const [oursUs, peerUs] = await interleavedAsync([ours, peer], rounds);
    const ms = oursUs! / 1000;
    const peerMs = peerUs! / 1000;
    out.push(
      { name: `load_${f.id}_ms`, value: ms, unit: 'ms', note: `ours: loadModelAsync (container + checks + glTF SDK document + Scene + validation) of ${bytes.length} bytes, median of ${rounds}` },
      { name: `load_${f.id}_threejs_ms`, value: peerMs, unit: 'ms', note: 'three.js r187 GLTFLoader.parse (image pixels not decoded), median, same run' },
      { name: `load_${f.id}_ratio_vs_threejs`, value: peerMs / ms, unit: 'x', note: 'three ms / ours ms, same bytes, same run, interleaved' },
    );
    log(`load ${name}: ours ${ms.toFixed(2)} ms, three.js ${peerMs.toFixed(2)} ms, ratio ${(peerMs / ms).toFixed(2)}x`);
  }
  return out;
}
