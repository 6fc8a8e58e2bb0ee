/**
 * Zero-allocation benchmark (issue item 2): 100,000 frames of the page's animation path after a warm-up,
 * in two cases, each measured the same way.
 *
 * - Dawn (anim_gc_count_100k, anim_heap_growth_100k): AnimPlayer advance + evaluate, PaletteSet.write (one
 *   buildPalette per distinct skin, copied to each of the 4 meshes: what the page's techniques now read),
 *   plus skinMesh (positions and normals) of the smallest mesh.
 * - Tracks (anim_tracks_gc_count_100k, anim_tracks_heap_growth_100k): the MultiAnimation sample's Tiny
 *   (tiny_4anim.x) on an AnimPlayer's controller with 4 tracks — Loiter, Walk and Jog in one sync group,
 *   Wave masked to Bip01_R_Clavicle at high priority — footstep markers on Walk and Jog (footsteps.ts
 *   footstepMarkers) firing into an onMarker callback, weight events scheduled every 2 s of controller clock
 *   (an ease transition to the next of Loiter/Walk/Jog, Wave keyed in and out every other time), and LookAt
 *   (LookAt.find on the skeleton) as the controller's postProcess with a target sweeping round the head; per
 *   frame advance + evaluate + PaletteSet.write. Event start times are whole seconds and weights 0 or 1, so
 *   scheduling passes small integers (and constants), not computed doubles V8 would box.
 *
 * Per case:
 * - *_gc_count_100k: garbage collections V8 reports (PerformanceObserver 'gc' entries, any kind) whose start
 *   lies inside the measured loop. Expected 0.
 * - *_heap_growth_100k: process.memoryUsage().heapUsed after the loop minus before it (bytes), with a full
 *   GC just before the loop and none forced after, so anything the frames allocate shows as growth unless a
 *   GC collected it (which the count would then show). Expected ~0 (V8's own bookkeeping: a few KB).
 * The full GC uses `gc` exposed at run time (v8.setFlagsFromString('--expose-gc')).
 */

import { readFileSync } from 'node:fs';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { footstepMarkers } from '../anim/footsteps.ts';
import { LookAt } from '../anim/look-at.ts';
import { PaletteSet } from '../anim/palette-set.ts';
import { AnimPlayer } from '../anim/player.ts';
import { skinMesh } from '../anim/software-skin.ts';
import { loadModel } from '../loaders/load-model.ts';
import type { Scene } from '../model/types.ts';
import type { Metric } from './metric.ts';

export const ALLOC_MODEL = 'public/models/generated/dawn-low.m3d';
export const ALLOC_TRACKS_MODEL = 'public/models/tiny/tiny_4anim.x';
const FRAMES = 100_000;
const WARMUP = 20_000;

function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

export interface AllocBenchOptions {
  readonly quick: boolean;
  readonly path?: string;
  readonly tracksPath?: string;
  /** Overrides the measured frame count (tests). */
  readonly frames?: number;
  readonly log?: (line: string) => void;
}

interface Measured {
  readonly gcs: number;
  readonly growth: number;
  readonly seconds: number;
}

/** Warm-up, full GC, then `frames` calls of frame() with the GC observer on. */
async function measure(frame: () => void, frames: number): Promise<Measured> {
  // Two warm-up rounds with a pause between: on a loaded machine the optimising compiler (a background
  // thread) may still be busy after the first, and code running unoptimised boxes doubles.
  for (let i = 0; i < WARMUP; i++) frame();
  await new Promise((r) => setTimeout(r, 250));
  for (let i = 0; i < WARMUP; i++) frame();
  const gc = exposeGc();
  const entries: PerformanceEntry[] = [];
  const obs = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  obs.observe({ entryTypes: ['gc'] });
  gc();
  await new Promise((r) => setImmediate(r));
  const t0 = performance.now();
  const heap0 = process.memoryUsage().heapUsed;
  for (let i = 0; i < frames; i++) frame();
  const heap1 = process.memoryUsage().heapUsed;
  const t1 = performance.now();
  await new Promise((r) => setTimeout(r, 50));
  obs.disconnect();
  return { gcs: entries.filter((e) => e.startTime >= t0 && e.startTime <= t1).length, growth: heap1 - heap0, seconds: (t1 - t0) / 1000 };
}

