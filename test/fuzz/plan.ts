import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { GLTF_HOSTILE } from './gltf-hostile.ts';
import { mutateGltf, truncatedGltf } from './gltf-mutate.ts';
import { analyseGltf, GLTF_NAME, type GltfSeed } from './gltf-seeds.ts';
import { HOSTILE, type HostileInput } from './hostile.ts';
import { mutate, truncated, type Mutant } from './mutate.ts';
import { caseRng } from './rng.ts';
import { analyse, type Shape } from './structure.ts';

/**
 * What a campaign runs, as a pure function of (files, seed, sweep size): case index → mutant.
 *
 * Cases [0, HOSTILE.length) are the hand-built hostile inputs (hostile.ts), counted as one more "file" after
 * the corpus (index files.length). The next `sweepTotal` cases are the truncation sweep: each file cut at evenly spread structural points
 * (all of them for small files; fewer for large ones, whose cases are slower). Every later case picks a
 * file from a weighted round (small files more often than large ones: weight √(1 MiB / size), 1..32)
 * and draws one mutation from `caseRng(seed, index)`. Both the worker running a case and a parent
 * re-creating it after a hang build the same mutant.
 */

export interface CorpusFile {
  /** Name given to the loader (the corpus file name). */
  readonly name: string;
  readonly path: string;
  readonly size: number;
}

export interface Plan {
  readonly seed: number;
  readonly files: readonly CorpusFile[];
  /** Hostile inputs first: the sweep starts at this case index. */
  readonly hostile: number;
  /** Sweep cases per file, in file order; their sum is sweepTotal. */
  readonly sweep: readonly number[];
  readonly sweepTotal: number;
  /** One round of the random phase: file indices, shuffled by the seed. */
  readonly round: readonly number[];
  /** Which hand-built inputs lead: .x/.m3d ones, glTF ones, or both (by the formats among the files). */
  readonly hostileSet: 'x' | 'gltf' | 'both';
}

/** The hostile inputs of a plan, in case order. */
export function hostileList(plan: Pick<Plan, 'hostileSet'>): readonly HostileInput[] {
  return plan.hostileSet === 'x' ? HOSTILE : plan.hostileSet === 'gltf' ? GLTF_HOSTILE : [...HOSTILE, ...GLTF_HOSTILE];
}

/** Generated models above this size are left out (the walker and Dawn files are several MiB each). */
export const MAX_GENERATED_BYTES = 1 << 20;

const MODEL = /\.(x|m3d)$/i;

/** Every .x and .m3d of the corpus, then the generated models no larger than MAX_GENERATED_BYTES. */
export function corpusFiles(corpusDir: string, generatedDir: string | null): CorpusFile[] {
  const out: CorpusFile[] = [];
  const add = (dir: string, cap: number): void => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (!MODEL.test(name)) continue;
      const size = statSync(path).size;
      if (size <= cap) out.push({ name: basename(name), path, size });
    }
  };
  add(corpusDir, Infinity);
  if (generatedDir !== null) add(generatedDir, MAX_GENERATED_BYTES);
  return out;
}

export function makePlan(files: readonly CorpusFile[], seed: number, sweepUnits: number, shapes: ShapeCache): Plan {
  const sweep = files.map((f, i) => {
    const cuts = Math.max(1, GLTF_NAME.test(f.name) ? shapes.gltf(i).cuts.length : shapes.get(i).cuts.length);
    return Math.min(cuts, Math.round(sweepUnits * Math.min(1, 32768 / Math.max(1, f.size))) || 1);
  });
  const round: number[] = [];
  files.forEach((f, i) => {
    const w = Math.max(1, Math.min(32, Math.round(Math.sqrt((1 << 20) / Math.max(1, f.size)))));
    for (let k = 0; k < w; k++) round.push(i);
  });
  const r = caseRng(seed, -1);
  for (let i = round.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [round[i], round[j]] = [round[j]!, round[i]!];
  }
  const gltf = files.some((f) => GLTF_NAME.test(f.name));
  const other = files.some((f) => !GLTF_NAME.test(f.name));
  const hostileSet = gltf && other ? 'both' : gltf ? 'gltf' : 'x';
  const hostile = hostileList({ hostileSet }).length;
  return { seed, files, hostile, sweep, sweepTotal: sweep.reduce((a, b) => a + b, 0), round, hostileSet };
}

/** Corpus bytes and their Shapes (glTF: GltfSeeds), read and analysed on first use. */
export class ShapeCache {
  private readonly shapes = new Map<number, Shape>();
  private readonly seeds = new Map<number, GltfSeed>();
  gltf(i: number): GltfSeed {
    let s = this.seeds.get(i);
    if (s === undefined) {
      s = analyseGltf(this.files[i]!.path);
      this.seeds.set(i, s);
    }
    return s;
  }
  constructor(private readonly files: readonly CorpusFile[]) {}
  get(i: number): Shape {
    let s = this.shapes.get(i);
    if (s === undefined) {
      const f = this.files[i]!;
      s = analyse(new Uint8Array(readFileSync(f.path)), f.name);
      this.shapes.set(i, s);
    }
    return s;
  }
}

/** The file case `index` mutates, or files.length for a hostile input. */
export function fileOf(plan: Plan, index: number): number {
  if (index < plan.hostile) return plan.files.length;
  let k = index - plan.hostile;
  if (k < plan.sweepTotal) {
    for (let f = 0; f < plan.sweep.length; f++) {
      if (k < plan.sweep[f]!) return f;
      k -= plan.sweep[f]!;
    }
  }
  return plan.round[(k - plan.sweepTotal) % plan.round.length]!;
}

/** Name of what case `index` derives from: a corpus file or `hostile:<name>`. */
export function sourceOf(plan: Plan, index: number): string {
  return index < plan.hostile ? `hostile:${hostileList(plan)[index]!.name}` : plan.files[fileOf(plan, index)]!.name;
}

export function mutantAt(plan: Plan, shapes: ShapeCache, index: number): { file: number; mutant: Mutant } {
  if (index < plan.hostile) {
    const h = hostileList(plan)[index]!;
    return { file: plan.files.length, mutant: { bytes: h.bytes(), fileName: h.name, label: `hostile:${h.name}` } };
  }
  const file = fileOf(plan, index);
  const name = plan.files[file]!.name;
  let k = index - plan.hostile;
  if (k < plan.sweepTotal) {
    for (let f = 0; f < file; f++) k -= plan.sweep[f]!;
    if (GLTF_NAME.test(name)) return { file, mutant: truncatedGltf(shapes.gltf(file), name, k, plan.sweep[file]!) };
    return { file, mutant: truncated(shapes.get(file), name, k, plan.sweep[file]!) };
  }
  if (GLTF_NAME.test(name)) return { file, mutant: mutateGltf(shapes.gltf(file), name, caseRng(plan.seed, index)) };
  return { file, mutant: mutate(shapes.get(file), name, caseRng(plan.seed, index)) };
}
