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
 * - Draco and meshopt: both sides decode with the same official decoders (draco3d, meshoptimizer), three
 *   through NodeDracoLoader (three-draco-node.ts: in the calling thread, as DRACOLoader's workers cannot run
 *   in Node) and GLTFLoader.setMeshoptDecoder.
 * - A .gltf is packed into one GLB in memory first (its external buffers as the BIN chunk, images left as
 *   external URIs, which neither side fetches), so both sides parse the same bytes with nothing to fetch.
 *
 * Files: Fox, CesiumMan, RobotExpressive and the Draco CesiumMan from ../shared/corpus-gltf; BrainStem.glb and
 * LittlestTokyo.glb (Draco) when present, looked for in $SKINLAB_BENCH_GLTF (a folder), then in the corpus's
 * khronos/ and threejs/ folders; the bench says which ones are absent. Then the synthetic Draco scene
 * (draco-scene.ts: 60 compressed meshes, 240 animated nodes; made when missing), `draco_scene_glb`.
 *
 * Metrics: load_<file>_ms, load_<file>_threejs_ms (median CPU time of this process: the machine may be shared),
 * load_<file>_ratio_vs_threejs (three / ours: the median of each round's CPU-time ratio; wall times are logged).
 */

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Texture } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { loadDecoders } from '../loaders/gltf/gltf-decoders.ts';
import { loadModelAsync } from '../loaders/load-model.ts';
import type { Metric } from './metric.ts';
import { dracoScenePath } from './draco-scene.ts';
import { NodeDracoLoader } from './three-draco-node.ts';
import { median } from './timing.ts';

export interface GltfLoadFile {
  readonly id: string;
  /** A path, or (`optional`) a file name looked for in the folders of optionalPaths(). */
  readonly path: string;
  readonly optional?: boolean;
}

const CORPUS = '../shared/corpus-gltf';

export const GLTF_LOAD_FILES: readonly GltfLoadFile[] = [
  { id: 'fox_glb', path: `${CORPUS}/khronos/Fox.glb` },
  { id: 'cesiumman_glb', path: `${CORPUS}/khronos/CesiumMan.glb` },
  { id: 'robotexpressive_glb', path: `${CORPUS}/threejs/RobotExpressive.glb` },
  { id: 'cesiumman_draco', path: `${CORPUS}/khronos/CesiumMan-Draco/CesiumMan.gltf` },
  { id: 'brainstem_glb', path: 'BrainStem.glb', optional: true },
  { id: 'littlesttokyo_glb', path: 'LittlestTokyo.glb', optional: true },
];

/** Where an optional file is looked for, in order. */
function optionalPaths(name: string): string[] {
  const dirs = [process.env['SKINLAB_BENCH_GLTF'], `${CORPUS}/khronos`, `${CORPUS}/threejs`].filter((d): d is string => !!d);
  return dirs.map((d) => join(d, name));
}

/** A GLTFLoader that parses everything but image pixels, decoding Draco and meshopt (see the file comment). */
async function threeLoader(): Promise<GLTFLoader> {
  const loader = new GLTFLoader();
  loader.register(() => ({ name: 'skinlab_bench_no_images', loadTexture: () => Promise.resolve(new Texture()) }));
  const { draco } = await loadDecoders({ extensionsUsed: ['KHR_draco_mesh_compression'] }, 'bench');
  loader.setDRACOLoader(new NodeDracoLoader(draco!) as never);
  const { MeshoptDecoder } = await import('meshoptimizer/decoder');
  await MeshoptDecoder.ready;
  loader.setMeshoptDecoder(MeshoptDecoder);
  return loader;
}

/**
 * The file's bytes as one GLB: a .glb as it is; a .gltf with its external buffers (read from its folder)
 * joined, 4-byte aligned, into the BIN chunk and its bufferViews moved there. Data: URIs and images stay.
 */
export function asGlb(path: string): Uint8Array {
  const file = new Uint8Array(readFileSync(path));
  if (!path.toLowerCase().endsWith('.gltf')) return file;
  const json = JSON.parse(new TextDecoder().decode(file)) as { buffers?: { uri?: string; byteLength: number }[]; bufferViews?: { buffer: number; byteOffset?: number }[] };
  const starts: number[] = [];
  const parts: Uint8Array[] = [];
  let size = 0;
  const buffers = json.buffers ?? [];
  for (const b of buffers) {
    if (!b.uri || b.uri.startsWith('data:')) throw new Error(`${path}: only external buffers are packed`);
    const bytes = new Uint8Array(readFileSync(join(dirname(path), decodeURIComponent(b.uri))));
    starts.push(size);
    parts.push(bytes);
    size += (bytes.length + 3) & ~3;
  }
  for (const v of json.bufferViews ?? []) {
    v.byteOffset = (v.byteOffset ?? 0) + starts[v.buffer]!;
    v.buffer = 0;
  }
  json.buffers = buffers.length > 0 ? [{ byteLength: size }] : [];
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = (text.length + 3) & ~3;
  const total = 12 + 8 + jsonLength + (size > 0 ? 8 + size : 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, jsonLength, true);
  dv.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jsonLength);
  out.set(text, 20);
  if (size > 0) {
    const o = 20 + jsonLength;
    dv.setUint32(o, size, true);
    dv.setUint32(o + 4, 0x004e4942, true);
    parts.forEach((p, i) => out.set(p, o + 8 + starts[i]!));
  }
  return out;
}