function load(path: string): Scene {
  return loadModel(path.split('/').pop()!, new Uint8Array(readFileSync(path)));
}

/** The Dawn case's frame (see the file contract). */
function dawnFrame(scene: Scene): { frame: () => void; what: string } {
  const player = new AnimPlayer(scene.skeleton, scene.clips, scene.morphTargets.length);
  const meshes = scene.meshes;
  const set = new PaletteSet(meshes);
  const palettes = meshes.map((m) => new Float32Array(m.bones.length * 16));
  const offsets = new Int32Array(meshes.length);
  // The smallest mesh keeps 100k frames of CPU skinning within a few seconds.
  let skinned = 0;
  for (let m = 1; m < meshes.length; m++) if (meshes[m].vertexCount < meshes[skinned].vertexCount) skinned = m;
  const skinMeshData = meshes[skinned];
  const outPos = new Float32Array(skinMeshData.vertexCount * 3);
  const outNrm = new Float32Array(skinMeshData.vertexCount * 3);
  const frame = (): void => {
    player.advance(1 / 60);
    player.evaluate();
    set.write(player.model, palettes, offsets);
    skinMesh(skinMeshData, palettes[skinned], outPos, outNrm);
  };
  return { frame, what: `advance + evaluate + PaletteSet.write (${meshes.length} meshes, ${set.skinCount} skin) + skinMesh (${skinMeshData.name}, ${skinMeshData.vertexCount} vertices)` };
}

export interface TracksAllocCase {
  readonly frame: () => void;
  readonly player: AnimPlayer;
  /** [0] markers fired, [1] events scheduled, [2] frames run. */
  readonly counts: Float64Array;
  readonly what: string;
}

/** The tracks case's frame (see the file contract). */
export function tracksAllocCase(scene: Scene): TracksAllocCase {
  const names = scene.clips.map((c) => c.name);
  const [loiter, walk, jog, wave] = ['Loiter', 'Walk', 'Jog', 'Wave'].map((n) => {
    const i = names.indexOf(n);
    if (i < 0) throw new Error(`alloc bench: no clip "${n}" (clips: ${names.join(', ')})`);
    return i;
  });
  const clavicle = scene.skeleton.names.indexOf('Bip01_R_Clavicle');
  if (clavicle < 0) throw new Error('alloc bench: no Bip01_R_Clavicle');
  const player = new AnimPlayer(scene.skeleton, scene.clips, scene.morphTargets.length);
  const c = player.controller;
  [loiter, walk, jog, wave].forEach((clip, t) => {
    c.setTrackClip(t, clip);
    c.setTrackWeight(t, t === 0 ? 1 : 0);
    c.setTrackPosition(t, 0);
    c.setTrackEnable(t, true);
  });
  for (let t = 0; t < 3; t++) c.setTrackSync(t, 0);
  c.setTrackMask(3, clavicle);
  c.setTrackPriority(3, 'high');
  let markers = 0;
  for (const clip of [walk, jog]) {
    for (const m of footstepMarkers(scene, clip)) {
      c.addMarker(clip, m.time, m.name);
      markers++;
    }
  }
  const counts = new Float64Array(3);
  c.onMarker = () => {
    counts[0]++;
  };
  const look = LookAt.find(scene.skeleton);
  if (look === null) throw new Error('alloc bench: LookAt.find found no head chain');
  c.postProcess = look;
  // The target sweeps round the head at a distance of its height above the origin.
  const head = look.joints[look.joints.length - 1]!.node;
  const hx = c.model[head * 16 + 12], hy = c.model[head * 16 + 13], hz = c.model[head * 16 + 14];
  const reach = Math.hypot(hx, hy, hz) || 1;
  const set = new PaletteSet(scene.meshes);
  const palettes = scene.meshes.map((m) => new Float32Array(m.bones.length * 16));
  const offsets = new Int32Array(scene.meshes.length);
  const angle = new Float64Array(1);
  let frameNo = 0;
  let cycle = 0;
  const frame = (): void => {
    frameNo++;
    if (frameNo % 120 === 0) {
      // Every 2 s of clock: ease to the next locomotion track; Wave keyed in or out every other time.
      cycle++;
      const start = cycle * 2;
      const next = cycle % 3;
      for (let t = 0; t < 3; t++) c.keyTrackWeight(t, t === next ? 1 : 0, start, 0.5, 'ease');
      c.keyTrackWeight(3, (cycle & 2) === 0 ? 0 : 1, start, 0.5, 'linear');
      counts[1] += 4;
    }
    angle[0] = (frameNo % 720) * (Math.PI / 360);
    const s = Math.sin(angle[0]);
    const k = Math.cos(angle[0] * 3) * 0.3;
    look.target[0] = hx + reach * (look.forward[0] + s * look.side[0] + k * look.up[0]);
    look.target[1] = hy + reach * (look.forward[1] + s * look.side[1] + k * look.up[1]);
    look.target[2] = hz + reach * (look.forward[2] + s * look.side[2] + k * look.up[2]);
    player.advance(1 / 60);
    player.evaluate();
    set.write(player.model, palettes, offsets);
    counts[2]++;
  };
  const what = `4 tracks (Loiter/Walk/Jog synced, Wave high masked to Bip01_R_Clavicle), ${markers} footstep markers on Walk and Jog, weight events every 2 s, look-at (${look.joints.length} joints) at a moving target; advance + evaluate + PaletteSet.write (${scene.meshes.length} meshes)`;
  return { frame, player, counts, what };
}

