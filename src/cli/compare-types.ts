import type { Manifest, ManifestEntry } from '../app/record-plan.ts';

/**
 * The result types of `compare`: what `compareRecordings` produces and what the HTML report and the
 * summary table read. Types only, so `compare.ts` and `shots-report.ts` both import them from here and
 * neither imports the other's module.
 */

/**
 * - `pass` / `fail`: both rendered, compared (fail: mismatch above the threshold, or sizes differ)
 * - `skipped`: skipped in both recordings (same build limits)
 * - `missing`: in the baseline, not rendered in the new recording (absent or skipped)
 * - `added`: rendered in the new recording, absent or skipped in the baseline
 */
export type PairStatus = 'pass' | 'fail' | 'skipped' | 'missing' | 'added';

export interface PairResult {
  key: string;
  label: string;
  status: PairStatus;
  /** Share of differing pixels, 0..1 (1 when the sizes differ); null when not compared. */
  mismatch: number | null;
  pixels: number | null;
  /** Why the pair was not compared or failed for a reason other than pixels. */
  note: string | null;
  baseline: ManifestEntry | null;
  current: ManifestEntry | null;
  /** PNG files (absolute) for the report; null where there is none. */
  baselinePng: string | null;
  currentPng: string | null;
  diffPng: string | null;
}

/** Pairs in report order (worst first); `failed` counts the pairs that make the run exit 1. */
export interface CompareResult {
  pairs: PairResult[];
  failed: number;
  baseline: Manifest;
  current: Manifest;
}
