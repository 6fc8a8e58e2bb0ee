/**
 * Zero-allocation benchmark (issue item 2): 100,000 frames of AnimPlayer advance + evaluate + writePalette
 * for every mesh of the Dawn character, plus skinMesh (positions and normals) of one mesh, after a warm-up.
 *
 * - anim_gc_count_100k: garbage collections V8 reports (PerformanceObserver 'gc' entries, any kind) whose
 *   start lies inside the measured loop. Expected 0.
 * - anim_heap_growth_100k: process.memoryUsage().heapUsed after the loop minus before it (bytes), with a full
 *   GC just before the loop and none forced after, so anything the frames allocate shows as growth unless a
 *   GC collected it (which the count would then show). Expected ~0 (V8's own bookkeeping: a few KB).
 * The full GC uses `gc` exposed at run time (v8.setFlagsFromString('--expose-gc')).
 */

import { readFileSync } from 'node:fs';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AnimPlayer } from '../anim/player.ts';
import { skinMesh } from '../anim/software-skin.ts';
import { loadModel } from '../loaders/load-model.ts';
import type { Metric } from './metric.ts';

export const ALLOC_MODEL = 'public/models/generated/dawn-low.m3d';
const FRAMES = 100_000;

function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

export interface AllocBenchOptions {
  readonly quick: boolean;
  readonly path?: string;
  readonly log?: (line: string) => void;
}

export async function runAllocBench(opts: AllocBenchOptions): Promise<Metric[]> {
  const log = opts.log ?? ((): void => {});
  const path = opts.path ?? ALLOC_MODEL;
  const scene = loadModel(path.split('/').pop()!, new Uint8Array(readFileSync(path)));
  const player = new AnimPlayer(scene.skeleton, scene.clips, scene.morphTargets.length);
  const meshes = scene.meshes;
  const palettes = meshes.map((m) => new Float32Array(m.bones.length * 16));
  // The smallest mesh keeps 100k frames of CPU skinning within a few seconds.
  let skinned = 0;
  for (let m = 1; m < meshes.length; m++) if (meshes[m].vertexCount < meshes[skinned].vertexCount) skinned = m;
  const skinMeshData = meshes[skinned];
  const outPos = new Float32Array(skinMeshData.vertexCount * 3);
  const outNrm = new Float32Array(skinMeshData.vertexCount * 3);
  const frame = (): void => {
    player.advance(1 / 60);
    player.evaluate();
    for (let m = 0; m < meshes.length; m++) player.writePalette(meshes[m], palettes[m]);
    skinMesh(skinMeshData, palettes[skinned], outPos, outNrm);
  };
  for (let i = 0; i < 20_000; i++) frame();

  const gc = exposeGc();
  const entries: PerformanceEntry[] = [];
  const obs = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  obs.observe({ entryTypes: ['gc'] });
  gc();
  await new Promise((r) => setImmediate(r));
  const t0 = performance.now();
  const heap0 = process.memoryUsage().heapUsed;
  for (let i = 0; i < FRAMES; i++) frame();
  const heap1 = process.memoryUsage().heapUsed;
  const t1 = performance.now();
  await new Promise((r) => setTimeout(r, 50));
  obs.disconnect();
  const gcs = entries.filter((e) => e.startTime >= t0 && e.startTime <= t1).length;
  const growth = heap1 - heap0;
  const what = `${FRAMES} frames of advance + evaluate + writePalette (${meshes.length} meshes) + skinMesh (${skinMeshData.name}, ${skinMeshData.vertexCount} vertices) on ${path.split('/').pop()}, after 20k warm-up frames; ${((t1 - t0) / 1000).toFixed(1)} s`;
  log(`alloc: ${gcs} GCs, heap growth ${growth} bytes over ${FRAMES} frames`);
  return [
    { name: 'anim_gc_count_100k', value: gcs, unit: 'count', note: `PerformanceObserver 'gc' entries during ${what}` },
    { name: 'anim_heap_growth_100k', value: growth, unit: 'bytes', note: `heapUsed after − before (full GC before, none after) over the same loop` },
  ];
}
