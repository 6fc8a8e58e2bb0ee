/**
 * Loading benchmark (issue item 3): loadModel(bytes) → validated Scene, against Assimp's WebAssembly build
 * (npm assimpjs: ConvertFileList(…, 'assjson')) on the same bytes in the same run, interleaved.
 *
 * What each side does (also in the metric notes):
 * - ours: sniff the format, decode (.x text tokenizer / binary reader / MSZIP inflate; .m3d text parser),
 *   build the format-neutral Scene (typed arrays, parents before children, Z mirrored to right-handed,
 *   skin weights sorted and truncated to 4, clips in seconds) and validate it.
 * - assimp: import (its .x importer; no Luna .m3d importer exists) with assimpjs's fixed post-processing,
 *   then export the aiScene to JSON text (assjson), all inside WebAssembly; we decode nothing of its output.
 *   The JSON export is part of the only path assimpjs offers, so its time is included.
 *
 * Metrics: load_<file>_mb_per_s (ours, file bytes / median time; MB = 10^6 bytes), load_<file>_ms,
 * load_<file>_assimp_ms and load_<file>_ratio_vs_assimp (assimp time / ours).
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadModel } from '../loaders/load-model.ts';
import type { Metric } from './metric.ts';
import { interleaved } from './timing.ts';

export interface LoadFile {
  readonly id: string;
  readonly path: string;
  /** False where Assimp has no importer (Luna .m3d). */
  readonly assimp: boolean;
}

export const LOAD_FILES: readonly LoadFile[] = [
  { id: 'tiny_x', path: '../shared/corpus/tiny.x', assimp: true },
  { id: 'dbpro_zombie_x', path: '../shared/corpus/dbpro_zombie.x', assimp: true },
  { id: 'bat_x', path: '../shared/corpus/bat.x', assimp: true },
  { id: 'soldier_m3d', path: '../shared/corpus/soldier.m3d', assimp: false },
];

interface AssimpResult {
  IsSuccess(): boolean;
  FileCount(): number;
  GetErrorCode(): string;
  GetFile(i: number): { GetContent(): Uint8Array };
  delete?(): void;
}
interface AssimpFileList {
  AddFile(name: string, bytes: Uint8Array): void;
  delete?(): void;
}
interface Assimp {
  FileList: new () => AssimpFileList;
  ConvertFileList(list: AssimpFileList, format: string): AssimpResult;
}

let assimpPromise: Promise<Assimp> | null = null;

/** Loads the WebAssembly module once per process. */
export function loadAssimp(): Promise<Assimp> {
  if (assimpPromise === null) {
    const require = createRequire(import.meta.url);
    const factory = require('assimpjs') as () => Promise<Assimp>;
    assimpPromise = factory();
  }
  return assimpPromise;
}

/** One Assimp import + JSON export of `bytes`; returns the JSON's byte length (throws on failure). */
export function assimpConvert(ajs: Assimp, name: string, bytes: Uint8Array): number {
  const list = new ajs.FileList();
  list.AddFile(name, bytes);
  const result = ajs.ConvertFileList(list, 'assjson');
  try {
    if (!result.IsSuccess() || result.FileCount() === 0) throw new Error(`assimp could not read ${name}: ${result.GetErrorCode()}`);
    return result.GetFile(0).GetContent().length;
  } finally {
    result.delete?.();
    list.delete?.();
  }
}

export interface LoadBenchOptions {
  readonly quick: boolean;
  readonly files?: readonly LoadFile[];
  readonly log?: (line: string) => void;
}

export async function runLoadBench(opts: LoadBenchOptions): Promise<Metric[]> {
  const log = opts.log ?? ((): void => {});
  const ajs = await loadAssimp();
  const out: Metric[] = [];
  for (const f of opts.files ?? LOAD_FILES) {
    const name = f.path.split('/').pop()!;
    const bytes = new Uint8Array(readFileSync(f.path));
    const ours = (): void => void loadModel(name, bytes);
    const peer = (): void => void assimpConvert(ajs, name, bytes);
    // Warm-up (JIT on our side, the wasm module's first-use costs on theirs); two runs per side.
    const warm = opts.quick ? 1 : 2;
    for (let i = 0; i < warm; i++) {
      ours();
      if (f.assimp) peer();
    }
    // Budget: 11 runs per side for a full run (assimp takes seconds on the big files), 3 quick.
    const rounds = opts.quick ? 3 : 11;
    const [oursUs, peerUs] = interleaved(f.assimp ? [ours, peer] : [ours], rounds, 1);
    const ms = oursUs / 1000;
    const mb = bytes.length / 1e6;
    out.push(
      { name: `load_${f.id}_mb_per_s`, value: mb / (ms / 1000), unit: 'MB/s', note: `ours: loadModel (decode + build + validate) of ${bytes.length} bytes, median of ${rounds}` },
      { name: `load_${f.id}_ms`, value: ms, unit: 'ms' },
    );
    if (f.assimp) {
      const peerMs = peerUs / 1000;
      out.push(
        { name: `load_${f.id}_assimp_ms`, value: peerMs, unit: 'ms', note: 'assimpjs 0.0.10: Assimp import with its default post-processing + export to JSON (assjson), in WebAssembly' },
        { name: `load_${f.id}_ratio_vs_assimp`, value: peerMs / ms, unit: 'x', note: 'assimp ms / ours ms, same bytes, same run, interleaved' },
      );
      log(`load ${name}: ours ${ms.toFixed(1)} ms (${(mb / (ms / 1000)).toFixed(1)} MB/s), assimp ${peerMs.toFixed(1)} ms, ratio ${(peerMs / ms).toFixed(2)}x`);
    } else {
      log(`load ${name}: ours ${ms.toFixed(1)} ms (${(mb / (ms / 1000)).toFixed(1)} MB/s); assimp has no Luna .m3d importer`);
    }
  }
  return out;
}
