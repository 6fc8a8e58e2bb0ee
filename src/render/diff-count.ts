/** The diff view's constants and its CPU side (no GL: tested in Node). */

/** Largest channel difference (0..1) still counted as equal: 8-bit rounding of two nearly equal shadings. */
export const DIFF_THRESHOLD = 2.5 / 255;
/** Amplification of the difference in the composite (red → yellow). */
export const DIFF_GAIN = 8;
/** While the picture keeps changing, the differing-pixel count is read back at most every this many frames. */
export const DIFF_COUNT_EVERY = 20;

/**
 * When to count differing pixels (a readback stalls the GPU, so not every frame): once the frame's
 * signature (whatever changes the picture: technique, options, time, camera) has been the same for two
 * frames and was not counted yet, or every DIFF_COUNT_EVERY frames while it keeps changing. `due` copies the
 * signature; no allocation.
 */
const NEVER = 1 << 30;

export class DiffSchedule {
  private readonly previous: Float64Array;
  private readonly counted: Float64Array;
  private sinceCount = NEVER;

  constructor(readonly size: number) {
    this.previous = new Float64Array(size).fill(NaN);
    this.counted = new Float64Array(size).fill(NaN);
  }

  due(signature: Float64Array): boolean {
    let stable = true;
    let fresh = false;
    for (let i = 0; i < this.size; i++) {
      const x = signature[i]!;
      const p = this.previous[i]!;
      const c = this.counted[i]!;
      // Inline comparisons (NaN marks "never"): a call such as Object.is would box the doubles.
      if (x !== p) stable = false;
      if (x !== c) fresh = true;
    }
    for (let i = 0; i < this.size; i++) this.previous[i] = signature[i]!;
    if (this.sinceCount < NEVER) this.sinceCount++;
    if (!fresh || !(stable || this.sinceCount >= DIFF_COUNT_EVERY)) return false;
    for (let i = 0; i < this.size; i++) this.counted[i] = signature[i]!;
    this.sinceCount = 0;
    return true;
  }

  /** Forget the last count (a new model, or leaving the view). */
  reset(): void {
    this.previous.fill(NaN);
    this.counted.fill(NaN);
    this.sinceCount = NEVER;
  }
}

/** Counts pixels whose largest RGB difference exceeds `threshold` (0..255) between two RGBA8 images. No allocation. */
export function countDifferingPixels(a: Uint8Array, b: Uint8Array, pixels: number, threshold: number): number {
  let n = 0;
  for (let i = 0; i < pixels * 4; i += 4) {
    const d = Math.max(Math.abs(a[i]! - b[i]!), Math.abs(a[i + 1]! - b[i + 1]!), Math.abs(a[i + 2]! - b[i + 2]!));
    if (d > threshold) n++;
  }
  return n;
}
