import type { Scene } from './types.ts';
import { quoted } from './message.ts';

/**
 * Helpers shared by the validation passes (validate*.ts). The passes repair a freshly built Scene in
 * place, before anything else holds it: that is the one place the model's readonly fields are written.
 */

/** The same object with its readonly fields writable (validation's in-place repairs only). */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** Appends a user-facing warning (no file name: the page and `inspect` add it). */
export function warn(scene: Scene, text: string): void {
  (scene.warnings as string[]).push(text);
}

/** " (and 41 others)" after the first of `count` cases; '' for a single case. */
export function andOthers(count: number): string {
  const rest = count - 1;
  return rest > 0 ? ` (and ${rest} other${rest === 1 ? '' : 's'})` : '';
}

/** A number as a user reads it: up to 4 significant digits, no exponent for ordinary magnitudes. */
export function num(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return String(Number(x.toPrecision(4)));
}

/** "'a', 'b', 'c', ..." with at most `max` names. */
export function nameList(names: readonly string[], max = 5): string {
  const shown = names.slice(0, max).map((n) => `${quoted(n)}`).join(', ');
  return names.length > max ? `${shown}, ...` : shown;
}

/** "1 node" / "3 nodes". */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

/** True when every value is finite; a linear pass with no allocation. */
export function allFinite(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x - x !== 0) return false;
  }
  return true;
}

/** Index of the first non-finite value, or -1. */
export function firstNonFinite(a: ArrayLike<number>, from = 0): number {
  for (let i = from; i < a.length; i++) {
    const x = a[i]!;
    if (x - x !== 0) return i;
  }
  return -1;
}