/** CPU time of this process so far (user + system), µs. */
function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

interface PairTimes {
  /** Median CPU µs of each step. */
  readonly cpu: [number, number];
  /** Median wall-clock µs of each step. */
  readonly wall: [number, number];
  /** Median over rounds of step 1's CPU time / step 0's (each round's pair measured back to back). */
  readonly ratio: number;
}

/**
 * Runs the two async steps once per round, alternating which goes first. Both CPU time (this process's,
 * so other processes on a shared machine do not count) and wall time are taken; the ratio is the median of
 * the rounds' own ratios, so a burst of load that slows one round slows both of its sides.
 */
async function interleavedPair(steps: readonly [() => Promise<unknown>, () => Promise<unknown>], rounds: number): Promise<PairTimes> {
  const cpu: [number[], number[]] = [[], []];
  const wall: [number[], number[]] = [[], []];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < 2; j++) {
      const k = r % 2 === 0 ? j : 1 - j;
      const t0 = performance.now();
      const c0 = cpuUs();
      await steps[k]!();
      cpu[k]!.push(cpuUs() - c0);
      wall[k]!.push((performance.now() - t0) * 1000);
    }
    ratios.push(cpu[1]![r]! / Math.max(1, cpu[0]![r]!));
  }
  return { cpu: [median(cpu[0]), median(cpu[1])], wall: [median(wall[0]), median(wall[1])], ratio: median(ratios) };
}

export interface GltfLoadBenchOptions {
  readonly quick: boolean;
  readonly files?: readonly GltfLoadFile[];
  readonly log?: (line: string) => void;
}

export async function runGltfLoadBench(opts: GltfLoadBenchOptions): Promise<Metric[]> {
  const log = opts.log ?? ((): void => {});
  const out: Metric[] = [];
  const loader = await threeLoader();
  // The synthetic large Draco scene (draco-scene.ts), made when missing, after the files above.
  const files = opts.files ?? [...GLTF_LOAD_FILES, { id: 'draco_scene_glb', path: await dracoScenePath() }];
  for (const f of files) {
    const candidates = f.optional ? optionalPaths(f.path) : [f.path];
    const path = candidates.find((p) => existsSync(p));
    if (!path) {
      log(`load ${f.id}: skipped, absent (looked for ${candidates.join(', ')}${f.optional ? '; set SKINLAB_BENCH_GLTF to a folder holding it' : ''})`);
      continue;
    }
    const name = path.split('/').pop()!.replace(/\.gltf$/i, '.glb');
    const bytes = asGlb(path);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const ours = (): Promise<unknown> => loadModelAsync(name, bytes);
    const peer = (): Promise<unknown> => loader.parseAsync(buffer, '');
    const warm = opts.quick ? 2 : 5;
    for (let i = 0; i < warm; i++) {
      await ours();
      await peer();
    }
    const rounds = opts.quick ? 5 : 25;
    const t = await interleavedPair([ours, peer], rounds);
    const ms = t.cpu[0] / 1000;
    const peerMs = t.cpu[1] / 1000;
    out.push(
      { name: `load_${f.id}_ms`, value: ms, unit: 'ms', note: `ours: loadModelAsync (container + checks + document + Scene + validation) of ${bytes.length} bytes, median CPU time of ${rounds}` },
      { name: `load_${f.id}_threejs_ms`, value: peerMs, unit: 'ms', note: 'three.js r187 GLTFLoader.parse (image pixels not decoded; Draco/meshopt decoded), median CPU time, same run' },
      { name: `load_${f.id}_ratio_vs_threejs`, value: t.ratio, unit: 'x', note: 'three / ours, median of the rounds\' CPU-time ratios, same bytes, same run, interleaved' },
    );
    log(
      `load ${f.id} (${name}): CPU ours ${ms.toFixed(2)} ms, three.js ${peerMs.toFixed(2)} ms, ratio ${t.ratio.toFixed(2)}x ` +
        `(wall ${(t.wall[0] / 1000).toFixed(2)} / ${(t.wall[1] / 1000).toFixed(2)} ms)`,
    );
  }
  return out;
}
