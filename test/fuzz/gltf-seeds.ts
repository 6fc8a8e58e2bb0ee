import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { CorpusFile } from './plan.ts';

/**
 * The glTF fuzz seeds and their structure. Seeds are the small files of test/fixtures/gltf-fuzz (CC0
 * Khronos samples, compressed variants made by gltf-make-seeds.ts); a .gltf whose buffers are files beside
 * it gets them embedded as data: URIs, so every mutant is one self-contained input. The structure is found
 * once per seed: the parsed JSON and every path in it (for JSON-level mutations), the BIN chunk's place
 * (for binary ones), and the structural truncation points.
 */

export const GLTF_NAME = /\.(gltf|glb)$/i;

export interface GltfSeed {
  readonly format: 'gltf' | 'glb';
  /** The seed as mutants start from it. */
  readonly bytes: Uint8Array;
  readonly json: Record<string, unknown>;
  /** GLB BIN chunk data, or null. */
  readonly bin: Uint8Array | null;
  /** Offset of the BIN chunk's data in `bytes` (-1 without one) and of every chunk header. */
  readonly binAt: number;
  readonly chunkHeaders: readonly number[];
  /** Every path into the JSON (objects, arrays and leaves), root excluded. */
  readonly paths: readonly (readonly (string | number)[])[];
  /** Structural truncation points, ascending. */
  readonly cuts: Int32Array;
}

/** Every .gltf/.glb under `dir` (sorted, recursively), as fuzz files. */
export function gltfSeedFiles(dir: string): CorpusFile[] {
  const out: CorpusFile[] = [];
  const walk = (d: string): void => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (GLTF_NAME.test(name)) out.push({ name: d === dir ? name : `${basename(d)}-${name}`, path, size: statSync(path).size });
    }
  };
  walk(dir);
  return out;
}

function u32(b: Uint8Array, o: number): number {
  return (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return btoa(s);
}

function allPaths(v: unknown, prefix: (string | number)[], out: (string | number)[][]): void {
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push([...prefix, i]);
      allPaths(x, [...prefix, i], out);
    });
  } else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      out.push([...prefix, k]);
      allPaths(x, [...prefix, k], out);
    }
  }
}

/** Reads and analyses one seed file. */
export function analyseGltf(path: string): GltfSeed {
  const raw = new Uint8Array(readFileSync(path));
  const isGlb = raw[0] === 0x67 && raw[1] === 0x6c && raw[2] === 0x54 && raw[3] === 0x46;
  const cuts: number[] = [0, 4, 8, 12];
  if (isGlb) {
    const headers: number[] = [];
    let json: Record<string, unknown> = {};
    let bin: Uint8Array | null = null;
    let binAt = -1;
    for (let o = 12; o + 8 <= raw.length; ) {
      const len = u32(raw, o);
      const type = u32(raw, o + 4);
      headers.push(o);
      cuts.push(o + 4, o + 8, o + 8 + (len >> 1), o + 8 + len - 1);
      if (type === 0x4e4f534a) json = JSON.parse(new TextDecoder().decode(raw.subarray(o + 8, o + 8 + len))) as Record<string, unknown>;
      else if (type === 0x004e4942) {
        bin = raw.subarray(o + 8, o + 8 + len);
        binAt = o + 8;
      }
      o += 8 + len;
    }
    const paths: (string | number)[][] = [];
    allPaths(json, [], paths);
    return { format: 'glb', bytes: raw, json, bin, binAt, chunkHeaders: headers, paths, cuts: Int32Array.from(new Set(cuts.filter((c) => c < raw.length))).sort() };
  }
  const json = JSON.parse(new TextDecoder().decode(raw)) as Record<string, unknown>;
  const buffers = Array.isArray(json['buffers']) ? (json['buffers'] as Record<string, unknown>[]) : [];
  for (const b of buffers) {
    const uri = b['uri'];
    if (typeof uri === 'string' && !uri.startsWith('data:')) {
      const file = join(dirname(path), decodeURIComponent(uri));
      if (existsSync(file)) b['uri'] = `data:application/octet-stream;base64,${base64(new Uint8Array(readFileSync(file)))}`;
    }
  }
  const bytes = new TextEncoder().encode(JSON.stringify(json));
  const text = new TextDecoder().decode(bytes);
  for (let i = 0; i < text.length; i++) if (text[i] === ',' || text[i] === '{' || text[i] === '[') cuts.push(i + 1);
  const paths: (string | number)[][] = [];
  allPaths(json, [], paths);
  return { format: 'gltf', bytes, json, bin: null, binAt: -1, chunkHeaders: [], paths, cuts: Int32Array.from(new Set(cuts)).sort() };
}