export async function runAllocBench(opts: AllocBenchOptions): Promise<Metric[]> {
  const log = opts.log ?? ((): void => {});
  const frames = opts.frames ?? FRAMES;
  const path = opts.path ?? ALLOC_MODEL;
  const dawn = dawnFrame(load(path));
  const d = await measure(dawn.frame, frames);
  const dawnWhat = `${frames} frames of ${dawn.what} on ${path.split('/').pop()}, after 2 × ${WARMUP / 1000}k warm-up frames; ${d.seconds.toFixed(1)} s`;
  log(`alloc: ${d.gcs} GCs, heap growth ${d.growth} bytes over ${frames} frames`);

  const tracksPath = opts.tracksPath ?? ALLOC_TRACKS_MODEL;
  const tracks = tracksAllocCase(load(tracksPath));
  const fired0 = tracks.counts[0];
  const keyed0 = tracks.counts[1];
  const t = await measure(tracks.frame, frames);
  const fired = tracks.counts[0] - fired0;
  const keyed = tracks.counts[1] - keyed0;
  const tracksWhat = `${frames} frames of ${tracks.what} on ${tracksPath.split('/').pop()}, after 2 × ${WARMUP / 1000}k warm-up frames; ${fired} markers fired and ${keyed} weight events scheduled in the measured frames; ${t.seconds.toFixed(1)} s`;
  log(`alloc tracks: ${t.gcs} GCs, heap growth ${t.growth} bytes over ${frames} frames (${fired} markers fired, ${keyed} events scheduled)`);
  return [
    { name: 'anim_gc_count_100k', value: d.gcs, unit: 'count', note: `PerformanceObserver 'gc' entries during ${dawnWhat}` },
    { name: 'anim_heap_growth_100k', value: d.growth, unit: 'bytes', note: 'heapUsed after − before (full GC before, none after) over the same loop' },
    { name: 'anim_tracks_gc_count_100k', value: t.gcs, unit: 'count', note: `PerformanceObserver 'gc' entries during ${tracksWhat}` },
    { name: 'anim_tracks_heap_growth_100k', value: t.growth, unit: 'bytes', note: 'heapUsed after − before (full GC before, none after) over the same loop' },
  ];
}
