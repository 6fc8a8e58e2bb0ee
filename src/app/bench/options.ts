/**
 * The in-page benchmark's options (`window.skinlab.bench(options)`, `?bench=`) and the plan they make: which
 * models, techniques, crowd sizes, how many frames per window and how many windows. Pure; no DOM, no GL.
 */

export type BenchPart = 'techniques' | 'crowd' | 'scenes' | 'all';
export const BENCH_PARTS: readonly BenchPart[] = ['techniques', 'crowd', 'scenes', 'all'];

/** What the runner reports while it runs (the UI's progress line, the CLI's log). */
export interface BenchProgress {
  /** 1-based step and the number of steps planned. */
  readonly step: number;
  readonly steps: number;
  /** e.g. "techniques: dawn_high, stream-out (shadows on)". */
  readonly text: string;
}

export interface BenchOptions {
  /** Short run: 2 frames per window, one window per figure, N up to 1000, shadows off only, no Dawn high. */
  quick?: boolean;
  /** Which parts (default `all`: techniques and crowd, and the crowd scenes in a full run unless `scenes` is false). */
  parts?: BenchPart;
  /** With `all`: false leaves the crowd scenes (10,000-instance pages) out of a full run (a software renderer's). */
  scenes?: boolean;
  /** Model labels to measure (default: every one of BENCH_MODELS, less dawn_high in quick mode). */
  models?: readonly string[];
  /** Technique ids to measure (default: every one the page lists and the model can use). */
  techniques?: readonly string[];
  /**
   * Crowd sizes (default 1, 10, 100, 1000, 10000; quick up to 1000, and only while a frame is predicted to take
   * under 1.5 s: on a software renderer a quick run stops at 10 or 100). Sizes over the page's crowd limit are left out.
   */
  sizes?: readonly number[];
  /** Measure the three.js peer in the crowd part (default true). */
  peer?: boolean;
  /** `wall`: behave as if the GPU timer extension were absent (wall time only). Default `auto`. */
  timer?: 'auto' | 'wall';
  /** Measure every technique with shadows on as well as off (default: full run yes, quick run no). */
  shadows?: boolean;
  /** Crowd part: instance culling on or off (default: the page's setting). */
  cull?: boolean;
  /** Crowd part: a fixed camera (the `camera` URL value) instead of framing each crowd. */
  camera?: string;
  /** Crowd part: a word put in every crowd row's name (`crowd_<tag>_<path>_<N>_…`) to tell such runs apart. */
  tag?: string;
  /** Called before each step. */
  onProgress?: (p: BenchProgress) => void;
}

/** The models of the techniques part: a row label and the page parameters that load it. */
export const BENCH_MODELS: readonly { label: string; params: Record<string, string>; what: string }[] = [
  { label: 'tiny', params: { model: 'tiny' }, what: 'tiny.x (35 bones, 6.8k triangles)' },
  { label: 'walker', params: { model: 'default' }, what: 'Walker (43 bones, 22k triangles)' },
  { label: 'dawn', params: { model: 'dawn', detail: 'medium' }, what: 'Dawn detail=medium (100 bones, 71k triangles)' },
  { label: 'dawn_high', params: { model: 'dawn', detail: 'high' }, what: 'Dawn detail=high (100 bones, 214k triangles)' },
  { label: 'fox', params: { model: 'fox' }, what: 'glTF Fox (Khronos sample, 24 joints)' },
];

export const CROWD_SIZES: readonly number[] = [1, 10, 100, 1000, 10000];

