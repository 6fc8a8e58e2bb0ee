import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDefaultContainer, KHR_DF_MODEL_ETC1S, KHR_DF_MODEL_UASTC, KHR_SUPERCOMPRESSION_BASISLZ, write } from 'ktx-parse';
import { DEFAULT_LIMITS } from '../../src/loaders/textures/image.ts';
import { decodeKtx2, type Ktx2Support } from '../../src/loaders/textures/ktx2.ts';
import { threadCpuMs } from '../thread-cpu.ts';
import { caseRng, type Rng } from './rng.ts';

/**
 * The KTX2 decoder (src/loaders/textures/ktx2.ts: ktx-parse's checks, then Binomial's transcoder) under seeded
 * mutation. Seeds: made here with ktx-parse, UASTC images with a full and a partial mip chain whose blocks are
 * seeded noise and an ETC1S/BasisLZ image with made-up global data; and the two encoded images of
 * test/fixtures/ktx2 (real ETC1S + BasisLZ and UASTC + Zstd data).
 * Mutations: bit flips, byte runs, header and level-index fields set to edge values (0, 1, 2^31, 2^32 − 1,
 * sizes near the file's), truncation. Each input must decode or throw an Error whose message starts
 * "corrupt KTX2" or "unsupported KTX2" (the page then shows the checker with that warning), within `slowMs`
 * of CPU, with output no larger than the size limits allow; anything else is a failure.
 */

export interface Ktx2Case {
  readonly label: string;
  readonly bytes: Uint8Array;
}

export interface Ktx2Verdict {
  readonly verdict: 'ok' | 'refused' | 'crash' | 'slow' | 'oversize';
  readonly message: string;
}

const ALL: Ktx2Support = { astc: true, bc7: true, etc2: true, s3tc: true };
const NONE: Ktx2Support = { astc: false, bc7: false, etc2: false, s3tc: false };

function noise(n: number, r: Rng): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = r.int(256);
  return out;
}

function uastc(size: number, levels: number, r: Rng): Uint8Array {
  const c = createDefaultContainer();
  c.pixelWidth = size;
  c.pixelHeight = size;
  c.typeSize = 1;
  const dfd = c.dataFormatDescriptor[0]!;
  dfd.colorModel = KHR_DF_MODEL_UASTC;
  dfd.texelBlockDimension = [3, 3, 0, 0];
  dfd.bytesPlane = [16, 0, 0, 0, 0, 0, 0, 0];
  dfd.samples = [{ bitOffset: 0, bitLength: 127, channelType: 0, samplePosition: [0, 0, 0, 0], sampleLower: 0, sampleUpper: 0xffffffff }];
  for (let l = 0; l < levels; l++) {
    const s = Math.max(1, size >> l);
    const bytes = Math.ceil(s / 4) * Math.ceil(s / 4) * 16;
    c.levels.push({ levelData: noise(bytes, r) as Uint8Array<ArrayBuffer>, uncompressedByteLength: bytes });
  }
  c.levelCount = levels;
  return write(c);
}

function etc1s(size: number, r: Rng): Uint8Array {
  const c = createDefaultContainer();
  c.pixelWidth = size;
  c.pixelHeight = size;
  c.supercompressionScheme = KHR_SUPERCOMPRESSION_BASISLZ;
  const dfd = c.dataFormatDescriptor[0]!;
  dfd.colorModel = KHR_DF_MODEL_ETC1S;
  dfd.texelBlockDimension = [3, 3, 0, 0];
  dfd.bytesPlane = [0, 0, 0, 0, 0, 0, 0, 0];
  dfd.samples = [{ bitOffset: 0, bitLength: 63, channelType: 0, samplePosition: [0, 0, 0, 0], sampleLower: 0, sampleUpper: 0xffffffff }];
  c.levels.push({ levelData: noise(64, r) as Uint8Array<ArrayBuffer>, uncompressedByteLength: 0 });
  c.levelCount = 1;
  c.globalData = {
    endpointCount: 4,
    selectorCount: 4,
    imageDescs: [{ imageFlags: 0, rgbSliceByteOffset: 0, rgbSliceByteLength: 64, alphaSliceByteOffset: 0, alphaSliceByteLength: 0 }],
    endpointsData: noise(24, r) as Uint8Array<ArrayBuffer>,
    selectorsData: noise(24, r) as Uint8Array<ArrayBuffer>,
    tablesData: noise(24, r) as Uint8Array<ArrayBuffer>,
    extendedData: new Uint8Array(0),
  };
  return write(c);
}

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'ktx2');

