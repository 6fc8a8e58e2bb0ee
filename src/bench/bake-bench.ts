/**
 * Crowd bake benchmark (CPU part of `npm run bench`): anim/crowd-bake.ts bakeCrowd — every clip's palettes
 * sampled at the bake rate and a bounding sphere per clip, the one-time work of a model's first baked crowd
 * frame — for tiny.x and Dawn's three detail levels (the generated m3d files; `npm run gen` writes them).
 *
 * Metrics, per model M (tiny, dawn_low, dawn_medium, dawn_high): bake_M_ms (median wall-clock ms of one
 * bake over a few runs) and bake_M_bytes (the RGBA32F texture the page uploads the palettes into,
 * gpu/crowd-bake-texture.ts: rows of 256 slots, 16 bytes a texel, 4 texels a slot). A missing model is
 * reported and skipped.
 */

import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { bakeCrowd } from '../anim/crowd-bake.ts';
import { loadModel } from '../loaders/load-model.ts';
import type { Metric } from './metric.ts';
import { median } from './timing.ts';

const MODELS: readonly { label: string; path: string }[] = [
  { label: 'tiny', path: 'public/models/tiny/tiny.x' },
  { label: 'dawn_low', path: 'public/models/generated/dawn-low.m3d' },
  { label: 'dawn_medium', path: 'public/models/generated/dawn-medium.m3d' },
  { label: 'dawn_high', path: 'public/models/generated/dawn-high.m3d' },
];

/** Slots of one row of the bake's texture (gpu/palette-texture.ts PALETTE_TEXTURE_ROW_SLOTS). */
const ROW_SLOTS = 256;

export interface BakeBenchOptions {
  readonly quick: boolean;
  readonly log?: (line: string) => void;
}

export function runBakeBench(opts: BakeBenchOptions): Metric[] {
  const log = opts.log ?? ((): void => {});
  const runs = opts.quick ? 3 : 7;
  const out: Metric[] = [];
  for (const { label, path } of MODELS) {
    if (!existsSync(path)) {
      log(`bake ${label}: skipped (${path} is missing)`);
      continue;
    }
    const scene = loadModel(basename(path), new Uint8Array(readFileSync(path)));
    const ms: number[] = [];
    let bytes = 0;
    let frames = 0;
    let slots = 0;
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      const bake = bakeCrowd(scene);
      ms.push(performance.now() - t0);
      frames = bake.frameCount;
      slots = bake.slotsPerFrame;
      bytes = Math.max(1, Math.ceil((frames * slots) / ROW_SLOTS)) * ROW_SLOTS * 4 * 16;
    }
    const m = median(ms);
    out.push({ name: `bake_${label}_ms`, value: m, unit: 'ms', note: `bakeCrowd: ${frames} frames of ${slots} slots and a bounding sphere per clip, median of ${runs}` });
    out.push({ name: `bake_${label}_bytes`, value: bytes, unit: 'B', note: 'the bake texture (RGBA32F, rows of 256 slots)' });
    log(`bake ${label}: ${m.toFixed(1)} ms, ${frames} frames × ${slots} slots, ${(bytes / 1048576).toFixed(2)} MiB`);
  }
  return out;
}