export interface BenchPlan {
  readonly quick: boolean;
  readonly techniques: boolean;
  readonly crowd: boolean;
  /** The crowd scenes part (crowd-scenes.ts): asked for, or `all` in a full run. */
  readonly scenes: boolean;
  readonly models: readonly (typeof BENCH_MODELS)[number][];
  /** Technique ids to keep (null: all the page lists). */
  readonly techniqueIds: readonly string[] | null;
  readonly sizes: readonly number[];
  /** Sizes asked for but over the page's crowd limit. */
  readonly skippedSizes: readonly number[];
  readonly peer: boolean;
  readonly forceWall: boolean;
  /** Whether the model with this label is also measured with shadows on. */
  shadowsFor(label: string): boolean;
  /** Windows per figure (the best is kept). */
  readonly windows: number;
  /** Frames per window from the wall time of a warm-up frame (ms); null: a fixed count, no warm-up window. */
  readonly framesFor: ((warmMs: number) => number) | null;
  /** The fixed count when framesFor is null. */
  readonly fixedFrames: number;
  /**
   * Quick runs: a crowd size whose frame would take longer than this (extrapolated linearly in N from the last
   * size measured, ours or the peer's, whichever is slower) is left out with the reason; Infinity otherwise.
   */
  readonly crowdFrameBudgetMs: number;
  /** Crowd part: page parameters set with the crowd model (cull, camera) and the row-name tag ('' for none). */
  readonly crowdParams: Readonly<Record<string, unknown>>;
  readonly crowdTag: string;
}

/** Validates options (throws with a clear message) and makes the plan. `maxCrowd`: the page's crowd limit. */
export function benchPlan(o: BenchOptions, maxCrowd: number): BenchPlan {
  const quick = o.quick === true;
  const parts = o.parts ?? 'all';
  if (o.tag !== undefined && !/^[a-z0-9]+$/.test(o.tag)) throw new Error(`bench: tag must be lower-case letters and digits (got ${JSON.stringify(o.tag)})`);
  if (!BENCH_PARTS.includes(parts)) throw new Error(`bench: parts must be one of ${BENCH_PARTS.join(', ')} (got ${String(parts)})`);
  let models = BENCH_MODELS.filter((m) => !(quick && m.label === 'dawn_high'));
  if (o.models) {
    const unknown = o.models.filter((l) => !BENCH_MODELS.some((m) => m.label === l));
    if (unknown.length > 0) throw new Error(`bench: unknown model ${unknown.join(', ')} (models: ${BENCH_MODELS.map((m) => m.label).join(', ')})`);
    models = BENCH_MODELS.filter((m) => o.models!.includes(m.label));
  }
  const asked = o.sizes ?? CROWD_SIZES.filter((n) => !quick || n <= 1000);
  for (const n of asked) if (!Number.isInteger(n) || n < 1) throw new Error(`bench: crowd size ${n} is not a whole number ≥ 1`);

  return {
    quick,
    techniques: parts === 'techniques' || parts === 'all',
    crowd: parts === 'crowd' || parts === 'all',
    scenes: parts === 'scenes' || (parts === 'all' && !quick && o.scenes !== false),
    models,
    techniqueIds: o.techniques ? [...o.techniques] : null,
    sizes: asked.filter((n) => n <= maxCrowd),
    skippedSizes: asked.filter((n) => n > maxCrowd),
    peer: o.peer !== false,
    forceWall: o.timer === 'wall',
    shadowsFor: () => o.shadows ?? !quick,
    windows: quick ? 1 : 3,
    // Quick: the frame set() draws with a new setting does its one-time work; then one window of 2 frames.
    framesFor: quick ? null : (warmMs) => framesFor(warmMs, 250, 4, 120),
    fixedFrames: 2,
    crowdFrameBudgetMs: quick ? 1500 : Infinity,
    crowdParams: { ...(o.cull === undefined ? {} : { cull: o.cull }), ...(o.camera === undefined ? {} : { camera: o.camera }) },
    crowdTag: o.tag ?? '',
  };
}

/** Frames that fill about `targetMs` of wall time at `warmMs` a frame, within [lo, hi]. */
export function framesFor(warmMs: number, targetMs: number, lo: number, hi: number): number {
  if (!Number.isFinite(warmMs) || warmMs <= 0) return hi;
  return Math.max(lo, Math.min(hi, Math.round(targetMs / warmMs)));
}
