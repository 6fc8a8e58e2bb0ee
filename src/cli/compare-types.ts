import type { Manifest, ManifestEntry } from '../app/record-plan.ts';
import type { RuleName, Rules, Worst } from './compare-rules.ts';

/**
 * The result types of `compare`: what `compareRecordings` produces and what the HTML report and the
 * summary table read. Types only, so `compare.ts` and `shots-report.ts` both import them from here and
 * neither imports the other's module.
 */

/**
 * - `pass` / `fail`: both rendered, compared (fail: a rule of compare-rules.ts broken, or sizes differ)
 * - `skipped`: skipped in both recordings (same build limits)
 * - `missing`: in the baseline, not rendered in the new recording (absent or skipped)
 * - `added`: rendered in the new recording, absent or skipped in the baseline
 */
export type PairStatus = 'pass' | 'fail' | 'skipped' | 'missing' | 'added';

export interface PairResult {
  key: string;
  label: string;
  status: PairStatus;
  /** Differing pixels over the pixels the model covers, 0..1 (1 when the sizes differ); null when not compared. */
  mismatch: number | null;
  /** Differing pixels (anti-aliasing excluded). */
  pixels: number | null;
  /** Pixels the model covers in either image; null when not compared. */
  coverage: number | null;
  /** Where the coverage came from: the recordings' masks, or estimated from the background colour. */
  coverageSource: 'recorded' | 'estimated' | null;
  /** The window with the most differing pixels; null when not compared. */
  worst: Worst | null;
  /** Rules the pair breaks (empty when it passes or was not compared); `size` when the sizes differ. */
  failedRules: (RuleName | 'size')[];
  /** Why the pair was not compared or failed for a reason other than pixels. */
  note: string | null;
  baseline: ManifestEntry | null;
  current: ManifestEntry | null;
  /** PNG files (absolute) for the report; null where there is none. */
  baselinePng: string | null;
  currentPng: string | null;
  diffPng: string | null;
  /** baseline | new | diff of the worst window, enlarged (compare-crop.ts); null when nothing differs. */
  cropPng: string | null;
}

/** Pairs in report order (worst first); `failed` counts the pairs that make the run exit 1. */
export interface CompareResult {
  pairs: PairResult[];
  failed: number;
  /** Each side's manifest (shards joined in plan order). */
  baseline: Manifest;
  current: Manifest;
  rules: Rules;
}