/** The seeds, the same on every run: the made-up ones, then the encoded fixtures of test/fixtures/ktx2. */
export function ktx2Seeds(): readonly Ktx2Case[] {
  const r = caseRng(20261127, -2);
  return [
    { label: 'uastc-16-full', bytes: uastc(16, 5, r) },
    { label: 'uastc-12-partial', bytes: uastc(12, 2, r) },
    { label: 'etc1s-8', bytes: etc1s(8, r) },
    ...['quadrants-etc1s.ktx2', 'quadrants-uastc.ktx2'].map((f) => ({ label: f, bytes: new Uint8Array(readFileSync(join(FIXTURES, f))) })),
  ];
}

const EDGE = [0, 1, 2, 3, 4, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffff0, 65536, 16385];

/** Header fields (byte offsets) worth setting to edge values: sizes, counts, index offsets and lengths. */
const FIELDS = [20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 72, 80, 88, 96, 104, 112];

/** Case `index` of the run: a seed, mutated 1..4 times by `caseRng(seed, index)`. */
export function ktx2Case(seeds: readonly Ktx2Case[], seed: number, index: number): Ktx2Case {
  const r = caseRng(seed, index);
  const from = seeds[index % seeds.length]!;
  let bytes = from.bytes.slice();
  const steps: string[] = [];
  for (let k = 1 + r.int(4); k > 0; k--) {
    const what = r.int(5);
    const view = new DataView(bytes.buffer);
    if (what === 0) {
      const at = r.int(bytes.length);
      bytes[at] = bytes[at]! ^ (1 << r.int(8));
      steps.push(`flip@${at}`);
    } else if (what === 1) {
      const at = r.int(bytes.length);
      const n = Math.min(bytes.length - at, 1 + r.int(32));
      bytes.fill(r.chance(0.5) ? 0xff : r.int(256), at, at + n);
      steps.push(`run@${at}+${n}`);
    } else if (what === 2 || what === 3) {
      const field = FIELDS[r.int(FIELDS.length)]!;
      if (field + 4 > bytes.length) continue;
      const value = r.chance(0.7) ? EDGE[r.int(EDGE.length)]! : bytes.length + r.int(64) - 32;
      view.setUint32(field, value >>> 0, true);
      steps.push(`u32@${field}=${value >>> 0}`);
    } else {
      const to = r.int(bytes.length);
      bytes = bytes.slice(0, to);
      steps.push(`cut@${to}`);
    }
  }
  return { label: `${from.label}: ${steps.join(' ')}`, bytes };
}

/** One input through decodeKtx2 for a device with every format and one with none (the RGBA8 fallback). */
export async function runKtx2Case(bytes: Uint8Array, slowMs: number): Promise<Ktx2Verdict> {
  const cpu0 = threadCpuMs();
  for (const support of [ALL, NONE]) {
    try {
      const image = await decodeKtx2(bytes, support, DEFAULT_LIMITS);
      const out = image.levels.reduce((a, l) => a + l.data.length, 0);
      if (out > (DEFAULT_LIMITS.maxPixels * 4 * 4) / 3 + 64) return { verdict: 'oversize', message: `${out} bytes of levels` };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (!(e instanceof Error) || !/^(corrupt|unsupported) KTX2: /.test(message)) return { verdict: 'crash', message: `${e instanceof Error ? e.name : typeof e}: ${message.slice(0, 300)}` };
      if (threadCpuMs() - cpu0 > slowMs) return { verdict: 'slow', message };
      return { verdict: 'refused', message };
    }
  }
  if (threadCpuMs() - cpu0 > slowMs) return { verdict: 'slow', message: 'decoded' };
  return { verdict: 'ok', message: '' };
}

export interface Ktx2Run {
  readonly tried: number;
  readonly ok: number;
  readonly refused: number;
  /** 'index label: verdict message' per failure. */
  readonly failures: readonly string[];
}

/** Cases 0.. of `seed` until `maxCases` or `seconds` of wall time; `onFailure` gets each failing input. */
export async function runKtx2Fuzz(seed: number, maxCases: number, seconds: number, slowMs = 2000, onFailure?: (c: Ktx2Case, v: Ktx2Verdict, index: number) => void): Promise<Ktx2Run> {
  const seeds = ktx2Seeds();
  const end = performance.now() + seconds * 1000;
  let tried = 0, ok = 0, refused = 0;
  const failures: string[] = [];
  for (let i = 0; i < maxCases && performance.now() < end; i++) {
    // The unmutated seeds first, then the mutants.
    const c = i < seeds.length ? seeds[i]! : ktx2Case(seeds, seed, i);
    const v = await runKtx2Case(c.bytes, slowMs);
    tried++;
    if (v.verdict === 'ok') ok++;
    else if (v.verdict === 'refused') refused++;
    else {
      failures.push(`${i} ${c.label}: ${v.verdict} ${v.message}`);
      onFailure?.(c, v, i);
    }
  }
  return { tried, ok, refused, failures };
}
